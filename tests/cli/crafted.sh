#!/bin/bash
# Small files, large costs: each crafted recording of tests/recordings/crafted
# (about 1 MB each, written by `make crafted`, tests/crafted.c: 90k+
# ticks, a flood of control changes, one format repeated, one trace
# sub-buffer repeated, a 2^39-page zone with map batches that decompress to
# gigabytes, map samples of a 1 TiB zone) is reported, exported as CSV and
# replayed to its end within 256 MB of address space (under ASan, 256 MB
# resident).  Its CPU is printed, not asserted: speed is `make bench`'s
# (tests/bench); a CPU limit of 300 s is a hang guard only, far past any
# host's time, so a slow or busy machine (ASan, a loaded CI) cannot fail
# it.  (OpenMetrics export is not bounded so: it writes every series at
# every tick, and 90k ticks are that many times the text.)
# usage: crafted.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
WAIT_TENTHS=${WAIT_TENTHS:-300}
FT=$(realpath "${1:-./fragtop}")
DIR=$(cd "$(dirname "$0")/.." && pwd)/recordings/crafted
command -v prlimit > /dev/null || { echo "FAIL prlimit (util-linux) not installed"; exit 1; }
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
TMPD=$(mktemp -d)
SOCK=
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
# ASan reserves terabytes of address space, so there the bound is ASan's own:
# the process dies past 256 MB resident, and an allocation over 256 MB fails
# (as it would under the plain build's address-space limit) instead of aborting
case "$FT" in
*-san)
	LIMIT=(prlimit --cpu=300)
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=256:max_allocation_size_mb=256"
	# freed memory ASan holds back (256 MB by default) is its own, not fragtop's
	export ASAN_OPTIONS="$ASAN_OPTIONS:allocator_may_return_null=1:quarantine_size_mb=32" ;;
*)
	LIMIT=(prlimit --as=268435456 --cpu=300) ;;
esac
# CPU times from bash's own time (a bare Debian has no /usr/bin/time)
TIMEFORMAT='%U %S'
bounded() {	# NAME CMD...: runs CMD under the limits; its CPU time in $TMPD/NAME.time
	local name=$1; shift
	{ time "${LIMIT[@]}" "$@" > "$TMPD/$name.out" 2> "$TMPD/$name.err"; } 2> "$TMPD/$name.time"
}
cost() { awk '/^[0-9.]+ [0-9.]+$/ { printf "%.2f s CPU", $1 + $2 }' "$TMPD/$1.time"; }
n=0
for f in "$DIR"/*.ftr; do
	k=$(basename "$f" .ftr)
	size=$(stat -c %s "$f")
	check "$k: crafted file about 1 MB ($size bytes)" test "$size" -le 1200000
	bounded "$k-report" "$FT" report --json "$f"
	check "$k: report within 256 MB ($(cost "$k-report"))" jqe '.samples >= 1' "$TMPD/$k-report.out"
	if [ "$k" = map ]; then
		check "map: the 2^39-page zone's map refused before it is allocated, and said" \
			jqe '.recording.map_refused_blocks > 33554432' "$TMPD/$k-report.out"
		"$FT" report "$f" > "$TMPD/map.txt" 2>&1
		check "map: ... in the text too" grep -q '^  no pageblock map: the zones span [0-9]* pageblocks' "$TMPD/map.txt"
	fi
	bounded "$k-export" "$FT" export --csv "$f"
	check "$k: export --csv within the bounds ($(cost "$k-export"))" test -s "$TMPD/$k-export.out"
	# replay to its end in a terminal, then quit: the exit status says whether a limit killed it
	n=$((n + 1)); SOCK=fragtop-crafted-$$-$n
	fresh_config
	T new-session -d -s ft -x 120 -y 40 "bash -c 'TIMEFORMAT=\"%U %S\"; { time ${LIMIT[*]} $(printf '%q' "$FT") \
		replay --no-config $(printf '%q' "$f") 2> /dev/null; } 2> $TMPD/$k-replay.time; echo rc=\$? > $TMPD/$k-replay.rc'; sleep 30"
	wait_for 'REPLAY' > /dev/null
	replay_seek '100%' > /dev/null
	wait_for 'REPLAY \[#+\] ([0-9]+)/\1s' > /dev/null
	T send-keys -t ft q
	until_ok 60 test -s "$TMPD/$k-replay.rc"
	check "$k: replay to the end within the bounds ($(cost "$k-replay" 2> /dev/null))" \
		test "$(cat "$TMPD/$k-replay.rc" 2> /dev/null)" = rc=0
	end_tmux; SOCK=
done
echo "crafted.sh: $fails failure(s)"
[ $fails -eq 0 ]
