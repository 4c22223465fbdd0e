#!/bin/bash
# Inputs a reader skips as malformed are said: the shipped recordings skip
# none (their first look at the map, recorded before the first tick, is
# applied at that tick), and report -v names each kept one, after which
# tick, and why, and counts the rest; report --json has them under
# recording.skipped.
# usage: skipped.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for r in tests/recordings/*.ftr; do
	"$FT" report --json "$r" > "$tmp/s.json" 2> /dev/null
	check "$(basename "$r"): no input skipped" \
		jqe '.recording.bad_inputs == 0 and (.recording.skipped | length) == 0' "$tmp/s.json"
done
C=tests/recordings/crafted/map.ftr	# a zone of 2^39 pages: its map cannot be laid out
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1
"$FT" report -v "$C" > "$tmp/v.txt" 2> /dev/null
"$FT" report "$C" > "$tmp/nv.txt" 2> /dev/null
"$FT" report --json "$C" > "$tmp/v.json" 2> /dev/null
n=$(jq .recording.bad_inputs "$tmp/v.json")
check "crafted map.ftr: inputs skipped ($n), and the text says -v tells which" \
	grep -q "^  $n malformed inputs skipped (-v says which)$" "$tmp/nv.txt"
check "report -v: each kept one named, after which tick, and why" \
	grep -qE '^    after tick [0-9]+: KPF record \(type 10, sub [0-9]+, [0-9]+ bytes\): map batch: ' "$tmp/v.txt"
check "report -v: the rest counted" grep -q "^    and $((n - 8)) more like them, not kept$" "$tmp/v.txt"
check "report --json: the same, under recording.skipped" \
	jqe '.recording.skipped | length == 8 and .[0].record == "KPF" and (.[0].why | startswith("map batch: "))' \
	"$tmp/v.json"
echo "skipped.sh: $fails failure(s)"
[ $fails -eq 0 ]
