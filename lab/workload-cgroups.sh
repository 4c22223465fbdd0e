#!/bin/sh
# The lab's containers workload (run.sh --cgroups --workload THIS): two
# cgroup v2 children with the memory controller, fragmentation in one
# (slab holes, then anonymous memory in base pages that must fall back
# into them) and THPs in the other, held.  While the THPs are held it
# prints each cgroup's memory.stat (anon, anon_thp), fragtop's own
# snapshot --json in one line, and memory.stat again, for lab/cgroups.sh
# to compare on the host.  SECS bounds the fragmenting part.
C=/sys/fs/cgroup
mb() { awk -v k="$1:" '$1 == k { print int($2 / 1024) }' /proc/meminfo; }
mkdir -p $C/frag $C/thp
sh -c "echo \$\$ > $C/thp/cgroup.procs && exec thpalloc 128 $((SECS + 20))" > /tmp/thp.out 2>&1 &
thp=$!
sh -c "echo \$\$ > $C/frag/cgroup.procs && fraggen slab /tmp/slab 30000 16 &&
	exec fraggen anon $(($(mb MemFree) / 3)) $SECS" > /tmp/frag.out 2>&1 &
frag=$!
sleep 10
stat_of() { awk '$1 == "anon" || $1 == "anon_thp" { printf "%s=%s ", $1, $2 }' "$C/$1/memory.stat"; }
for cg in frag thp; do echo "lab: memstat before $cg $(stat_of $cg)"; done
echo "lab: snapshot $(fragtop snapshot --json 2> /dev/null | tr -d '\n')"
for cg in frag thp; do echo "lab: memstat after $cg $(stat_of $cg)"; done
wait $frag
sed 's/^/lab: frag: /' /tmp/frag.out
kill $thp 2> /dev/null; wait $thp
sed 's/^/lab: thp: /' /tmp/thp.out
rm -rf /tmp/slab
