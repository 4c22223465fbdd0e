#!/bin/bash
# report / export / compare / plot on the repo's sample recording (boost 0, then
# 15000 set from the TUI at +32.6 s): windows cut by seconds and by time
# of day, groups compared against a golden 80-column table, JSON and CSV
# for scripts, an SVG that XML tools accept (and rsvg-convert renders when
# installed) with the control change drawn, hostile names escaped, and
# clear errors for bad windows, groups and files.
# usage: compare.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/thpfioscale-boost-0-to-15000.ftr
[ -f "$S" ] || { echo "FAIL sample recording $S missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# windows
"$FT" report --json "$S" --from 2 --to 32 > "$tmp/w1.json"
check "report --from 2 --to 32: the boost-0 phase, every fragmenting fallback in it" \
	jqe '(.from_s - 2 | fabs) < 0.5 and (.to_s - 32 | fabs) < 0.5 and .totals.extfrag_fragmenting == 11096 and
	     ([.controls[] | select(.how != "outside")] | length) == 0' "$tmp/w1.json"
"$FT" report --json "$S" --from 33 > "$tmp/w2.json"
check "report --from 33: after the flip, none" jqe '.from_s >= 33 and .totals.extfrag_fragmenting == 0' "$tmp/w2.json"
"$FT" report --json "$S" > "$tmp/all.json"
check "report: the whole recording has the change at +32.6 s" \
	jqe '[.controls[] | select(.how != "outside")] | length == 1 and (.[0].t_s * 10 | round) == 326' "$tmp/all.json"
# the flip to 0 before it was made outside fragtop (between the ticks at 2 and 3 s)
check "report: the change outside fragtop listed too, at the tick that saw it" \
	jqe '[.controls[] | select(.how == "outside")] | length == 1 and .[0].knob == "watermark_boost_factor" and
	     .[0].old == "15000" and .[0].new == "0" and (.[0].t_s | round) == 3' "$tmp/all.json"
check "report text: the outside change in time order before ours" \
	bash -c '"$1" report "$2" | grep -A3 "^control changes    2 (1 of them outside this fragtop)" |
		grep -q "^ *+3.0s  outside seen *watermark_boost_factor 15000 -> 0"' _ "$FT" "$S"
start=$(TZ=UTC "$FT" report "$S" | sed -nE 's/.*started [0-9-]+ ([0-9:]+) UTC.*/\1/p')
t30=$(date -u -d "1970-01-01 $start 30 seconds" +%H:%M:%S)
TZ=UTC "$FT" report --json "$S" --from "$t30" > "$tmp/w3.json"
# the start's second and 30 s: 30 s less the start's fraction of a second after it
want=$(jq '(.start_realtime_ns / 1e9) as $s | ($s | floor) + 30 - $s' "$tmp/all.json")
check "report --from HH:MM:SS ($t30, $want s after the start): the tick nearest it" \
	jqe --argjson w "$want" '(.from_s - $w | fabs) < 0.5' "$tmp/w3.json"
check "export --from 2 --to 32: the same window, its fragmenting column adds up" test \
	"$("$FT" export "$S" --csv --from 2 --to 32 | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++)
		if ($i == "extfrag_fragmenting") c = i; next } { s += $c } END { print s }')" = 11096
"$FT" report "$S" --from 5000 > /dev/null 2> "$tmp/e"; rc=$?
check "a window past the end: exit 1, says how long the recording is" \
	test $rc = 1 -a -n "$(grep 'no sample in the window (the recording is 117.3 s long)' "$tmp/e")"
"$FT" report "$S" --from 10:61 > /dev/null 2> "$tmp/e"; rc=$?
check "a bad time: exit 1, says what it takes" test $rc = 1 -a -n "$(grep 'neither seconds nor a time of day' "$tmp/e")"

# compare
"$FT" compare "before=$S@2..32" "after=$S@33.." > "$tmp/c.txt"; rc=$?
check "compare: exit 0" test $rc = 0
if diff -u tests/cli/golden/compare-sample.txt "$tmp/c.txt"; then ok "compare: the golden table"; else bad "compare: the golden table"; fi
check "compare: every line within 80 columns" test "$(LC_ALL=C.UTF-8 wc -L < "$tmp/c.txt")" -le 80
check "compare: rates per second, a change per row" grep -qE '^  per second +369\.0 +0 +-100\.0%' "$tmp/c.txt"
# names too long for a column: a letter each, named in full under the table
"$FT" compare "$S" tests/recordings/adverse-6.18.ftr > "$tmp/long.txt"
check "long group names: heads A (n=1) and B (n=1), none cut" \
	grep -qE '^ +A \(n=1\) +B \(n=1\) +change$' "$tmp/long.txt"
check "a percentage's change in points: 46.5 to 97.8 is +51.3 pt, not +110.5%" \
	grep -qE '^THP fault success % +46\.5 +97\.8 +\+51\.3 pt $' "$tmp/long.txt"
check "... each named whole under the table" bash -c "grep -qx 'A = thpfioscale-boost-0-to-15000.ftr:' '$tmp/long.txt' &&
	grep -qx 'B = adverse-6.18.ftr:' '$tmp/long.txt'"
"$FT" compare --json "before=$S@2..32" "after=$S@33.." > "$tmp/c.json"
check "compare --json: groups, rows with stats, change and the test" jqe '(.groups | length) == 2 and
	.test == "welch" and (.rows[] | select(.metric == "extfrag_fragmenting_per_s") |
	.groups[0].n == 1 and .groups[1].change_pct == -100 and .groups[1].significant == null)' "$tmp/c.json"
"$FT" compare --csv "before=$S@2..32" "after=$S@33.." > "$tmp/c.csv"
check "compare --csv: a header and a line per metric, finding that differs, and group" test \
	"$(head -1 "$tmp/c.csv")" = "metric,group,n,mean,sd,min,max,change_pct,change_points,p_value,significant" -a \
	"$(($(wc -l < "$tmp/c.csv") - 1))" = "$(jq '(.rows | length) * 2 + (.findings | length) * 2' "$tmp/c.json")"
check "... a finding's line: the share of runs it fired in" grep -qx 'finding:boost_off,before,1,1,,1,1,,,,' "$tmp/c.csv"
check "compare --json: the findings that differ, fired of checked" jqe '.findings[] | select(.rule == "boost_off") |
	.groups[0].fired == 1 and .groups[0].checked == 1 and .groups[1].fired == 0' "$tmp/c.json"
# three runs a group (the same windows): the sd and the test appear
"$FT" compare --json "a=$S@2..12,$S@12..22,$S@22..32" "b=$S@40..60,$S@60..80,$S@80..100" > "$tmp/g.json"
check "compare groups: n 3, an sd, Welch's p and its verdict" \
	jqe '.rows[] | select(.metric == "extfrag_fragmenting_per_s") | .groups[0].n == 3 and
	     .groups[0].sd > 0 and (.groups[1].p_value | type) == "number" and
	     (.groups[1].significant | type) == "boolean" and (.groups[0].runs | length) == 3' "$tmp/g.json"
"$FT" compare "a=$S@2..12,$S@12..22,$S@22..32" "b=$S@40..60,$S@60..80,$S@80..100" > "$tmp/g.txt"
check "compare groups: mean ±sd in the table, within 80 columns" test \
	-n "$(grep -E '^  per second +[0-9.]+ ±[0-9.]+ ' "$tmp/g.txt")" -a "$(LC_ALL=C.UTF-8 wc -L < "$tmp/g.txt")" -le 80
"$FT" compare "$S" > /dev/null 2> "$tmp/e"; rc=$?
check "compare with one group: usage, exit 2" test $rc = 2
"$FT" compare "a=$S" "b=$tmp/none.ftr" > /dev/null 2> "$tmp/e"; rc=$?
check "compare with a missing file: exit 1, names it" test $rc = 1 -a -n "$(grep 'none.ftr' "$tmp/e")"
"$FT" compare "a=$S" "b=" > /dev/null 2> "$tmp/e"; rc=$?
check "an empty group: exit 2, says so" test $rc = 2 -a -n "$(grep "group 'b' has no recording" "$tmp/e")"

# plot
"$FT" plot "$S" -o "$tmp/p.svg"; rc=$?
check "plot: exit 0, an SVG" test $rc = 0 -a -s "$tmp/p.svg"
if command -v xmllint > /dev/null; then
	check "plot: xmllint accepts it" xmllint --noout "$tmp/p.svg"
fi
check "plot: the flip at +32.6 s drawn and labelled" grep -q '+32.6 s watermark_boost_factor 0 -&gt; 15000' "$tmp/p.svg"
check "plot: the change outside fragtop too" grep -q 'watermark_boost_factor 15000 -&gt; 0 (outside fragtop)' "$tmp/p.svg"
if command -v rsvg-convert > /dev/null; then
	rsvg-convert -o "$tmp/p.png" "$tmp/p.svg"; rc=$?
	check "plot: rsvg-convert renders a PNG" test $rc = 0 -a -s "$tmp/p.png"
fi
# the change lines stay inside the panels (issue 38: they crossed the titles), one segment a
# panel; every panel is a 120-pixel plot area (the grey frame), so each segment is 120 high
check "plot: a change's dashed line is drawn per panel, never across a title" awk '
	/stroke="#b35900"/ { n++; match($0, /y1="[0-9.]+"/); a = substr($0, RSTART + 4, RLENGTH - 5)
		match($0, /y2="[0-9.]+"/); b = substr($0, RSTART + 4, RLENGTH - 5); if (b - a != 120) bad = 1 }
	END { exit bad || n < 8 }' "$tmp/p.svg"
# a label near the right edge ends at its line (it was clipped: "2500 -> 150")
"$FT" plot tests/recordings/adverse-6.18.ftr -o "$tmp/adv.svg"
check "plot: a change late in the recording is labelled to the left of its line, whole" \
	grep -qE 'text-anchor="end" class="m">\+62\.0 s watermark_boost_factor 2500 -&gt; 15000 \(outside fragtop\)<' "$tmp/adv.svg"
check "plot: ... one early is labelled to the right" grep -qE '<text x="[0-9.]+" y="[0-9]+" class="m">\+9\.0 s ' "$tmp/adv.svg"
# a cgroup's path longer than the label column: rows by number, each path whole under them
"$FT" compare tests/recordings/adverse-6.18.ftr tests/recordings/stacks-6.18.ftr > "$tmp/cg.txt"
check "compare by cgroup: long paths are not cut, the rows numbered" bash -c "
	grep -qE '^  cgroup 1 +[0-9.]+ ' '$tmp/cg.txt' &&
	grep -qx '  cgroup 1  /process_api/730b0e66741056fbd04b0a311816c6ea' '$tmp/cg.txt' && ! grep -q '~' '$tmp/cg.txt'"
# two recordings: each label names its recording, and no two share a row where they meet
"$FT" plot "$S" tests/recordings/adverse-6.18.ftr -o "$tmp/two.svg"
check "plot of two: each change labelled with its recording's name" bash -c "
	grep -q 'class=\"m\">thpfioscale-boost-0-to-15000.ftr: +32.6 s watermark_boost_factor 0 -&gt; 15000<' '$tmp/two.svg' &&
	grep -q 'class=\"m\">adverse-6.18.ftr: +9.0 s ' '$tmp/two.svg'"
check "... and no two labels print over each other (6.2 px a character at most)" awk '
	/class="m">/ { match($0, /x="[0-9.]+"/); x = substr($0, RSTART + 3, RLENGTH - 4) + 0
		match($0, /y="[0-9]+"/); y = substr($0, RSTART + 3, RLENGTH - 4)
		t = $0; sub(/.*class="m">/, "", t); sub(/<\/text>.*/, "", t); gsub(/&[a-z]+;/, "x", t)
		w = length(t) * 6.2; x0 = /text-anchor="end"/ ? x - w : x
		for (i = 0; i < n; i++) if (Y[i] == y && x0 < X1[i] && X0[i] < x0 + w) bad = 1
		Y[n] = y; X0[n] = x0; X1[n] = x0 + w; n++ }
	END { exit bad || n < 4 }' "$tmp/two.svg"
"$FT" plot "$S" -o "$tmp/p.svg" 2> "$tmp/e"; rc=$?
check "plot: an existing output is refused without --force" test $rc = 1 -a -n "$(grep -- '--force' "$tmp/e")"
"$FT" plot "$S" "$S" --from 10 -o "$tmp/p.svg" --force; rc=$?
check "plot: two files overlay, a window, --force" test $rc = 0 -a -n "$(grep -c 'stroke-dasharray="7 4"' "$tmp/p.svg")"
cp "$S" "$tmp/<b>&\"x'.ftr"
"$FT" plot "$tmp/<b>&\"x'.ftr" -o - > "$tmp/h.svg"
if command -v xmllint > /dev/null; then
	check "plot: a file name with markup stays text" xmllint --noout "$tmp/h.svg"
fi
check "plot: ... escaped" grep -q '&lt;b&gt;&amp;&quot;x&apos;.ftr' "$tmp/h.svg"
"$FT" plot "$S" > /dev/null 2> "$tmp/e"; rc=$?
check "plot without -o: usage, exit 2" test $rc = 2
echo "compare.sh: $fails failure(s)"
[ $fails -eq 0 ]
