#!/bin/bash
# History through a terminal, on the repo's sample recording (boost 0, then
# 15000 set from the TUI at +32.6 s): on 160x50 the overview draws each
# zone's history with the control change marked; on 80x24 it keeps the
# blocks only; the history view (6) reads every chart at a time cursor and
# names the change at its tick.
# usage: history.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/thpfioscale-boost-0-to-15000.ftr
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
[ -f "$S" ] || { echo "FAIL sample recording $S missing"; exit 1; }
TMPD=$(mktemp -d)
SOCK=
n=0
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
start() {	# columns rows: the sample, paused at 100 s
	[ -n "$SOCK" ] && end_tmux
	n=$((n + 1)); SOCK=fragtop-history-$$-$n
	fresh_config
	T new-session -d -s ft -x "$1" -y "$2" "$FT replay $(printf '%q' "$(realpath "$S")"); sleep 30"
	wait_for 'REPLAY \[' > /dev/null
	T send-keys -t ft ' '
	wait_for PAUSED > /dev/null
	replay_seek 100
	wait_for 'at 100\.[0-9] s \(tick' > /dev/null
}

start 160 50
check "160x50 overview: a history chart under each zone" \
	test "$(screen | grep -cE '^  unusable +[^ ].* 0\.[0-9]{3}$')" -ge 3
check "160x50 overview: the control change marked on the charts" wait_for '^  boost peak +\|'
check "160x50 overview: compaction stalls/s beside the rates" wait_for '^compaction/s .* stalls/s '
rows=$(screen | grep -c .)
echo "overview rows used on 160x50: $rows of 50"
check "160x50 overview: uses the screen (30 rows or more)" test "$rows" -ge 30

T send-keys -t ft 6
check "history view: time axis from the start to now" wait_for '^time +.*\+0 s .*\+100 s$'
check "history view: every zone with its five charts" \
	test "$(screen | grep -cE '^  (free|unusable|boost peak|boosted|frag fb/s) ')" -ge 15
found=0
for i in $(seq 140); do
	T send-keys -t ft Left
	if [ $((i % 10)) = 0 ] || [ $i -gt 60 ]; then
		screen | grep -qE '^cursor \+3[23]\.[0-9] s .*change: watermark_boost_factor 0 -> 15000' &&
			{ found=1; break; }
	fi
done
check "history view: the cursor names the change at +32.6 s" test $found = 1
T send-keys -t ft End
check "End: back to now" wait_for '^newest \+100\.[0-9] s'
T send-keys -t ft Home
check "Home: the oldest tick kept" wait_for '^cursor \+[01]\.[0-9] s'
T send-keys -t ft q

start 80 24
check "80x24 overview: zone blocks, no charts" wait_for '^N0 Normal '
check "80x24 overview: no history rows" test -z "$(screen | grep -E '^  (unusable|boost peak) ')"
T send-keys -t ft q
echo "history.sh: $fails failure(s)"
[ $fails -eq 0 ]
