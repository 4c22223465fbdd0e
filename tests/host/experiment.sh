#!/bin/bash
# fragtop experiment on this kernel's own watermark_boost_factor:
# - a short run (2 rounds of 3 s blocks, traced): every block, each value
#   measured twice, the knob back as it was, the restore record gone;
# - kill -9 mid-block: the knob left changed and the record kept, then
#   the next fragtop start (fragtop get) puts it back and says so.
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
cleanup() {
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
[ $fails = 0 ]
