#!/bin/bash
# On this real kernel: run the seeds' adverse workload (a small thpfioscale,
# ../shared/tools/thpfioscale-mini.sh) at boost factor 0 and 15000 while
# `fragtop snapshot --json --interval` traces (stopped by SIGINT once the
# workload is done, which still prints the report), and check its counts
# against an independent count of the same events taken in a second
# tracefs instance of our own; then reports how much the default boost cut
# the fragmenting fallbacks (the seeds' headline is >= 90%).  That cut is
# the kernel's behaviour, not fragtop's: on this VM it ranged from 99.9%
# to 59% with the host's history (a host that has been through many
# workload runs keeps mixed pageblocks), so it is reported, not asserted;
# fragtop's exactness against the reference is what fails the test.
# Needs root, tracefs and the shared tool; skipped (exit 0, said) otherwise.
# Restores everything it changes, even on failure.
# usage: extfrag.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
WORKLOAD=${WORKLOAD:-$HERE/../../../shared/tools/thpfioscale-mini.sh}
T=/sys/kernel/tracing
REF=$T/instances/fragtoptest-ref-$$

if [ "$(id -u)" != 0 ] || [ ! -d $T/instances ] || [ ! -r "$WORKLOAD" ] || ! command -v fio >/dev/null; then
	echo "skip extfrag integration: needs root, tracefs, fio and $WORKLOAD"
	exit 0
fi
tmp=$(mktemp -d)
boost0=$(cat /proc/sys/vm/watermark_boost_factor)
cleanup() {
	[ -d "$REF" ] && { echo 0 > "$REF/events/kmem/mm_page_alloc_extfrag/enable"; rmdir "$REF"; }
	[ -n "${fpid:-}" ] && kill "$fpid" 2>/dev/null
	echo "$boost0" > /proc/sys/vm/watermark_boost_factor
	rm -rf "$tmp"
}
trap cleanup EXIT

run() {	# BOOST -> $tmp/BOOST.json, $tmp/BOOST.ref
	local boost=$1 i
	# The reference window lies inside fragtop's: allocating a trace
	# buffer is itself an unmovable allocation that can fall back, so the
	# reference is enabled only once fragtop's instance is set up, and
	# stopped before fragtop is.
	mkdir "$REF"
	echo 131072 > "$REF/buffer_size_kb"
	"$FT" snapshot --json --interval 900 > "$tmp/$boost.json" 2> "$tmp/$boost.err" &
	fpid=$!
	for i in $(seq 100); do
		[ "$(cat "$T/instances/fragtop-$fpid/events/kmem/mm_page_alloc_extfrag/enable" 2>/dev/null)" = 1 ] && break
		sleep 0.1
	done
	sleep 1
	echo 1 > "$REF/events/kmem/mm_page_alloc_extfrag/enable"
	bash "$WORKLOAD" "$boost" 3072 "$tmp/work-$boost" > "$tmp/work-$boost.log" 2>&1
	echo 0 > "$REF/tracing_on"
	kill -INT "$fpid"
	wait "$fpid"; echo $? > "$tmp/$boost.rc"; fpid=
	grep -c 'mm_page_alloc_extfrag' "$REF/trace" > "$tmp/$boost.ref.total"
	grep -c 'fragmenting=1' "$REF/trace" > "$tmp/$boost.ref.frag"
	cat "$REF"/per_cpu/cpu*/stats | awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }' \
		> "$tmp/$boost.ref.lost"
	echo 0 > "$REF/events/kmem/mm_page_alloc_extfrag/enable"
	rmdir "$REF"
	echo "boost $boost: fragtop $(jq -c '.events | {lost, total: .extfrag.total, fragmenting: .extfrag.fragmenting}' "$tmp/$boost.json")" \
		"reference total $(cat "$tmp/$boost.ref.total") fragmenting $(cat "$tmp/$boost.ref.frag") lost $(cat "$tmp/$boost.ref.lost");" \
		"workload: $(tail -n 1 "$tmp/work-$boost.log")"
}

for boost in 0 15000; do
	run $boost
	j=$tmp/$boost.json
	check "boost $boost: SIGINT ends the snapshot early (exit 130)" test "$(cat "$tmp/$boost.rc")" = 130
	check "boost $boost: snapshot is JSON with events" jqe '.events.extfrag' "$j"
	check "boost $boost: reference lost nothing" test "$(cat "$tmp/$boost.ref.lost")" = 0
	check "boost $boost: fragtop lost nothing" test "$(jq '.events.lost' "$j")" = 0
	check "boost $boost: total = reference" test "$(jq '.events.extfrag.total' "$j")" = "$(cat "$tmp/$boost.ref.total")"
	check "boost $boost: fragmenting = reference" \
		test "$(jq '.events.extfrag.fragmenting' "$j")" = "$(cat "$tmp/$boost.ref.frag")"
	check "boost $boost: per-zone counts add up" jqe '([.events.extfrag.by_zone[].total] | add // 0) == .events.extfrag.total' "$j"
done 2>&1
f0=$(jq '.events.extfrag.fragmenting' "$tmp/0.json")
f15=$(jq '.events.extfrag.fragmenting' "$tmp/15000.json")
echo "fragmenting fallbacks: boost 0 -> $f0, boost 15000 -> $f15"
if [ "$f0" -ge 100 ]; then
	echo "info: the default boost cut fragmenting fallbacks by $(( (f0 - f15) * 100 / f0 ))% ($f0 -> $f15; the seeds report >= 90%)"
else
	echo "info: the workload made only $f0 fragmenting fallbacks at boost 0 here; too few to judge the cut"
fi
[ $fails = 0 ]
