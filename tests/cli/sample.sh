#!/bin/bash
# The sample recording the README replays (tests/recordings/adverse-6.18.ftr,
# made by tests/capture/sample.sh on this project's 6.18 VM: the adverse
# workload at boost 0, tests/load/thpthreads beside its THP phase, the map
# view open, one knob change made by fragtop): everything a newcomer is
# shown is in it, and its counts are the kernel's.
#   - direct compaction stalls equal the growth of compact_stall; kcompactd's
#     work is listed apart, per node, and no kcompactd row pays a direct stall
#   - the 4-thread program is one process whose row is the sum of its
#     threads; --threads lists the 4 threads
#   - every process with a count is named; BOOST records, map scans and
#     fragtop's own change are there; plot draws the boost
# usage: sample.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/adverse-6.18.ftr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f "$S" ] || { echo "FAIL sample recording $S missing"; exit 1; }

"$FT" report --json "$S" > "$tmp/r.json"; rc=$?
check "report --json: exit 0, lost nothing" jqe '.lost == 0' "$tmp/r.json"
[ $rc = 0 ] || bad "report exit $rc"
cs=$(jq '.totals.compact_stall' "$tmp/r.json")
check "direct compaction stalls, traced, = the growth of compact_stall ($cs)" \
	jqe '.compaction.direct_exact and .totals.direct_compaction_stalls == .totals.compact_stall and
	     .totals.compact_stall > 100' "$tmp/r.json"
check "background compaction apart, by node, with kcompactd's wakes" \
	jqe '.compaction.background_compactions > 0 and
	     ([.compaction.background_by_node[].kcompactd_wakes] | add) > 0' "$tmp/r.json"
check "no kcompactd row pays a direct compaction" \
	jqe 'all(.processes[]; (.comm | startswith("kcompactd") | not) or .compaction_stalls == 0)' "$tmp/r.json"
# a process that exited before its first drain could not be named from /proc;
# one that was named never shows as '?' (not even for events counted after its exit)
check "unnamed rows: only processes gone before they were named, under 1% of the fallbacks" \
	jqe '([.processes[] | select(.comm == "?")] | all(.exited)) and
	     (([.processes[] | select(.comm == "?") | .extfrag] | add // 0) * 100 < .totals.extfrag)' "$tmp/r.json"
check "processes add up to the total" \
	jqe '([.processes[].fragmenting] | add) == .totals.extfrag_fragmenting' "$tmp/r.json"
# threads summed into their process
"$FT" report --json --threads "$S" > "$tmp/t.json"
tg=$(jq '[.processes[] | select(.comm == "thpthreads")] | if length == 1 then .[0].pid else -1 end' "$tmp/r.json")
check "thpthreads is one process row" test "$tg" -gt 0
sum=$(jq --argjson g "$tg" '[.processes[] | select(.tgid == $g) | .fragmenting] | add' "$tmp/t.json")
own=$(jq --argjson g "$tg" '.processes[] | select(.pid == $g) | .fragmenting' "$tmp/r.json")
check "... whose fragmenting fallbacks ($own) are its threads' sum ($sum)" test "$own" = "$sum" -a "$own" -gt 0
check "no named thread also has an unnamed row" \
	jqe '[.processes[] | select(.pid > 0)] | group_by(.pid) | all(length == 1 or all(.comm != "?"))' "$tmp/t.json"
check "--threads: its 4 worker threads, each with fallbacks" \
	test "$(jq --argjson g "$tg" '[.processes[] | select(.tgid == $g and (.comm | startswith("thpworker")) and .fragmenting > 0)] | length' "$tmp/t.json")" = 4
check "report text sums by process, --threads by thread" test \
	"$("$FT" report "$S" | grep -c ' thpworker')" = 0 -a "$("$FT" report --threads "$S" | grep -c ' thpworker')" -ge 1
# what the recording carries
check "BOOST records: the sampler's figures per zone" \
	jqe '(.boost_by_zone | length) >= 3 and ([.boost_by_zone[].samples] | add) > 1000' "$tmp/r.json"
check "map scans: classified pageblocks" jqe '(.pageblocks | length) >= 3' "$tmp/r.json"
check "a knob change made by this fragtop (B: a step), and the workload's from outside" \
	test -n "$("$FT" report "$S" | grep -E '^ +\+[0-9.]+s +step +ok +watermark_boost_factor 0 -> ')" -a \
	-n "$("$FT" report "$S" | grep -E 'outside seen +watermark_boost_factor 15000 -> 0')"
"$FT" plot "$S" -o "$tmp/p.svg" 2> "$tmp/plot.err"; rc=$?
check "plot: an SVG with the boost, nothing 'not in this recording'" test $rc = 0 -a -s "$tmp/p.svg" -a \
	"$(grep -c 'not in this recording' "$tmp/p.svg" "$tmp/plot.err" | awk -F: '{ s += $2 } END { print s }')" = 0
# the sample was recorded before fragtop read THP by size: its panel says so
check "plot: the THP panel says the sample has no per-size counters" \
	grep -q 'no per-size THP counters in this recording (kernels 6.10+' "$tmp/p.svg"
# export: free pages in whole pageblocks per zone and tick (6.18 has them; the lab's 6.1 has not)
"$FT" export "$S" --json > "$tmp/e.json"
check "export: free_pages_blocks per zone, at most its free pages" \
	jqe '[.samples[].zones[] | select(.free_pages != null and .free_pages > 0)] | length > 0 and
	     all(.free_pages_blocks != null and .free_pages_blocks <= .free_pages)' "$tmp/e.json"
"$FT" export tests/recordings/lab-6.1-stall.ftr --json > "$tmp/e61.json"
check "export on 6.1: free_pages_blocks null, never 0" \
	jqe '[.samples[].zones[].free_pages_blocks] | all(. == null)' "$tmp/e61.json"
check "export --csv: a free_pages_blocks column per zone" \
	test "$("$FT" export "$S" --csv | head -n 1 | tr ',' '\n' | grep -c '_free_pages_blocks$')" -ge 3
echo "sample.sh: $fails failure(s)"
[ $fails -eq 0 ]
