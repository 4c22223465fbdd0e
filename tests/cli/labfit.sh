#!/bin/bash
# The lab's will-it-fit table (docs/lab-fit.md), without a kernel: the
# kept rows (tests/recordings/lab-fit/fit-VER.tsv, lab/fit.sh's) hold ten
# states or more per kernel and size, each row's figures are in order
# (now <= now_max, after <= after_max, now <= after), and the table
# between the doc's markers is what lab/fit-table.sh makes of the rows.
# usage: labfit.sh FRAGTOP_BINARY
# asan: no
set -u
. "$(dirname "$0")/../lib.sh"
D=tests/recordings/lab-fit
DOC=docs/lab-fit.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in 6.1 6.12; do
	f=$D/fit-$v.tsv
	check "$v: the kept rows are there" test -s "$f" || continue
	for s in 2M 4M 1G; do
		n=$(awk -F'\t' -v s=$s 'FNR > 1 && $3 == s' "$f" | wc -l)
		check "$v $s: ten states or more ($n)" test "$n" -ge 10
	done
	check "$v: every row's figures in order" awk -F'\t' 'FNR > 1 {
		if ($5 != "-" && $4 + 0 > $5 + 0) exit 1
		if ($6 != "-" && $7 != "-" && $6 + 0 > $7 + 0) exit 1
		if ($6 != "-" && $4 + 0 > $6 + 0) exit 1 }' "$f"
done
lab/fit-table.sh "$D"/fit-6.1.tsv "$D"/fit-6.12.tsv > "$tmp/table.md"
sed -n '/^<!-- fit-table: begin -->$/,/^<!-- fit-table: end -->$/p' "$DOC" | sed '1d;$d' > "$tmp/doc.md"
if diff -u "$tmp/doc.md" "$tmp/table.md"; then ok "the doc's table is lab/fit-table.sh's"; else bad "the doc's table is lab/fit-table.sh's"; fi
[ $fails = 0 ]
