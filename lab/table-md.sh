#!/bin/bash
# The seed's rows of a lab table as Markdown, from `fragtop compare --json`
# of three groups (lab/table.sh): per row each group's mean ± sd over its
# runs, then each later group's change against the one before it (the
# seed's stage by stage, a percentage's in points) with Welch's p.  Used
# for docs/lab-table.md.
# ROWS (compare's metric keys, space-separated) picks other rows.
# usage: [ROWS="..."] table-md.sh FRAGTOP DIR VERSION
set -euo pipefail
FT=$1 D=$2 v=$3
groups=()
for g in boost-off boost stall; do
	groups+=("$g=$(ls "$D/$v-$g-"[0-9]*.ftr | sort -V | paste -sd,)")
done
a=$(mktemp) b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
"$FT" compare --json "${groups[0]}" "${groups[1]}" > "$a"	# boost against boost-off
"$FT" compare --json "${groups[1]}" "${groups[2]}" > "$b"	# stall against boost
rows=${ROWS:-"extfrag_fragmenting thp_fault_success_pct fragmentation_stalls fragmentation_stall_ms
latency_direct_reclaim_p50_us latency_direct_reclaim_p99_us latency_compaction_p50_us
latency_compaction_p99_us latency_fragmentation_stall_p50_us latency_fragmentation_stall_p99_us
direct_compaction_stalls direct_reclaims kcompactd_wakes"}
echo "| $v | boost off | boost | change, p | stall | change, p |"
echo "|---|---:|---:|---:|---:|---:|"
for r in $rows; do
	jq -r --arg r "$r" --slurpfile s "$b" '
		def num: if . == null then "-" elif (. | fabs) >= 100 then (. | round | tostring)
			else ((. * 10 | round) / 10 | tostring) end;
		def cell: if .n == 0 or .mean == null then "-" else "\(.mean | num) ± \(.sd | num)" end;
		def pv: "p \(if .p_value == null then "-" elif .p_value < 0.001 then "<0.001" else (.p_value * 1000 | round / 1000 | tostring) end)\(if .significant then " *" else "" end)";
		def chg: if .change_points != null then
			"\(if .change_points > 0 then "+" else "" end)\(.change_points | num) pt, \(pv)"
			elif .change_pct == null then "-" else
			"\(if .change_pct > 0 then "+" else "" end)\(.change_pct | num)%, p \(if .p_value == null then "-" elif .p_value < 0.001 then "<0.001" else (.p_value * 1000 | round / 1000 | tostring) end)\(if .significant then " *" else "" end)" end;
		(.rows[] | select(.metric == $r)) as $x |
		($s[0].rows[] | select(.metric == $r)) as $y |
		"| \($x.label) | \($x.groups[0] | cell) | \($x.groups[1] | cell) | \($x.groups[1] | chg) | \($y.groups[1] | cell) | \($y.groups[1] | chg) |"' "$a"
done
echo
echo "n = $(jq '.groups[0].runs | length' "$a"), $(jq '.groups[1].runs | length' "$a"), $(jq '.groups[1].runs | length' "$b") runs; mean ± sd; * Welch's p < 0.05."
