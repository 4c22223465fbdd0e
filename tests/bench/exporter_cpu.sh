#!/bin/bash
# make bench: the exporter's CPU.  (1) One scrape's CPU, the sample it
# takes included: 50 scrapes 0.15 s apart of `fragtop exporter -i 0.1` on
# this host (live, tracing) and on a 161-zone tree (tests/fixtures/
# many-nodes.sh 80), the exporter's CPU over the scrapes less the same
# time idle, per scrape.  (2) The exporter and node_exporter side by
# side, each scraped every 15 s, idle for 60 s and then while the adverse
# workload runs (tests/load/thpfioscale-mini.sh at the default boost
# factor; as root with fio only: it reserves hugetlb pages and sets the
# boost factor, and restores both), and their ratio in each.  CPU from
# the scheduler's own count over all threads (schedstat), and each one's
# resident memory at the end.  One run; nothing asserted.  With
# FT_BENCH_OUT set, the figures go there too (scripts/bench-compare.sh).
# usage: exporter_cpu.sh FRAGTOP_BINARY
set -u
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
command -v curl > /dev/null || { echo "exporter_cpu: curl not installed; skipped"; exit 0; }
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'; }
figure() { [ -n "${FT_BENCH_OUT:-}" ] && echo "$1 $2 $3" >> "$FT_BENCH_OUT"; return 0; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' /proc/"$1"/status 2> /dev/null; }
port=$((22000 + $$ % 10000))

scrape_cost() {	# LABEL ARGS...: ms of CPU per scrape, its sample included
	local label=$1 p i c0 c1 c2 t0 t1 t2 lines; shift
	port=$((port + 1))
	"$FT" exporter --listen "127.0.0.1:$port" -i 0.1 "$@" 2> /dev/null & p=$!
	pids+=("$p")
	for i in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
	sleep 2
	lines=$(curl -s "http://127.0.0.1:$port/metrics" | grep -vc '^#')
	c0=$(cpu_ns "$p"); t0=$(date +%s%N)
	sleep 5
	c1=$(cpu_ns "$p"); t1=$(date +%s%N)
	for i in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/metrics"; sleep 0.15; done
	c2=$(cpu_ns "$p"); t2=$(date +%s%N)
	kill "$p"; wait "$p" 2>/dev/null
	awk -v l="$label" -v n="$lines" -v c0="$c0" -v c1="$c1" -v c2="$c2" -v t0="$t0" -v t1="$t1" -v t2="$t2" 'BEGIN {
		idle = (c1 - c0) / (t1 - t0); busy = (c2 - c1) - idle * (t2 - t1)
		printf "  %-34s %6d samples a scrape: %.2f ms CPU a scrape, its sample included (idle %.3f%% of a core)\n",
			l, n, busy / 50 / 1e6, idle * 100 }'
	[ "$label" = "this host (live, tracing)" ] && figure exporter.scrape_ms "$(awk -v c1="$c1" -v c2="$c2" \
		-v c0="$c0" -v t0="$t0" -v t1="$t1" -v t2="$t2" \
		'BEGIN { printf "%.3f", ((c2 - c1) - (c1 - c0) / (t1 - t0) * (t2 - t1)) / 50 / 1e6 }')" ms
	return 0
}

echo
echo "exporter (one run)"
scrape_cost "this host (live, tracing)"
bash "$HERE/../fixtures/many-nodes.sh" 80 "$tmp/tree"
zones=$(grep -c '^Node.*zone' "$tmp/tree/proc/buddyinfo")
scrape_cost "a $zones-zone tree (--root)" --root "$tmp/tree"

# beside node_exporter, both scraped every 15 s: idle, then under the adverse workload
NE=$(command -v prometheus-node-exporter || command -v node_exporter || true)
port=$((port + 1)); fport=$port; port=$((port + 1)); nport=$port
"$FT" exporter --listen "127.0.0.1:$fport" 2> /dev/null & fp=$!; pids+=("$fp")
np=
if [ -n "$NE" ]; then
	"$NE" --web.listen-address="127.0.0.1:$nport" > /dev/null 2>&1 & np=$!; pids+=("$np")
fi
sleep 3
side_by_side() {	# LABEL SECS: both scraped every 15 s for SECS, their CPU and ratio
	local f0 f1 n0=0 n1=0 end
	f0=$(cpu_ns "$fp"); [ -n "$np" ] && n0=$(cpu_ns "$np")
	end=$((SECONDS + $2))
	while [ $SECONDS -lt $end ]; do
		curl -s -o /dev/null "http://127.0.0.1:$fport/metrics"
		[ -n "$np" ] && curl -s -o /dev/null "http://127.0.0.1:$nport/metrics"
		sleep 15
	done
	f1=$(cpu_ns "$fp"); [ -n "$np" ] && n1=$(cpu_ns "$np")
	figure "exporter.$3.fragtop" "$(awk -v a="$f0" -v b="$f1" -v d="$2" 'BEGIN { printf "%.4f", (b - a) / 1e9 * 100 / d }')" "%core"
	[ -n "$np" ] && figure "exporter.$3.node_exporter" \
		"$(awk -v a="$n0" -v b="$n1" -v d="$2" 'BEGIN { printf "%.4f", (b - a) / 1e9 * 100 / d }')" "%core"
	[ -n "$np" ] && figure "exporter.$3.fragtop_per_node_exporter" \
		"$(awk -v a="$n0" -v b="$n1" -v fa="$f0" -v fb="$f1" 'BEGIN { printf "%.3f", (b > a) ? (fb - fa) / (b - a) : 0 }')" ratio
	echo "$1, scraped every 15 s, $2 s side by side:"
	awk -v a="$f0" -v b="$f1" -v d="$2" 'BEGIN { printf "  fragtop exporter (a sample per scrape, tracing, boost reads after fallbacks): %.3f s CPU = %.3f%% of a core\n", (b - a) / 1e9, (b - a) / 1e9 * 100 / d }'
	if [ -n "$np" ]; then
		awk -v a="$n0" -v b="$n1" -v fa="$f0" -v fb="$f1" -v d="$2" -v l="$1" 'BEGIN {
			printf "  node_exporter (default collectors):                                          %.3f s CPU = %.3f%% of a core\n", (b - a) / 1e9, (b - a) / 1e9 * 100 / d
			if (b > a) printf "  fragtop / node_exporter, %s: %.2f\n", l, (fb - fa) / (b - a) }'
	else
		echo "  node_exporter is not installed (apt-get install prometheus-node-exporter): no comparison"
	fi
}
side_by_side idle 60 idle
WL=$HERE/../load/thpfioscale-mini.sh
if [ "$(id -u)" = 0 ] && command -v fio > /dev/null; then
	bash "$WL" "$(cat /proc/sys/vm/watermark_boost_factor)" > "$tmp/workload.log" 2>&1 & wp=$!; pids+=("$wp")
	sleep 2
	side_by_side "under the adverse workload" 60 adverse
	wait "$wp" 2>/dev/null
	echo "  the workload: $(grep -o 'fragmenting_events=[0-9]*' "$tmp/workload.log" | tail -n 1) (its own count)"
else
	echo "under the adverse workload: needs root and fio (it runs tests/load/thpfioscale-mini.sh); not measured"
fi
figure exporter.rss.fragtop "$(rss_kb "$fp")" kB
[ -n "$np" ] && figure exporter.rss.node_exporter "$(rss_kb "$np")" kB
echo "resident memory at the end: fragtop exporter $(rss_kb "$fp") kB${np:+, node_exporter $(rss_kb "$np") kB}"
