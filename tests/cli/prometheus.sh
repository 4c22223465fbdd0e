#!/bin/bash
# A real Prometheus (Debian's package) scrapes `fragtop exporter` on this
# host every second: after several scrapes its HTTP API has
# fragtop_zone_free_blocks per (node, zone, order), close to what
# `fragtop snapshot --json` shows at about the same time, and the stall
# histogram and lost-events counter series (tracing runs in the
# exporter).  Both servers are ours and are stopped by PID.  Needs root
# (tracepoints), prometheus and curl; skipped otherwise.
# usage: prometheus.sh FRAGTOP_BINARY
# serial: it compares the host's free pages as Prometheus stored them with a
# snapshot taken after, which other tests' memory would move
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
PROM=$(command -v prometheus || true)
if [ "$(id -u)" != 0 ] || [ -z "$PROM" ] || ! command -v curl > /dev/null || ! command -v jq > /dev/null; then
	skip_all "prometheus integration: needs root, prometheus, curl and jq"
fi
tmp=$(mktemp -d)
# below the ephemeral range (32768-60999): a client's port cannot take them
EPORT=$(test_port); PPORT=$((EPORT + 1))
cleanup() {
	stop_exporter
	prom_stop
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cat > "$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: fragtop
    static_configs:
      - targets: ['127.0.0.1:$EPORT']
YML
"$FT" exporter --listen "127.0.0.1:$EPORT" 2> "$tmp/exporter.log" & epid=$!
prom_start "$tmp" "$PPORT"
q() { prom_query "$1"; }
for i in $(seq 60); do
	[ "$(q 'count(up{job="fragtop"} == 1)' | jq -r '.data.result[0].value[1] // 0' 2>/dev/null)" = 1 ] &&
		[ "$(q 'count_over_time(up{job="fragtop"}[1m])' | jq -r '.data.result[0].value[1] // 0' 2>/dev/null)" -ge 5 ] && break
	sleep 1
done
scrapes=$(q 'count_over_time(up{job="fragtop"}[1m])' | jq -r '.data.result[0].value[1] // 0')
echo "prometheus scraped fragtop $scrapes times"
check "Prometheus scraped the exporter several times" test "${scrapes:-0}" -ge 5
# as Prometheus scrapes: gzip, and one kept-alive connection for every scrape
# (the counters at a scrape count the scrapes before it, and its own connection)
# (one query, so the three come from one scrape: queries one by one can straddle the next)
q '{__name__=~"fragtop_exporter_(scrapes|gzip_scrapes|accepted_connections)_total"}' > "$tmp/srv.json"
val() { jq -r --arg n "$1" '[.data.result[] | select(.metric.__name__ == $n) | .value[1]][0] // 0' "$tmp/srv.json"; }
served=$(val fragtop_exporter_scrapes_total); gz=$(val fragtop_exporter_gzip_scrapes_total)
acc=$(val fragtop_exporter_accepted_connections_total)
echo "at Prometheus's last scrape: $served scrapes before it, $gz gzipped, $acc connection(s) accepted"
check "Prometheus asked for gzip and got it on every scrape" test "$gz" -ge 4 -a "$gz" = "$served"
check "... over one kept-alive connection" test "$acc" = 1
q 'fragtop_zone_free_blocks' > "$tmp/fb.json"
"$FT" snapshot --json > "$tmp/snap.json"
want=$(jq '[.zones[] | select(.present > 0) | .free_blocks | length] | add' "$tmp/snap.json")
got=$(jq '.data.result | length' "$tmp/fb.json")
echo "fragtop_zone_free_blocks series: $got (snapshot: $want zone/order pairs)"
check "a series per (node, zone, order)" test "$got" = "$want"
# close: per zone, the free pages the series add up to within 5% of the snapshot's (or 2 MiB)
jq -r '.data.result[] | "\(.metric.node) \(.metric.zone) \(.metric.order) \(.value[1])"' "$tmp/fb.json" |
	awk '{ p[$1" "$2] += $4 * 2 ^ $3 } END { for (z in p) print z, p[z] }' | sort > "$tmp/prom.pages"
jq -r '.zones[] | select(.present > 0) | "\(.node) \(.zone) \([.free_blocks | to_entries[] | .value * pow(2; .key)] | add)"' \
	"$tmp/snap.json" | sort > "$tmp/snap.pages"
echo "free pages from the blocks, Prometheus vs snapshot:"; paste "$tmp/prom.pages" "$tmp/snap.pages"
check "free blocks close to the snapshot's (pages within 5% or 512)" awk '
	NR == FNR { a[$1" "$2] = $3; next }
	{ d = a[$1" "$2] - $3; if (d < 0) d = -d; if (d > 512 && d > 0.05 * $3) bad = 1 }
	END { exit bad }' "$tmp/prom.pages" "$tmp/snap.pages"
check "the stall histogram has series" test "$(q 'fragtop_stall_duration_seconds_bucket' | jq '.data.result | length')" -gt 0
check "the lost-events counter has a series" test "$(q 'fragtop_trace_lost_events_total' | jq '.data.result | length')" = 1
check "a counter rate is computable (extfrag, may be 0)" test "$(q 'sum(rate(fragtop_extfrag_events_total[30s])) or vector(0)' | jq -r '.status')" = success
# multi-size THP (6.10+): a series per size and result, as many as the sizes' stats/ have
if ls /sys/kernel/mm/transparent_hugepage/hugepages-*kB/stats/anon_fault_alloc > /dev/null 2>&1; then
	want=0
	for d in /sys/kernel/mm/transparent_hugepage/hugepages-*kB/stats; do
		for f in anon_fault_alloc anon_fault_fallback anon_fault_fallback_charge; do
			[ -f "$d/$f" ] && want=$((want + 1))
		done
	done
	q 'fragtop_thp_anon_faults_total' > "$tmp/thp.json"
	got=$(jq '.data.result | length' "$tmp/thp.json")
	echo "fragtop_thp_anon_faults_total series: $got (sysfs: $want size/result files)"
	check "THP anon faults: one series per size x result" test "$got" = "$want"
	check "... each with a size and a result label" \
		jqe '[.data.result[].metric | select(.size | test("^[0-9]+kB$")) | select(.result == "alloc" or
		      .result == "fallback" or .result == "fallback_charge")] | length > 0' "$tmp/thp.json"
else
	skip "no multi-size THP counters on this kernel: the THP series are not checked"
fi
curl -s "http://127.0.0.1:$EPORT/metrics" > "$tmp/scrape.txt"
if command -v promtool > /dev/null; then
	check "promtool check metrics on a live scrape: no problem" promtool check metrics < "$tmp/scrape.txt"
fi
kill "$epid"; wait "$epid"; rc=$?; epid=
check "exporter stopped by PID, exit 0" test $rc = 0
prom_stop
echo "prometheus.sh: $fails failure(s)"
[ $fails -eq 0 ]
