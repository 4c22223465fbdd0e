#!/bin/bash
# The defrag_mode table (docs/defrag-mode.md) from its kept recordings
# (tests/recordings/defrag-mode/, made by tests/capture/defrag-mode.sh):
# `fragtop compare` of the two groups is the table in the docs, byte for
# byte, fits 80 columns, and its rows are the means of the recordings'
# own report totals; export's per-size THP columns add up to the report.
# usage: defrag-mode.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
D=tests/recordings/defrag-mode
DOC=docs/defrag-mode.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g0=$(ls $D/defrag-mode-0-run*.ftr 2> /dev/null | tr '\n' ',' | sed 's/,$//')
g1=$(ls $D/defrag-mode-1-run*.ftr 2> /dev/null | tr '\n' ',' | sed 's/,$//')
n0=$(echo "$g0" | tr ',' '\n' | grep -c .) n1=$(echo "$g1" | tr ',' '\n' | grep -c .)
check "at least 5 recordings at defrag_mode=0 and 5 at 1" test "$n0" -ge 5 -a "$n1" -ge 5

"$FT" compare "dm0=$g0" "dm1=$g1" > "$tmp/c.txt"
check "compare: exit 0" test $? = 0
check "the table fits 80 columns" test "$(LC_ALL=C.UTF-8 wc -L < "$tmp/c.txt")" -le 80
# the docs hold it between two markers, as the command prints it
sed -n '/^<!-- compare: begin -->$/,/^<!-- compare: end -->$/p' "$DOC" | sed '1,2d;$d' | sed '$d' > "$tmp/doc.txt"
if diff -u "$tmp/doc.txt" "$tmp/c.txt"; then ok "the docs' table is the command's output"; else bad "the docs' table is the command's output"; fi

# each row's mean is the mean of the runs' report totals
"$FT" compare --json "dm0=$g0" "dm1=$g1" > "$tmp/c.json"
for grp in 0 1; do
	files=$g0; [ $grp = 1 ] && files=$g1
	for f in ${files//,/ }; do "$FT" report --json "$f"; done > "$tmp/r$grp.json"
	for pair in compact_stall:compact_stall compact_fail:compact_fail allocstall:allocstall \
		pgscan_kswapd:pgscan_kswapd extfrag_fragmenting:extfrag_fragmenting; do
		row=${pair%%:*} tot=${pair#*:}
		want=$(jq -s "[.[].totals.$tot] | add / length" "$tmp/r$grp.json")
		got=$(jq --arg m "$row" --argjson g $grp '.rows[] | select(.metric == $m) | .groups[$g].mean' "$tmp/c.json")
		check "defrag_mode=$grp $row: mean $got = the reports' $want" \
			awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 * (b < 0 ? -b : b) + 1e-9) }'
	done
	want=$(jq -s '[.[].thp_by_size[] | select(.size_kb == 2048) | .anon_fault_alloc] | add / length' "$tmp/r$grp.json")
	got=$(jq --argjson g $grp '.rows[] | select(.metric == "thp_2048kB_anon_fault_alloc") | .groups[$g].mean' "$tmp/c.json")
	check "defrag_mode=$grp THP 2048kB alloc: mean $got = the reports' $want" \
		awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 * b + 1e-9) }'
done
# export: a column per size, whose ticks add up to the report's window
f=${g1%%,*}
sum=$("$FT" export --csv "$f" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "thp_2048kB_anon_fault_alloc") c = i; next }
	c { s += $c } END { print c ? s : "none" }')
check "export: the THP 2048kB alloc column adds up to the report's ($sum)" \
	test "$sum" = "$("$FT" report --json "$f" | jq '.thp_by_size[] | select(.size_kb == 2048) | .anon_fault_alloc')"
# plot: the THP panel has 2048kB's line and a dot for each tick that had its faults
ticks=$("$FT" export --csv "$f" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "thp_2048kB_anon_fault_alloc") a = i;
	if ($i == "thp_2048kB_anon_fault_fallback") b = i }; next } $a + $b > 0 { n++ } END { print n + 0 }')
"$FT" plot "$f" -o "$tmp/p.svg"
dots=$(grep -c '^<circle ' "$tmp/p.svg")
check "plot: the THP panel's 2048kB line, $dots dots for the $ticks ticks with faults" \
	test "$ticks" -gt 0 -a "$dots" = "$ticks" -a -n "$(grep 'class="t">2048kB</text>' "$tmp/p.svg")"
[ $fails -eq 0 ]
