#!/bin/bash
# Every figure of a report agrees with itself, on the shipped sample and
# on another recording:
#   - a window [a, b] reports a to b: its first tick (the baseline) is
#     the one at a, its last the one at b, both included;
#   - the fallbacks by zone sum to the window's total, in text and JSON;
#   - text and JSON say the same numbers;
#   - the compaction cost per direct stall leaves out the ticks where
#     compaction was asked outside kcompactd (compact_memory), so the
#     whole sample says what its window 9..28 says;
#   - compare's windows are the same as report's.
# usage: windows.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/adverse-6.18.ftr
O=tests/recordings/thpfioscale-boost-0-to-15000.ftr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 0.15 && d > -0.15) }'; }

# FILE FROM TO: the window's ends, its zone rows and its text against its JSON
window() {
	local f=$1 a=$2 b=$3 n j t
	n=$(basename "$f" .ftr)@$a..$b
	j=$tmp/$n.json t=$tmp/$n.txt
	"$FT" report --json "$f" --from "$a" --to "$b" > "$j" 2> /dev/null
	"$FT" report "$f" --from "$a" --to "$b" > "$t" 2> /dev/null
	check "$n: the baseline is the tick at $a" near "$(jq .from_s "$j")" "$a"
	check "$n: the last tick is the one at $b" near "$(jq .to_s "$j")" "$b"
	check "$n: $((b - a)) s long" near "$(jq .duration_s "$j")" "$((b - a))"
	check "$n: the text says so" grep -Eq "window $a\.[01] s to $b\.[01] s into the recording: the ticks at both ends included" "$t"
	check "$n: fallbacks by zone sum to the total" \
		jqe '([.extfrag_by_zone[].total] | add // 0) == .totals.extfrag and
		     ([.extfrag_by_zone[].fragmenting] | add // 0) == .totals.extfrag_fragmenting' "$j"
	check "$n: the text's zone rows sum to its total" awk '
		/^extfrag events/ { total = $4 }
		/^  (N[0-9]+ |outside zones)/ && / total / { for (i = 1; i < NF; i++) if ($i == "total") sum += $(i + 1) }
		END { exit !(total != "" && total == sum + 0) }' "$t"
	check "$n: text and JSON: the total" \
		test "$(awk '/^extfrag events/ { print $4 }' "$t")" = "$(jq .totals.extfrag "$j")"
	check "$n: text and JSON: direct stalls" \
		test "$(awk '/direct \(traced\)/ { print $4 }' "$t")" = "$(jq .compaction.direct_stalls "$j")"
	check "$n: text and JSON: migrate scanned per direct stall" \
		test "$(awk '/per direct stall/ { print $5 }' "$t")" = \
		"$(jq -r '.direct_compaction_cost.migrate_scanned_per_stall | if . == null then "-" else (. + 0.5 | floor | tostring) end' "$j")"
}
window "$S" 8 10
window "$S" 9 28
window "$S" 30 80
window "$O" 2 32
window "$O" 40 60

# compaction asked through compact_memory in the 9-10 s tick of the sample:
# 7.59M pages migrate-scanned and no direct stall
"$FT" report --json "$S" > "$tmp/all.json" 2> /dev/null
check "sample: the tick with compact_memory's compaction is left out, with the one after" \
	jqe '.direct_compaction_cost.exact and .direct_compaction_cost.ticks_left_out == 2 and
	     .direct_compaction_cost.stalls_left_out == 0' "$tmp/all.json"
check "sample: per direct stall, the whole recording says what 9..28 says" \
	test "$(jq '.direct_compaction_cost.migrate_scanned_per_stall | floor' "$tmp/all.json")" = \
	"$(jq '.direct_compaction_cost.migrate_scanned_per_stall | floor' "$tmp/$(basename "$S" .ftr)@9..28.json")"
check "sample: ... and it is far below the whole migrate scan per stall" \
	jqe '.direct_compaction_cost.migrate_scanned_per_stall < 1000 and
	     .totals.compact_migrate_scanned / .totals.compact_stall > 4000' "$tmp/all.json"
check "sample 8..10: no direct stall, no cost per stall" \
	jqe '.direct_compaction_cost.stalls == 0 and .direct_compaction_cost.migrate_scanned_per_stall == null' \
	"$tmp/$(basename "$S" .ftr)@8..10.json"
check "sample 8..10: the text says why a tick is left out" \
	grep -q "left out, where compaction was asked" "$tmp/$(basename "$S" .ftr)@8..10.txt"
check "sample: zone compactions run beside the stalls, explained" \
	grep -q "zone compactions run in them .* (the latency table's count)" <("$FT" report "$S" 2> /dev/null)

# compare cuts the same windows
"$FT" compare --json "a=$S@9..28" "b=$S@30..80" > "$tmp/c.json" 2> /dev/null
check "compare $S@9..28 and @30..80: 19 s and 50 s, as report's" \
	jqe '(.rows[] | select(.metric == "duration_s") | .groups | (.[0].mean - 19 | fabs) < 0.15 and
	     (.[1].mean - 50 | fabs) < 0.15)' "$tmp/c.json"
check "compare: migrate scanned per direct stall as report's over 9..28" \
	test "$(jq '.rows[] | select(.metric == "compact_migrate_scanned_per_stall") | .groups[0].mean | floor' "$tmp/c.json")" = \
	"$(jq '.direct_compaction_cost.migrate_scanned_per_stall | floor' "$tmp/$(basename "$S" .ftr)@9..28.json")"
echo "windows.sh: $fails failure(s)"
[ $fails -eq 0 ]
