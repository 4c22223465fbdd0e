#!/bin/bash
# `exporter --collector.map` scans the pageblock map between scrapes and
# exports each zone's pollution amplification and its gigantic pages
# available now and after compaction: on the synthetic two-node tree of
# tests/cli/contig.sh, the planted 512 and 1, and one page now and two
# after compaction per Movable zone; promtool finds nothing to say.
# Without the flag the families are absent, and kpageflags is not read.
# usage: exporter-map.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v curl > /dev/null || skip_all "exporter map: needs curl"
command -v perl > /dev/null || { echo "FAIL perl not installed"; exit 1; }
tmp=$(mktemp -d)
PORT=$(test_port)
trap 'stop_exporter; rm -rf "$tmp"' EXIT
contig_tree "$tmp/root"
# every zone's regions read: the after-compaction family has both Movable zones
scanned() {
	scrape "$tmp/m"
	[ "$(grep -c '^fragtop_zone_gigantic_pages_available_after_compaction{node="[01]",zone="Movable"}' "$tmp/m")" = 2 ]
}

"$FT" exporter --root "$tmp/root" --listen "127.0.0.1:$PORT" --no-trace --collector.map --map-cpu 50 \
	2> "$tmp/err" & epid=$!
# a deadline, not a speed: the first scrape reads the map, slow on a loaded machine
check "the exporter answers" until_ok 60 up
check "the map is read whole between scrapes" until_ok 60 scanned
check "node 0 Movable: amplification 512" \
	grep -qE '^fragtop_zone_pollution_amplification_ratio\{node="0",zone="Movable"\} 512$' "$tmp/m"
check "node 1 Movable: amplification 1" \
	grep -qE '^fragtop_zone_pollution_amplification_ratio\{node="1",zone="Movable"\} 1$' "$tmp/m"
for n in 0 1; do
	check "node $n Movable: one gigantic page now" \
		grep -qE "^fragtop_zone_gigantic_pages_available\\{node=\"$n\",zone=\"Movable\"\\} 1\$" "$tmp/m"
	check "node $n Movable: two after compaction" \
		grep -qE "^fragtop_zone_gigantic_pages_available_after_compaction\\{node=\"$n\",zone=\"Movable\"\\} 2\$" "$tmp/m"
done
check "a zone without unmovable pages has no amplification sample" \
	eval '! grep -qE "^fragtop_zone_pollution_amplification_ratio\{node=\"1\",zone=\"DMA32\"\}" "$tmp/m"'
if command -v promtool > /dev/null; then
	check "promtool check metrics: nothing to say" eval 'promtool check metrics < "$tmp/m" > "$tmp/pt" 2>&1 && [ ! -s "$tmp/pt" ]'
	[ -s "$tmp/pt" ] && cat "$tmp/pt"
else
	skip "promtool not installed"
fi
stop_exporter

PORT2=$((PORT + 1)); PORT=$PORT2
"$FT" exporter --root "$tmp/root" --listen "127.0.0.1:$PORT" --no-trace --cost-log "$tmp/cost.jsonl" \
	2> "$tmp/err2" & epid=$!
check "without the flag: the exporter answers" until_ok 60 up
scrape "$tmp/m0"
check "... and has no map family" eval '! grep -qE "^fragtop_zone_(pollution|gigantic)" "$tmp/m0"'
stop_exporter
check "... nor read kpageflags" \
	test "$(jq -s '[.[].cost.by_source[]? | select(.source == "kpageflags") | .files_opened] | add // 0' "$tmp/cost.jsonl")" = 0
[ $fails = 0 ]
