#!/bin/bash
# Gigantic pages on a freshly booted kernel: Debian's 6.12 (stock, built
# with CMA, which runtime 1 GiB hugetlb pages need: CONTIG_ALLOC) boots
# under qemu with MEM MiB over two nodes and runs lab/workload-gigantic.sh:
# in five phases (booted, THPs held, slab holes held, after anonymous
# memory, caches dropped) fragtop's gigantic pages available now and after compaction,
# and what the kernel gave when asked for two more than that.  Each phase
# must have now <= given <= after, and every page given back.  The guest's
# CPU is qemu's "max" (pdpe1gb: 1 GiB pages; qemu64 has only 2 MiB).  This VM's
# own host has every region tainted (all three figures 0); the guest is
# where the check has regions to find.
# usage: lab/gigantic.sh [--memory MB] [-o OUT.ftr]   (default 6144, build/lab/gigantic-6.12.ftr)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$HERE/..
CACHE=${LAB_CACHE:-$TOP/build/lab}
out=$CACHE/gigantic-6.12.ftr mem=6144
while [ $# -gt 0 ]; do
	case $1 in
	--memory) mem=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	*) echo "usage: lab/gigantic.sh [--memory MB] [-o OUT.ftr]" >&2; exit 2 ;;
	esac
done
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
kernel=$("$HERE/build-kernel.sh" --stock 6.12) || { echo "FAIL no 6.12 lab kernel"; exit 1; }
"$HERE/run.sh" --kernel "$kernel" --memory "$mem" --cpu max --workload "$HERE/workload-gigantic.sh" --seconds 30 \
	-o "$out" 2> "$out.log"
rc=$?
grep '^lab:' "$out.log" | sed 's/^/  /'
[ $rc = 0 ] || { echo "FAIL the lab run (exit $rc): $out.log"; exit 1; }
phases=0
while read -r phase now after asked gave back; do
	phases=$((phases + 1))
	if [ "$now" -le "$gave" ] && [ "$gave" -le "$after" ]; then
		ok "$phase: the kernel gave $gave of $asked: between fragtop's now ($now) and after compaction ($after)"
	else
		bad "$phase: the kernel gave $gave of $asked; fragtop said now $now, after compaction $after"
	fi
	[ "$back" = 0 ] && ok "$phase: every page given back" || bad "$phase: $back pages left"
done < <(sed -nE 's/^lab: gigantic ([a-z]+) now ([0-9]+) after ([0-9]+) asked ([0-9]+) gave ([0-9]+) back ([0-9]+)$/\1 \2 \3 \4 \5 \6/p' \
	"$out.log")
[ $phases = 5 ] && ok "five phases measured" || bad "$phases phases measured, not 5"
echo "lab/gigantic.sh: $fails failure(s)"
[ $fails = 0 ]
