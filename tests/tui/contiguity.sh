#!/bin/bash
# The overview's contiguous line on the planted two-node tree of
# tests/lib.sh's fit_tree (figures worked by hand in tests/cli/preflight.sh):
# the host's hugetlb sizes by default, "now" from the free lists at once
# (2M 1535) and "?" where only the map can tell (after compaction, and 1G
# now); once the map view has read the zones, 2M 1535/2046 and 1G 2/3.
# Setup (F2) takes sizes of interest with needs ("1536x2M"), refuses a
# size that is not a power of two, keeps them in fragtoprc (sizes=) on
# quit, and "-" takes the line away.
# usage: contiguity.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
TMPD=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
command -v perl > /dev/null || { echo "FAIL perl not installed"; exit 1; }
export XDG_CONFIG_HOME=$TMPD/config
fit_tree "$TMPD/root"

tmux_start contig 120 40 "$FT" --root "$TMPD/root" --no-trace -i 0.5
check "the line: 2M now from the free lists, after compaction not known yet; 1G not known" \
	wait_for '^contiguous +2M 1535/\?  1G \?/\?'
T send-keys -t ft 5
wait_for 'N[01] Movable' > /dev/null
T send-keys -t ft R
check "the map view reads every zone (R)" wait_for 'full rescan: [0-9]+ ms in'
T send-keys -t ft 1
check "then the line: 2M 1535/2046, 1G 2/3" wait_for '^contiguous +2M 1535/2046  1G 2/3'

# setup: sizes and needs, kept on quit
T send-keys -t ft F2
wait_for 'sizes of interest +the host' > /dev/null
T send-keys -t ft j j
answer_prompt Enter 'sizes of interest \(' '3M'
check "a size that is not a power of two is refused" wait_for 'sizes of interest: item 1: size .3M.: not a power of two'
T send-keys -t ft Enter
wait_for 'sizes of interest \(' > /dev/null
T send-keys -t ft C-u '1536x2M,2x1G,32M' Enter
check "setup shows the new sizes" wait_for 'sizes of interest +1536x2M,2x1G,32M'
T send-keys -t ft Escape
check "the line: a need per size, 32M too" wait_for '^contiguous +2Mx1536 1535/2046  1Gx2 2/3  32M 95/127'
T send-keys -t ft q
check "fragtop quits" until_ok 5 eval '! T has-session -t ft 2> /dev/null || ! screen | grep -q "^contiguous"'
# the screen may leave before the file is written: wait for the file, not the screen
check "fragtoprc keeps them (sizes=)" until_ok 10 grep -qx 'sizes=1536x2M,2x1G,32M' "$XDG_CONFIG_HOME/fragtop/fragtoprc"
end_tmux; SOCK=

# "-": no line; the rc file is read back at start (tmux_start would start from no fragtoprc)
sed -i 's/^sizes=.*/sizes=-/' "$XDG_CONFIG_HOME/fragtop/fragtoprc"
SOCK=contig-$$-rc
T new-session -d -s ft -x 120 -y 40 "$(printf '%q ' "$FT" --root "$TMPD/root" --no-trace); sleep 60"
wait_for '^ +order ' > /dev/null
check "sizes=- in fragtoprc: no contiguous line" eval '! screen | grep -q "^contiguous"'
end_tmux; SOCK=
[ $fails = 0 ]
