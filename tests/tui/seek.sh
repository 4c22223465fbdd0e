#!/bin/bash
# Replay's seek lands where report's window would start: the shipped
# sample's ticks are read at 19.998 s for the 20 s cadence, and `T 20`
# takes that tick, not the next one; a time of day (HH:MM[:SS]) is taken
# as report's --from takes it; nonsense is refused, said, and the
# position kept.  `n` runs to the next change report lists, the
# recording's own and those seen made outside it.  The THP view of a
# recording without THP input says that, not that the kernel has none.
# usage: seek.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=$(realpath tests/recordings/adverse-6.18.ftr)
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
TMPD=$(mktemp -d)
SOCK=fragtop-seek-$$
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap 'end_tmux; rm -rf "$TMPD"' EXIT

# the sample started at 08:58:02.62 UTC: 08:58:20 is 17.4 s in, nearest the tick at 17.0 s
T new-session -d -s ft -x 120 -y 40 "TZ=UTC $FT replay $(printf '%q' "$S"); sleep 30"
check "replay starts" wait_for 'REPLAY \['
T send-keys -t ft ' '
check "paused" wait_for PAUSED
replay_seek 20
check "T 20: the tick read at 19.998 s, shown as 20.0 s" wait_for 'at 20\.0 s \(tick 21\)'
replay_seek 08:58:20
check "T 08:58:20: a time of day, as report --from takes it" wait_for 'at 17\.0 s \(tick 18\)'
replay_seek 50%
check "T 50%: half way" wait_for 'at 4[12]\.[0-9] s \(tick'
replay_seek 5
check "T 5" wait_for 'at 5\.0 s \(tick 6\)'
replay_seek soon
check "T soon: refused, said" wait_for "'soon' is neither seconds nor a time of day"
replay_seek 5
T send-keys -t ft n
check "n from 5 s: the change made outside at +10 s" \
	wait_for 'outside change: watermark_boost_factor 15000 -> 0 \(made outside this fragtop\)'
T send-keys -t ft n
check "n again: fragtop's own at +28.8 s" wait_for 'control change: .*watermark_boost_factor.*2500.* \(ok\)'
replay_seek 30
T send-keys -t ft n
check "n from 30 s: the one outside at +63 s" \
	wait_for 'outside change: watermark_boost_factor 2500 -> 15000'
T send-keys -t ft n
check "n after the last: none after this point" wait_for 'no control change after this point'
# a recording without THP inputs says so, and names the kernel it was made on
T send-keys -t ft 8
check "THP view of a recording without THP input: says the recording has none" \
	wait_for 'No multi-size THP in this recording\.'
check "... and the kernel it was made on" wait_for 'the kernel it was made on \(6\.18\.[^)]*\) had none'
echo "seek.sh: $fails failure(s)"
[ $fails -eq 0 ]
