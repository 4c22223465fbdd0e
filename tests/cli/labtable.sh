#!/bin/bash
# The seeds' table as `make lab-table` left it (tests/recordings/lab-table:
# per kernel, three groups of runs of the lab, lab/table.sh) read back
# without a kernel: compare over the kept recordings prints the kept tables
# (each group against boost-off, and the stall against boost) byte for byte; each run's value in the table's rows equals its own
# report's total (fragmenting fallbacks, fragmentation stalls, THP fault
# success); every stall run's traced stalls equal the kernel's count, and
# in the table itself every stall run stalled.  The same for the tables
# under cross/ (each kernel under the other's workload, docs/lab-table.md),
# where a stall run may have stalled 0 times.
# usage: labtable.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
D=${LAB_TABLE_DIR:-tests/recordings/lab-table}
command -v jq >/dev/null || { echo "FAIL jq not installed"; exit 1; }
[ -f "$D/time.txt" ] || { echo "FAIL $D/time.txt missing: make lab-table"; exit 1; }
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

# table DIR: the checks of one table.sh output directory
table() {
	local D=$1 t v g f n runs gi ri miss m row tot a b groups
	for t in "$D"/compare-*.txt; do
		v=${t##*/compare-}; v=${v%.txt}
		groups=()
		for g in boost-off boost stall; do
			groups+=("$g=$(ls "$D/$v-$g-"[0-9]*.ftr | sort -V | paste -sd,)")
		done
		"$FT" compare "${groups[@]}" > "$TMPD/c.txt"
		check "${D#tests/recordings/} $v: the kept table is what compare prints" cmp -s "$t" "$TMPD/c.txt" || diff "$t" "$TMPD/c.txt" | head -20
		"$FT" compare "${groups[1]}" "${groups[2]}" > "$TMPD/s.txt"
		check "${D#tests/recordings/} $v: and the stall against boost, the seed's last step" cmp -s "$D/stages-$v.txt" "$TMPD/s.txt"
		"$FT" compare --json "${groups[@]}" > "$TMPD/c.json"
		n=$(jq '.groups | length' "$TMPD/c.json")
		check "${D#tests/recordings/} $v: three groups" test "$n" = 3
		runs=$(jq '[.groups[].runs | length] | min' "$TMPD/c.json")
		check "${D#tests/recordings/} $v: at least 5 runs a group ($runs)" test "${runs:-0}" -ge 5
		# each run's row value against its report's total, in file order
		gi=0 miss=0
		for g in boost-off boost stall; do
			ri=0
			for f in $(ls "$D/$v-$g-"[0-9]*.ftr | sort -V); do
				"$FT" report --json "$f" > "$TMPD/r.json"
				for m in extfrag_fragmenting:extfrag_fragmenting fragmentation_stalls:fragmentation_stalls; do
					row=${m%%:*} tot=${m##*:}
					a=$(jq --arg r "$row" --argjson g $gi --argjson i $ri \
						'.rows[] | select(.metric == $r) | .groups[$g].runs[$i]' "$TMPD/c.json")
					b=$(jq --arg t "$tot" '.totals[$t] // empty' "$TMPD/r.json")
					[ -z "$b" ] && [ "$a" = null ] && continue	# a kernel without the stall
					[ "$a" = "$b" ] || { echo "     $v $g run $((ri + 1)): $row $a in the table, $b in the report"; miss=$((miss + 1)); }
				done
				a=$(jq --argjson g $gi --argjson i $ri \
					'.rows[] | select(.metric == "thp_fault_success_pct") | .groups[$g].runs[$i] | . * 1000 | round' "$TMPD/c.json")
				b=$(jq '.totals.thp_fault_success * 100 * 1000 | round' "$TMPD/r.json")
				[ "$a" = "$b" ] || { echo "     $v $g run $((ri + 1)): THP success $a in the table, $b in the report (x1000)"; miss=$((miss + 1)); }
				ri=$((ri + 1))
			done
			gi=$((gi + 1))
		done
		check "${D#tests/recordings/} $v: every run's fragmenting fallbacks, stalls and THP success equal its report's" test $miss = 0
	done
	check "${D#tests/recordings/}: every stall run: traced stalls = the kernel's fragment_stall" \
		test -z "$(awk '$4 != $5' "$D/stalls.txt")"
	check "${D#tests/recordings/}: the time it took is kept" grep -qE '^[0-9]+ min for ' "$D/time.txt"
}
table "$D"
check "every stall run of the table stalled" test -z "$(awk '$4 == 0' "$D/stalls.txt")"
# fallbacks per kernel (DIR): each run's fragtop counts against the
# kernel's own (the guest's two reference instances, lab/run.sh), and the
# recording's report says what the row says
extfrag_rows() {
	local D=$1 rows=0 off=0 stale=0 v g n ft ff fo it if io ot of oo lost r k
	while read -r v g n _ ft ff fo _ it if io _ ot of oo _ lost _ perf; do
		rows=$((rows + 1))
		# fragtop's total, fragmenting and ownership counts lie between the inner and the outer reference
		for k in "$ft $it $ot" "$ff $if $of" "$fo $io $oo"; do
			set -- $k
			[ "$2" -le "$1" ] && [ "$1" -le "$3" ] || { off=$((off + 1)); echo "     $v $g $n: $1 not in [$2, $3]"; }
		done
		[ "$lost" = 0 ] || { off=$((off + 1)); echo "     $v $g $n: the reference lost $lost"; }
		# perf counted over the workload only, inside fragtop's window
		case ${perf:--} in
		-) ;;
		*) [ "$perf" -le "$ft" ] || { off=$((off + 1)); echo "     $v $g $n: perf $perf > fragtop $ft"; } ;;
		esac
		r=$("$FT" report --json "$D/$v-$g-$n.ftr" | jq -r '.totals | "\(.extfrag) \(.extfrag_fragmenting) \(.extfrag_change_ownership)"')
		[ "$r" = "$ft $ff $fo" ] || { stale=$((stale + 1)); echo "     $v $g $n: report $r, the row $ft $ff $fo"; }
	done < "$D/extfrag.txt"
	for v in 6.1 6.12; do
		check "${D#tests/recordings/} $v: every run's fragtop counts lie within the kernel's own (fragmenting=, change_ownership=)" \
			test "$(grep -c "^$v " "$D/extfrag.txt")" -ge 15 -a $off = 0
	done
	check "${D#tests/recordings/}: the extfrag rows are the recordings' reports ($rows rows)" test $stale = 0
}
for d in "$D" "$D/beyond"; do
	if [ -f "$d/extfrag.txt" ]; then
		extfrag_rows "$d"
	else
		skip "no extfrag.txt in $d: a table made before lab/run.sh counted the kernel's own"
	fi
done
for c in "$D"/cross/*/ "$D"/beyond/; do
	[ -d "$c" ] && table "${c%/}"
done
echo "labtable.sh: $fails failure(s)"
[ $fails -eq 0 ]
