#!/bin/bash
# The kernel log as an input, end to end on this kernel: fragtop record
# runs while a page allocation failure line is written to /dev/kmsg (as
# warn_alloc() prints one; the task named "fragtop-test" and the text
# saying it was written by this test, so no reader of the log takes it for
# the kernel's), and a line that is not a failure.  The recording holds
# the failure (report: 1, order 5, the task and gfp; its JSON by order),
# not the other line, and doctor names alloc_failures from it.  A line
# written before the recorder started is not counted (the log is read
# from the start on).  Nothing else of the host is changed.  Needs root.
# usage: kmsg.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
[ "$(id -u)" = 0 ] && [ -w /dev/kmsg ] || skip_all "the kernel log: needs root and /dev/kmsg"
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
TMPD=$(mktemp -d)
rpid=
trap '[ -n "$rpid" ] && kill "$rpid" 2> /dev/null; rm -rf "$TMPD"' EXIT
say() { echo "<4>$*" > /dev/kmsg; }
tag="(a line written by fragtop's tests/host/kmsg.sh, not the kernel's)"

say "fragtop-test: page allocation failure: order:3, mode:0xcc0(GFP_KERNEL), nodemask=(null) $tag"
"$FT" record -o "$TMPD/k.ftr" -i 0.5 -t 600 --no-trace 2> "$TMPD/err" &
rpid=$!
until_ok 20 test -s "$TMPD/k.ftr" || { bad "the recorder started"; cat "$TMPD/err"; exit 1; }
sleep_ticks() { local n0; n0=$(stat -c %s "$TMPD/k.ftr"); until_ok 20 test "$(stat -c %s "$TMPD/k.ftr")" -gt "$n0"; }
sleep_ticks	# a chunk written since: the recorder reads the log from here on
say "fragtop-test: page allocation failure: order:5, mode:0x40dc0(GFP_KERNEL|__GFP_COMP), nodemask=(null) $tag"
say "fragtop-test: this is not a failure $tag"
sleep_ticks
sleep_ticks
kill -INT "$rpid"
wait "$rpid"
rpid=
"$FT" report --json "$TMPD/k.ftr" > "$TMPD/r.json" 2> "$TMPD/err"
check "report: one failure, order 5 (not the one before the start)" \
	jqe '.page_allocation_failures | .total == 1 and .by_order["5"] == 1' "$TMPD/r.json"
check "... its task and gfp" jqe '.page_allocation_failures.newest | .comm == "fragtop-test" and .gfp == "GFP_KERNEL|__GFP_COMP"' "$TMPD/r.json"
"$FT" report "$TMPD/k.ftr" > "$TMPD/r.txt" 2>&1
check "report's text says it" grep -q '^page alloc failures 1 in the kernel log   order 5: 1' "$TMPD/r.txt"
"$FT" doctor --json "$TMPD/k.ftr" > "$TMPD/d.json" 2> "$TMPD/err"
check "doctor: alloc_failures, critical, first" jqe '.findings[0] | .rule == "alloc_failures" and .severity == "critical" and
	.evidence.figures.page_allocation_failures == 1 and .evidence.figures.page_allocation_failure_order == 5' "$TMPD/d.json"
[ $fails = 0 ]
