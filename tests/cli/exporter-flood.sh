#!/bin/bash
# A flood of empty connections cannot blind a TLS scraper on a slow
# network (on a fixture tree, TLS and basic auth): curl scrapes through
# tests/load/delayproxy (25 ms each way: a 50 ms round trip, the server
# sees the connection at once and each flight 25 ms late) while
# tests/load/connflood opens 182 connections a second that send nothing,
# from four addresses other than the scraper's, then from four that
# include it, then 752 a second.  Each time at least 14 of 15 scrapes get
# a 200 (before the eviction rule of cmd/exporter.c's victim(), a
# handshake in progress was evicted by any newcomer: 0 of 15).  And the
# flood's connections are the ones that lose their slots.
# Needs cc, openssl, curl and perl.
# usage: exporter-flood.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
ROOT=$(realpath tests/fixtures/6.18-idle)
LOAD=$(realpath tests/load)
for t in cc openssl curl perl; do
	command -v $t > /dev/null || skip_all "exporter flood: needs cc, openssl, curl and perl ($t missing)"
done
tmp=$(mktemp -d)
PORT=$(test_port); PPORT=$((PORT + 1))
epid= ppid_= fpid=
cleanup() {
	for p in $fpid $ppid_ $epid; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
cc -O2 -o connflood "$LOAD/connflood.c" && cc -O2 -o delayproxy "$LOAD/delayproxy.c" ||
	{ echo "FAIL building the load tools"; exit 1; }

test_certs
hash=$(perl -e 'print crypt($ARGV[0], $ARGV[1])' s3cret '$2b$10$abcdefghijklmnopqrstuu')
cat > web.yml <<YML
tls_server_config:
  cert_file: server.crt
  key_file: server.key
basic_auth_users:
  prometheus: '$hash'
YML

"$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" --web.config.file web.yml 2> ex.err & epid=$!
until_ok 30 grep -q 'exporter on' ex.err || { cat ex.err; echo "FAIL the exporter did not start"; exit 1; }
./delayproxy "$PPORT" "$PORT" 25 300 > proxy.out & ppid_=$!
until_ok 30 grep -q 'delayproxy on' proxy.out
scrape() { curl -s -o /dev/null -w '%{http_code}' --max-time 2 --cacert ca.crt -u prometheus:s3cret \
	--resolve "localhost:$PPORT:127.0.0.1" "https://localhost:$PPORT/metrics"; }
check "through the slow proxy, without a flood: 200" test "$(scrape)" = 200
counter() { curl -s --max-time 5 --cacert ca.crt -u prometheus:s3cret "https://localhost:$PORT/metrics" |
	sed -n "s/^fragtop_exporter_$1 //p" | grep . || echo 0; }
flooded() { [ -s flood.out ] || [ "$(counter accepted_connections_total)" -ge $(($1 + 50)) ]; }

for run in "182 127.0.0.2 127.0.0.3 127.0.0.4 127.0.0.5" "182 127.0.0.1 127.0.0.2 127.0.0.3 127.0.0.4" \
	"752 127.0.0.2 127.0.0.3 127.0.0.4 127.0.0.5"; do
	set -- $run
	rate=$1; shift
	acc0=$(counter accepted_connections_total)
	ev0=$(counter evicted_connections_total)
	rm -f flood.out
	./connflood "$PORT" "$rate" 60 "$@" > flood.out & fpid=$!
	until_ok 30 flooded "$acc0"	# the flood is being accepted
	ok=0
	for i in $(seq 15); do
		[ "$(scrape)" = 200 ] && ok=$((ok + 1))
	done
	acc=$(( $(counter accepted_connections_total) - acc0 ))
	ev=$(( $(counter evicted_connections_total) - ev0 ))
	kill "$fpid"; wait "$fpid" 2>/dev/null; fpid=
	check "$rate empty connects a second from $*: $ok of 15 TLS scrapes with a 50 ms round trip got 200" \
		test "$ok" -ge 14
	check "... the flood was served and lost its slots ($acc accepted, $ev evicted)" test "$ev" -ge 50
done
echo "exporter-flood.sh: $fails failure(s)"
[ $fails -eq 0 ]
