#!/bin/bash
# A host with 64 NUMA nodes (129 populated zones, built from the 2-node
# capture by tests/fixtures/many-nodes.sh): the overview turns to one line
# per zone with a summary line per node; 160x50 shows at least 40 zones
# in two columns, 80x24 stays readable and scrolls; o orders by the
# worst; snapshot stays a table and JSON with every zone.
# usage: many-nodes.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
TMPD=$(mktemp -d)
SOCK=
n=0
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
R=$TMPD/root
bash "$(dirname "$0")/../fixtures/many-nodes.sh" 64 "$R"
start() {	# columns rows
	[ -n "$SOCK" ] && end_tmux
	n=$((n + 1)); SOCK=fragtop-many-$$-$n
	fresh_config
	T new-session -d -s ft -x "$1" -y "$2" "$FT --root $(printf '%q' "$R"); sleep 30"
}
zone_lines() { screen | grep -oE 'N[0-9]+ +(DMA|DMA32|Movable) +[0-9.]+[KMG]' | wc -l; }

start 160 50
check "160x50: one line per zone, with its header" wait_for '^node zone +free +unus\. +boost +fb/s +frag/s +mixed'
check "160x50: a summary line per node" wait_for '^node 1 +2 zones +free [0-9.]+[KMG] +worst unusable 0\.[0-9]{3}'
z=$(zone_lines)
echo "zones on a 160x50 screen: $z of 129"
check "160x50: at least 40 zones at once" test "$z" -ge 40
check "160x50: the status line says where the list is" wait_for 'lines 1-[0-9]+ of 193 \([0-9]+ zones\) by node'
T send-keys -t ft o o
check "o o: ordered by the unusable index, the worst (N0 DMA) first" wait_for '^N0 +DMA +[0-9.]+M +0\.050'
check "o o: says so" wait_for 'by unusable index'
T send-keys -t ft q

start 80 24
check "80x24: the list" wait_for '^N0 +DMA32 '
z=$(zone_lines)
check "80x24: readable, $z zones, lines within 80 columns" test "$z" -ge 8 -a \
	"$(screen | LC_ALL=C.UTF-8 wc -L)" -le 80
for i in $(seq 200); do T send-keys -t ft j; done
check "80x24: j scrolls to the last node" wait_for '^N63 +Movable '
T send-keys -t ft q

"$FT" snapshot --root "$R" > "$TMPD/t.txt"; rc=$?
check "snapshot: a table with every zone" test $rc = 0 -a "$(grep -c '^Node [0-9]*, zone' "$TMPD/t.txt")" = 129
"$FT" snapshot --root "$R" --json > "$TMPD/t.json"
check "snapshot --json: every zone, the last with its pageblocks" jqe '(.zones | length) == 129 and
	.zones[-1].node == 63 and .zones[-1].blocks_by_type.Movable == 64' "$TMPD/t.json"
echo "many-nodes.sh: $fails failure(s)"
[ $fails -eq 0 ]
