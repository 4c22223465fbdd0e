#!/bin/bash
# The seeds' table on the lab's kernels ("Fragmentation avoidance
# improvements v2": extfrag events < order 9, huge page success, stalls
# and their total time, latencies, per stage).  For each kernel version
# (6.1 and 6.12 by default) three groups of RUNS runs (default 5) of
# lab/run.sh, alternating run by run so that drift of the host spreads
# over all three:
#   boost-off  the stock kernel, watermark_boost_factor=0: the seeds'
#              stage before boosting ("lowzone")
#   boost      the stock kernel at the default factor (15000): "boost"
#   stall      the patched kernel at its default fragment_stall_order (3):
#              "stall"
# Each run's recording is OUT/VER-GROUP-N.ftr.  A stall run's traced
# fragmentation stalls must equal the kernel's own count
# (/proc/vmstat fragment_stall, which the recording's last tick has):
# OUT/stalls.txt lists every run's pair and the script fails at the end
# on a mismatch.  Then `fragtop compare` per kernel into
# OUT/compare-VER.txt and .json (each group against boost-off),
# OUT/stages-VER.txt (stall against boost: the seed's last step), and
# OUT/time.txt says how long it took.
# The kernels are built first (cached in build/lab; ~10 min each here).
# Each kernel gets the workload that makes its allocator take the
# "serious" fallbacks the stall is about (docs/lab-table.md): 6.1
# lab/workload.sh (slab holes), 6.12 lab/workload-steal.sh (page-table
# holes: 6.12 claims whole blocks first and steals single pages only when
# none is free); --workload gives every kernel the same one.
# --tables-only makes the tables again from the recordings in OUTDIR (its
# stalls.txt too), building and running nothing: after moving a table.
# usage: table.sh [--runs N] [--seconds S] [--kernels "6.1 6.12"]
#                 [--workload FILE] [--tables-only] [OUTDIR]
#        (default 5 runs of 30 s, OUTDIR tests/recordings/lab-table)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
FT=$(realpath "$HERE/../fragtop")
runs=5 secs=30 kernels="6.1 6.12" workload= tables_only=
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	--kernels) kernels=$2; shift 2 ;;
	--workload) workload=$(realpath "$2"); shift 2 ;;
	--tables-only) tables_only=1; shift ;;
	-*) echo "usage: table.sh [--runs N] [--seconds S] [--kernels \"6.1 6.12\"] [--workload FILE] [--tables-only] [OUTDIR]" >&2; exit 2 ;;
	*) break ;;
	esac
done
# from the top of the repository, so the tables name the recordings by relative paths
cd "$HERE/.."
out=${1:-tests/recordings/lab-table}
mkdir -p "$out"
t0=$(date +%s)
for v in $kernels; do
	[ -z "$tables_only" ] || break
	"$HERE/build-kernel.sh" --stock "$v" > /dev/null
	"$HERE/build-kernel.sh" "$v" > /dev/null
done
[ -n "$tables_only" ] || echo "table: kernels built in $(( ($(date +%s) - t0) / 60 )) min" >&2
# the fragmentation stalls a recording's report counts: "TRACED VMSTAT"
stalls() {
	"$FT" report --json "$1" | jq -r '"\(.totals.fragmentation_stalls // 0) \(.totals.vmstat_fragment_stall // "none")"'
}
# fragtop's fallbacks against the kernel's own count (run.sh's OUT.extfrag):
# "VER GROUP N  fragtop T F O  inner T F O  outer T F O  lost L  perf P";
# fragtop's lie between the inner and the outer reference, and perf's count
# over the workload (inside both) is at most fragtop's total
extfrag_row() {
	local r
	r=$("$FT" report --json "$4" | jq -r '.totals | "\(.extfrag) \(.extfrag_fragmenting) \(.extfrag_change_ownership)"')
	echo "$1 $2 $3  fragtop $r  $(awk '$1 == "inner" { printf "inner %s %s %s  ", $3, $5, $7 }
		$1 == "outer" { o = sprintf("outer %s %s %s  lost %s", $3, $5, $7, $9) }
		$1 == "perf" { p = $3 } END { printf "%s  perf %s", o, p == "" ? "-" : p }' "$4.extfrag" 2> /dev/null)"
}
# the workload of kernel VER (a path from the top of the repository)
workload_of() {
	if [ -n "$workload" ]; then echo "$workload"
	elif [ "$1" = 6.1 ]; then echo lab/workload.sh
	else echo lab/workload-steal.sh; fi
}
# one run: VER GROUP N, retried once when no usable recording came back
one() {
	local v=$1 g=$2 n=$3 f=$out/$1-$2-$3.ftr args w
	w=$(workload_of "$v")
	case $g in
	boost-off) args=(--kernel "$("$HERE/build-kernel.sh" --stock "$v")" --boost-factor 0) ;;
	boost) args=(--kernel "$("$HERE/build-kernel.sh" --stock "$v")") ;;
	stall) args=(--kernel "$("$HERE/build-kernel.sh" "$v")") ;;
	esac
	"$HERE/run.sh" --seconds "$secs" --workload "$w" --map-interval 10 "${args[@]}" -o "$f.tmp" ||
		"$HERE/run.sh" --seconds "$secs" --workload "$w" --map-interval 10 "${args[@]}" -o "$f.tmp"
	mv "$f.tmp" "$f"
	[ ! -f "$f.tmp.extfrag" ] || mv "$f.tmp.extfrag" "$f.extfrag"
	extfrag_row "$v" "$g" "$n" "$f" >> "$out/extfrag.txt"
	if [ "$g" = stall ]; then
		echo "$v $g $n $(stalls "$f")" >> "$out/stalls.txt"
	fi
	echo "table: $(basename "$f") $(stat -c %s "$f") bytes, $(( ($(date +%s) - t0) / 60 )) min in" >&2
}
: > "$out/stalls.txt"
[ -n "$tables_only" ] || : > "$out/extfrag.txt"
for v in $kernels; do
	for n in $(seq "$runs"); do
		for g in boost-off boost stall; do
			if [ -z "$tables_only" ]; then
				one "$v" "$g" "$n"
			elif [ "$g" = stall ] && [ -f "$out/$v-$g-$n.ftr" ]; then
				echo "$v $g $n $(stalls "$out/$v-$g-$n.ftr")" >> "$out/stalls.txt"
			fi
		done
	done
	groups=()
	for g in boost-off boost stall; do
		files=$(ls "$out/$v-$g-"[0-9]*.ftr | sort -V | paste -sd,)
		groups+=("$g=$files")
	done
	"$FT" compare "${groups[@]}" > "$out/compare-$v.txt"
	"$FT" compare --json "${groups[@]}" > "$out/compare-$v.json"
	# the seed's own step: each stage against the one before it (boost, then the stall)
	"$FT" compare "${groups[1]}" "${groups[2]}" > "$out/stages-$v.txt"
	cat "$out/compare-$v.txt" "$out/stages-$v.txt"
done
if [ -n "$tables_only" ]; then	# the time the runs took is in time.txt already
	bad=$(awk '$4 != $5' "$out/stalls.txt")
	[ -z "$bad" ] || { echo "table: stalls traced and counted by the kernel differ:" >&2; echo "$bad" >&2; exit 1; }
	exit 0
fi
mins=$(( ($(date +%s) - t0) / 60 ))
wl=$(for v in $kernels; do printf '%s %s, ' "$v" "$(workload_of "$v")"; done)
echo "$mins min for $runs runs x 3 groups x kernels $kernels, ${secs}s of workload each (${wl%, }), on $(nproc) cores ($(uname -r))" > "$out/time.txt"
cat "$out/time.txt"
# every stall run: traced stalls equal the kernel's count
bad=$(awk '$4 != $5' "$out/stalls.txt")
[ -z "$bad" ] || { echo "table: stalls traced and counted by the kernel differ:" >&2; echo "$bad" >&2; exit 1; }
