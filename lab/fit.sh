#!/bin/bash
# Will it fit, scored against the kernel: Debian's stock 6.1 and 6.12 (the
# lab's build, CMA for runtime 1 GiB pages) boot under qemu with MEM MiB
# over two nodes and `-cpu max` (pdpe1gb), and lab/workload-fit.sh makes
# STATES fragmented states, each with a seed of its own, and in each asks
# the kernel for 2M and 1G hugetlb pages (two more than fragtop's upper
# "after compaction") and compacts for 4M.  lab/fit-score.sh turns the
# guest's lines into one row per state and size (OUT/fit-VER.tsv): fragtop's
# interval and the two baselines beside what the kernel gave; the table in
# docs/lab-fit.md is lab/fit-table.sh's of them (tests/cli/labfit.sh checks
# it against the kept rows).
# usage: lab/fit.sh [--memory MB] [--states N] [-o DIR]   (default 6144, 10, tests/recordings/lab-fit)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$HERE/..
CACHE=${LAB_CACHE:-$TOP/build/lab}
mem=6144 states=10 out=$TOP/tests/recordings/lab-fit
while [ $# -gt 0 ]; do
	case $1 in
	--memory) mem=$2; shift 2 ;;
	--states) states=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	*) echo "usage: lab/fit.sh [--memory MB] [--states N] [-o DIR]" >&2; exit 2 ;;
	esac
done
mkdir -p "$out" "$CACHE"
rc=0
for v in 6.1 6.12; do
	kernel=$("$HERE/build-kernel.sh" --stock $v) || { echo "lab/fit.sh: no $v lab kernel" >&2; exit 1; }
	log=$CACHE/fit-$v.log
	# the state count reaches the guest's workload through the script itself
	wl=$(mktemp)
	sed "s/^STATES=\${STATES:-10}\$/STATES=$states/" "$HERE/workload-fit.sh" > "$wl"
	"$HERE/run.sh" --kernel "$kernel" --memory "$mem" --cpu max --workload "$wl" --seconds 1800 \
		-o "$CACHE/fit-$v.ftr" 2> "$log"
	r=$?
	rm -f "$wl"
	grep -q '^lab: fit done' "$log" || { echo "lab/fit.sh: $v: the guest did not finish (exit $r): $log" >&2; rc=1; continue; }
	"$HERE/fit-score.sh" "$v" < "$log" > "$out/fit-$v.tsv" || rc=1
	echo "lab/fit.sh: $v: $(($(wc -l < "$out/fit-$v.tsv") - 1)) rows in $out/fit-$v.tsv" >&2
done
"$HERE/fit-table.sh" "$out"/fit-*.tsv
exit $rc
