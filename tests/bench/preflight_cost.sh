#!/bin/bash
# make bench: fragtop preflight on a 1 TiB --root tree (one node, one
# Normal zone of 2^28 pages, sparse kpageflags and kpagecount: every page
# reads free, so the map's whole read and every figure's walk run to
# their end).  Timed, best of three each:
#  - "now": --need 1x2M, which the free lists settle: no map read;
#  - "after compaction": --need 2000000x2M, which they do not (the whole
#    map read, 2 GiB of kpageflags and 2 GiB of kpagecount, then every size);
# and the second per TiB, against the map's budget: what a 1 TiB host's
# TUI spends on a whole pass at --map-cpu 2% (its CPU time over 0.02).
# One run; nothing asserted.  With FT_BENCH_OUT set, the figures go there
# too (scripts/bench-compare.sh).
# usage: preflight_cost.sh FRAGTOP_BINARY
set -u
FT=$(realpath "${1:-./fragtop}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
figure() { [ -n "${FT_BENCH_OUT:-}" ] && echo "$1 $2 $3" >> "$FT_BENCH_OUT"; return 0; }
T=$tmp/root
P=$((1 << 28))	# 1 TiB of 4 KiB pages
mkdir -p "$T/proc/sys/kernel" "$T/sys/kernel/mm/transparent_hugepage" "$T/sys/kernel/mm/hugepages/hugepages-2048kB" \
	"$T/sys/kernel/mm/hugepages/hugepages-1048576kB"
echo bench > "$T/proc/sys/kernel/hostname"
echo 6.18.0-bench > "$T/proc/sys/kernel/osrelease"
echo 2097152 > "$T/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
{
	for z in DMA DMA32; do
		printf 'Node 0, zone %8s\n  pages free     0\n        boost    0\n        min      0\n' $z
		printf '        low      0\n        high     0\n        spanned  0\n        present  0\n        managed  0\n'
		printf '        protection: (0, 0, 0, 0, 0)\n'
	done
	printf 'Node 0, zone   Normal\n  pages free     %d\n        boost    0\n        min      65536\n' $P
	printf '        low      81920\n        high     98304\n        spanned  %d\n        present  %d\n' $P $P
	printf '        managed  %d\n        protection: (0, 0, 0, 0, 0)\n      nr_free_pages %d\n' $P $P
	printf '  start_pfn:           %d\n' $((1 << 20))
} > "$T/proc/zoneinfo"
printf 'Node 0, zone   Normal      0      0      0      0      0      0      0      0      0      0 %d\n' $((P >> 10)) \
	> "$T/proc/buddyinfo"
printf '%x-%x : System RAM\n' $((1 << 32)) $(( ((1 << 20) + P) * 4096 - 1 )) > "$T/proc/iomem"
truncate -s $(( ((1 << 20) + P) * 8 )) "$T/proc/kpageflags" "$T/proc/kpagecount"

best() {	# ARGS...: the best wall time of three, seconds
	local i t0 t1 b=
	for i in 1 2 3; do
		t0=$(date +%s%N)
		"$FT" preflight --root "$T" "$@" > /dev/null 2>&1
		t1=$(date +%s%N)
		t=$(( (t1 - t0) / 1000000 ))
		[ -z "$b" ] || [ "$t" -lt "$b" ] && b=$t
	done
	awk -v ms="$b" 'BEGIN { printf "%.3f", ms / 1000 }'
}
now=$(best --need 1x2M)
after=$(best --need 2000000x2M)
budget=$(awk -v s="$after" 'BEGIN { printf "%.0f", s / 0.02 }')
echo "preflight on a 1 TiB tree: now (the free lists) $now s; after compaction (the whole map) $after s"
echo "  the same read as the TUI's map pass at --map-cpu 2%: $after s of CPU, a pass every $budget s"
figure preflight.now_1tib_s "$now" s
figure preflight.after_1tib_s "$after" s
