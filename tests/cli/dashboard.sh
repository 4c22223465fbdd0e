#!/bin/bash
# The Grafana dashboard in dist/, checked without Grafana (Debian has no
# package of it): its JSON is a Grafana 10/11 dashboard (schemaVersion,
# core panel types, a datasource variable every panel and query uses,
# panels inside the 24-column grid, every $variable defined), and every
# PromQL expression in it, the variables' queries and the annotation's
# included, returns data from a real Prometheus.  That Prometheus serves
# three kept recordings backfilled as three hosts (export --openmetrics
# --label instance=...): a 6.18 run with multi-size THP, a 6.18 run with a
# watermark_boost_factor change (the annotation) and the patched 6.1 run
# with fragmentation stalls, and ten simulated hosts (the worst-hosts table
# reads the fleet's recording rules, backfilled over each span).  Needs
# prometheus, promtool, curl and jq; skipped otherwise.  The server is ours and stopped by PID.
# usage: dashboard.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
D=dist/fragtop-dashboard.json
PROM=$(command -v prometheus || true)
if [ -z "$PROM" ] || ! command -v promtool > /dev/null || ! command -v curl > /dev/null ||
	! command -v jq > /dev/null; then
	skip_all "dashboard: needs prometheus, promtool, curl and jq"
fi
tmp=$(mktemp -d)
PORT=$(test_port)
cleanup() {
	prom_stop
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# --- the JSON, as Grafana 10 and 11 read it
check "the dashboard is JSON" jq -e . "$D"
check "schemaVersion of Grafana 10/11 (36..41), a uid and a title" \
	jqe '(.schemaVersion >= 36 and .schemaVersion <= 41) and (.uid | length > 0) and (.title | length > 0)' "$D"
check "a datasource variable of type prometheus" \
	jqe '[.templating.list[] | select(.type == "datasource" and .query == "prometheus" and .name == "datasource")] | length == 1' "$D"
check "instance, node and zone variables, queried from the data source" \
	jqe '[.templating.list[] | select(.type == "query" and (.name == "instance" or .name == "node" or .name == "zone")
	      and .datasource.uid == "${datasource}")] | length == 3' "$D"
check "panel types are Grafana's core ones" \
	jqe '[.panels[].type] - ["row", "timeseries", "heatmap", "stat", "bargauge", "table", "gauge", "text"] | length == 0' "$D"
check "panel ids unique" jqe '[.panels[].id] | length == (unique | length)' "$D"
check "every panel inside the 24-column grid" \
	jqe 'all(.panels[]; .gridPos.x >= 0 and .gridPos.w > 0 and .gridPos.x + .gridPos.w <= 24 and .gridPos.h > 0 and .gridPos.y >= 0)' "$D"
check "every panel and query reads the datasource variable" \
	jqe 'all(.panels[] | select(.type != "row"); .datasource.uid == "${datasource}" and (.targets | length > 0) and
	     all(.targets[]; .datasource.uid == "${datasource}" and (.expr | length > 0)))' "$D"
check "the heatmap reads the histogram's buckets as a heatmap" \
	jqe 'any(.panels[] | select(.type == "heatmap"); .targets[0].format == "heatmap" and
	     (.targets[0].expr | test("fragtop_stall_duration_seconds_bucket")))' "$D"
check "knob changes are an annotation on the data source" \
	jqe 'any(.annotations.list[]; .datasource.uid == "${datasource}" and (.expr | test("fragtop_vm_knob")))' "$D"
# the PromQL: panels' targets, then the annotations', then the variables' queries
jq -r '.panels[] | select(.type != "row") | .title as $t | .targets[] | "\($t) [\(.refId)]\t\(.expr)"' "$D" > "$tmp/exprs"
jq -r '.annotations.list[] | select(.expr) | "annotation \(.name)\t\(.expr)"' "$D" >> "$tmp/exprs"
jq -r '.templating.list[] | select(.type == "query") | "$\(.name)\t\(.query.query)"' "$D" > "$tmp/vars"
defined=$(jq -r '.templating.list[].name' "$D")
undefined=
for v in $(cut -f2 "$tmp/exprs" "$tmp/vars" | grep -oE '\$[a-z_]+' | sort -u); do
	case $v in '$__rate_interval'|'$__interval'|'$__range') continue;; esac
	grep -qx "${v#\$}" <<< "$defined" || undefined="$undefined $v"
done
check "every \$variable in the queries is defined${undefined:+ (not:$undefined)}" test -z "$undefined"
echo "dashboard: $(wc -l < "$tmp/exprs") expressions, $(wc -l < "$tmp/vars") query variables"

# --- three hosts' recordings backfilled into one Prometheus
hosts="thp-6.18:tests/recordings/defrag-mode/defrag-mode-1-run1.ftr
boost-6.18:tests/recordings/thpfioscale-boost-0-to-15000.ftr
stall-6.1:tests/recordings/lab-6.1-stall.ftr"
for h in $hosts; do
	"$FT" export "${h#*:}" --openmetrics --label "instance=${h%%:*}" --label job=fragtop > "$tmp/${h%%:*}.om" ||
		echo "FAIL export --openmetrics of ${h#*:}"
	promtool tsdb create-blocks-from openmetrics "$tmp/${h%%:*}.om" "$tmp/data" > "$tmp/bf.log" 2>&1 ||
		{ echo "FAIL backfill of ${h#*:}:"; cat "$tmp/bf.log"; fails=$((fails + 1)); }
done
# each recording's span, in seconds since the epoch (they lie days apart: queried one by one)
for h in $hosts; do
	awk -v h="${h%%:*}" '!/^#/ { t = $NF + 0; if (!lo || t < lo) lo = t; if (t > hi) hi = t }
		END { printf "%s %d %d\n", h, lo - 1, hi + 1 }' "$tmp/${h%%:*}.om"
done > "$tmp/spans"
# and ten simulated hosts (tests/fixtures/simfleet.pl) for the worst-hosts table: none of the
# recordings has every fleet figure (contiguity, amplification, pressure)
simend=$(( $(date +%s) / 60 * 60 - 60 ))
perl tests/fixtures/simfleet.pl 10 20 "$simend" 60 > "$tmp/sim.om"
promtool tsdb create-blocks-from openmetrics "$tmp/sim.om" "$tmp/data" > "$tmp/bf.log" 2>&1 ||
	{ echo "FAIL backfill of the simulated fleet:"; cat "$tmp/bf.log"; fails=$((fails + 1)); }
echo "sim $((simend - 1201)) $((simend + 1))" >> "$tmp/spans"
start=$(sort -k2n "$tmp/spans" | head -n 1 | cut -d' ' -f2); end=$(sort -k3n "$tmp/spans" | tail -n 1 | cut -d' ' -f3)
echo "backfilled: $(tr '\n' ';' < "$tmp/spans")"
printf 'global:\n  scrape_interval: 15s\n' > "$tmp/prometheus.yml"
prom_start "$tmp" "$PORT" --storage.tsdb.retention.time=100y
until_ok 60 curl -sf --max-time 2 "http://127.0.0.1:$PORT/-/ready" -o /dev/null
check "Prometheus serves the backfilled blocks" curl -sf --max-time 5 "http://127.0.0.1:$PORT/-/ready" -o /dev/null
# the recording rules over each span (the fleet table reads them), then Prometheus again with their blocks
while read -r h s e; do
	promtool tsdb create-blocks-from rules --start "$s" --end "$e" --eval-interval 15s \
		--url "http://127.0.0.1:$PORT" --output-dir "$tmp/rules-$h" dist/fragtop-rules.yml > "$tmp/rules.log" 2>&1 ||
		{ echo "FAIL the rules over $h:"; tail -5 "$tmp/rules.log"; fails=$((fails + 1)); }
done < "$tmp/spans"
prom_stop
mv "$tmp"/rules-*/* "$tmp/data/" 2> /dev/null
prom_start "$tmp" "$PORT" --storage.tsdb.retention.time=100y
until_ok 60 curl -sf --max-time 2 "http://127.0.0.1:$PORT/-/ready" -o /dev/null
api() {	# PATH ARGS...: a GET of the HTTP API
	local path=$1; shift
	curl -s --max-time 20 -G "http://127.0.0.1:$PORT/api/v1/$path" "$@"
}
# Grafana's "All" of a multi-value variable with allValue .*; the intervals as Grafana would pick them here
fill() {
	sed -e 's/\$__rate_interval/30s/g; s/\$__interval/5s/g; s/\$pageblock_order/9/g' \
	    -e 's/\$instance/.*/g; s/\$node/.*/g; s/\$zone/.*/g; s/\$source/.*/g; s/\$size/.*/g'
}
# the variables: label_values(SELECTOR, LABEL) as the label-values API
while IFS=$'\t' read -r name query; do
	sel=$(sed -E 's/^label_values\((.*), *([a-z_]+)\)$/\1/' <<< "$query" | fill)
	label=$(sed -E 's/^label_values\((.*), *([a-z_]+)\)$/\2/' <<< "$query")
	api "label/$label/values" --data-urlencode "match[]=$sel" -d "start=$start" -d "end=$end" > "$tmp/v.json"
	vals=$(jq -r '.data // [] | join(" ")' "$tmp/v.json")
	echo "  $name: $vals"
	check "variable $name has values" test -n "$vals"
done < "$tmp/vars"
check "\$instance lists the three hosts" test "$(api label/instance/values --data-urlencode 'match[]=fragtop_up' \
	-d "start=$start" -d "end=$end" | jq -r '.data | sort | join(" ")')" = "boost-6.18 stall-6.1 thp-6.18"
# every aggregation keeps the hosts apart: by (instance, ...)
agg=$(cut -f2 "$tmp/exprs" | grep -oE '(sum|min|max|avg|count)( by \([^)]*\))? \(' | grep -v 'by (instance' || true)
check "every aggregation keeps instance apart${agg:+ (not: $agg)}" test -z "$agg"
noinst=
# every expression, over each recording's span: some series with a number in it
while IFS=$'\t' read -r title expr; do
	q=$(fill <<< "$expr")
	n=0 with= status=
	while read -r h s e; do
		api query_range --data-urlencode "query=$q" -d "start=$s" -d "end=$e" -d step=1 > "$tmp/r.json"
		status="$status $(jq -r '.status' "$tmp/r.json")"
		k=$(jq '[.data.result[]? | select(any(.values[]; .[1] != "NaN"))] | length' "$tmp/r.json")
		[ "${k:-0}" -gt 0 ] && n=$((n + k)) with="$with $h"
		# a series without its instance sums hosts together
		jq -e '[.data.result[]? | select(.metric.instance == null)] | length == 0' "$tmp/r.json" > /dev/null ||
			noinst="$noinst [$title]"
	done < "$tmp/spans"
	printf '  %-46s %3s series:%s\n' "$title" "$n" "${with:- none}"
	check "$title: returns data (status$status)" test "$n" -gt 0
done < "$tmp/exprs"
check "every series a panel draws names its instance${noinst:+ (not:$noinst)}" test -z "$noinst"
prom_stop
echo "dashboard.sh: $fails failure(s)"
[ $fails -eq 0 ]
