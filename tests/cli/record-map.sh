#!/bin/bash
# The recorder never waits for the map: --map-interval's pass goes a slice
# at a time between the ticks (cmd/record.c).  On a synthetic 1 TiB zone
# (a sparse /proc/kpageflags of 268M PFNs under a fixture tree: a pass of
# many seconds), a 4 s recording at -i 0.2 with --map-interval 1 keeps its
# ticks: at least half of the 20 it is due (a blocking pass held every
# tick after the first for its whole length: the old recorder made 2).
# The recording holds the pass's batches: the map has blocks read.
# Counts are asserted, not times.  No root: the tree is a fixture.
# usage: record-map.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")/.." && pwd)
command -v perl > /dev/null || { echo "FAIL perl not installed"; exit 1; }
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

# the 1 TiB Normal zone of tests/tui/map-first.sh
tree=$TMPD/tree
cp -r "$HERE/fixtures/6.18-idle/." "$tree/"
awk '/^Node/ { normal = ($4 == "Normal") }
	normal && /^ +(spanned|present) / { sub(/[0-9]+$/, "268435456") } { print }' \
	"$HERE/fixtures/6.18-idle/proc/zoneinfo" > "$tree/proc/zoneinfo"
sed -i 's/^100000000-63fffffff : System RAM/100000000-100ffffffff : System RAM/' "$tree/proc/iomem"
end=$(( (0x100000 + 268435456) * 8 ))
truncate -s "$end" "$tree/proc/kpageflags" "$tree/proc/kpagecount"
kpf_movable_mixed "$tree/proc/kpageflags"

"$FT" record --root "$tree" --no-trace -i 0.2 --map-interval 1 -t 4 -o "$TMPD/m.ftr" 2> "$TMPD/err"
check "record --map-interval on the 1 TiB tree: exit 0" test $? = 0
"$FT" report --json "$TMPD/m.ftr" > "$TMPD/r.json" 2> "$TMPD/rerr"
n=$(jq '.samples' "$TMPD/r.json")
check "the ticks went on while the map was read: $n samples of the 20 due (at least 10)" test "${n:-0}" -ge 10
read_blocks=$(jq '[.pageblocks[] | .total - (.unscanned // 0)] | add // 0' "$TMPD/r.json")
echo "pageblocks: $(jq -c '[.pageblocks[] | {zone, total, free, movable, mixed, unscanned}]' "$TMPD/r.json")"
check "the recording holds the pass's batches (blocks read: $read_blocks)" test "${read_blocks:-0}" -gt 0
echo "record-map.sh: $fails failure(s)"
[ $fails -eq 0 ]
