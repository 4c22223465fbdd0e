#!/bin/sh
# The lab's gigantic pages check (lab/gigantic.sh runs it as run.sh
# --workload, in a guest of a few GiB): fragtop's gigantic pages
# available now and after compaction, then the kernel's answer to a
# request for two more than that through the largest hugetlb size's
# nr_hugepages, put back to 0 after; once on the freshly booted guest,
# once while anonymous THPs fill most of its memory, once while slab holes
# pin memory (fraggen slab), once after anonymous memory has filled and
# left it, once after the caches are dropped.  Lines "lab: gigantic PHASE now N after
# M asked A gave G" for the host to check.
H=$(ls -d /sys/kernel/mm/hugepages/hugepages-*kB | sort -t- -k2 -n | tail -n 1)
echo "lab: gigantic size $(basename "$H"), nr_hugepages $(cat "$H/nr_hugepages")"
kb=$(basename "$H" | tr -dc 0-9)
if [ "${kb:-0}" -le 2048 ]; then
	echo "lab: gigantic none: no hugetlb size above 2 MiB (a CPU without pdpe1gb? run.sh --cpu max)"
	exit 0
fi
mb() { awk -v k="$1:" '$1 == k { print int($2 / 1024) }' /proc/meminfo; }
phase() {
	fragtop snapshot --map --no-trace > /tmp/snap.txt 2> /tmp/snap.err
	now=$(awk '/^node [0-9]+: .* pages available now/ { gsub(",", ""); n += $8 } END { print n + 0 }' /tmp/snap.txt)
	after=$(awk '/^node [0-9]+: .* pages available now/ { gsub(",", ""); n += $11 } END { print n + 0 }' /tmp/snap.txt)
	grep '^node [0-9]*:' /tmp/snap.txt | sed "s/^/lab: gigantic $1 fragtop /"
	grep -E '^Node|^  (amplification|[0-9]+ [KMGT]iB regions)' /tmp/snap.txt | sed "s/^ */lab: gigantic $1 zone /"
	ask=$((after + 2))
	echo $ask > "$H/nr_hugepages"
	gave=$(cat "$H/nr_hugepages")
	echo 0 > "$H/nr_hugepages"
	echo "lab: gigantic $1 now $now after $after asked $ask gave $gave back $(cat "$H/nr_hugepages")"
}
phase boot
# anonymous THPs held over most of the free memory: regions that were free
# become movable, and the kernel must migrate them away to give a page
thpalloc $(($(mb MemFree) * 3 / 4)) 120 > /tmp/thp.out 2>&1 &
thp=$!
for i in $(seq 60); do grep -q . /tmp/thp.out && break; sleep 1; done
phase held
kill $thp 2> /dev/null; wait $thp 2> /dev/null
sed 's/^/lab: thp: /' /tmp/thp.out | tail -n 2
fraggen slab /tmp/slab 20000 16 > /tmp/frag.out 2>&1
phase slab
fraggen anon $(($(mb MemFree) / 2)) 10 >> /tmp/frag.out 2>&1
phase anon
rm -rf /tmp/slab
sync; echo 3 > /proc/sys/vm/drop_caches
# dentries and inodes go back after an RCU grace period, their slab pages
# later still: a region they held frees up after the drop returns (seen
# once: fragtop counted it tainted, the kernel gave it a moment later)
sleep 10
phase dropped
sed 's/^/lab: frag: /' /tmp/frag.out | tail -n 4
