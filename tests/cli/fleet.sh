#!/bin/bash
# fragtop fleet against a real Prometheus (Debian's package) holding 1,000
# simulated hosts, backfilled with promtool from tests/fixtures/simfleet.pl
# (the exporter's names and labels, one host planted worst per column), its
# recording rules backfilled with `promtool tsdb create-blocks-from rules`,
# and three live `fragtop exporter`s on captured trees that it scrapes.
#   - `--json --sort F` puts the planted host first, for every column;
#   - a refresh is 3 queries at 1,003 hosts and at 10 (the count does not
#     grow with the hosts);
#   - --filter picks by target label; --host's free blocks per order are
#     the live exporter's own scrape's, for each of the three;
#   - access: TLS with --ca-file and basic auth through Prometheus's own
#     --web.config.file; without the CA, without the password: refused
#     with what to check;
#   - a Prometheus down, slow (tests/load/delayproxy), answering 401 or
#     malformed JSON: exit 1 and a clear message, no crash;
#   - the console (tmux) shows the table, sorts and filters by key, opens
#     a host, keeps the table with a status line when Prometheus dies, and
#     ends on SIGTERM even at its filter prompt.
# Every server is ours, on ports of its own, stopped by PID.
# usage: fleet.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
for c in prometheus promtool curl jq perl openssl tmux cc; do
	command -v $c > /dev/null || skip_all "fleet: needs $c"
done
tmp=$(mktemp -d)
TMPD=$tmp
PORT=$(test_port)	# PORT..PORT+2 exporters, +3 Prometheus, +4 TLS Prometheus, +5 proxy, +6 fake, +7 closed
PPORT=$((PORT + 3)) TPORT=$((PORT + 4)) XPORT=$((PORT + 5)) FPORT=$((PORT + 6))
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

# --- the fleet: 1,000 simulated hosts, 20 minutes to a minute ago
end=$(( $(date +%s) / 60 * 60 - 60 ))
perl "$HERE/../fixtures/simfleet.pl" 1000 20 "$end" 60 > sim.om
mkdir data
promtool tsdb create-blocks-from openmetrics sim.om data > backfill.log 2>&1
check "promtool backfilled the simulated fleet" test $? = 0
cat > prometheus.yml <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $HERE/../../dist/fragtop-rules.yml
scrape_configs:
  - job_name: fragtop
    static_configs:
      - targets: ['127.0.0.1:$PORT', '127.0.0.1:$((PORT + 1))', '127.0.0.1:$((PORT + 2))']
        labels: { cluster: live, role: db }
YML
trees=("$HERE/../fixtures/6.1-2node-movable" "$HERE/../fixtures/6.18-frag" "$HERE/../fixtures/6.18-mthp")
for i in 0 1 2; do
	"$FT" exporter --root "${trees[$i]}" --listen "127.0.0.1:$((PORT + i))" 2> "exporter$i.log" & pids+=($!)
done
prom_start "$tmp" "$PPORT"
until_ok 60 sh -c "curl -s --max-time 2 http://127.0.0.1:$PPORT/-/ready | grep -q Ready"
check "Prometheus is ready" test $? = 0
# the rules over the backfilled window, then Prometheus again with their blocks
promtool tsdb create-blocks-from rules --start $((end - 1200)) --end "$end" --eval-interval 60s \
	--url "http://127.0.0.1:$PPORT" --output-dir rules-out "$HERE/../../dist/fragtop-rules.yml" > rules.log 2>&1
check "promtool backfilled the recording rules" test $? = 0
prom_stop
mv rules-out/* data/ 2> /dev/null
prom_start "$tmp" "$PPORT"
fleet() { "$FT" fleet --prometheus "http://127.0.0.1:$PPORT" "$@"; }
live_ready() {
	[ "$(fleet --json --filter cluster=live 2> /dev/null | jq '[.hosts[] | select(.up and
		.contiguous_blocks."2M".now != null)] | length')" = 3 ]
}
until_ok 90 live_ready
check "the three live exporters are up and their fleet series recorded" test $? = 0

# --- the planted worst host first, for every column
for pair in FALLBK/s=host-0007 AMPL=host-0123 2M=host-0456 2M_AC=host-0457 1G=host-0500 1G_AC=host-0501 \
	THP_FB%=host-0600 STALL_P99=host-0700 PSI%=host-0800 FINDINGS=host-0900 UP=host-0999 INSTANCE=127.0.0.1; do
	col=${pair%%=*} want=${pair#*=}
	fleet --json --sort "$col" > "sort.json"
	got=$(jq -r '.hosts[0].instance' sort.json)
	check "--sort $col: the planted $want first (got $got)" test "${got%%:*}" = "$want"
done
n=$(jq '.hosts | length' sort.json); q=$(jq '.queries' sort.json)
check "1,003 hosts in the table ($n), in $q queries" test "$n" = 1003 -a "$q" = 3
fleet --json --selector '{job="fragtop",instance=~"host-000.*"}' > ten.json
check "10 hosts: the same 3 queries ($(jq '.hosts_total' ten.json) hosts, $(jq .queries ten.json))" \
	jqe '.hosts_total == 10 and .queries == 3' ten.json
fleet --json > all.json
check "--json: instance, up, labels, every column and the trend, per host" \
	jqe '.hosts[0] | .instance == "host-0007:9947" and has("instance") and has("up") and .labels.cluster != null and
	     has("fragmenting_fallbacks_per_second") and has("pollution_amplification") and
	     has("thp_fallback_ratio") and has("compaction_stall_p99_seconds") and has("memory_pressure_ratio") and
	     has("findings_active") and .contiguous_blocks."1G".after_compaction != null and (.trend | length) == 30' all.json ||
	jq -c '.hosts[0]' all.json
check "the planted host's trend holds its rate over the window" \
	jqe '[.hosts[] | select(.instance == "host-0007:9947") | .trend[10:20][]] | all(. == 5000)' all.json
check "the down host says so" jqe '.hosts[] | select(.instance == "host-0999:9947") | .up == false' sort.json
fleet --json --filter cluster=c1 > c1.json
check "--filter cluster=c1: 250 hosts, all of c1" jqe '(.hosts | length) == 250 and all(.hosts[]; .labels.cluster == "c1")' c1.json
fleet --once --sort AMPL > table.txt
check "--once: a header, the columns, the worst first" \
	sh -c "sed -n 2p table.txt | grep -q '^INSTANCE .*FALLBK/s.*AMPL.*2M_AC.*THP_FB%.*STALL_P99.*PSI%.*FINDINGS.*LABELS' &&
	       sed -n 3p table.txt | grep -q '^host-0123'"

# --- a drill-down is the exporter's own scrape
for i in 0 1 2; do
	curl -s "http://127.0.0.1:$((PORT + i))/metrics" |
		sed -n 's/^fragtop_zone_free_blocks{node="\([0-9]*\)",zone="\([A-Za-z0-9]*\)",order="\([0-9]*\)"} \([0-9.e+]*\)$/\1 \2 \3 \4/p' |
		sort > "scrape$i.txt"
	fleet --host "127.0.0.1:$((PORT + i))" --json |
		jq -r '.zones[] | . as $z | .free_blocks | to_entries[] | "\($z.node) \($z.zone) \(.key) \(.value)"' |
		sort > "drill$i.txt"
	check "host $i (${trees[$i]##*/}): the drill-down's free blocks per order are its scrape's ($(wc -l < "scrape$i.txt") series)" \
		sh -c "[ -s scrape$i.txt ] && diff scrape$i.txt drill$i.txt"
done
fleet --host "127.0.0.1:$PORT" > drill.txt
check "--host as text: the zones' free blocks and contiguity" \
	sh -c "grep -q '^free blocks by order' drill.txt && grep -q '^0    DMA32' drill.txt && grep -q '^contiguous blocks' drill.txt"

# --- access: TLS and basic auth, through Prometheus's own web config
test_certs
hash=$(perl -e 'print crypt($ARGV[0], $ARGV[1])' s3cret '$2b$10$abcdefghijklmnopqrstuu')
printf 's3cret\n' > pass; printf 'wrong\n' > badpass
cat > web.yml <<YML
tls_server_config:
  cert_file: $tmp/server.crt
  key_file: $tmp/server.key
basic_auth_users:
  fleet: $hash
YML
mkdir tdata
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tdata" --web.config.file="$tmp/web.yml" \
	--web.listen-address="127.0.0.1:$TPORT" > tprom.log 2>&1 & pids+=($!)
tls() { "$FT" fleet --prometheus "https://localhost:$TPORT" --timeout 3 "$@"; }
until_ok 60 sh -c "curl -s --cacert ca.crt -u fleet:s3cret https://localhost:$TPORT/-/ready | grep -q Ready"
until_ok 30 sh -c "'$FT' fleet --prometheus https://localhost:$TPORT --ca-file ca.crt --user fleet --password-file pass --json 2>/dev/null | jq -e '.hosts_total == 3' > /dev/null"
tls --ca-file ca.crt --user fleet --password-file pass --json > tls.json 2> tls.err
check "https with --ca-file and basic auth: the table" jqe '.hosts_total == 3' tls.json
tls --user fleet --password-file pass --json > /dev/null 2> noca.err; rc=$?
check "without the CA: exit 1, 'certificate not trusted'" sh -c "[ $rc = 1 ] && grep -q 'certificate not trusted' noca.err"
tls --ca-file ca.crt --json > /dev/null 2> noauth.err; rc=$?
check "without a password: exit 1, 'HTTP 401' and what to check" \
	sh -c "[ $rc = 1 ] && grep -q 'HTTP 401 Unauthorized: check --user and --password-file' noauth.err"
tls --ca-file ca.crt --user fleet --password-file badpass --json > /dev/null 2> bad.err; rc=$?
check "a wrong password: exit 1, 401" sh -c "[ $rc = 1 ] && grep -q 'HTTP 401' bad.err"
printf 'tok\n' > token
tls --ca-file ca.crt --bearer-token-file token --json > /dev/null 2> bearer.err; rc=$?
check "a bearer token Prometheus does not take: 401 too" sh -c "[ $rc = 1 ] && grep -q 'HTTP 401' bearer.err"

# --- a Prometheus that fails
"$FT" fleet --prometheus "http://127.0.0.1:$((PORT + 7))" --json > /dev/null 2> down.err; rc=$?
check "down: exit 1, 'Connection refused' ($(cat down.err))" sh -c "[ $rc = 1 ] && grep -q 'Connection refused' down.err"
cc -O2 -o delayproxy "$HERE/../load/delayproxy.c" || bad "building delayproxy"
./delayproxy "$XPORT" "$PPORT" 1000 300 > proxy.out 2>&1 & pids+=($!)
until_ok 10 sh -c "curl -s --max-time 5 http://127.0.0.1:$XPORT/-/ready | grep -q Ready"
"$FT" fleet --prometheus "http://127.0.0.1:$XPORT" --timeout 1 --json > /dev/null 2> slow.err; rc=$?
check "slow (1 s each way, --timeout 1): exit 1, 'no answer in time' ($(cat slow.err))" \
	sh -c "[ $rc = 1 ] && grep -q 'in time' slow.err"
# (the three live hosts only: the proxy holds each flight of a long answer a second)
"$FT" fleet --prometheus "http://127.0.0.1:$XPORT" --selector '{job="fragtop",cluster="live"}' --timeout 30 \
	--json > slowok.json 2> slowok.err
check "slow, with a timeout that allows it: the table $(cat slowok.err)" jqe '.hosts_total == 3' slowok.json
fake() {	# ANSWER: a server on FPORT that answers every request with these bytes
	perl -MIO::Socket::INET -e '
		my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => $ARGV[0], Listen => 8,
					      ReuseAddr => 1) or die "listen: $!";
		while (my $c = $s->accept) {
			my $b; sysread($c, $b, 65536);
			open(my $f, ">>", "requests.txt"); print $f $b; close $f;	# before the answer: kept when it ends
			print $c $ARGV[1]; close $c;
		}' "$FPORT" "$1" & fpid=$!
	pids+=($fpid)
	until_ok 10 sh -c "curl -s -o /dev/null http://127.0.0.1:$FPORT/"
}
fake "$(printf 'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{"status":"success","data":{"resultType":"vector","result":[{"metric":{}, "value":[1,')"
"$FT" fleet --prometheus "http://127.0.0.1:$FPORT" --json > /dev/null 2> mal.err; rc=$?
check "malformed JSON: exit 1, 'a malformed answer' and where ($(cat mal.err))" \
	sh -c "[ $rc = 1 ] && grep -q 'malformed answer: byte' mal.err"
kill "$fpid"; wait "$fpid" 2> /dev/null
fake "$(printf 'HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic\r\nContent-Length: 12\r\n\r\nUnauthorized')"
"$FT" fleet --prometheus "http://127.0.0.1:$FPORT" --json > /dev/null 2> fake401.err; rc=$?
check "401 from a proxy: exit 1, what to check" sh -c "[ $rc = 1 ] && grep -q 'HTTP 401 Unauthorized: check' fake401.err"
# the bearer token as sent, read again at each request (a rotated token is taken)
printf 'first-token\n' > token
"$FT" fleet --prometheus "http://127.0.0.1:$FPORT" --bearer-token-file token --json > /dev/null 2>&1
printf 'second-token\n' > token
"$FT" fleet --prometheus "http://127.0.0.1:$FPORT" --bearer-token-file token --json > /dev/null 2>&1
check "--bearer-token-file: sent as 'Authorization: Bearer', the rotated token taken" \
	sh -c "grep -q '^Authorization: Bearer first-token' requests.txt && grep -q '^Authorization: Bearer second-token' requests.txt"
kill "$fpid"; wait "$fpid" 2> /dev/null
fake "$(printf 'HTTP/1.0 200 OK\r\n\r\n{"status":"success","data":{"resultType":"vector","result":[{"metric":{"instance":"evil\\u001b[2J\\u0007:1","job":"fragtop"},"value":[1,"1"]}]}}')"
"$FT" fleet --prometheus "http://127.0.0.1:$FPORT" --once > evil.txt 2>&1
check "a hostile instance label reaches the terminal escaped" sh -c "! grep -q \$'\\x1b' evil.txt && grep -q 'evil' evil.txt"
kill "$fpid"; wait "$fpid" 2> /dev/null
# a server's error text and a sample value with terminal escapes: stderr holds no raw ESC nor BEL
raw_esc() { LC_ALL=C grep -c $'[\x1b\x07\x9b]' "$1"; }
fake "$(printf 'HTTP/1.0 400 Bad Request\r\nContent-Type: application/json\r\n\r\n{"status":"error","errorType":"bad_data","error":"\\u001b]0;PWNED\\u0007\\u001b[2J"}')"
"$FT" fleet --prometheus "http://127.0.0.1:$FPORT" --json > /dev/null 2> err-esc.txt; rc=$?
check "a server's error text with escapes: exit 1, said, no raw ESC or BEL ($(raw_esc err-esc.txt))" \
	sh -c "[ $rc = 1 ] && [ \"\$(LC_ALL=C grep -c \$'[\\x1b\\x07]' err-esc.txt)\" = 0 ] && grep -q 'PWNED' err-esc.txt"
"$FT" fleet --prometheus "http://127.0.0.1:$FPORT" --once > /dev/null 2> err-esc2.txt
check "... the same from the console's --once" test "$(raw_esc err-esc2.txt)" = 0
kill "$fpid"; wait "$fpid" 2> /dev/null
fake "$(printf 'HTTP/1.0 200 OK\r\n\r\n{"status":"success","data":{"resultType":"vector","result":[{"metric":{"instance":"a:1"},"value":[1,"\\u001b]0;x\\u0007"]}]}}')"
"$FT" fleet --prometheus "http://127.0.0.1:$FPORT" --json > /dev/null 2> err-val.txt
check "a sample value with escapes: quoted escaped in the parser's message" test "$(raw_esc err-val.txt)" = 0
kill "$fpid"; wait "$fpid" 2> /dev/null
"$FT" fleet --prometheus 'http://admin:hunter2-SECRET@127.0.0.1:9/' --json > /dev/null 2> err-cred.txt; rc=$?
check "a URL with credentials: refused, the password masked ($(cat err-cred.txt))" \
	sh -c "[ $rc = 1 ] && ! grep -q hunter2 err-cred.txt && grep -q 'admin:\\*\\*\\*@' err-cred.txt"
"$FT" fleet --json > /dev/null 2> nourl.err; rc=$?
check "no --prometheus: a usage error" sh -c "[ $rc = 2 ] && grep -q 'prometheus URL is needed' nourl.err"
fleet --sort NOPE > /dev/null 2> nosort.err; rc=$?
check "--sort NOPE: a usage error naming the columns" sh -c "[ $rc = 2 ] && grep -q 'FALLBK/s' nosort.err"
fleet --selector 'job="x"' > /dev/null 2> nosel.err; rc=$?
check "a selector without braces: a usage error" test $rc = 2

# --- the console
on_screen() { screen | grep -qE -- "$1"; }
export WAIT_TENTHS=300	# a deadline for each screen, for a loaded machine and the ASan build
tmux_start fleet 180 40 "$FT" fleet --prometheus "http://127.0.0.1:$PPORT" --interval 1 --timeout 2
wait_for '^host-0007:9947 +up' > /dev/null
check "the console: the table, the worst first" test $? = 0
check "... the sparkline column" on_screen 'TREND FALLBK/s'
T send-keys -t ft s
wait_for 'TREND AMPL' > /dev/null && wait_for '^host-0123:9947' > /dev/null
check "s: sorted by the next column, its trend follows" test $? = 0
answer_prompt / 'filter' 'role=db' && wait_for "filter 'role=db'" > /dev/null
check "/: filtered by a label" on_screen "hosts 1003 .*filter 'role=db'"
check "... only its hosts shown" sh -c "! tmux -S '$TMPD/$SOCK' capture-pane -p -t ft | grep -q 'role=web'"
T send-keys -t ft Enter
wait_for 'free over the window' > /dev/null
check "Enter: the host's zones" test $? = 0
T send-keys -t ft Escape
wait_for 'TREND AMPL' > /dev/null
check "Esc: back to the table" test $? = 0
prom_stop
wait_for 'Connection refused; the table is from' > /dev/null
check "Prometheus gone: the status line says so, the table stays" on_screen '^host-0123:9947'
console_gone() {	# no fragtop of this test's console left
	local p
	for p in $(pgrep -f "fleet --prometheus http://127.0.0.1:$PPORT --interval 1"); do
		[ "$(readlink "/proc/$p/exe")" = "$FT" ] && return 1
	done
	return 0
}
# a stop signal while the filter prompt waits for a key ends the console
T send-keys -t ft /
wait_for 'filter \(' > /dev/null
for p in $(pgrep -f "fleet --prometheus http://127.0.0.1:$PPORT --interval 1"); do
	[ "$(readlink "/proc/$p/exe")" = "$FT" ] && kill -TERM "$p"
done
until_ok 20 console_gone
check "SIGTERM at the filter prompt: the console ends" test $? = 0
echo "fleet.sh: $fails failure(s)"
[ $fails -eq 0 ]
