#!/bin/bash
# defrag_mode measured like Johannes Weiner's 2025 cover letter ("mm:
# reliable huge page allocator"): RUNS recordings (default 5) of the adverse
# workload (tests/load/thpfioscale-mini.sh, boost factor 15000) with
# vm.defrag_mode=0 and as many with 1, taken alternately, each made by
# `fragtop record` (2 s ticks, tracepoints) around one run of the workload,
# defrag_mode set with `fragtop set` and put back at the end, even on
# failure.  Root; about 90 s a run.
# usage: defrag-mode.sh FRAGTOP_BINARY OUTDIR [RUNS]
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:?usage: defrag-mode.sh FRAGTOP OUTDIR [RUNS]}")
OUT=$(realpath -m "${2:?usage: defrag-mode.sh FRAGTOP OUTDIR [RUNS]}")
RUNS=${3:-5}
top=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "defrag-mode.sh: needs root" >&2; exit 1; }
[ -f /proc/sys/vm/defrag_mode ] || { echo "defrag-mode.sh: no vm.defrag_mode (6.15+)" >&2; exit 1; }
orig=$("$FT" get defrag_mode)
rpid=
cleanup() {
	[ -n "$rpid" ] && kill -INT "$rpid" 2> /dev/null && wait "$rpid" 2> /dev/null
	"$FT" set defrag_mode="$orig" > /dev/null
}
trap cleanup EXIT
workload
mkdir -p "$OUT"
for i in $(seq "$RUNS"); do
	for mode in 0 1; do
		f=$OUT/defrag-mode-$mode-run$i.ftr
		rm -f "$f"
		"$FT" set defrag_mode=$mode > /dev/null || exit 1
		"$FT" record -o "$f" -i 2 2> "$OUT/record.log" & rpid=$!
		until_ok 30 test -s "$f" || { echo "defrag-mode.sh: the recording did not start" >&2; exit 1; }
		bash "$WORKLOAD" 15000 3072 "$OUT/load-$mode-$i" > "$OUT/load-$mode-$i.log" 2>&1
		kill -INT "$rpid"; wait "$rpid"; rpid=
		rm -rf "$OUT/load-$mode-$i"
		echo "defrag_mode=$mode run $i: $(stat -c %s "$f") bytes"
	done
done
