#!/bin/bash
# nr_free_pages_blocks (6.15+): snapshot --json gives each zone of this
# host free_pages_blocks equal to zoneinfo's, read just before and just
# after (equal to one of them, or between); on the 6.1 fixture it is null
# in JSON, empty in CSV-free outputs, and its exporter family is absent
# (never 0).
# usage: freeblocks.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "node zone value" for every zone zoneinfo gives nr_free_pages_blocks
blocks() { awk '/^Node/ { n = $2; sub(",", "", n); z = $4 } /nr_free_pages_blocks/ { print n, z, $2 }' "$1"; }

if grep -q nr_free_pages_blocks /proc/zoneinfo 2> /dev/null; then
	cat /proc/zoneinfo > "$tmp/before"
	"$FT" snapshot --json > "$tmp/s.json"
	cat /proc/zoneinfo > "$tmp/after"
	jq -r '.zones[] | "\(.node) \(.zone) \(.free_pages_blocks)"' "$tmp/s.json" | sort > "$tmp/got"
	blocks "$tmp/before" | sort > "$tmp/b"
	blocks "$tmp/after" | sort > "$tmp/a"
	check "every zone zoneinfo counts is in the snapshot" \
		test -s "$tmp/b" -a -z "$(comm -23 <(cut -d' ' -f1,2 "$tmp/b") <(cut -d' ' -f1,2 "$tmp/got"))"
	while read -r node zone before; do
		after=$(awk -v n="$node" -v z="$zone" '$1 == n && $2 == z { print $3 }' "$tmp/a")
		got=$(awk -v n="$node" -v z="$zone" '$1 == n && $2 == z { print $3 }' "$tmp/got")
		lo=$before hi=$after
		[ "$lo" -le "$hi" ] || { lo=$after; hi=$before; }
		check "N$node $zone: free_pages_blocks $got within zoneinfo's $before..$after" \
			test "$got" -ge "$lo" -a "$got" -le "$hi"
	done < "$tmp/b"
else
	skip "this kernel has no nr_free_pages_blocks (before 6.15): the live comparison is not made"
fi

F=tests/fixtures/6.1-2node-movable
"$FT" snapshot --json --root "$F" > "$tmp/61.json"
check "6.1 fixture: free_pages_blocks null in every zone" \
	jqe '[.zones[].free_pages_blocks] | length > 0 and all(. == null)' "$tmp/61.json"
"$FT" snapshot --prometheus --root "$F" > "$tmp/61.prom"
check "6.1 fixture: no fragtop_zone_free_in_blocks_bytes family" \
	bash -c '! grep -q "^fragtop_zone_free_in_blocks_bytes\|# TYPE fragtop_zone_free_in_blocks_bytes" "$1"' _ "$tmp/61.prom"
"$FT" snapshot --prometheus --root tests/fixtures/6.18-frag > "$tmp/618.prom"
check "6.18 fixture: the family, a sample per zone" \
	test "$(grep -c '^fragtop_zone_free_in_blocks_bytes{' "$tmp/618.prom")" = 3
"$FT" snapshot --root "$F" > "$tmp/61.txt"
check "6.1 fixture: the text table has no 'in blocks' figure" bash -c '! grep -q "in blocks" "$1"' _ "$tmp/61.txt"
[ $fails -eq 0 ]
