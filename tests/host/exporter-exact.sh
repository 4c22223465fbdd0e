#!/bin/bash
# The exporter's counters stay exact in its cheap mode (a sample per
# scrape, the trace drained once a second, no task names): between two
# scrapes 15 s apart, with a burst of the fragmenting load between them
# (6 s of tests/load/fragload.sh at boost factor 0), the growth of
# fragtop_extfrag_events_total (all, and fragmenting="true") lies between
# two reference counts of the same tracepoint in tracefs instances of our
# own: an inner one enabled after the first scrape and stopped before the
# second, an outer one around both; with quiet edges the three are equal.
# Nothing is lost.  Changes the host (the load, the boost factor: put
# back on exit, even on failure).  Needs root, tracefs, fio and curl.
# usage: exporter-exact.sh FRAGTOP_BINARY
# host-order: 85 (late: the side lane is most likely done by then)
# host: alone (nothing lost: no build beside it may starve its drains)
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
T=/sys/kernel/tracing
REF=$T/instances/fragtoptest-exref-$$
OUT=$T/instances/fragtoptest-exout-$$
if [ "$(id -u)" != 0 ] || [ ! -d $T/instances ] || ! command -v fio > /dev/null || ! command -v curl > /dev/null; then
	skip_all "exporter exactness: needs root, tracefs, fio and curl"
fi
tmp=$(mktemp -d)
PORT=$((22000 + $$ % 10000))	# below the ephemeral range (32768+)
boost0=$(cat /proc/sys/vm/watermark_boost_factor)
lpid=
cleanup() {
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null && wait "$lpid" 2>/dev/null
	stop_exporter
	for i in "$REF" "$OUT"; do
		[ -d "$i" ] && { echo 0 > "$i/events/kmem/mm_page_alloc_extfrag/enable"; rmdir "$i"; }
	done
	echo "$boost0" > /proc/sys/vm/watermark_boost_factor
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

"$FT" exporter --listen "127.0.0.1:$PORT" 2> "$tmp/ex.err" & epid=$!
until_ok 60 grep -q 'with tracepoints' "$tmp/ex.err"
check "the exporter traces" grep -q 'with tracepoints' "$tmp/ex.err"
# its start-up sample is over a second old, so the first scrape takes a
# sample of its own and counts every event up to it (-i 1)
ts=$SECONDS
until_ok 10 seconds_reach $((ts + 2))
echo 0 > /proc/sys/vm/watermark_boost_factor
scrape() {	# FILE: the extfrag totals (all, fragmenting) and lost events of one scrape
	curl -s --max-time 10 "http://127.0.0.1:$PORT/metrics" | awk '
		/^fragtop_extfrag_events_total\{/ { all += $NF; if ($0 ~ /fragmenting="true"/) frag += $NF }
		/^fragtop_trace_lost_events_total / { lost = $NF }
		/^fragtop_self_fragmenting_fallbacks_total / { self = $NF }
		END { printf "%d %d %d %s\n", all, frag, lost, self == "" ? "none" : self }' > "$1"
}
count() {	# INSTANCE: "all fragmenting lost" of its trace
	local all frag lost
	all=$(grep -c 'mm_page_alloc_extfrag' "$1/trace")
	frag=$(grep -c 'fragmenting=1' "$1/trace")
	lost=$(cat "$1"/per_cpu/cpu*/stats | awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }')
	echo "$all $frag $lost"
}
mkdir "$OUT" "$REF"
echo 65536 > "$OUT/buffer_size_kb"
echo 65536 > "$REF/buffer_size_kb"
echo 1 > "$OUT/events/kmem/mm_page_alloc_extfrag/enable"
scrape "$tmp/s1"; t0=$SECONDS
echo 1 > "$REF/events/kmem/mm_page_alloc_extfrag/enable"
# the load for 6 s (SIGTERM: it stops its fio and puts nr_hugepages back), then gone
bash "$HERE/../load/fragload.sh" 60 3072 > "$tmp/load.log" 2>&1 & lpid=$!
running() { kill -0 "$lpid" 2> /dev/null; }
until_ok 10 seconds_reach $((t0 + 6))
kill "$lpid" 2> /dev/null
until_ok 30 eval '! running'
wait "$lpid" 2>/dev/null; lpid=
# the second scrape 15 s after the first (the load is over by then)
until_ok 30 seconds_reach $((t0 + 15))
echo 0 > "$REF/tracing_on"
scrape "$tmp/s2"; t1=$SECONDS
echo 0 > "$OUT/tracing_on"
read -r a1 f1 l1 _ < "$tmp/s1"; read -r a2 f2 l2 self2 < "$tmp/s2"
read -r ia if il < <(count "$REF"); read -r oa of ol < <(count "$OUT")
da=$((a2 - a1)) df=$((f2 - f1))
echo "scrapes $((t1 - t0)) s apart: exporter +$da fallbacks (+$df fragmenting); reference inner..outer" \
	"$ia..$oa ($if..$of fragmenting); lost: exporter $((l2 - l1)), references $il, $ol; load: $(tail -n 1 "$tmp/load.log")"
check "the scrapes are 15 s apart (more if the load took longer to stop)" test $((t1 - t0)) -ge 15
check "the load made fallbacks to count" test "$ia" -gt 0
check "nothing lost (exporter and references)" test $((l2 - l1)) = 0 -a "$il" = 0 -a "$ol" = 0
check "fallbacks between the scrapes: within the references" test "$da" -ge "$ia" -a "$da" -le "$oa"
check "fragmenting ones: within the references" test "$df" -ge "$if" -a "$df" -le "$of"
echo "fragtop's own fragmenting fallbacks (fragtop_self_fragmenting_fallbacks_total): $self2 of $f2"
check "its own footprint is served, counted among them" bash -c "[ '$self2' != none ] && [ '$self2' -le '$f2' ]"
if [ "$ia" = "$oa" ]; then
	check "quiet edges: the exporter's count equals the reference, to the event" test "$da" = "$ia" -a "$df" = "$if"
fi
echo "exporter-exact.sh: $fails failure(s)"
[ $fails -eq 0 ]
