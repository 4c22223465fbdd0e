#!/bin/bash
# The kernel log as an input, end to end on this kernel, against forgery:
# fragtop record runs while three lines that are not the kernel's page
# allocation failures reach /dev/kmsg:
# - the kernel's form written by user space (which the kernel files under
#   LOG_USER, never facility 0: printk.c devkmsg_write());
# - the phrase echoed by the kernel itself inside another message: a
#   mount option tmpfs refuses ("tmpfs: Unknown parameter 'x: page
#   allocation failure: order:10'"), as any user may make it in a user
#   namespace;
# - a line cut before its mode.
# None is counted: report says 0 failures, doctor fires no alloc_failures,
# and the exporter's counter stays 0.  (A real warn_alloc() record, counted
# through the same session code a replay runs, is tests/unit/test_kmsg.c's,
# test_experiment.c's and test_findings_live.c's: the kernel prints none on
# demand.)  Nothing of the host is changed: the mount fails, and its
# directory is removed.  Needs root.
# usage: kmsg.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
[ "$(id -u)" = 0 ] && [ -w /dev/kmsg ] || skip_all "the kernel log: needs root and /dev/kmsg"
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
TMPD=$(mktemp -d)
rpid=
trap '[ -n "$rpid" ] && kill "$rpid" 2> /dev/null; umount "$TMPD/mnt" 2> /dev/null; rm -rf "$TMPD"' EXIT
say() { echo "<4>$*" > /dev/kmsg; }
tag="(a line written by fragtop's tests/host/kmsg.sh, not the kernel's)"

"$FT" record -o "$TMPD/k.ftr" -i 0.5 -t 600 --no-trace 2> "$TMPD/err" &
rpid=$!
until_ok 20 test -s "$TMPD/k.ftr" || { bad "the recorder started"; cat "$TMPD/err"; exit 1; }
grew() { [ "$(stat -c %s "$TMPD/k.ftr")" -gt "$1" ]; }	# for until_ok, which expands its arguments once
sleep_ticks() { local n0; n0=$(stat -c %s "$TMPD/k.ftr"); until_ok 20 grew "$n0"; }
sleep_ticks	# a chunk written since: the recorder reads the log from here on
say "fragtop-test: page allocation failure: order:5, mode:0x40dc0(GFP_KERNEL|__GFP_COMP), nodemask=(null) $tag"
mkdir "$TMPD/mnt"
mount -t tmpfs -o "x: page allocation failure: order:10, mode:0xcc0" none "$TMPD/mnt" 2> /dev/null
check "the kernel echoed the forged mount option (facility 0)" \
	bash -c "dmesg -r 2> /dev/null | grep -q \"^<[0-7]>.*tmpfs: Unknown parameter 'x: page allocation failure: order:10\""
say "fragtop-test: page allocation failure: order:7"
sleep_ticks
sleep_ticks
kill -INT "$rpid"
wait "$rpid"
rpid=
"$FT" report --json "$TMPD/k.ftr" > "$TMPD/r.json" 2> "$TMPD/err"
check "report: the log was read" jqe '.page_allocation_failures.total != null' "$TMPD/r.json"
check "report: no failure counted (user space's, the echoed option, a cut line)" \
	jqe '.page_allocation_failures.total == 0' "$TMPD/r.json"
"$FT" doctor --json "$TMPD/k.ftr" > "$TMPD/d.json" 2> "$TMPD/err"
check "doctor: alloc_failures checked, and not fired" \
	jqe '([.findings[] | select(.rule == "alloc_failures")] | length == 0) and
	     ([.not_checked[]? | select(.rule == "alloc_failures")] | length == 0)' "$TMPD/d.json"
"$FT" export --openmetrics "$TMPD/k.ftr" > "$TMPD/m.txt" 2> "$TMPD/err"
check "the exporter's counter: there, and 0 at every order" bash -c "grep -q '^fragtop_page_allocation_failures_total' '$TMPD/m.txt' &&
	! grep -E '^fragtop_page_allocation_failures_total(\{[^}]*\})? [1-9]' '$TMPD/m.txt'"
[ $fails = 0 ]
