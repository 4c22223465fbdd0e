#!/bin/sh
# Will it fit, checked against the kernel in the lab guest (lab/fit.sh
# runs it as run.sh --workload, in a guest of a few GiB with 1 GiB pages):
# STATES fragmented states (default 10), each made by a seed of its own
# from the adverse workload's parts (lab/workload.sh): clean page cache on
# the scratch disk, slab holes (fraggen slab, a different count and share
# kept), anonymous memory in base pages held, THPs held.  For each size, one
# after another: the reclaimable memory dropped (a hugetlb allocation
# reclaims as well as compacts, and "after compaction" counts no reclaim),
# then what every method sees (fragtop preflight --json with the map read
# whole, MemAvailable, /proc/buddyinfo), then the kernel's answer:
#   - 2M and 1G: nr_hugepages set to two more than fragtop's upper "after
#     compaction", what the kernel gave read back, 0 put back;
#   - 4M (no hugetlb size: the buddy's largest order): every node
#     compacted (compact_memory), and preflight's "now" read again: the
#     free lists above the watermark after compaction.
# Lines "lab: fit STATE SIZE ..." (the JSON on one line).  The state's
# memory is released after it.
. /lab/rounds.sh
STATES=${STATES:-10}
H2=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
H1G=/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages
# the upper "after compaction" of SIZE for the host, from preflight's pretty JSON in FILE
after_max() {
	awk -v s="\"$1\"" '$1 == "\"size\":" && $2 ~ s { on = 1 }
		on && $1 == "\"after_compaction_max\":" { gsub(",", "", $2); print $2; exit }' "$2"
}
# STATE SIZE: what every method sees now, on one line each: reclaimable
# memory dropped first (page cache and slab: a hugetlb allocation reclaims
# as well as compacts, and "after compaction" counts no reclaim)
look() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	fragtop preflight --json --size $2 > /tmp/p.json 2> /tmp/p.err
	echo "lab: fit $1 $2 json $(tr -d '\n' < /tmp/p.json)"
	echo "lab: fit $1 $2 meminfo $(awk '$1 == "MemAvailable:" || $1 == "MemFree:" { printf "%s %s ", $1, $2 }' /proc/meminfo)"
	echo "lab: fit $1 $2 buddyinfo $(tr -s ' ' < /proc/buddyinfo | tr '\n' '|')"
}
# STATE SIZE FILE: the kernel's answer through hugetlb: two more than fragtop's upper figure asked
ask() {
	[ -w "$3" ] || return
	look $1 $2
	max=$(after_max "$2" /tmp/p.json)
	case $max in ''|null) max=0 ;; esac
	n=$((max + 2))
	echo $n > "$3"
	gave=$(cat "$3")
	echo 0 > "$3"
	echo "lab: fit $1 $2 gave $gave asked $n back $(cat "$3")"
}
# STATE SIZE: the kernel's answer for a size no hugetlb size has: every node
# compacted, then its free lists above the watermark (preflight's now)
compact() {
	look $1 $2
	echo 1 > /proc/sys/vm/compact_memory
	fragtop preflight --json --no-map --size $2 > /tmp/c.json 2> /dev/null
	echo "lab: fit $1 $2 gave $(awk -v s="\"$2\"" '$1 == "\"size\":" && $2 ~ s { on = 1 }
		on && $1 == "\"now\":" { gsub(",", "", $2); print $2; exit }' /tmp/c.json) compacted"
}
held=
state() {	# N
	seed=$1
	# the seed's mix: more or fewer slab files and holes, page cache, anonymous memory, THPs
	files=$((8000 + (seed * 7919) % 40000))
	keep=$((2 + (seed * 13) % 15))
	cache=$((32 + (seed * 37) % 224))
	dd if=/dev/zero of=/data/cache$seed bs=1M count=$cache 2> /dev/null
	cat /data/cache$seed > /dev/null
	fraggen slab /tmp/slab$seed $files $keep | sed "s/^/lab: fit $seed make /"
	free=$(mb MemFree)
	anon=$((free * (20 + (seed * 17) % 50) / 100))
	rm -f /tmp/anon.out /tmp/thp.out
	fraggen anon $anon 100000 > /tmp/anon.out &
	held="$held $!"
	until [ -s /tmp/anon.out ]; do sleep 0.2; done
	sed "s/^/lab: fit $seed make /" /tmp/anon.out
	thp=$((free * (seed % 4) / 20))
	if [ $thp -gt 0 ]; then
		thpalloc $thp 100000 > /tmp/thp.out 2>&1 &
		held="$held $!"
		until [ -s /tmp/thp.out ]; do sleep 0.2; done
		sed "s/^/lab: fit $seed make thp /" /tmp/thp.out | head -n 1
	fi
	ask $seed 2M $H2
	ask $seed 1G $H1G
	compact $seed 4M
	kill $held 2> /dev/null
	wait $held 2> /dev/null
	held=
	rm -rf /tmp/slab$seed /data/cache$seed
	sync
	echo 3 > /proc/sys/vm/drop_caches
}
echo "lab: fit states $STATES, sizes $(ls /sys/kernel/mm/hugepages | tr '\n' ' ')"
i=1
while [ $i -le $STATES ]; do
	state $i
	i=$((i + 1))
done
echo "lab: fit done"
