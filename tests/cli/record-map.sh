#!/bin/bash
# The recorder never waits for the map: --map-interval's pass goes a slice
# at a time between the ticks (cmd/record.c).  On a synthetic 4 TiB zone
# (a sparse /proc/kpageflags of 1G PFNs under a fixture tree: a pass of
# many seconds), a 4 s recording at -i 0.2 with --map-interval 1 keeps its
# ticks: at least half of the 20 it is due (a blocking pass held every
# tick after the first for its whole length: the old recorder made 2).
# The recording holds the pass's batches: the map has blocks read; the
# pass unfinished, the zone's amplification is partial, and report and
# export say so (report: partial, ~; export: absent).
# Counts are asserted, not times.  No root: the tree is a fixture.
# usage: record-map.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v perl > /dev/null || { echo "FAIL perl not installed"; exit 1; }
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

# a 4 TiB Normal zone (tests/lib.sh tib_tree): the slices between 4 s of
# ticks at -i 0.2 read a quarter to two fifths of it on this idle VM, so
# the pass cannot end on a fast machine either (on 1 TiB it did when the
# VM was idle: the partial figures were then not there to check)
tree=$TMPD/tree
mkdir -p "$tree"
tib_tree "$tree" 4

"$FT" record --root "$tree" --no-trace -i 0.2 --map-interval 1 -t 4 -o "$TMPD/m.ftr" 2> "$TMPD/err"
check "record --map-interval on the 1 TiB tree: exit 0" test $? = 0
"$FT" report --json "$TMPD/m.ftr" > "$TMPD/r.json" 2> "$TMPD/rerr"
n=$(jq '.samples' "$TMPD/r.json")
check "the ticks went on while the map was read: $n samples of the 20 due (at least 10)" test "${n:-0}" -ge 10
read_blocks=$(jq '[.pageblocks[] | .total - (.unscanned // 0)] | add // 0' "$TMPD/r.json")
echo "pageblocks: $(jq -c '[.pageblocks[] | {zone, total, free, movable, mixed, unscanned}]' "$TMPD/r.json")"
check "the recording holds the pass's batches (blocks read: $read_blocks)" test "${read_blocks:-0}" -gt 0
# the pass did not end within the 4 s: the Normal zone's amplification is partial, and says so
amp=$(jq -c '[.pageblocks[] | select(.zone == "Normal") | .amplification] | .[0]' "$TMPD/r.json")
echo "Normal's amplification: $amp"
printf '%s\n' "$amp" > "$TMPD/amp.json"
check "report --json: the partial amplification says partial, with its unread blocks" \
	jqe '.partial == true and .unread_blocks > 0 and (.ratio | type) == "number"' "$TMPD/amp.json"
"$FT" report "$TMPD/m.ftr" > "$TMPD/r.txt"
check "report text: ~ and how many blocks are left" grep -qE 'amplification ~[0-9.]+ \(partial: [0-9]+ blocks not read whole yet\)' "$TMPD/r.txt"
"$FT" export --csv "$TMPD/m.ftr" > "$TMPD/e.csv"
col=$(head -n 1 "$TMPD/e.csv" | tr ',' '\n' | grep -n '_Normal_pollution_amplification$' | cut -d: -f1)
check "export leaves the partial figure out (Normal's column empty at the last tick)" \
	test -n "$col" -a -z "$(tail -n 1 "$TMPD/e.csv" | cut -d, -f"${col:-1}")"
echo "record-map.sh: $fails failure(s)"
[ $fails -eq 0 ]
