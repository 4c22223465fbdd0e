#!/bin/bash
# On this real kernel: run the seeds' adverse workload (a small thpfioscale,
# tests/load/thpfioscale-mini.sh) at boost factor 0 and 15000 while
# `fragtop snapshot --json --interval` traces (stopped by SIGINT once the
# workload is done, which still prints the report), and check its counts
# against an independent count of the same events taken in a second
# tracefs instance of our own (two: one inside fragtop's window, one
# around it; fragtop's count lies between them and equals both when the
# window edges are quiet); then reports how much the default boost cut
# the fragmenting fallbacks (the seeds' headline is >= 90%).  That cut is
# the kernel's behaviour, not fragtop's: on this VM it ranged from 99.9%
# to 59% with the host's history (a host that has been through many
# workload runs keeps mixed pageblocks), so it is reported, not asserted;
# fragtop's exactness against the reference is what fails the test.
# Needs root, tracefs and the shared tool; skipped (exit 0, said) otherwise.
# Restores everything it changes, even on failure.
# usage: extfrag.sh FRAGTOP_BINARY
# host-order: 85 (late: the side lane is most likely done by then)
# host: alone (counts to the event: no build beside it may starve its drains)
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
workload
T=/sys/kernel/tracing
REF=$T/instances/fragtoptest-ref-$$
OUT=$T/instances/fragtoptest-outer-$$

if [ "$(id -u)" != 0 ] || [ ! -d $T/instances ] || [ ! -r "$WORKLOAD" ] || ! command -v fio >/dev/null; then
	skip_all "extfrag integration: needs root, tracefs, fio and $WORKLOAD"
fi
tmp=$(mktemp -d)
boost0=$(cat /proc/sys/vm/watermark_boost_factor)
cleanup() {
	[ -d "$REF" ] && { echo 0 > "$REF/events/kmem/mm_page_alloc_extfrag/enable"; rmdir "$REF"; }
	[ -d "$OUT" ] && { echo 0 > "$OUT/events/kmem/mm_page_alloc_extfrag/enable"; rmdir "$OUT"; }
	[ -n "${fpid:-}" ] && kill "$fpid" 2>/dev/null
	echo "$boost0" > /proc/sys/vm/watermark_boost_factor
	rm -rf "$tmp"
}
trap cleanup EXIT

count() {	# INSTANCE PREFIX: totals of the instance's trace into $tmp/PREFIX.*
	grep -c 'mm_page_alloc_extfrag' "$1/trace" > "$tmp/$2.total"
	grep -c 'fragmenting=1' "$1/trace" > "$tmp/$2.frag"
	cat "$1"/per_cpu/cpu*/stats | awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }' \
		> "$tmp/$2.lost"
	echo 0 > "$1/events/kmem/mm_page_alloc_extfrag/enable"
	rmdir "$1"
}

run() {	# BOOST -> $tmp/BOOST.json, $tmp/BOOST.ref.*, $tmp/BOOST.outer.*
	local boost=$1 i
	# Two references bound fragtop's window: the inner one is enabled once
	# fragtop's instance is set up and stopped before fragtop is, the outer
	# one is enabled before fragtop starts and stopped after it ends.  An
	# allocation that falls back between the edges (setting up a trace
	# buffer is itself one; a freshly booted machine falls back all the
	# time) is in one window and not the other, so fragtop's count must lie
	# between the two, and equals both when the edges are quiet.
	mkdir "$OUT" "$REF"
	echo 131072 > "$OUT/buffer_size_kb"
	echo 131072 > "$REF/buffer_size_kb"
	echo 1 > "$OUT/events/kmem/mm_page_alloc_extfrag/enable"
	"$FT" snapshot --json --interval 900 > "$tmp/$boost.json" 2> "$tmp/$boost.err" &
	fpid=$!
	for i in $(seq 100); do
		[ "$(cat "$T/instances/fragtop-$fpid"-*/events/kmem/mm_page_alloc_extfrag/enable 2>/dev/null)" = 1 ] && break
		sleep 0.1
	done
	echo 1 > "$REF/events/kmem/mm_page_alloc_extfrag/enable"
	bash "$WORKLOAD" "$boost" "$WORKLOAD_MB" "$tmp/work-$boost" > "$tmp/work-$boost.log" 2>&1
	echo 0 > "$REF/tracing_on"
	kill -INT "$fpid"
	wait "$fpid"; echo $? > "$tmp/$boost.rc"; fpid=
	echo 0 > "$OUT/tracing_on"
	count "$REF" "$boost.ref"
	count "$OUT" "$boost.outer"
	echo "boost $boost: fragtop $(jq -c '.events | {lost, total: .extfrag.total, fragmenting: .extfrag.fragmenting}' "$tmp/$boost.json")" \
		"reference inner..outer total $(cat "$tmp/$boost.ref.total")..$(cat "$tmp/$boost.outer.total")" \
		"fragmenting $(cat "$tmp/$boost.ref.frag")..$(cat "$tmp/$boost.outer.frag") lost $(cat "$tmp/$boost.ref.lost");" \
		"workload: $(tail -n 1 "$tmp/work-$boost.log")"
}

between() {	# VALUE LO HI
	[ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

for boost in 0 15000; do
	run $boost
	j=$tmp/$boost.json
	check "boost $boost: SIGINT ends the snapshot early (exit 130)" test "$(cat "$tmp/$boost.rc")" = 130
	check "boost $boost: snapshot is JSON with events" jqe '.events.extfrag' "$j"
	check "boost $boost: reference lost nothing" test "$(cat "$tmp/$boost.ref.lost")" = 0
	check "boost $boost: fragtop lost nothing" test "$(jq '.events.lost' "$j")" = 0
	check "boost $boost: outer reference lost nothing" test "$(cat "$tmp/$boost.outer.lost")" = 0
	check "boost $boost: total within the references" between "$(jq '.events.extfrag.total' "$j")" \
		"$(cat "$tmp/$boost.ref.total")" "$(cat "$tmp/$boost.outer.total")"
	check "boost $boost: fragmenting within the references" between \
		"$(jq '.events.extfrag.fragmenting' "$j")" "$(cat "$tmp/$boost.ref.frag")" "$(cat "$tmp/$boost.outer.frag")"
	if [ "$(cat "$tmp/$boost.ref.total")" = "$(cat "$tmp/$boost.outer.total")" ]; then
		check "boost $boost: quiet edges: total = reference" \
			test "$(jq '.events.extfrag.total' "$j")" = "$(cat "$tmp/$boost.ref.total")"
	fi
	check "boost $boost: per-zone counts add up" jqe '([.events.extfrag.by_zone[].total] | add // 0) == .events.extfrag.total' "$j"
	check "boost $boost: per-process fragmenting counts add up" \
		jqe '([.events.processes[].fragmenting] | add // 0) == .events.extfrag.fragmenting' "$j"
done 2>&1
check "boost 0: the snapshot says fragtop's own footprint (events.self, among the processes' counts)" \
	jqe '(.events.self.pid | type) == "number" and .events.self.fragmenting <= .events.extfrag.fragmenting' "$tmp/0.json"
echo "boost 0: top processes $(jq -c '[.events.processes[0:4][] | {comm, fragmenting}]' "$tmp/0.json")"
check "boost 0: the workload's processes are among the top three" \
	jqe '[.events.processes[0:3][].comm] | any(. == "fio" or . == "thpalloc")' "$tmp/0.json"
f0=$(jq '.events.extfrag.fragmenting' "$tmp/0.json")
f15=$(jq '.events.extfrag.fragmenting' "$tmp/15000.json")
echo "fragmenting fallbacks: boost 0 -> $f0, boost 15000 -> $f15"
if [ "$f0" -ge 100 ]; then
	echo "info: the default boost cut fragmenting fallbacks by $(( (f0 - f15) * 100 / f0 ))% ($f0 -> $f15; the seeds report >= 90%)"
else
	echo "info: the workload made only $f0 fragmenting fallbacks at boost 0 here; too few to judge the cut"
fi
[ $fails = 0 ]
