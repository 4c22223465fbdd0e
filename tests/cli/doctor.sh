#!/bin/bash
# fragtop doctor on kept recordings of known conditions, and its rule table
# against docs/runbook.md:
# - the lab's 6.1 runs with watermark_boost_factor 0 under fragmenting
#   fallbacks (tests/recordings/lab-table/6.1-boost-off-*) name boost_off,
#   and the same workload with boosting on (6.1-boost-*) never does;
# - the adverse 6.18 recording (thpthreads compacting directly) names
#   compaction_stalls, with the cgroup and process that paid;
# - a window of the thpfioscale recording before its boost came back
#   names boost_off, its end does not;
# - a need that cannot fit is a critical size_wont_fit;
# - a rule that did not fire is only in "checked"; each finding has the
#   fields the JSON promises; text and JSON agree;
# - every rule of `doctor --rules` has its section in docs/runbook.md with
#   each threshold at the value the code has;
# - bad input (not a recording, a FIFO, a bad --need) is a message and exit
#   1 or 2, never a crash.
# usage: doctor.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
cd "$(dirname "$0")/../.." || exit 1
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
R=tests/recordings

names() { jq -r '[.findings[].rule] | join(",")' "$1"; }

for i in 1 2 3 4 5; do
	"$FT" doctor --json "$R/lab-table/6.1-boost-off-$i.ftr" > "$TMPD/off$i.json" 2> "$TMPD/err"
	check "6.1 boost off, run $i: boost_off ($(names "$TMPD/off$i.json"))" \
		jqe '[.findings[].rule] | index("boost_off") != null' "$TMPD/off$i.json"
	"$FT" doctor --json "$R/lab-table/6.1-boost-$i.ftr" > "$TMPD/on$i.json" 2> "$TMPD/err"
	check "6.1 boost on, run $i: no boost_off ($(names "$TMPD/on$i.json"))" \
		jqe '([.findings[].rule] | index("boost_off") == null) and (.checked | index("boost_off") != null)' \
		"$TMPD/on$i.json"
done
J=$TMPD/off1.json
check "a finding's fields" jqe '.findings[] | select(.rule == "boost_off") |
	.severity == "warning" and (.evidence.figures.watermark_boost_factor == 0) and
	(.evidence.figures.fragmenting_fallbacks > 100) and .action.knob == "watermark_boost_factor" and
	.action.value == "15000" and (.action.effect | length > 0) and (.action.source | test("lab-table")) and
	.runbook == "docs/runbook.md#boost_off" and (.explain | length > 0) and (.look | length > 0)' "$J"
check "who fell back: fraggen" jqe '.findings[] | select(.rule == "boost_off") | .who[] | select(.kind == "process") | .name == "fraggen"' "$J"
check "a rule that did not fire is only in checked" \
	jqe '(.checked | index("compaction_stalls") != null) and ([.findings[].rule] | index("compaction_stalls") == null)' "$J"
check "not checked says what it needed" \
	jqe '.not_checked[] | select(.rule == "alloc_failures") | .needs | test("kernel log")' "$J"

"$FT" doctor --json "$R/adverse-6.18.ftr" > "$TMPD/adv.json" 2> "$TMPD/err"
check "adverse 6.18: compaction_stalls ($(names "$TMPD/adv.json"))" \
	jqe '.findings[] | select(.rule == "compaction_stalls") | .evidence.figures.direct_compaction_p99_ms >= 10' "$TMPD/adv.json"
check "... paid by thpthreads, in its cgroup" jqe '[.findings[] | select(.rule == "compaction_stalls") | .who[] |
	.name] | (index("thpthreads") != null) and (map(startswith("/process_api/")) | any)' "$TMPD/adv.json"
# the boost was set to 0 from 9 to 28 s (outside fragtop), then 2500, then 15000: boost_off is of that interval alone
check "... boost_off in the interval the boost was 0 (9-28 s) alone, with that interval's figures" \
	jqe '[.findings[] | select(.rule == "boost_off")] | length == 1 and (.[0] | .knobs.watermark_boost_factor == 0 and
	(.interval.from_s | floor) == 8 and (.interval.to_s | floor) == 27 and .evidence.figures.fragmenting_fallbacks == 57672 and
	.whole_window.figures.fragmenting_fallbacks == 57728)' "$TMPD/adv.json"
check "... where the knobs changed, and who changed them" jqe '[.intervals[] | .changed_by] ==
	[null, "outside fragtop", "this recording'"'"'s fragtop", "outside fragtop"]' "$TMPD/adv.json"
"$FT" doctor --timeline --json "$R/adverse-6.18.ftr" > "$TMPD/tl.json" 2> "$TMPD/err"
check "--timeline --json: boost_off active 9-28 s only, the same intervals" jqe '([.timeline[] | select(.rule == "boost_off") |
	.active[] | [(.from_s | floor), (.to_s | floor)]] == [[8, 27]]) and (.intervals | length == 4)' "$TMPD/tl.json"
"$FT" doctor --timeline "$R/adverse-6.18.ftr" > "$TMPD/tl.txt" 2> "$TMPD/err"
check "--timeline text: the same, and the rules never active or not checked said so" \
	grep -q '^boost_off  *+9.0 to +28.0 s$' "$TMPD/tl.txt" && grep -q '^thp_fragmented  *never (checked in 4 of 4' "$TMPD/tl.txt" &&
	grep -q '^alloc_failures  *not checked (needs the kernel log' "$TMPD/tl.txt"
check "... nothing fires where the boost was on" jqe '[.intervals[] | select(.knobs.watermark_boost_factor != 0) | .fired[]] |
	index("boost_off") == null' "$TMPD/adv.json"
"$FT" doctor "$R/adverse-6.18.ftr" > "$TMPD/adv.txt" 2>&1
check "text and JSON name the same findings" test "$(grep -oE '^(WARNING|CRITICAL|INFO) [a-z_]+' "$TMPD/adv.txt" |
	awk '{print $2}' | paste -sd,)" = "$(names "$TMPD/adv.json")"

F=$R/thpfioscale-boost-0-to-15000.ftr
"$FT" doctor --json --from 5 --to 30 "$F" > "$TMPD/w1.json" 2> "$TMPD/err"
check "boost 0 from 3 s to 32 s: boost_off in that window ($(names "$TMPD/w1.json"))" \
	jqe '([.findings[].rule] | index("boost_off") != null) and .window.to_s <= 31' "$TMPD/w1.json"
"$FT" doctor --json --from 40 "$F" > "$TMPD/w2.json" 2> "$TMPD/err"
check "after the boost came back: no boost_off ($(names "$TMPD/w2.json"))" \
	jqe '[.findings[].rule] | index("boost_off") == null' "$TMPD/w2.json"

"$FT" doctor --json --need 1000x1G "$R/lab-6.12-cgroups.ftr" > "$TMPD/need.json" 2> "$TMPD/err"
check "1000 x 1G on a 1 GiB guest: critical size_wont_fit" jqe '.findings[0] | .rule == "size_wont_fit" and
	.severity == "critical" and (.detail | test("1000 x 1 GiB wanted"))' "$TMPD/need.json"

# the table and the runbook
"$FT" doctor --rules > "$TMPD/rules" 2> "$TMPD/err"
check "doctor --rules lists 11 rules" test "$(wc -l < "$TMPD/rules")" = 11
while read -r name sev rest; do
	sec=$(awk -v h="## $name" '$0 == h { on = 1; next } /^## / { on = 0 } on' docs/runbook.md)
	check "runbook has a section for $name" test -n "$sec"
	for th in $(grep -oE '[a-z_0-9]+=[0-9.]+' <<< "${rest%%needs:*}"); do
		k=${th%%=*} v=${th#*=}
		check "... $name's $k is $v there too" grep -qE "\`$k\` $v\b" <<< "$sec"
	done
done < "$TMPD/rules"

# bad input
echo "not a recording" > "$TMPD/junk"
"$FT" doctor "$TMPD/junk" > "$TMPD/out" 2> "$TMPD/err"; rc=$?
check "not a recording: exit 1 with a message" test $rc = 1 -a -s "$TMPD/err"
mkfifo "$TMPD/fifo"
timeout 20 "$FT" doctor "$TMPD/fifo" > "$TMPD/out" 2> "$TMPD/err" < /dev/null; rc=$?
check "a FIFO: refused, no hang (rc $rc)" test $rc = 1
"$FT" doctor --need 3xbanana "$R/adverse-6.18.ftr" > "$TMPD/out" 2> "$TMPD/err"; rc=$?
check "a bad --need: exit 1, said" test $rc = 1 && grep -q -- '--need' "$TMPD/err"
"$FT" doctor --from 5 > "$TMPD/out" 2> "$TMPD/err"; rc=$?
check "--from without a recording: usage (2)" test $rc = 2
[ $fails = 0 ]
