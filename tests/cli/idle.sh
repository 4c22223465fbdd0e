#!/bin/bash
# The idle TUI's loop on the live host (tracing on, the kernel log held):
# one wait a tick over the terminal and the trace pipes, its timeout the
# next tick; the pipes and the kernel log are read only when poll() says
# they hold something.  Counted with strace on the main thread over a
# window of ten quiet ticks (no trace page came: a fallback anywhere on
# the host wakes the loop, rightly, and its drain reads to EAGAIN): waits
# that ended by their timeout, at most one a tick, and reads that failed
# with EAGAIN, none but one a tick's slack.  Up to six windows are
# watched for a quiet one; a host that never falls quiet is skipped,
# said.
# serial: other tests' fallbacks wake the loop; it counts wake-ups
# usage: idle.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
[ "$(id -u)" = 0 ] || skip_all "the live host's tracing needs root"
command -v strace > /dev/null || skip_all "strace not installed"
command -v tmux > /dev/null || skip_all "tmux not installed"
TMPD=$(mktemp -d)
SOCK=
spid=
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap '[ -n "$spid" ] && kill "$spid" 2> /dev/null; [ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
export XDG_CONFIG_HOME=$TMPD/config
log=$TMPD/idle.jsonl
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }
logged() { [ "$(lines "$1")" -ge "$2" ]; }
# the most trace bytes any tick of lines FROM..TO of the log read (the per-CPU stats are 133 bytes each)
trace_bytes() {
	sed -n "$1,$2p" "$log" | jq -s '[.[] | .cost.by_source[]? | select(.source == "trace") |
		.last_tick.bytes_read] | max // 0'
}
tmux_start idle 160 50 env TERM=screen "$FT" --no-config --read-only -i 0.5 -n 200 --cost-log "$log"
until_ok 30 logged "$log" 3
pid=$(pgrep -f -- "^$FT --no-config .*--cost-log $log" | head -1)	# not tmux's own line
[ -n "$pid" ] || { bad "no fragtop under the pane"; exit 1; }
quiet=
for try in 1 2 3 4 5 6; do
	st=$TMPD/idle-$try.strace
	strace -qq -p "$pid" -e trace=poll,ppoll,read -o "$st" & spid=$!
	until_ok 10 test -s "$st"
	n0=$(lines "$log")
	until_ok 30 logged "$log" $((n0 + 10))
	n1=$(lines "$log")
	kill "$spid"; wait "$spid" 2> /dev/null; spid=
	tb=$(trace_bytes $((n0 + 1)) "$n1")
	if [ "$tb" -lt 1024 ]; then
		quiet=$st; ticks=$((n1 - n0)); break
	fi
	echo "     window $try: a trace page came (a tick read $tb bytes of the trace): watched again"
done
[ -n "$quiet" ] || skip_all "the host made fallbacks in each of six windows: no quiet one to count"
timer=$(grep -cE '^poll\(.*\], [0-9]+, [1-9][0-9]*\) += 0 \(Timeout\)' "$quiet")
failed=$(grep -cE '^read\(.*= -1 EAGAIN' "$quiet")
echo "     idle live TUI: $timer timed wake-ups and $failed failed reads over $ticks ticks" \
	"($(grep -cE '^poll\(' "$quiet") polls in all)"
check "idle: at most one timed wake-up a tick ($timer over $ticks ticks)" test "$timer" -le $((ticks + 1))
check "idle: no read of a descriptor with nothing in it ($failed over $ticks ticks)" test "$failed" -le 1
[ $fails = 0 ]
