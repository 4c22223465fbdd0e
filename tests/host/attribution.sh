#!/bin/bash
# Who changed a knob, on this kernel: fragtop record runs while
# watermark_boost_factor is changed three times, by `fragtop set`, by a
# write from outside fragtop (sysctl's way) and by `fragtop set` again.
# The recording tells them apart through the change journal
# (run/fragtop/knob-changes, model/journal.h): report lists two changes
# by fragtop set (with its pid) and one outside fragtop, and doctor gives
# four intervals of still knobs, each opened by its writer.  The knob is
# put back by a trap whatever happens.  Needs root.
# usage: attribution.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
K=/proc/sys/vm/watermark_boost_factor
[ "$(id -u)" = 0 ] && [ -w $K ] || skip_all "who changed a knob: needs root and $K"
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
TMPD=$(mktemp -d)
orig=$(cat $K)
rpid=
cleanup() {
	[ -n "$rpid" ] && kill "$rpid" 2> /dev/null
	echo "$orig" > $K
	rm -rf "$TMPD"
}
trap cleanup EXIT
grew() { [ "$(stat -c %s "$TMPD/a.ftr" 2> /dev/null || echo 0)" -gt "$1" ]; }	# for until_ok
ticks() { local n0; n0=$(stat -c %s "$TMPD/a.ftr"); until_ok 20 grew "$n0"; until_ok 20 grew "$((n0 + 1))"; }

"$FT" record -o "$TMPD/a.ftr" -i 0.5 -t 600 --no-trace 2> "$TMPD/err" & rpid=$!
until_ok 20 test -s "$TMPD/a.ftr" || { bad "the recorder started"; cat "$TMPD/err"; exit 1; }
ticks
"$FT" set watermark_boost_factor=5000 > /dev/null & spid1=$!; wait $spid1
ticks; ticks
echo 7000 > $K
ticks; ticks
"$FT" set "watermark_boost_factor=$orig" > /dev/null & spid2=$!; wait $spid2
ticks; ticks
kill -INT "$rpid"; wait "$rpid"; rpid=

"$FT" report --json "$TMPD/a.ftr" > "$TMPD/r.json" 2> "$TMPD/err"
check "report: the two fragtop set changes named with their pids" jqe --argjson a "$spid1" --argjson b "$spid2" \
	'[.controls[] | select(.knob == "watermark_boost_factor" and .how == "set") | .message |
	test("changed by fragtop set \\(pid \($a)|changed by fragtop set \\(pid \($b)")] == [true, true]' "$TMPD/r.json"
check "... the write from outside said as outside" jqe '[.controls[] | select(.how == "outside") | .new] == ["7000"]' \
	"$TMPD/r.json"
"$FT" report "$TMPD/a.ftr" > "$TMPD/r.txt" 2>&1
check "report's text counts them apart" grep -q \
	'^control changes    3 (3 of them outside this fragtop: 2 by another fragtop process, 1 outside fragtop)' "$TMPD/r.txt"
"$FT" doctor --json "$TMPD/a.ftr" > "$TMPD/d.json" 2> "$TMPD/err"
check "doctor: four intervals, each opened by its writer" jqe --argjson a "$spid1" --argjson b "$spid2" \
	'[.intervals[] | .changed_by] == [null, "fragtop set (pid \($a), uid 0)", "outside fragtop",
	"fragtop set (pid \($b), uid 0)"]' "$TMPD/d.json"
check "... with the knob in force in each" jqe --argjson o "$orig" '[.intervals[] | .knobs.watermark_boost_factor] ==
	[$o, 5000, 7000, $o]' "$TMPD/d.json"
"$FT" doctor "$TMPD/a.ftr" > "$TMPD/d.txt" 2>&1
check "doctor's text says where and who" grep -qE "^  \\+[0-9.]+ s  watermark_boost_factor 5000 -> 7000, by outside fragtop$" \
	"$TMPD/d.txt"
[ $fails = 0 ]
