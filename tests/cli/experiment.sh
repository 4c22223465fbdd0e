#!/bin/bash
# fragtop experiment on a copy of a captured tree (its knob files are
# plain files: nothing of this host is written), every exit path:
# - the end: every block run in ABBA order, each change in the
#   recording, the knob back, the restore record gone, exit 0;
# - SIGINT and SIGTERM mid-block: the knob back, said, exit 1;
# - SIGKILL: the knob left changed and the restore record kept; then
#   `experiment --restore` puts it back and says so;
# - a guard set to breach (pressure rises to 50% full): the knob back
#   within one tick of the breach, said, exit 1;
# - a second experiment while one runs: refused (the lock);
# - refusals before anything is written: an unknown knob, a bad value,
#   one value, a bad guard, a knob it cannot write, a non-root run on
#   this host.
# usage: experiment.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
TMPD=$(mktemp -d)
epid=
trap '[ -n "$epid" ] && kill -9 "$epid" 2> /dev/null; rm -rf "$TMPD"' EXIT
T=$TMPD/tree
cp -r tests/fixtures/6.18-idle "$T"
K=$T/proc/sys/vm/watermark_boost_factor
REC=$T/var/lib/fragtop/experiment.restore
knob() { cat "$K"; }
is() { [ "$(knob)" = "$1" ]; }

# the end
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 15000,0 --period 2 --rounds 2 --json \
	-o "$TMPD/end.ftr" > "$TMPD/end.json" 2> "$TMPD/err"; rc=$?
check "the end: exit 0" test $rc = 0 || cat "$TMPD/err"
check "... every block, ABBA" jqe '(.blocks | map(.value)) == ["15000", "0", "0", "15000"] and .order == "ABBA" and
	.completed and .restored and .stopped == null' "$TMPD/end.json"
check "... the knob back" is 15000
check "... the restore record gone" test ! -e "$REC"
"$FT" report --json "$TMPD/end.ftr" > "$TMPD/end-r.json" 2> /dev/null
check "... each change in the recording, the last putting it back" jqe '[.controls[] | select(.knob == "watermark_boost_factor")] |
	length == 5 and .[-1].new == "15000"' "$TMPD/end-r.json"

# SIGINT, SIGTERM mid-block
for sig in INT TERM; do
	"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 30 --rounds 2 \
		-o "$TMPD/$sig.ftr" > "$TMPD/$sig.out" 2> "$TMPD/$sig.err" & epid=$!
	check "SIG$sig: the first block set the knob" until_ok 30 is 0
	check "... the restore record written before it" test -s "$REC"
	kill -"$sig" "$epid"; wait "$epid"; rc=$?; epid=
	check "... exit 1" test $rc = 1
	check "... the knob back" is 15000
	check "... said" grep -q '^stopped early; watermark_boost_factor put back to 15000: ok' "$TMPD/$sig.out"
	check "... the restore record gone" test ! -e "$REC"
done

# SIGKILL: the record stays; --restore applies it
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 30 --rounds 2 \
	-o "$TMPD/kill.ftr" > /dev/null 2>&1 & epid=$!
check "SIGKILL: the first block set the knob" until_ok 30 is 0
kill -9 "$epid"; wait "$epid" 2> /dev/null; epid=
check "... the knob left at 0, the restore record kept" test "$(knob)" = 0 -a -s "$REC"
"$FT" experiment --root "$T" --restore 2> "$TMPD/restore.err"; rc=$?
check "... --restore: exit 0, the knob back" test $rc = 0 -a "$(knob)" = 15000
check "... said" grep -q 'an experiment ended without putting watermark_boost_factor back: restored it to 15000 (was 0)' \
	"$TMPD/restore.err"
check "... the record gone" test ! -e "$REC"

# the lock: one at a time
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 30 --rounds 2 \
	-o "$TMPD/lock.ftr" > /dev/null 2>&1 & epid=$!
until_ok 30 is 0
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 100,200 --period 2 -o "$TMPD/l2.ftr" \
	> /dev/null 2> "$TMPD/lock.err"; rc=$?
check "a second experiment while one runs: refused" test $rc = 1 && grep -q 'another experiment runs' "$TMPD/lock.err"
check "... and it changed nothing" is 0
kill -INT "$epid"; wait "$epid"; epid=
check "... the first puts its knob back" is 15000

# a guard that breaches: memory pressure rises to 50% full
mkdir -p "$T/proc/pressure"
printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
	> "$T/proc/pressure/memory"
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 30 --rounds 2 --json \
	--guard pressure=10 -o "$TMPD/guard.ftr" > "$TMPD/guard.json" 2> "$TMPD/guard.err" & epid=$!
check "guard: the first block set the knob" until_ok 30 is 0
printf 'some avg10=60.00 avg60=0.00 avg300=0.00 total=100\nfull avg10=50.00 avg60=0.00 avg300=0.00 total=50\n' \
	> "$T/proc/pressure/memory"
check "... the breach ends it" until_ok 30 test -s "$TMPD/guard.json"
wait "$epid"; rc=$?; epid=
check "... exit 1, the knob back" test $rc = 1 -a "$(knob)" = 15000
check "... it says which guard and what it saw" jqe '.stopped.guard == "pressure" and
	(.stopped.why | test("full avg10 50.00%, above 10%")) and .restored' "$TMPD/guard.json"
"$FT" report --json "$TMPD/guard.ftr" > "$TMPD/guard-r.json" 2> /dev/null
at=$(jq '.stopped.at_s' "$TMPD/guard.json")
check "... put back within one tick of the breach (at $at s)" jqe --argjson at "$at" \
	'[.controls[] | select(.knob == "watermark_boost_factor")] | .[-1] | .new == "15000" and .t_s <= $at + 1.01' \
	"$TMPD/guard-r.json"
rm -f "$T/proc/pressure/memory"

# refusals, nothing written
refused() {	# WHAT ARGS...: exit 1 or 2, the knob untouched
	local what=$1; shift
	"$FT" experiment --root "$T" -o "$TMPD/x.ftr" "$@" > /dev/null 2> "$TMPD/x.err"; local rc=$?
	check "refused: $what ($(head -c 100 "$TMPD/x.err"))" test $rc -ge 1 -a "$(knob)" = 15000 -a ! -e "$TMPD/x.ftr"
}
refused "an unknown knob" --knob watermark_bost_factor --values 1,2
refused "a bad value" --knob watermark_boost_factor --values 15000,abc
refused "one value" --knob watermark_boost_factor --values 15000
refused "a bad guard" --knob watermark_boost_factor --values 0,15000 --guard presure=3
refused "a trigger" --knob compact_memory --values 1,1
chmod 0444 "$K"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then	# root writes a 0444 file: a non-root one does not
	setpriv --reuid=65534 --regid=65534 --clear-groups "$FT" experiment --root "$T" --knob watermark_boost_factor \
		--values 0,15000 -o /dev/null > /dev/null 2> "$TMPD/ro.err"; rc=$?
	check "refused: a knob it cannot write, said, no restore record left" test $rc = 1 -a ! -e "$REC" &&
		grep -qE 'cannot write watermark_boost_factor|cannot make' "$TMPD/ro.err"
fi
chmod 0644 "$K"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$FT" experiment --knob watermark_boost_factor \
		--values 0,15000 -o /dev/null > /dev/null 2> "$TMPD/nr.err"; rc=$?
	check "refused: not root on this host, said" test $rc = 1 && grep -q 'needs root' "$TMPD/nr.err"
fi
[ $fails = 0 ]
