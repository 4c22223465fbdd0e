#!/bin/bash
# fragtop experiment in an incident, on a copy of a captured tree (its
# knob files are plain files: nothing of this host is written):
# - someone else writes the knob during a block: said within a tick with
#   who wrote it, the block's value written again, that block void by the
#   stated rule, and the verdict the same as `--judge` over the recording,
#   to the last digit;
# - killed with -9 at the tested value, then simply run again: the
#   pending restore is applied first, so the original it reads (and puts
#   back) is the real one;
# - its reader gone (SIGPIPE: `|& head`): it runs on and puts the knob back;
# - SIGQUIT mid-block: as SIGTERM, the knob back;
# - `fragtop set` of the knob during a block: refused with the reason;
# - the guard rails it cannot judge said at start and in the JSON, and
#   --require-guards refusing to start without them.
# usage: experiment-incident.sh FRAGTOP_BINARY
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
isnt() { [ "$(knob)" != "$1" ]; }
said() { grep -c "$1" "$2" 2> /dev/null; }
said_n() { [ "$(said "$1" "$2")" -ge "$3" ]; }

# someone else writes the knob during two 0-blocks (of different rounds)
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 15000,0 --period 3 --rounds 4 --json \
	-o "$TMPD/d.ftr" > "$TMPD/d.json" 2> "$TMPD/d.err" & epid=$!
for n in 1 2; do
	until_ok 60 is 0 || break
	echo 15000 > "$K"
	check "write $n during a 0-block: said, with who wrote it" \
		until_ok 10 said_n 'reads 15000, not 0: written by someone outside fragtop' "$TMPD/d.err" $n
	check "... and 0 written again within a tick or two" until_ok 3 is 0
	until_ok 60 isnt 0	# the next block, then a later 0-block
done
wait "$epid"; rc=$?; epid=
check "the disturbed run ends: exit 0, the knob back" test $rc = 0 -a "$(knob)" = 15000
check "... two blocks void, each a 0-block, each saying why" jqe '[.blocks[] | select(.void)] | length == 2 and
	all(.value == "0" and (.why | test("written by someone else|changed outside this fragtop")))' "$TMPD/d.json"
check "... the rule stated" jqe '.void_rule | test("every tick")' "$TMPD/d.json"
check "... the disturbances counted" jqe '.disturbances == 2' "$TMPD/d.json"
"$FT" experiment --judge "$TMPD/d.ftr" --json > "$TMPD/j.json" 2> "$TMPD/j.err"
check "--judge over its recording: the same blocks, means, p values and verdict, to the last digit" \
	diff <(jq -S '{blocks, metrics, recommend, why}' "$TMPD/d.json") <(jq -S '{blocks, metrics, recommend, why}' "$TMPD/j.json")
check "... and the text says the void blocks" bash -c "'$FT' experiment --judge '$TMPD/d.ftr' | grep -q '^2 blocks void'"

# killed with -9 at the tested value, then run again
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 30 --rounds 2 \
	-o "$TMPD/k.ftr" > /dev/null 2>&1 & epid=$!
check "kill -9: the first block set the knob" until_ok 30 is 0
kill -9 "$epid"; wait "$epid" 2> /dev/null; epid=
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 15000,2500 --period 2 --rounds 1 --json \
	-o "$TMPD/k2.ftr" > "$TMPD/k2.json" 2> "$TMPD/k2.err"; rc=$?
check "... run again: the killed one's restore applied first, said" \
	grep -q 'restored it to 15000 (was 0)' "$TMPD/k2.err"
check "... the original it read is 15000, not the 0 left behind, and it is put back" \
	jqe '.original == "15000" and .restored' "$TMPD/k2.json"
check "... the knob ends at the original" is 15000

# SIGPIPE: its reader went away
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 2 --rounds 1 \
	-o "$TMPD/p.ftr" 2>&1 | head -c 1 > /dev/null
rc=${PIPESTATUS[0]}
# (exit 1: its result could not be written; a signal's death would be 141)
check "SIGPIPE: not killed by it (exit $rc)" test "$rc" -lt 128
"$FT" report --json "$TMPD/p.ftr" > "$TMPD/p-r.json" 2> /dev/null
check "... it ran to its end: both blocks and the put-back in its recording" jqe '[.controls[] |
	select(.knob == "watermark_boost_factor" and .how == "set")] | length == 3 and .[-1].new == "15000"' "$TMPD/p-r.json"
check "... the knob back, the restore record gone" test "$(knob)" = 15000 -a ! -e "$REC"

# SIGQUIT mid-block
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 30 --rounds 2 \
	-o "$TMPD/q.ftr" > "$TMPD/q.out" 2> "$TMPD/q.err" & epid=$!
check "SIGQUIT: the first block set the knob" until_ok 30 is 0
# fragtop set during the block: refused, the experiment's value stays
"$FT" set --root "$T" watermark_boost_factor=5000 > "$TMPD/set.out" 2>&1; src=$?
check "fragtop set during a block: refused (exit $src), with the reason" test $src = 1 &&
	grep -q "an experiment (pid $epid) is trying its values" "$TMPD/set.out"
check "... the block's value stays" is 0
kill -QUIT "$epid"; wait "$epid"; rc=$?; epid=
check "SIGQUIT: exit 1, the knob back, said" test $rc = 1 -a "$(knob)" = 15000 &&
	grep -q '^stopped early; watermark_boost_factor put back to 15000: ok' "$TMPD/q.out"
check "... the restore record gone" test ! -e "$REC"
check "fragtop set after it: allowed again" "$FT" set --root "$T" watermark_boost_factor=15000

# the guards: a tree has no tracing and no kernel log
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 2 --rounds 1 --json \
	-o "$TMPD/g.ftr" > "$TMPD/g.json" 2> "$TMPD/g.err"
check "guards said at start: the ones without input OFF, with why" \
	grep -q 'guard rails: .*stall_p99 OFF: no tracing.*alloc_failures OFF: the kernel log is not read' "$TMPD/g.err"
check "... and kept in the JSON" jqe '[.guards[] | select(.guard == "stall_p99")][0] | .active == false and
	(.why_off | test("no tracing"))' "$TMPD/g.json"
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 2 --rounds 1 \
	--require-guards -o "$TMPD/r.ftr" > /dev/null 2> "$TMPD/r.err"; rc=$?
check "--require-guards without them: exit 1, said, nothing changed, no restore record" \
	test $rc = 1 -a "$(knob)" = 15000 -a ! -e "$REC" && grep -q 'require-guards: a guard rail lacks its input' "$TMPD/r.err"
[ $fails = 0 ]
