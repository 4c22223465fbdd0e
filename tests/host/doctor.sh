#!/bin/bash
# fragtop doctor on recordings made here of known conditions, which it
# has never seen:
# - the idle host, watched live for 6 s: nothing wrong found, and the
#   rules it could judge listed as checked;
# - the adverse workload with watermark_boost_factor 0 (set before the
#   recording and kept to its end): boost_off is named with its evidence,
#   and nothing that contradicts it (boost_ceiling, which needs the boost
#   on).  The kernel makes the fallbacks: a run with under 100 fragmenting
#   ones cannot plant the condition, and says so instead of judging.
# The knob is put back by the trap.  Needs root, tracefs and fio.
# usage: doctor.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
workload
K=/proc/sys/vm/watermark_boost_factor
if [ "$(id -u)" != 0 ] || [ ! -d /sys/kernel/tracing/instances ] || [ ! -r "$WORKLOAD" ] || ! command -v fio > /dev/null; then
	skip_all "doctor on planted conditions: needs root, tracefs, fio and $WORKLOAD"
fi
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
tmp=$(mktemp -d)
orig=$(cat $K)
rpid=
cleanup() {
	[ -n "$rpid" ] && kill "$rpid" 2> /dev/null && wait "$rpid" 2> /dev/null
	echo "$orig" > $K
	rm -rf "$tmp"
}
trap cleanup EXIT

# the idle host, live
"$FT" doctor --json --seconds 6 -o "$tmp/idle.ftr" > "$tmp/idle.json" 2> "$tmp/idle.err"; rc=$?
check "idle, live 6 s: exit 0" test $rc = 0 || cat "$tmp/idle.err"
check "... nothing wrong found ($(jq -c '[.findings[].rule]' "$tmp/idle.json"))" jqe '.findings == []' "$tmp/idle.json"
check "... the traced rules were judged" jqe '.checked | index("boost_off") != null and index("compaction_stalls") != null' \
	"$tmp/idle.json"
check "... what it watched kept (-o)" test -s "$tmp/idle.ftr"

# the adverse workload, boost off from before the recording to its end
echo 0 > $K
"$FT" record -o "$tmp/off.ftr" -i 1 2> "$tmp/rec.err" & rpid=$!
until_ok 20 test -s "$tmp/off.ftr" || { bad "the recorder started"; cat "$tmp/rec.err"; exit 1; }
bash "$WORKLOAD" 0 "$WORKLOAD_MB" "$tmp/work" > "$tmp/work.log" 2>&1
kill -INT "$rpid"; wait "$rpid"; rpid=
echo "workload: $(tail -n 1 "$tmp/work.log")"
"$FT" doctor --json "$tmp/off.ftr" > "$tmp/off.json" 2> "$tmp/off.err"
frag=$("$FT" report --json "$tmp/off.ftr" 2> /dev/null | jq '.totals.extfrag_fragmenting')
if [ "${frag:-0}" -ge 100 ]; then
	check "boost 0, $frag fragmenting fallbacks: boost_off named" jqe '.findings[] | select(.rule == "boost_off") |
		.evidence.figures.watermark_boost_factor == 0 and .action.knob == "watermark_boost_factor"' "$tmp/off.json"
	check "... nothing that contradicts it ($(jq -c '[.findings[].rule]' "$tmp/off.json"))" \
		jqe '[.findings[].rule] | index("boost_ceiling") == null' "$tmp/off.json"
else
	skip "the workload made only ${frag:-no} fragmenting fallbacks at boost 0: too few to plant boost_off"
	check "... and doctor does not name it" jqe '[.findings[].rule] | index("boost_off") == null' "$tmp/off.json"
fi
[ $fails = 0 ]
