#!/bin/bash
# The status line: a view's scroll position ("sizes 1-4 of 9 (j/k)") is
# that view's, and goes when another view that does not scroll is shown;
# a message that fits beside it is whole.
# usage: statusline.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
TMPD=$(mktemp -d)
SOCK=fragtop-status-$$
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap 'end_tmux; rm -rf "$TMPD"' EXIT
last() { screen | tail -n 1; }

T new-session -d -s ft -x 80 -y 24 "$(printf '%q' "$FT") --no-config --root tests/fixtures/6.18-mthp; sleep 30"
check "live on the mTHP tree" wait_for ' 1 overview '
T send-keys -t ft 8
check "THP view at 80x24: its sizes' and columns' position on the status line" wait_for 'sizes 1-[34]/9  cols 1-8/10$'
T send-keys -t ft 2
check "events view: the hint line, the THP view's position gone" wait_for '^q quit .*space pause'
check "... no 'sizes' left on it" bash -c '! tmux -S "$1" capture-pane -p -t ft | tail -n 1 | grep -q sizes' _ "$TMPD/$SOCK"
T send-keys -t ft 8
wait_for 'sizes 1-[34]/9' > /dev/null
T send-keys -t ft b
check "a message beside the position: both whole" \
	wait_for 'watermark_boost_factor is already at its minimum \(0\) +sizes 1-[34]/9  cols 1-8/10$'
T send-keys -t ft q
echo "statusline.sh: $fails failure(s)"
[ $fails -eq 0 ]
