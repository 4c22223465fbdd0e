#!/bin/bash
# make bench: fragtop fleet at 1,000 hosts.  A real Prometheus holds 1,000
# simulated hosts over 6 hours (tests/fixtures/simfleet.pl with each zone's
# free blocks per order, one sample every 2 min, backfilled with promtool,
# the recording rules too) and scrapes three live exporters on captured
# trees.  Measured, one run each:
#  - the first screen: `fragtop fleet --once`, process start to the table
#    printed (best of 5), its queries and bytes;
#  - a refresh: the console's own figure (--json's refresh_seconds,
#    median of 10);
#  - the console: `fragtop fleet` in tmux at --interval 1 for 30 s: its
#    resident memory at the end and its CPU a refresh;
#  - beside it, the same ranking as one query per host: 1,003 instant
#    queries of the fleet series, one instance each (curl, one
#    connection kept), and their wall time.
# Nothing asserted (tests/cli/fleet.sh checks what is right); with
# FT_BENCH_OUT set, the figures go there too (scripts/bench-compare.sh).
# usage: fleet.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
for c in prometheus promtool curl jq tmux; do
	command -v $c > /dev/null || { echo "fleet bench: needs $c; skipped"; exit 0; }
done
tmp=$(mktemp -d)
TMPD=$tmp
PORT=$(test_port) PPORT=$((PORT + 3))
pids=()
cleanup() {
	end_tmux 2> /dev/null
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
	prom_stop
	wait 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
figure() { echo "$1 $2 $3"; [ -n "${FT_BENCH_OUT:-}" ] && echo "$1 $2 $3" >> "$FT_BENCH_OUT"; return 0; }

end=$(( $(date +%s) / 120 * 120 - 120 ))
t0=$EPOCHREALTIME
FREEBLOCKS=1 perl "$HERE/../fixtures/simfleet.pl" 1000 360 "$end" 120 > sim.om
mkdir data
promtool tsdb create-blocks-from openmetrics sim.om data > backfill.log 2>&1 || { tail backfill.log; exit 1; }
echo "backfilled $(du -m sim.om | cut -f1) MB of OpenMetrics in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }') s"
rm sim.om
cat > prometheus.yml <<YML
global:
  scrape_interval: 15s
  evaluation_interval: 15s
rule_files:
  - $HERE/../../dist/fragtop-rules.yml
scrape_configs:
  - job_name: fragtop
    static_configs:
      - targets: ['127.0.0.1:$PORT', '127.0.0.1:$((PORT + 1))', '127.0.0.1:$((PORT + 2))']
YML
trees=(6.1-2node-movable 6.18-frag 6.18-mthp)
for i in 0 1 2; do
	"$FT" exporter --root "$HERE/../fixtures/${trees[$i]}" --listen "127.0.0.1:$((PORT + i))" 2> /dev/null & pids+=($!)
done
prom_start "$tmp" "$PPORT"
until_ok 60 sh -c "curl -s --max-time 2 http://127.0.0.1:$PPORT/-/ready | grep -q Ready"
promtool tsdb create-blocks-from rules --start $((end - 6 * 3600)) --end "$end" --eval-interval 120s \
	--url "http://127.0.0.1:$PPORT" --output-dir rules-out "$HERE/../../dist/fragtop-rules.yml" > rules.log 2>&1 ||
	{ tail rules.log; exit 1; }
prom_stop
mv rules-out/* data/
prom_start "$tmp" "$PPORT"
until_ok 120 sh -c "curl -s --max-time 2 http://127.0.0.1:$PPORT/-/ready | grep -q Ready" ||
	{ echo "fleet bench: Prometheus not ready after 120 s"; tail -5 prometheus.log; exit 1; }
fleet() { "$FT" fleet --prometheus "http://127.0.0.1:$PPORT" --at "$end" --timeout 30 "$@"; }
until_ok 60 sh -c "'$FT' fleet --prometheus http://127.0.0.1:$PPORT --at $end --json 2>/dev/null | jq -e '.hosts_total >= 1000' > /dev/null" ||
	{ echo "fleet bench: no fleet in Prometheus"; fleet --json | head -5; tail -5 prometheus.log; exit 1; }
fleet --json > warm.json	# Prometheus's caches warm, as a console's first screen finds them

best=
for i in 1 2 3 4 5; do
	a=$EPOCHREALTIME
	fleet --once > table.txt
	s=$(awk -v a="$a" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
	[ -z "$best" ] || awk -v s="$s" -v b="$best" 'BEGIN { exit !(s < b) }' && best=$s
done
figure fleet_first_screen_s "$best" "s (1,000 hosts, 6 h; --once, process start to the table)"
for i in $(seq 10); do fleet --json | jq '.refresh_seconds'; done | sort -n > refresh.txt
figure fleet_refresh_s "$(sed -n 5p refresh.txt)" "s (median of 10; 3 queries, $(jq .bytes_read warm.json) bytes)"
figure fleet_refresh_queries "$(jq .queries warm.json)" "queries at $(jq .hosts_total warm.json) hosts"

# the console itself
tmux_start fleet 200 50 "$FT" fleet --prometheus "http://127.0.0.1:$PPORT" --at "$end" --interval 1
WAIT_TENTHS=300 wait_for '^host-0007:9947' > /dev/null
cpid=
for p in $(pgrep -f "fleet --prometheus http://127.0.0.1:$PPORT --at $end --interval 1"); do
	[ "$(readlink "/proc/$p/exe")" = "$FT" ] && cpid=$p	# the console, not the shell around it
done
[ -n "$cpid" ] || { echo "fleet bench: the console did not start"; screen; exit 1; }
c0=$(awk '{ print $14 + $15 }' "/proc/$cpid/stat")
a=$EPOCHREALTIME
until_ok 40 seconds_reach $((SECONDS + 30))
c1=$(awk '{ print $14 + $15 }' "/proc/$cpid/stat")
el=$(awk -v a="$a" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$cpid/status")
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$cpid/status")
tck=$(getconf CLK_TCK)
figure fleet_console_rss_kb "$rss" "kB resident after 30 s at --interval 1 (peak $hwm kB)"
figure fleet_console_cpu_per_refresh_s "$(awk -v c=$((c1 - c0)) -v t="$tck" -v e="$el" 'BEGIN { printf "%.3f", c / t / e }')" \
	"s of CPU a refresh (a refresh a second)"
end_tmux

# the same ranking, one query per host
jq -r '.hosts[].instance' warm.json > hosts.txt
a=$EPOCHREALTIME
args=()
while read -r h; do
	args+=(--next -s -o /dev/null -G "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode
	       "query={__name__=~\"fragtop:fleet_.+\",instance=\"$h\"}" --data-urlencode "time=$end")
done < hosts.txt
curl "${args[@]:1}"
per=$(awk -v a="$a" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
figure fleet_per_host_queries_s "$per" "s for $(wc -l < hosts.txt) queries, one per host (curl, one connection)"
figure fleet_per_host_ratio "$(awk -v p="$per" -v r="$(sed -n 5p refresh.txt)" 'BEGIN { printf "%.1f", p / r }')" \
	"times the console's refresh"
