#!/bin/bash
# The kept --stacks recording (tests/recordings/stacks-6.18.ftr: the
# adverse workload at boost factor 0 on this 6.18, `record --stacks`)
# read back: report's groups, the fallbacks without a stack and those past
# the table add up to the fragmenting fallbacks; the top group names a
# slab or page-fault path with every frame named; the text report lists
# it; the replayed events view shows the same top group, and K switches
# to the recent fallbacks and back; compare matches stacks by name.  A
# recording without stacks says how to get them, in the report (null)
# and in the view.
# usage: stacks.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/stacks-6.18.ftr
N=tests/recordings/adverse-6.18.ftr
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
[ -f "$S" ] || { echo "FAIL recording $S missing"; exit 1; }
TMPD=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT

"$FT" report --json "$S" > "$TMPD/r.json"
frag=$(jq '.totals.extfrag_fragmenting' "$TMPD/r.json")
sum=$(jq '([.stacks.groups[].fragmenting] | add) + .stacks.without_stack + .stacks.past_table' "$TMPD/r.json")
top=$(jq -r '.stacks.groups[0].stack' "$TMPD/r.json")
site=${top%% <*}
check "report: fragmenting fallbacks ($frag)" test "${frag:-0}" -gt 0
check "report: groups + without a stack + past the table = fragmenting ($sum = $frag)" test "$sum" = "$frag"
check "report: the top stack names a slab or page-fault path ($top)" \
	grep -qE 'slab|kmem_cache|kmalloc|handle_mm_fault|do_anonymous_page|do_fault|alloc_anon_folio|exc_page_fault' <<< "$top"
check "report: every frame named" bash -c "! jq -r '.stacks.groups[].stack' '$TMPD/r.json' | grep -q '0x'"
"$FT" report "$S" > "$TMPD/r.txt"
check "report text: the section and the top site" \
	bash -c "grep -q '^fragmenting fallbacks by kernel stack' '$TMPD/r.txt' && grep -qF -- '$site' '$TMPD/r.txt'"
check "report text: the total line is the fragmenting count" \
	grep -qE "^ +$frag +fragmenting fallbacks in all$" "$TMPD/r.txt"
# a window: its own groups, adding up to its own count
"$FT" report --json --from 10 --to 40 "$S" > "$TMPD/w.json"
wf=$(jq '.totals.extfrag_fragmenting' "$TMPD/w.json")
ws=$(jq '([.stacks.groups[].fragmenting] | add) + .stacks.without_stack + .stacks.past_table' "$TMPD/w.json")
check "report --from 10 --to 40: its groups add up to its count ($ws = $wf)" test "$ws" = "$wf"
"$FT" report --json "$N" > "$TMPD/n.json"
check "a recording without --stacks: stacks null" jqe '.stacks == null' "$TMPD/n.json"

"$FT" compare --json "$S" "$S" > "$TMPD/c.json"
check "compare: the top stack by name, the same in both" \
	jqe --arg k "$top" '.stacks[0].stack == $k and .stacks[0].groups[0].mean == .stacks[0].groups[1].mean' "$TMPD/c.json"
"$FT" compare "$S" "$N" > "$TMPD/c.txt"
check "compare text: stack rows and their names" \
	bash -c "grep -q '^fragmenting fallbacks/s by kernel stack' '$TMPD/c.txt' && grep -qF -- '$site' '$TMPD/c.txt'"

tmux_start fragtop-stacks 160 50 "$FT" replay --speed 1000 "$(realpath "$S")"
WAIT_TENTHS=300 check "replay runs to the end" wait_for 'end of the recording'
T send-keys -t ft 2
check "events view: fallbacks by kernel stack" wait_for 'kernel stack: site < callers'
first_group() { screen | grep -A1 'kernel stack: site' | tail -n 1; }
check "events view: the top group first ($site)" grep -qF -- "$site" <(first_group)
T send-keys -t ft K
check "K: the recent fallbacks" wait_for ' command$'
T send-keys -t ft K
check "K again: the stacks" wait_for 'kernel stack: site < callers'
# the stacks recording was made without map scans: the map says so,
# not a fault of this host
T send-keys -t ft 5
check "the map of a recording without map scans says how to record them" \
	wait_for 'No pageblock map in this recording'
check "... and names no error of this host's /proc/kpageflags" eval '! screen | grep -q "kpageflags: No data"'
tmux_start fragtop-stacks 160 50 "$FT" replay --speed 1000 "$(realpath "$N")"
WAIT_TENTHS=300 check "a recording without stacks replays" wait_for 'end of the recording'
T send-keys -t ft 2 K
check "K there: it says how to get stacks" wait_for 'no kernel stacks \(record with --stacks\)'
echo "stacks.sh: $fails failure(s)"
[ $fails -eq 0 ]
