#!/bin/bash
# The exporter's fairness (docs/design/exporter.md, "The exporter's fairness"), on
# the idle fixture tree, plain and over TLS with basic auth:
#  - one client pipelining GETs on one connection from 127.0.0.2 and
#    reading every answer as fast as it comes (tests/load/pipeline.pl):
#    20 scrapes by curl from 127.0.0.1 meanwhile, each on a new
#    connection, and at least 19 get 200 within 2 s.  Before the rule a
#    kept-alive connection's queued requests were answered in one loop
#    without going back to poll(): the other scraper timed out.  The
#    pipeliner gets no more than --max-rate answers a second (50, and
#    50 at once), counted: what bounds the exporter's CPU;
#  - 16 clients (4 addresses x 4) that each send 200 GETs and never
#    read: 20 probes from another address, at least 19 get 200.  Before
#    the rule a connection with an answer pending was never evicted,
#    read or not: the probes got 503 until the 10 s deadline.
# Counts, not times: the 2 s is curl's limit on a scrape, as Prometheus
# has one.  Needs curl, perl (IO::Socket::SSL for TLS) and openssl.
# usage: exporter-fair.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
ROOT=$(realpath tests/fixtures/6.18-idle)
LOAD=$(realpath tests/load)
for t in curl openssl perl; do
	command -v $t > /dev/null || skip_all "exporter fairness: needs curl, openssl and perl ($t missing)"
done
tmp=$(mktemp -d)
PORT=$(test_port)
epid= lpids=
cleanup() {
	for p in $lpids $epid; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1

start() {	# ARGS...: the exporter on the fixture, on $PORT
	rm -f ex.err
	"$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" "$@" 2> ex.err & epid=$!
	until_ok 30 grep -q 'exporter on' ex.err || { cat ex.err; echo "FAIL the exporter did not start"; exit 1; }
}
stop() { kill "$epid"; wait "$epid" 2>/dev/null; epid=; }
URL=http://127.0.0.1:$PORT/metrics
CURL=(curl)
code() { "${CURL[@]}" -s -o /dev/null -w '%{http_code}' --max-time 2 "$URL"; }
counter() { "${CURL[@]}" -s --max-time 5 "$URL" | sed -n "s/^fragtop_exporter_$1 //p" | grep . || echo 0; }
served() { [ "$(counter "$1")" -ge "$2" ]; }

# one pipelining client, reading everything ($1: a name; the rest: pipeline.pl's TLS options)
pipelined() {
	local what=$1 ok=0 i n secs=12 c0 c1; shift
	c0=$(awk '{ print $14 + $15 }' "/proc/$epid/stat")
	perl "$LOAD/pipeline.pl" read 127.0.0.1 "$PORT" $secs --src 127.0.0.2 "$@" > pipe.out 2> pipe.err &
	lpids=$!
	until_ok 30 served throttled_requests_total 1 || bad "$what: the pipeliner was never held back"
	for i in $(seq 20); do
		[ "$(code)" = 200 ] && ok=$((ok + 1))
	done
	check "$what: $ok of 20 scrapes beside a pipelining client got 200 within 2 s" test $ok -ge 19
	wait "$lpids"; lpids=
	c1=$(awk '{ print $14 + $15 }' "/proc/$epid/stat")
	echo "     $what: the exporter used $(awk -v t=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" \
		'BEGIN { printf "%.2f", t / hz }') s of CPU meanwhile (not asserted: a count is, below)"
	n=$(sed -n 's/^answers \([0-9]*\).*/\1/p' pipe.out)
	check "$what: the pipeliner got ${n:-no} answers in $secs s: at most 50 a second and 50 at once" \
		eval 'test -n "$n" && test "$n" -le $((50 * secs + 50 + 5))' || cat pipe.err
	check "$what: ... and its held requests their turn (more than 50 + 5 a second)" \
		eval 'test -n "$n" && test "$n" -ge $((50 + 5 * secs))'
}

start
pipelined "plain"
stop

# TLS and basic auth
test_certs
if perl -MIO::Socket::SSL -e 1 2> /dev/null; then
	hash=$(perl -e 'print crypt($ARGV[0], $ARGV[1])' s3cret '$2b$10$abcdefghijklmnopqrstuu')
	printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  prometheus: %s\n' \
		"'$hash'" > web.yml
	start --web.config.file web.yml
	URL=https://localhost:$PORT/metrics
	CURL=(curl --cacert ca.crt -u prometheus:s3cret --resolve "localhost:$PORT:127.0.0.1")
	check "TLS: a scrape gets 200" test "$(code)" = 200
	pipelined "TLS, with a password" --tls ca.crt --auth prometheus:s3cret
	stop
	URL=http://127.0.0.1:$PORT/metrics
	CURL=(curl)
else
	skip "TLS: perl's IO::Socket::SSL is not installed"
fi

# 16 clients that never read their answers
start
a0=$(counter accepted_connections_total)
for a in 2 3 4 5; do
	perl "$LOAD/pipeline.pl" noread 127.0.0.1 "$PORT" 30 --src 127.0.0.$a --conns 4 --reqs 200 > noread.$a &
	lpids="$lpids $!"
done
opened() { [ "$(cat noread.? | grep -c '^opened 4$')" = 4 ]; }
until_ok 30 opened || bad "the 16 non-reading clients did not connect"
# accepted since a0: the 16, and each scrape answered since (a refused one is not accepted)
asked=0
in16() {
	local v
	v=$(counter accepted_connections_total)
	[ "$v" -gt 0 ] || return 1
	asked=$((asked + 1))
	[ $((v - a0 - asked)) -ge 16 ]
}
until_ok 30 in16 || bad "the 16 non-reading clients were not all accepted"
ok=0
for i in $(seq 20); do
	[ "$(code)" = 200 ] && ok=$((ok + 1))
done
check "$ok of 20 probes beside 16 clients that never read got 200" test $ok -ge 19
ev=$(counter evicted_connections_total)
check "... the non-reading clients gave up their slots ($ev evicted)" test "$ev" -ge 1
for p in $lpids; do kill "$p" 2>/dev/null; done
wait $lpids 2>/dev/null; lpids=
stop
echo "exporter-fair.sh: $fails failure(s)"
[ $fails -eq 0 ]
