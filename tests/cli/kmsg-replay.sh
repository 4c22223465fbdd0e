#!/bin/bash
# The kernel log replayed from a recording (tests/recordings/forged/kmsg.ftr,
# `make crafted`): one real warn_alloc() record (order 4) among the forged
# forms that are no failure: the kernel's form written by user space
# (facility LOG_USER, order 5), the phrase echoed inside a tmpfs message
# (order 10), a line cut before its mode (order 7).  The real one counts
# in report, doctor and the exporter's counter; the forged ones nowhere.
# usage: kmsg-replay.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
R=tests/recordings/forged/kmsg.ftr
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

"$FT" report --json "$R" > "$TMPD/r.json" 2> "$TMPD/err"
check "report: the real failure alone, order 4, its task and gfp" jqe '.page_allocation_failures |
	.total == 1 and .by_order == {"4": 1} and .newest.comm == "fio" and .newest.gfp == "GFP_KERNEL|__GFP_COMP|__GFP_ZERO"' \
	"$TMPD/r.json"
"$FT" doctor --json "$R" > "$TMPD/d.json" 2> "$TMPD/err"
check "doctor: alloc_failures from it, order 4 (not the forged 10)" jqe '.findings[] | select(.rule == "alloc_failures") |
	.evidence.figures.page_allocation_failures == 1 and .evidence.figures.page_allocation_failure_order == 4' "$TMPD/d.json"
"$FT" export --openmetrics "$R" > "$TMPD/m.txt" 2> "$TMPD/err"
check "the exporter's counter: order 4 at 1, every other order 0" bash -c "
	grep -qE '^fragtop_page_allocation_failures_total\{[^}]*order=\"4\"[^}]*\} 1( |$)' '$TMPD/m.txt' &&
	! grep -E '^fragtop_page_allocation_failures_total\{' '$TMPD/m.txt' | grep -v 'order=\"4\"' | grep -qE '\} [1-9]'"
[ $fails = 0 ]
