#!/bin/bash
# Makes the sample recording the README replays: the live TUI recording
# (-w, 1 s) with the map view open (its kpageflags scans are recorded)
# while the adverse workload runs at watermark_boost_factor 0, with
# tests/load/thpthreads (4 threads) beside its THP phase, and one knob
# change made by fragtop itself (B, answered y) while THPs fault.  Changes
# the host as the workload does and restores the boost factor, even on
# failure.  Root; about two minutes.
# usage: sample.sh FRAGTOP_BINARY OUT.ftr
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:?usage: sample.sh FRAGTOP OUT.ftr}")
OUT=$(realpath -m "${2:?usage: sample.sh FRAGTOP OUT.ftr}")
top=$(cd "$(dirname "$0")/../.." && pwd)
BOOST=/proc/sys/vm/watermark_boost_factor
[ "$(id -u)" = 0 ] || { echo "sample.sh: needs root" >&2; exit 1; }
tmp=$(mktemp -d)
orig=$(cat "$BOOST")
wpid= tpid=
T() { tmux -S "$tmp/tmux" "$@"; }
cleanup() {
	[ -n "$tpid" ] && kill "$tpid" 2>/dev/null
	[ -n "$wpid" ] && kill "$wpid" 2>/dev/null && wait "$wpid" 2>/dev/null
	end_tmux
	echo "$orig" > "$BOOST"
	rm -rf "$tmp"
}
trap cleanup EXIT
cc -O2 -pthread -o "$tmp/thpthreads" "$top/tests/load/thpthreads.c" || exit 1
rm -f "$OUT"
T new-session -d -s ft -x 160 -y 50 "$FT -i 1 -w $(printf '%q' "$OUT"); sleep 5"
wait_for '^fragtop ' > /dev/null || exit 1
T send-keys -t ft 5
WAIT_TENTHS=100 wait_for 'map' > /dev/null
bash "$top/tests/load/thpfioscale-mini.sh" 0 3072 "$tmp/load" > "$tmp/load.log" 2>&1 & wpid=$!
# the THP phase: thpalloc runs; the threads beside it, fragtop's change in it
until_ok 600 pgrep -x thpalloc > /dev/null || { echo "sample.sh: the workload never reached its THP phase" >&2; exit 1; }
"$tmp/thpthreads" 20 4 > "$tmp/threads.log" 2>&1 & tpid=$!
sleep 8	# into the THP phase: the change lands while THPs fault (a pace, not a wait for a condition)
T send-keys -t ft 1 B
WAIT_TENTHS=100 wait_for 'change vm knobs on' > /dev/null && T send-keys -t ft y
until_ok 30 bash -c "[ \"\$(cat $BOOST)\" != 0 ]" || echo "sample.sh: B changed nothing" >&2
wait "$tpid"; tpid=
wait "$wpid"; wpid=
T send-keys -t ft 5
sleep 3	# a last map scan at rest
T send-keys -t ft q
until_ok 30 bash -c "! pgrep -f -- '-w $OUT' > /dev/null"
until_ok 30 test -s "$OUT"
cat "$tmp/load/result" 2>/dev/null
cat "$tmp/threads.log"
"$FT" report "$OUT" | head -n 40
