#!/bin/bash
# make bench: the exporter's CPU.  (1) One scrape's CPU: 50 scrapes of
# `fragtop exporter` on this host (live, tracing) and on a 161-zone tree
# (tests/fixtures/many-nodes.sh 80), the exporter's CPU over the scrapes
# less the same time idle, per scrape.  (2) Idle: the exporter and
# node_exporter side by side for 60 s, each scraped every 15 s.  CPU from
# the scheduler's own count (schedstat).  One run; nothing asserted.
# usage: exporter_cpu.sh FRAGTOP_BINARY
set -u
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
command -v curl > /dev/null || { echo "exporter_cpu: curl not installed; skipped"; exit 0; }
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'; }
port=$((22000 + $$ % 10000))

scrape_cost() {	# LABEL ARGS...: ms of CPU per scrape
	local label=$1 p i c0 c1 c2 t0 t1 t2 lines; shift
	port=$((port + 1))
	"$FT" exporter --listen "127.0.0.1:$port" "$@" 2> /dev/null & p=$!
	pids+=("$p")
	for i in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
	sleep 2
	lines=$(curl -s "http://127.0.0.1:$port/metrics" | grep -vc '^#')
	c0=$(cpu_ns "$p"); t0=$(date +%s%N)
	sleep 5
	c1=$(cpu_ns "$p"); t1=$(date +%s%N)
	for i in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/metrics"; done
	c2=$(cpu_ns "$p"); t2=$(date +%s%N)
	kill "$p"; wait "$p" 2>/dev/null
	awk -v l="$label" -v n="$lines" -v c0="$c0" -v c1="$c1" -v c2="$c2" -v t0="$t0" -v t1="$t1" -v t2="$t2" 'BEGIN {
		idle = (c1 - c0) / (t1 - t0); busy = (c2 - c1) - idle * (t2 - t1)
		printf "  %-34s %6d samples a scrape: %.2f ms CPU a scrape (idle %.2f%% of a core)\n",
			l, n, busy / 50 / 1e6, idle * 100 }'
}

echo
echo "exporter (one run)"
scrape_cost "this host (live, tracing)"
bash "$HERE/../fixtures/many-nodes.sh" 80 "$tmp/tree"
zones=$(grep -c '^Node.*zone' "$tmp/tree/proc/buddyinfo")
scrape_cost "a $zones-zone tree (--root)" --root "$tmp/tree"

# idle beside node_exporter, both scraped every 15 s for 60 s
NE=$(command -v prometheus-node-exporter || command -v node_exporter || true)
port=$((port + 1)); fport=$port; port=$((port + 1)); nport=$port
"$FT" exporter --listen "127.0.0.1:$fport" 2> /dev/null & fp=$!; pids+=("$fp")
np=
if [ -n "$NE" ]; then
	"$NE" --web.listen-address="127.0.0.1:$nport" > /dev/null 2>&1 & np=$!; pids+=("$np")
fi
sleep 3
f0=$(cpu_ns "$fp"); [ -n "$np" ] && n0=$(cpu_ns "$np")
for i in 1 2 3 4; do
	curl -s -o /dev/null "http://127.0.0.1:$fport/metrics"
	[ -n "$np" ] && curl -s -o /dev/null "http://127.0.0.1:$nport/metrics"
	sleep 15
done
f1=$(cpu_ns "$fp"); [ -n "$np" ] && n1=$(cpu_ns "$np")
echo "idle, scraped every 15 s, 60 s side by side:"
awk -v a="$f0" -v b="$f1" 'BEGIN { printf "  fragtop exporter (1 s samples, tracing, boost sampler): %.3f s CPU = %.3f%% of a core\n", (b - a) / 1e9, (b - a) / 1e9 * 100 / 60 }'
if [ -n "$np" ]; then
	awk -v a="$n0" -v b="$n1" -v fa="$f0" -v fb="$f1" 'BEGIN {
		printf "  node_exporter (default collectors):                   %.3f s CPU = %.3f%% of a core\n", (b - a) / 1e9, (b - a) / 1e9 * 100 / 60
		if (b > a) printf "  fragtop / node_exporter: %.2f\n", (fb - fa) / (b - a) }'
else
	echo "  node_exporter is not installed (apt-get install prometheus-node-exporter): no comparison"
fi
