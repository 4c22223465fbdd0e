#!/bin/bash
# The stalls view through a terminal, on the repo's sample recording paused
# at 30 s (compaction stalls under way): the window key switches the last
# 10 s, the last minute and since the start, each with its own counts; the
# reset key counts from now; the bars do not fill the width on a few events;
# compaction's cost since the start shows the report's success share for
# the same stretch, and the reset zeroes it.  Then the THP view of a
# defrag_mode recording: a size set to inherit shows the word it inherits.
# usage: stalls.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/thpfioscale-boost-0-to-15000.ftr
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
[ -f "$S" ] || { echo "FAIL sample recording $S missing"; exit 1; }
TMPD=$(mktemp -d)
SOCK=fragtop-stalls-$$
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap 'end_tmux; rm -rf "$TMPD"' EXIT
# the compaction count on the figures line under the title
ncompact() { screen | awk '/^direct compaction \(begin->end\)/ { getline; if ($1 == "n") print $2 }'; }

T new-session -d -s ft -x 120 -y 54 "$FT replay $(printf '%q' "$(realpath "$S")"); sleep 30"
check "replay starts" wait_for 'REPLAY \['
T send-keys -t ft ' '
check "paused" wait_for PAUSED
replay_seek 30
check "seek to 30 s" wait_for 'at 30\.[0-9] s \(tick'
T send-keys -t ft 3
check "stalls view: the last 10 s by default, a full window" wait_for '^window +\[last 10 s\] .* 10\.0 s '
check "stalls view: log-linear rows (16 buckets a power of two)" wait_for '\[ +64, +80\) us'
check "stalls view: its percentiles marked as read from the buckets (~)" \
	wait_for '^  n [0-9.kM]+ +mean [0-9.kM]+ +p50 ~[0-9.kM]+ +p90 ~[0-9.kM]+ +p99 ~'
n10=$(ncompact)
T send-keys -t ft v
check "v: the last minute (30 s of it so far)" wait_for '\[last 1 min\] +since start +30\.[0-9] s so far'
n60=$(ncompact)
T send-keys -t ft v
check "v: since the start" wait_for '\[since start\] 30\.[0-9] s '
nall=$(ncompact)
echo "compaction stalls: last 10 s $n10, last minute $n60, since start $nall"
check "the windows count differently: 0 < 10 s < since start" test "${n10:-0}" -gt 0 -a "${n10:-0}" -lt "${nall:-0}"
check "the minute holds the 30 s there are: = since start" test "${n60:-x}" = "${nall:-y}"
T send-keys -t ft v
check "v: back to the last 10 s" wait_for '\[last 10 s\]'
T send-keys -t ft r
check "r: counting from now" wait_for 'since reset: 0\.0 s'
check "r: nothing yet" wait_for '^direct compaction \(begin->end\) +none in this window'
T send-keys -t ft R
check "R: the reset undone" wait_for '\[last 10 s\] .* 10\.0 s '
# bars: the fullest row fills at most the width, a single event a sliver
check "a single event is not a full bar" test -z "$(screen | grep -E '^  \[.*\) us +1 +█{8,}')"
# compaction's cost since the start, against the report of the same stretch
at=$(screen | sed -nE 's/.* at ([0-9]+\.[0-9]) s \(tick.*/\1/p' | head -1)
"$FT" report --json "$S" --to "${at:-30}" > "$TMPD/r.json"
okpct=$(jq '.totals | (100 * .compact_success / .compact_stall + 0.5) | floor' "$TMPD/r.json")
check "cost: since the start, the report's success share (ok $okpct%)" \
	wait_for "^compaction cost +start [0-9]+s: direct mig [0-9.]+[kM]? free [0-9.]+[kM]? \([0-9.]+[kM]?/stall, ok $okpct%"
check "cost: kcompactd's share on its own line" wait_for '^ +kcompactd mig [0-9.]+[kM]? free [0-9.]+[kM]?'
T send-keys -t ft r
check "r: the cost counts from now as well" wait_for '^compaction cost +reset 0s: direct mig 0 free 0 '
T send-keys -t ft q
end_tmux

# futile compaction: a lab recording with the isolate events and map scans,
# played to its end, shows kcompactd's shares on its cost line, and report
# gives the same shares; direct compaction did not run (the lab's THP
# defrag default), so its line says so with a dash
B=tests/recordings/lab-table/beyond/6.12-boost-1.ftr
T new-session -d -s ft -x 140 -y 50 "$FT replay --speed 1000 $(printf '%q' "$(realpath "$B")"); sleep 60"
check "replay of a lab recording with the isolate events" wait_for 'end of the recording'
T send-keys -t ft 3
mig=$("$FT" report --json "$B" | jq '.futile_compaction.kcompactd.migrate_futile_share * 100 | round')
fre=$("$FT" report --json "$B" | jq '.futile_compaction.kcompactd.free_futile_share * 100 | round')
check "stalls view: kcompactd's futile shares, as report gives them ($mig%, $fre%)" \
	wait_for "kcompactd mig .* futile mig $mig% free $fre%"
check "stalls view: direct compaction's: none to share" wait_for '^compaction cost .* futile -'
T send-keys -t ft q
end_tmux

# the THP view: a size set to inherit shows the top-level word it gets, starred
D=tests/recordings/defrag-mode/defrag-mode-1-run1.ftr
T new-session -d -s ft -x 120 -y 50 "$FT replay $(printf '%q' "$(realpath "$D")"); sleep 30"
check "replay of a defrag_mode recording" wait_for 'REPLAY \['
T send-keys -t ft 8
check "THP view: 2048kB inherits madvise, starred" wait_for '^ +2048kB madvise\* +inherit'
check "THP view: the star explained" wait_for '^\* inherit: the top-level setting \(thp_enabled, madvise\)'
check "THP view: a size of its own is not starred" wait_for '^ +64kB never +never'
# the sizes that saw faults come first: the second row is the one j selects
second=$(screen | awk '/^ +SIZE/ { on = 1; next } on && /^ +[0-9]+kB/ { n++; if (n == 2) { print $1; exit } }')
T send-keys -t ft j
check "THP view: j selects a size ($second), its counters below" wait_for "^$second +every counter in its stats/"
missing=
for c in $("$FT" report --json "$D" | jq -r '.thp_by_size[] | select(.size_kb == 2048) |
		keys[] | select(. != "size_kb" and . != "enabled" and . != "shmem_enabled")'); do
	screen | grep -qE "(^| )  ${c:0:26} +[-0-9.kMG]+ +[0-9.kMG]+( |$)" || missing="$missing $c"
done
check "THP view: every counter of the size's stats/ shown${missing:+ (not:$missing)}" test -z "$missing"
T send-keys -t ft q
echo "stalls.sh: $fails failure(s)"
[ $fails -eq 0 ]
