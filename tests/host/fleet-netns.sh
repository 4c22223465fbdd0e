#!/bin/bash
# Three hosts, one Prometheus: three network namespaces of this test's own
# (ip netns, a veth pair each, 10.199.N.2 inside, 10.199.N.1 outside),
# each running one `fragtop exporter` on its own address: one live (this
# kernel, tracing), one on the 6.1 two-node fixture tree, one on a 64-node
# tree (tests/fixtures/many-nodes.sh 64).  A Prometheus outside scrapes
# all three by `instance`, and PromQL answers "which host has the worst
# unusable index at pageblock order" (ranked, and the same ranking as the
# exporters' own scrapes give) and "fragmenting fallbacks/s by host" (the
# hosts whose tracepoints are up; the fixture trees say theirs are down).
# The namespaces and the processes are removed at the end, even on
# failure.  Needs root, ip, nsenter, prometheus, curl and jq.
# usage: fleet-netns.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
PROM=$(command -v prometheus || true)
if [ "$(id -u)" != 0 ] || ! command -v ip > /dev/null || ! command -v nsenter > /dev/null || [ -z "$PROM" ] ||
	! command -v curl > /dev/null || ! command -v jq > /dev/null; then
	skip_all "three hosts: needs root, ip, nsenter, prometheus, curl and jq"
fi
if ip -4 addr | grep -q ' 10\.199\.'; then
	skip_all "three hosts: 10.199.0.0/16 is in use on this host; not touching it"
fi
tmp=$(mktemp -d)
id=$(($$ % 10000))
PPORT=$((25000 + id % 10000))
names=() pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	prom_stop
	wait 2>/dev/null
	for n in "${names[@]}"; do ip netns del "$n" 2>/dev/null; done	# its veth goes with it
	rm -rf "$tmp"
}
trap cleanup EXIT

bash "$HERE/../fixtures/many-nodes.sh" 64 "$tmp/64node"
roots=("" "$(realpath tests/fixtures/6.1-2node-movable)" "$tmp/64node")
labels=(live 6.1-2node 64-node)
for k in 1 2 3; do
	n=fragtop-fleet-$id-$k
	ip netns add "$n" && names+=("$n")
	ip link add "ftf${id}h$k" type veth peer name "ftf${id}n$k" &&
		ip link set "ftf${id}n$k" netns "$n" &&
		ip addr add "10.199.$k.1/24" dev "ftf${id}h$k" && ip link set "ftf${id}h$k" up &&
		ip -n "$n" addr add "10.199.$k.2/24" dev "ftf${id}n$k" && ip -n "$n" link set "ftf${id}n$k" up &&
		ip -n "$n" link set lo up
	check "host $k (${labels[$k - 1]}): namespace $n with 10.199.$k.2" \
		test "$(ip -n "$n" -4 -o addr show dev "ftf${id}n$k" | awk '{ print $4 }')" = "10.199.$k.2/24"
	root=${roots[$k - 1]}
	nsenter --net="/run/netns/$n" "$FT" exporter --listen "10.199.$k.2:9947" ${root:+--root "$root"} \
		2> "$tmp/ex$k.err" & pids+=($!)
done
for k in 1 2 3; do
	until_ok 60 grep -q 'exporter on' "$tmp/ex$k.err"
	check "host $k: its exporter serves on 10.199.$k.2:9947 inside the namespace" \
		curl -sf --max-time 5 -o "$tmp/own$k.txt" "http://10.199.$k.2:9947/metrics"
done
check "host 1 (live) traces; the fixture trees do not" test -n "$(grep 'with tracepoints' "$tmp/ex1.err")" -a \
	-z "$(grep 'with tracepoints' "$tmp/ex2.err" "$tmp/ex3.err")"

cat > "$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: fleet
    static_configs:
      - targets: ['10.199.1.2:9947', '10.199.2.2:9947', '10.199.3.2:9947']
YML
prom_start "$tmp" "$PPORT"
q() { prom_query "$1"; }
scraped() { [ "$(q 'count(count_over_time(up{job="fleet"}[1m]) >= 35)' | jq -r '.data.result[0].value[1] // 0')" = 3 ]; }
until_ok 120 scraped
check "one Prometheus scrapes the three hosts by instance, all up" \
	test "$(q 'count(up{job="fleet"} == 1)' | jq -r '.data.result[0].value[1] // 0')" = 3

# which host has the worst unusable index at pageblock order (9 here)
q 'sort_desc(max by (instance) (fragtop_zone_unusable_free_index{job="fleet",order="9"}))' > "$tmp/q1.json"
echo "worst unusable index at pageblock order, by host:"
jq -r '.data.result[] | "  \(.metric.instance) \(.value[1])"' "$tmp/q1.json"
check "... every host ranked" test "$(jq '.data.result | length' "$tmp/q1.json")" = 3
check "... in order" jqe '[.data.result[].value[1] | tonumber] as $v | $v == ($v | sort | reverse)' "$tmp/q1.json"
# the same ranking from each exporter's own scrape
for k in 1 2 3; do
	curl -s --max-time 5 "http://10.199.$k.2:9947/metrics" |
		awk -v h="10.199.$k.2:9947" '/^fragtop_zone_unusable_free_index\{.*order="9"\}/ { if ($NF > m) m = $NF }
			END { print h, m + 0 }'
done | sort > "$tmp/own.rank"
jq -r '.data.result[] | "\(.metric.instance) \(.value[1])"' "$tmp/q1.json" | sort > "$tmp/prom.rank"
# ties may come in either order: each host's value must be the one its own scrape gives
# (within 0.02: the live host moves between the two looks)
check "... each host's value is what its own scrape gives ($(tr '\n' ' ' < "$tmp/own.rank"))" \
	awk 'NR == FNR { v[$1] = $2; next } !($1 in v) || v[$1] - $2 > 0.02 || $2 - v[$1] > 0.02 { bad = 1 }
	     END { exit bad || FNR != 3 }' "$tmp/own.rank" "$tmp/prom.rank"
q 'topk(1, max by (instance) (fragtop_zone_unusable_free_index{job="fleet",order="9"}))' > "$tmp/top.json"
worst=$(sort -k2,2gr "$tmp/own.rank" | head -n 1 | awk '{ print $2 }')
check "... topk(1) names a host with the worst value ($worst)" \
	grep -q "^$(jq -r '.data.result[0].metric.instance' "$tmp/top.json") $worst\$" "$tmp/own.rank"

# fragmenting fallbacks per second by host, where the tracepoints are up
# (a traced host with no fallback yet has no series: 0/s is its answer, so `or` gives it one)
q 'sort_desc((sum by (instance) (rate(fragtop_extfrag_events_total{job="fleet",fragmenting="true"}[30s]))
     or on (instance) (0 * max by (instance) (fragtop_up{job="fleet",source="tracepoints"})))
   and on (instance) (max by (instance) (fragtop_up{job="fleet",source="tracepoints"}) == 1))' > "$tmp/q2.json"
echo "fragmenting fallbacks/s by host:"
jq -r '.data.result[] | "  \(.metric.instance) \(.value[1])"' "$tmp/q2.json"
check "... answered for the live host" \
	jqe '[.data.result[].metric.instance] == ["10.199.1.2:9947"] and (.data.result[0].value[1] | tonumber >= 0)' "$tmp/q2.json"
q 'fragtop_up{job="fleet",source="tracepoints"} == 0' > "$tmp/down.json"
check "... and the fixture hosts say their tracepoints are down" \
	jqe '[.data.result[].metric.instance] | sort == ["10.199.2.2:9947", "10.199.3.2:9947"]' "$tmp/down.json"
check "the 64-node host has its 129 zones in Prometheus" test \
	"$(q 'count(fragtop_zone_free_bytes{instance="10.199.3.2:9947"} > 0)' | jq -r '.data.result[0].value[1] // 0')" -ge 129

prom_stop
for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; pids=()
for n in "${names[@]}"; do ip netns del "$n"; done; names=()
gone() { [ "$(ip netns list | grep -c "fragtop-fleet-$id-")" = 0 ] && ! ip -o link | grep -q "ftf${id}h"; }
until_ok 30 gone	# a veth goes a moment after its namespace
check "the namespaces are gone, and their veths" gone
echo "fleet-netns.sh: $fails failure(s)"
[ $fails -eq 0 ]
