#!/bin/bash
# The README's sample recording replayed through a terminal: the process
# view shows the 4-thread program as one row (the sum of its threads) and
# H a row per thread; the exited mark is a column of its own, so
# grep -w finds the workload's commands; the events view names the
# latest fallbacks; the stalls view splits direct from background
# compaction.
# usage: sample.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/adverse-6.18.ftr
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
[ -f "$S" ] || { echo "FAIL sample recording $S missing"; exit 1; }
TMPD=$(mktemp -d)
SOCK=fragtop-sample-$$
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap 'end_tmux; rm -rf "$TMPD"' EXIT
want=$("$FT" report --json "$S" | jq '.processes[] | select(.comm == "thpthreads") | .fragmenting')

T new-session -d -s ft -x 160 -y 50 "$FT replay --speed 1000 $(printf '%q' "$(realpath "$S")"); sleep 30"
WAIT_TENTHS=300 check "replay runs to the end" wait_for 'end of the recording'
T send-keys -t ft 7
check "process view: processes" wait_for '^[0-9]+ processes '
row=$(screen | awk '$2 == "thpthreads" || ($2 == "x" && $3 == "thpthreads")')
got=$(awk '{ o = $2 == "x"; print $(4 + o) }' <<< "$row")
check "thpthreads: one row, FRAG = the sum of its threads ($got = $want)" \
	test "$(grep -c . <<< "$row")" = 1 -a "${got:-x}" = "$want"
check "grep -w thpalloc matches a row (the exited mark is a column)" test -n "$(screen | grep -w thpalloc)"
T send-keys -t ft H
check "H: threads" wait_for '^[0-9]+ threads '
check "H: the 4 worker threads have rows of their own" \
	test "$(screen | grep -cE '^ +[0-9]+ [ x] thpworker[0-3] ')" = 4
T send-keys -t ft H
check "H again: processes" wait_for '^[0-9]+ processes '
T send-keys -t ft 2
check "events view: the latest fallbacks" wait_for ' command$'
nq=$(screen | awk '/ command$/ { f = 1; next } f && / (yes|no) +(yes|no) / && $NF == "?" { q++ } END { print q + 0 }')
check "events view: no '?' among the latest fallbacks ($nq)" test "$nq" = 0
T send-keys -t ft 3
check "stalls view: direct compaction as compact_stall counts it, beside the zone runs timed" \
	wait_for '^direct compaction +stalls [0-9]+ attempts, as compact_stall; zone runs [0-9]+ \(begin->end\)'
# the write to compact_memory at 9-10 s scanned 7.59M pages: not a direct stall's cost (report says 656 + 437)
check "stalls view: direct compaction's cost per stall leaves compact_memory's out, as report does" \
	wait_for 'direct mig 1\.41M free 942k \(1093/stall, ok 19%, 5658/success\)'
check "stalls view: ... and says so" wait_for 'direct leaves out 2 ticks of compact_memory'
check "stalls view: background compaction by node" wait_for '^background +compactions [0-9]+ +N0 '
T send-keys -t ft q
echo "sample.sh: $fails failure(s)"
[ $fails -eq 0 ]
