#!/bin/bash
# The lab's recordings, kept in tests/recordings/ for CI to replay (CI does
# not build kernels).  Three runs of lab/run.sh with the same workload:
#   lab-6.1-stall.ftr      the patched kernel, fragment_stall_order at its
#                          default (PAGE_ALLOC_COSTLY_ORDER, 3)
#   lab-6.1-stall-off.ftr  the patched kernel; `fragtop set` turns the stall
#                          off (fragment_stall_order=0) as the workload starts,
#                          a control change the recording keeps
#   lab-6.1-stock.ftr      Debian's 6.1 without the patch
# then compares them.  Both kernels are built first (cached in build/lab).
# The stall-on recording is kept only with 10 or more stalls whose count
# equals the kernel's own (/proc/vmstat fragment_stall); one retry.
# usage: fixtures.sh [--seconds S] [OUTDIR]   (default 60 s, tests/recordings)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
secs=60
[ "${1:-}" = --seconds ] && { secs=$2; shift 2; }
out=${1:-$HERE/../tests/recordings}
mkdir -p "$out"
patched=$("$HERE/build-kernel.sh")
stock=$("$HERE/build-kernel.sh" --stock)
FT=$HERE/../fragtop
# the fragmentation stalls a recording's report counts: "TRACED VMSTAT"
stalls() {
	"$FT" report "$1" | awk '$1 == "fragmentation_stall" && $2 ~ /^[0-9]+$/ { n = $2 }
		/^  fragmentation stalls in \/proc\/vmstat \(fragment_stall\): / { v = $NF }
		END { print n + 0, (v == "" ? "none" : v) }'
}
# one run into NAME.tmp; kept (renamed to NAME) only if CHECK accepts it
run() {
	local name=$1 check=$2 t0; shift 2
	t0=$(date +%s)
	"$HERE/run.sh" --seconds "$secs" "$@" -o "$out/$name.tmp"
	if ! $check "$out/$name.tmp"; then
		echo "fixtures: $name not kept (the previous one stays): see above" >&2
		rm -f "$out/$name.tmp"
		return 1
	fi
	mv "$out/$name.tmp" "$out/$name"
	echo "fixtures: $name in $(($(date +%s) - t0)) s, $(stat -c %s "$out/$name") bytes" >&2
}
# the stall-on recording must show the stall: 10 or more, the kernel's count the same
stalled() {
	local n v; read -r n v < <(stalls "$1")
	echo "fixtures: $(basename "$1" .tmp): $n stalls traced, $v in /proc/vmstat" >&2
	[ "${n:-0}" -ge 10 ] && [ "$n" = "$v" ]
}
any() { "$FT" report "$1" > /dev/null; }
# the kernel's cut varies run to run: a second try when the first stalled too little
run lab-6.1-stall.ftr stalled --kernel "$patched" || run lab-6.1-stall.ftr stalled --kernel "$patched"
run lab-6.1-stall-off.ftr any --kernel "$patched" --stall-off-at 0
run lab-6.1-stock.ftr any --kernel "$stock"
"$FT" compare stall="$out/lab-6.1-stall.ftr" off="$out/lab-6.1-stall-off.ftr" \
	stock="$out/lab-6.1-stock.ftr"
