#!/bin/bash
# The host's memory pressure in the exporter's families: what
# fragtop_up{source="pressure"} says was read is served, as
# node_exporter serves it (node_pressure_memory_*_seconds_total):
# fragtop_pressure_memory_waiting_seconds_total is the some line's total
# and ..._stalled_seconds_total the full line's, in seconds.  A tree
# without /proc/pressure/memory has neither series, nor an up series for
# it.  promtool, where installed, has nothing to say.
# usage: pressure.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")/.." && pwd)
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

tree=$TMPD/tree
cp -r "$HERE/fixtures/6.18-idle/." "$tree/"
mkdir -p "$tree/proc/pressure"
printf 'some avg10=0.50 avg60=0.20 avg300=0.05 total=38754082\nfull avg10=0.10 avg60=0.05 avg300=0.01 total=25408123\n' \
	> "$tree/proc/pressure/memory"
"$FT" snapshot --root "$tree" --prometheus > "$TMPD/p.prom" 2> "$TMPD/err"
check "snapshot --prometheus of a tree with pressure: exit 0" test $? = 0
val() { awk -v k="$1" '$1 == k { print $2 }' "$TMPD/p.prom"; }
check "up{source=\"pressure\"} is 1" test "$(val 'fragtop_up{source="pressure"}')" = 1
check "waiting: the some total in seconds ($(val fragtop_pressure_memory_waiting_seconds_total))" \
	test "$(val fragtop_pressure_memory_waiting_seconds_total)" = 38.754082
check "stalled: the full total in seconds ($(val fragtop_pressure_memory_stalled_seconds_total))" \
	test "$(val fragtop_pressure_memory_stalled_seconds_total)" = 25.408123
check "each with its HELP and TYPE counter" \
	eval "grep -q '^# TYPE fragtop_pressure_memory_waiting_seconds_total counter' '$TMPD/p.prom' &&
	      grep -q '^# TYPE fragtop_pressure_memory_stalled_seconds_total counter' '$TMPD/p.prom'"
if command -v promtool > /dev/null; then
	check "promtool check metrics: nothing to say" eval "promtool check metrics < '$TMPD/p.prom' > '$TMPD/pt' 2>&1"
fi
"$FT" snapshot --root "$HERE/fixtures/6.18-idle" --prometheus > "$TMPD/n.prom"
check "a tree without pressure: no pressure series, and no up series for it" \
	eval "! grep -q 'pressure' '$TMPD/n.prom'"
echo "pressure.sh: $fails failure(s)"
[ $fails -eq 0 ]
