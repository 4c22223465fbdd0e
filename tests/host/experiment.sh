#!/bin/bash
# fragtop experiment on this kernel's own watermark_boost_factor:
# - a short run (2 rounds of 3 s blocks, traced): every block, each value
#   measured twice, the knob back as it was, the restore record gone;
# - kill -9 mid-block: the knob left changed and the record kept, then
#   the next fragtop start (fragtop get) puts it back and says so;
# - a loop writing the original value every 7 s from outside (sysctl's
#   way, and `fragtop set`, which is refused): each write that changed it
#   said with who wrote it and undone, the blocks it hit void by the
#   stated rule, and the verdict the one `--judge` gives over the
#   recording, to the last digit.
# The knob is put back by the trap whatever happens, and
# /var/lib/fragtop is removed if this test made it.  Needs root.
# usage: experiment.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
K=/proc/sys/vm/watermark_boost_factor
[ "$(id -u)" = 0 ] && [ -w $K ] || skip_all "experiment on this host: needs root and $K"
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
TMPD=$(mktemp -d)
orig=$(cat $K)
other=$([ "$orig" = 15000 ] && echo 10000 || echo 15000)
state_made=; [ -d /var/lib/fragtop ] || state_made=1
epid=
lpid=
cleanup() {
	[ -n "$lpid" ] && kill "$lpid" 2> /dev/null
	[ -n "$epid" ] && kill -9 "$epid" 2> /dev/null
	echo "$orig" > $K
	rm -f /var/lib/fragtop/experiment.restore
	[ -n "$state_made" ] && rm -rf /var/lib/fragtop
	rm -rf "$TMPD"
}
trap cleanup EXIT

"$FT" experiment --knob watermark_boost_factor --values "$orig,$other" --period 3 --rounds 2 --json \
	-o "$TMPD/e.ftr" > "$TMPD/e.json" 2> "$TMPD/e.err"; rc=$?
check "a short run: exit 0, every block" test $rc = 0 && jqe '.completed and (.blocks | length) == 4' "$TMPD/e.json" ||
	cat "$TMPD/e.err"
check "... each value measured in its two blocks (traced)" jqe '.metrics[0].values | map(.n) == [2, 2]' "$TMPD/e.json"
check "... the knob back ($orig)" test "$(cat $K)" = "$orig"
check "... the restore record gone" test ! -e /var/lib/fragtop/experiment.restore
check "... a recommendation only with its test: none, or its p < 0.05" jqe '.recommend as $r | $r == null or
	(.metrics[0].values[] | select(.value == $r) | .p_value < 0.05)' "$TMPD/e.json"

"$FT" experiment --knob watermark_boost_factor --values "$other,$orig" --period 30 --rounds 2 \
	-o "$TMPD/k.ftr" > /dev/null 2>&1 & epid=$!
knob_is() { [ "$(cat $K)" = "$1" ]; }
check "kill -9: the first block set $other" until_ok 30 knob_is "$other"
kill -9 "$epid"; wait "$epid" 2> /dev/null; epid=
check "... the knob left at $other, the restore record kept" test "$(cat $K)" = "$other" -a -s /var/lib/fragtop/experiment.restore
"$FT" get watermark_boost_factor > "$TMPD/get.out" 2> "$TMPD/get.err"
check "... the next start puts it back ($orig)" test "$(cat $K)" = "$orig"
check "... and says so" grep -q "an experiment ended without putting watermark_boost_factor back: restored it to $orig (was $other)" \
	"$TMPD/get.err"
check "... the record gone" test ! -e /var/lib/fragtop/experiment.restore

# someone else writes the knob every 7 s: the first write as soon as a block of $other began
"$FT" experiment --knob watermark_boost_factor --values "$orig,$other" --period 5 --rounds 3 --json 	-o "$TMPD/d.ftr" > "$TMPD/d.json" 2> "$TMPD/d.err" & epid=$!
until_ok 30 knob_is "$other"
( while kill -0 "$epid" 2> /dev/null; do
	echo "$orig" > $K
	"$FT" set "watermark_boost_factor=$orig" >> "$TMPD/set.out" 2>&1
	sleep 7
done ) & lpid=$!
wait "$epid"; rc=$?; epid=
kill "$lpid" 2> /dev/null; wait "$lpid" 2> /dev/null; lpid=
n=$(grep -c "reads $orig, not $other: written by someone outside fragtop" "$TMPD/d.err")
check "a loop writing it every 7 s: exit 0, the knob back ($orig)" test $rc = 0 -a "$(cat $K)" = "$orig"
check "... each write that changed it said with who wrote it, and undone ($n)" test "$n" -ge 1 &&
	jqe --argjson n "$n" '.disturbances == $n' "$TMPD/d.json"
check "... its fragtop set refused while the experiment ran" grep -q 'an experiment (pid [0-9]*) is trying its values' \
	"$TMPD/set.out"
check "... every block it hit void, and only those of $other" jqe --arg o "$other" '[.blocks[] | select(.void)] |
	length >= 1 and all(.value == $o)' "$TMPD/d.json"
"$FT" experiment --judge "$TMPD/d.ftr" --json > "$TMPD/j.json" 2> /dev/null
check "... the verdict the same as --judge's, to the last digit" \
	diff <(jq -S '{blocks, metrics, recommend, why}' "$TMPD/d.json") <(jq -S '{blocks, metrics, recommend, why}' "$TMPD/j.json")
[ $fails = 0 ]
