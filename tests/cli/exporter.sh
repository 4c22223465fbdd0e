#!/bin/bash
# fragtop exporter on a fixture tree: the text format and OpenMetrics by
# Accept, families named as promised, promtool's lint when installed, /
# and 404/405/505 answers, garbage and oversized requests refused without
# harm, a silent client dropped, --max-connections answered with 503, a
# clean stop on SIGTERM; snapshot --openmetrics -o writes a whole file
# (0644) for node_exporter's textfile collector; export --openmetrics of
# the sample is a backfill promtool accepts, and --label puts a host's
# instance and job on every sample of it.
# usage: exporter.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
ROOT=tests/fixtures/6.18-idle
S=tests/recordings/thpfioscale-boost-0-to-15000.ftr
tmp=$(mktemp -d)
PORT=$(test_port)	# PORT to PORT + 7 are ours (tests/lib.sh)
trap 'stop_exporter; rm -rf "$tmp"' EXIT
command -v curl > /dev/null || { echo "FAIL curl not installed"; exit 1; }
get() { curl -s --max-time 5 "$@"; }

"$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" --max-connections 2 -i 0.5 2> "$tmp/err" & epid=$!
until_ok 60 get -o /dev/null "http://127.0.0.1:$PORT/"
get -D "$tmp/h" -o "$tmp/m.txt" "http://127.0.0.1:$PORT/metrics"
check "GET /metrics: 200, the text format 0.0.4" grep -q 'Content-Type: text/plain; version=0.0.4' "$tmp/h"
check "free blocks by node, zone and order" grep -qE '^fragtop_zone_free_blocks\{node="0",zone="Normal",order="10"\} [0-9]+$' "$tmp/m.txt"
check "by migratetype too, and watermarks by level" test -n "$(grep -E '^fragtop_zone_free_blocks_by_type\{.*migratetype="Movable"' "$tmp/m.txt")" -a \
	-n "$(grep -E '^fragtop_zone_watermark_bytes\{node="0",zone="Normal",level="high"\}' "$tmp/m.txt")"
# memory in bytes, as node_exporter's: zoneinfo's pages times the page size
check "fragtop_zone_free_bytes: zoneinfo's free pages x 4096 (Normal: 434186 pages)" \
	grep -qx 'fragtop_zone_free_bytes{node="0",zone="Normal"} 1778425856' "$tmp/m.txt"
check "... and the watermarks (high: $(awk '/zone +Normal/ { z = 1 } z && $1 == "high" { print $2; exit }' "$ROOT/proc/zoneinfo") pages)" \
	grep -qx "fragtop_zone_watermark_bytes{node=\"0\",zone=\"Normal\",level=\"high\"} $(( $(awk '/zone +Normal/ { z = 1 } z && $1 == "high" { print $2; exit }' "$ROOT/proc/zoneinfo") * 4096 ))" "$tmp/m.txt"
check "... said in the HELP" grep -q '^# HELP fragtop_zone_free_bytes .*in bytes\.$' "$tmp/m.txt"
check "no family in pages is left" test -z "$(grep '^fragtop_zone_[a-z_]*_pages' "$tmp/m.txt")"
check "unusable and fragmentation index, pageblocks, knobs, build info, source health" test \
	"$(grep -cE '^fragtop_(zone_unusable_free_index|zone_fragmentation_index|zone_pageblocks|vm_knob|build_info|up)\{' "$tmp/m.txt")" -gt 50
check "a --root tree has no tracepoints: said by fragtop_up" grep -q '^fragtop_up{source="tracepoints"} 0$' "$tmp/m.txt"
# the process collector every client library has: its own CPU, memory, fds and start
check "process_*: CPU, resident and virtual memory, fds, their limit, the start time" awk -v now="$(date +%s)" '
	/^process_cpu_seconds_total [0-9.e+]+$/ { n++ }
	/^process_resident_memory_bytes / && $2 > 1000000 { n++ }
	/^process_virtual_memory_bytes / && $2 > 1000000 { n++ }
	/^process_open_fds / && $2 >= 3 { n++ }
	/^process_max_fds / && $2 >= 64 { n++ }
	/^process_start_time_seconds / && $2 > now - 600 && $2 <= now + 1 { n++ }
	END { exit n != 6 }' "$tmp/m.txt"
# the findings over the exporter's minute: after a second tick (-i 0.5), one series a rule checked, at most the table
findings_in() { get "http://127.0.0.1:$PORT/metrics" > "$tmp/f.txt" && grep -q '^fragtop_finding_active{' "$tmp/f.txt"; }
check "fragtop_finding_active after a second tick" until_ok 30 findings_in
"$FT" doctor --rules | awk '{ print $1 " " $2 }' > "$tmp/rules"
check "... a series per rule checked, labelled as doctor --rules has it, 0 or 1" awk -v n="$(wc -l < "$tmp/rules")" '
	NR == FNR { want[$1] = $2; next }
	/^fragtop_finding_active\{/ { split($0, a, "\""); if (!(a[2] in want) || want[a[2]] != a[4] || ($2 != 0 && $2 != 1)) bad++; k++ }
	END { exit bad || k < 1 || k > n }' "$tmp/rules" "$tmp/f.txt"
check "... a captured tree has no kernel log: alloc_failures is not checked (no series)" \
	test -z "$(grep 'rule="alloc_failures"' "$tmp/f.txt")"
if command -v promtool > /dev/null; then
	check "promtool check metrics: no problem" promtool check metrics < "$tmp/m.txt"
	check "... with the findings too" promtool check metrics < "$tmp/f.txt"
fi
get -D "$tmp/h2" -o "$tmp/om.txt" -H 'Accept: application/openmetrics-text; version=1.0.0' "http://127.0.0.1:$PORT/metrics"
check "Accept: OpenMetrics 1.0, ending in # EOF" test -n "$(grep 'Content-Type: application/openmetrics-text; version=1.0.0' "$tmp/h2")" -a \
	"$(tail -n 1 "$tmp/om.txt")" = "# EOF"
check "OpenMetrics names families without the sample's suffix (an info family)" \
	grep -q '^# TYPE fragtop_build info$' "$tmp/om.txt"
check "/ links to /metrics" test -n "$(get "http://127.0.0.1:$PORT/" | grep 'href="/metrics"')"
check "404 for anything else" test "$(get -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/x")" = 404
check "405 for POST" test "$(get -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$PORT/metrics")" = 405
# garbage, an endless header, a silent client: refused or dropped, the server goes on
printf 'GARBAGE\x00\xff\r\n\r\n' | timeout 5 bash -c "cat > /dev/tcp/127.0.0.1/$PORT" 2>/dev/null
head -c 20000 /dev/zero | tr '\0' 'a' | timeout 5 bash -c "cat > /dev/tcp/127.0.0.1/$PORT" 2>/dev/null
# the exporter's own gauge of open connections (this scrape's included)
# says when it has really taken a connection: the 503 check waits for it
conns_are() {
	get -o "$tmp/self" "http://127.0.0.1:$PORT/metrics" &&
		[ "$(sed -n 's/^fragtop_exporter_connections //p' "$tmp/self")" = "$1" ]
}
refused() { sed -n 's/^fragtop_exporter_refused_connections_total //p' "$tmp/self"; }
check "the garbage connections are closed (the gauge counts only this scrape)" until_ok 60 conns_are 1
evicted() { sed -n 's/^fragtop_exporter_evicted_connections_total //p' "$tmp/self"; }
exec 7<>"/dev/tcp/127.0.0.1/$PORT"	# opens, says nothing
check "the exporter holds the first idle connection" until_ok 60 conns_are 2
evicted0=$(evicted)
exec 8<>"/dev/tcp/127.0.0.1/$PORT"
# 8 is in the listening socket's queue before the next client: accepted
# first, so the scrape finds both slots taken by silent connections
scrape_ok() { [ "$(get -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/metrics")" = 200 ]; }
check "more than --max-connections: the oldest silent one gives way, the scrape gets 200" until_ok 10 scrape_ok
get -o "$tmp/self" "http://127.0.0.1:$PORT/metrics"
check "... it is closed (EOF), and counted" test -z "$(timeout 5 cat <&7)" -a "$(evicted)" -ge $((evicted0 + 1))
exec 7>&- 8>&-
check "after all that, scrapes still work" until_ok 60 conns_are 1
kill -TERM "$epid"; wait "$epid"; term_rc=$?; epid=

# what it listens on, said as an address; beyond loopback, a warning
P3=$((PORT + 3))
"$FT" exporter --root "$ROOT" --listen ":$P3" 2> "$tmp/l1.err" & epid=$!
until_ok 60 grep -q 'exporter on' "$tmp/l1.err"
kill -TERM "$epid"; wait "$epid"; epid=
check "--listen :PORT: says http://127.0.0.1:PORT/metrics, no warning" test \
	-n "$(grep "exporter on http://127.0.0.1:$P3/metrics" "$tmp/l1.err")" -a -z "$(grep warning "$tmp/l1.err")" ||
	sed 's/^/     stderr: /' "$tmp/l1.err"
"$FT" exporter --root "$ROOT" --listen "0.0.0.0:$P3" 2> "$tmp/l2.err" & epid=$!
until_ok 60 grep -q 'exporter on' "$tmp/l2.err"
kill -TERM "$epid"; wait "$epid"; epid=
check "--listen 0.0.0.0: warns that anyone who reaches it reads the metrics" \
	grep -q "warning: listening beyond loopback (0.0.0.0:$P3) with neither TLS nor authentication" "$tmp/l2.err"
# IPv6: [::1] serves over ::1 and is loopback; [::] is every address, IPv4 too (unless bindv6only)
if [ -e /proc/net/if_inet6 ] && grep -q '^0\{31\}1 ' /proc/net/if_inet6; then
	"$FT" exporter --root "$ROOT" --listen "[::1]:$P3" 2> "$tmp/l3.err" & epid=$!
	until_ok 60 get -g -o /dev/null "http://[::1]:$P3/"
	get -g -o "$tmp/v6.txt" "http://[::1]:$P3/metrics"
	kill -TERM "$epid"; wait "$epid"; epid=
	check "--listen [::1]:PORT: scraped over IPv6, said as http://[::1]:PORT/metrics, no warning" test \
		-n "$(grep '^fragtop_zone_free_bytes{' "$tmp/v6.txt")" -a \
		-n "$(grep "exporter on http://\[::1\]:$P3/metrics" "$tmp/l3.err")" -a -z "$(grep warning "$tmp/l3.err")"
	"$FT" exporter --root "$ROOT" --listen "[::]:$P3" 2> "$tmp/l4.err" & epid=$!
	until_ok 60 get -g -o /dev/null "http://[::1]:$P3/"
	v4=$(get -o /dev/null -w '%{http_code}' "http://127.0.0.1:$P3/metrics")
	kill -TERM "$epid"; wait "$epid"; epid=
	check "--listen [::]:PORT: warns, and serves IPv4 as well (bindv6only $(cat /proc/sys/net/ipv6/bindv6only))" test \
		-n "$(grep "beyond loopback (\[::\]:$P3)" "$tmp/l4.err")" -a \
		"$v4" = "$([ "$(cat /proc/sys/net/ipv6/bindv6only)" = 0 ] && echo 200 || echo 000)"
else
	skip "no IPv6 loopback here: --listen [::1] not tried"
fi
for bad in '::1:9947' '[::1]' 'localhost:9947' '1.2.3.4:0'; do
	"$FT" exporter --root "$ROOT" --listen "$bad" 2> "$tmp/lb.err"; rc=$?
	check "--listen $bad: refused (exit 2), saying why" test $rc = 2 -a -n "$(grep -F -- "--listen: '$bad' " "$tmp/lb.err")"
done

# out of file descriptors (prlimit --nofile=24, 30 idle connections, 40
# clients): no spinning, and every client is answered or closed, not left hanging
if command -v prlimit > /dev/null; then
	P2=$((PORT + 2))
	prlimit --nofile=24 "$FT" exporter --root "$ROOT" --listen "127.0.0.1:$P2" --max-connections 64 \
		--max-per-client 64 -i 0.5 \
		2> "$tmp/emfile.err" & epid=$!
	until_ok 60 get -o /dev/null "http://127.0.0.1:$P2/"
	held=()
	for i in $(seq 30); do exec {fd}<>"/dev/tcp/127.0.0.1/$P2" && held+=("$fd"); done
	c0=$(awk '{ print $1 }' /proc/"$epid"/schedstat); t0=$(date +%s%N)
	cpids=()
	for i in $(seq 40); do
		(curl -s --max-time 20 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$P2/metrics"; echo " $?") \
			> "$tmp/emf.$i" & cpids+=($!)
	done
	wait "${cpids[@]}"
	c1=$(awk '{ print $1 }' /proc/"$epid"/schedstat); t1=$(date +%s%N)
	for fd in "${held[@]}"; do exec {fd}>&-; done
	# a held connection silent for 10 s is dropped, and its descriptor
	# may then serve a client (200) on a loaded machine: answered too
	answered=$(cat "$tmp"/emf.* | awk '$1 == 503 || $1 == 200 || $2 == 52 || $2 == 56 { n++ } END { print n + 0 }')
	pct=$(awk -v a="$c0" -v b="$c1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.1f", (b - a) * 100 / (e - s) }')
	got=$(cat "$tmp"/emf.* | awk '{ print ($1 == "000" ? "curl exit " $2 : "HTTP " $1) }' | sort | uniq -c |
		awk '{ $1 = $1 " x"; print }' | paste -sd, -)
	check "out of fds: $answered of 40 clients answered (503, 200) or closed, none hanging ($got)" test "$answered" = 40
	check "out of fds: the exporter does not spin ($pct% of a core while they came)" \
		awk -v p="$pct" 'BEGIN { exit !(p < 5) }'
	check "... said once, and counted" test "$(grep -c 'out of file descriptors' "$tmp/emfile.err")" = 1
	kill -TERM "$epid"; wait "$epid"; epid=
fi
check "SIGTERM: a clean stop, exit 0, the scrapes counted" test $term_rc = 0 -a -n "$(grep 'exporter stopped after [0-9]* scrapes' "$tmp/err")"
"$FT" exporter --listen nonsense 2> /dev/null; rc=$?
check "a bad --listen: usage, exit 2" test $rc = 2

# textfile collector: a whole file, readable by node_exporter's user
"$FT" snapshot --root "$ROOT" --openmetrics -o "$tmp/fragtop.om"; rc=$?
check "snapshot --openmetrics -o: written, 0644, complete" test $rc = 0 -a "$(stat -c %a "$tmp/fragtop.om")" = 644 -a \
	"$(tail -n 1 "$tmp/fragtop.om")" = "# EOF"
"$FT" snapshot --root "$ROOT" --prometheus -o "$tmp/fragtop.prom"; rc=$?
check "snapshot --prometheus -o: the text format, no info type, no # EOF" test $rc = 0 -a \
	"$(stat -c %a "$tmp/fragtop.prom")" = 644 -a "$(grep -c -e '^# EOF' -e ' info$' "$tmp/fragtop.prom")" = 0
check "... and no temp file left beside it" test "$(ls "$tmp" | grep -c 'fragtop.prom.tmp')" = 0
# the real textfile collector reads it (and refuses the OpenMetrics file)
NE=$(command -v prometheus-node-exporter || command -v node_exporter || true)
if [ -n "$NE" ]; then
	textfile() {	# DIR: node_exporter's /metrics with only the textfile collector on DIR
		local port=$((PORT + 1)) pid out
		"$NE" --collector.disable-defaults --collector.textfile --collector.textfile.directory="$1" \
			--web.listen-address="127.0.0.1:$port" > "$tmp/ne.log" 2>&1 & pid=$!
		until_ok 30 get -o "$tmp/ne.txt" "http://127.0.0.1:$port/metrics"
		kill "$pid"; wait "$pid" 2> /dev/null
	}
	mkdir "$tmp/tf" "$tmp/tf-om"
	cp "$tmp/fragtop.prom" "$tmp/tf/"
	cp "$tmp/fragtop.om" "$tmp/tf-om/fragtop.prom"
	textfile "$tmp/tf"
	check "node_exporter's textfile collector: node_textfile_scrape_error 0, fragtop's families served" test \
		"$(sed -n 's/^node_textfile_scrape_error //p' "$tmp/ne.txt")" = 0 -a \
		-n "$(grep -E '^fragtop_zone_free_blocks\{.*node="0".*order="10".*\} [0-9]+$' "$tmp/ne.txt")"
	textfile "$tmp/tf-om"
	check "... while the OpenMetrics file is refused (node_textfile_scrape_error 1)" test \
		"$(sed -n 's/^node_textfile_scrape_error //p' "$tmp/ne.txt")" = 1
else
	skip "node_exporter's textfile collector: prometheus-node-exporter not installed"
fi
ln -s /etc/passwd "$tmp/link.prom"
"$FT" snapshot --root "$ROOT" --openmetrics -o "$tmp/link.prom"; rc=$?
check "-o onto a symbolic link replaces the link, never writes through it" test $rc = 0 -a ! -L "$tmp/link.prom" -a \
	"$(head -c 6 /etc/passwd)" = "root:x"

# backfill
if [ -f "$S" ]; then
	"$FT" export "$S" --openmetrics > "$tmp/bf.om"; rc=$?
	check "export --openmetrics: exit 0, timestamps, # EOF" test $rc = 0 -a "$(tail -n 1 "$tmp/bf.om")" = "# EOF" -a \
		-n "$(grep -m1 -E '^fragtop_zone_free_bytes\{node="0",zone="Normal"\} [0-9]+ 1795992[0-9]{3}\.[0-9]{3}$' "$tmp/bf.om")"
	# the fallback pairs the allocator can take are there from the first tick, at 0 where none came yet
	t1=$(grep -m1 '^fragtop_extfrag_events_total' "$tmp/bf.om" | awk '{ print $NF }')
	check "extfrag: from the first tick, the 12 possible series per zone (3 zones), zeros included" test \
		"$(grep '^fragtop_extfrag_events_total' "$tmp/bf.om" | awk -v t="$t1" '$NF == t' | wc -l)" = 36 -a \
		-n "$(grep '^fragtop_extfrag_events_total{node="0",zone="DMA",fragmenting="true",alloc_migratetype="Unmovable",fallback_migratetype="Movable"} 0 ' "$tmp/bf.om")"
	check "... and no impossible pair (a migratetype from itself)" test -z "$(grep -E '^fragtop_extfrag_events_total.*alloc_migratetype="([A-Za-z]+)",fallback_migratetype="\1"' "$tmp/bf.om")"
	check "each family once (no interleaving)" test "$(grep -c '^# TYPE' "$tmp/bf.om")" = "$(grep '^# TYPE' "$tmp/bf.om" | sort -u | wc -l)"
	if command -v promtool > /dev/null; then
		promtool tsdb create-blocks-from openmetrics "$tmp/bf.om" "$tmp/tsdb" > "$tmp/bf.log" 2>&1; rc=$?
		check "promtool tsdb create-blocks-from openmetrics accepts it" test $rc = 0
	fi
	# a backfill of several hosts: their instance and job on every sample, after fragtop's labels
	"$FT" export "$S" --openmetrics --label instance=web1:9947 --label 'job=a"b' > "$tmp/lb.om"; rc=$?
	check "--label: on every sample, escaped" test $rc = 0 -a "$(grep -vc '^#' "$tmp/lb.om")" = \
		"$(grep -c 'instance="web1:9947",job="a\\"b"}' "$tmp/lb.om")" -a "$(grep -vc '^#' "$tmp/lb.om")" -gt 1000
	check "... a family without labels of its own gets only them" \
		grep -qE '^fragtop_trace_lost_events_total\{instance="web1:9947",job="a\\"b"\} 0 ' "$tmp/lb.om"
	for bad in zone=x 9a=b __name__=x noequals =v; do
		"$FT" export "$S" --openmetrics --label "$bad" > /dev/null 2> "$tmp/e"; rc=$?
		check "--label $bad: refused (exit 2), saying why" test $rc = 2 -a -n "$(grep -- '--label' "$tmp/e")"
	done
	"$FT" export "$S" --openmetrics --label i=1 --label i=2 > /dev/null 2> "$tmp/e"; rc=$?
	check "--label given twice for one name: refused" test $rc = 2 -a -n "$(grep 'twice' "$tmp/e")"
	"$FT" export "$S" --csv --label i=1 > /dev/null 2> "$tmp/e"; rc=$?
	check "--label without --openmetrics: refused" test $rc = 2
	# histogram bounds exact, as client libraries print them (2^20 us is 1.048576 s, not 1.04858)
	"$FT" export tests/recordings/adverse-6.18.ftr --openmetrics > "$tmp/lat.om" 2> /dev/null
	check "stall histogram: le bounds exact" test -n "$(grep -F 'le="1.048576"' "$tmp/lat.om")" -a \
		-n "$(grep -F 'le="0.000001"' "$tmp/lat.om")" -a -z "$(grep -E 'le="[0-9.]*e|le="1\.04858"' "$tmp/lat.om")"
fi
echo "exporter.sh: $fails failure(s)"
[ $fails -eq 0 ]
