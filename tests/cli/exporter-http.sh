#!/bin/bash
# The exporter speaks HTTP as Prometheus expects: gzip when the client
# asks (and uncompressed, said once, when zlib cannot be loaded), one
# kept-alive connection for many scrapes, HTTP/1.0 and "Connection:
# close" and a request body closing it, pipelined requests answered in
# order, an idle connection closed after --idle-timeout and the first to
# give its slot to a newcomer, --idle-timeout 0 closing after each answer;
# a bare CR, a NUL or a space before a field's colon answered 400.
# Each waits with a deadline; counts come from the exporter's own counters.
# usage: exporter-http.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
ROOT=tests/fixtures/6.18-idle
tmp=$(mktemp -d)
PORT=$(test_port)	# PORT to PORT + 7 are ours (tests/lib.sh)
trap 'stop_exporter; exec 3>&- 4>&- 5>&- 2>/dev/null; rm -rf "$tmp"' EXIT
command -v curl > /dev/null || { echo "FAIL curl not installed"; exit 1; }
get() { curl -s --max-time 5 "$@"; }
# start ARGS...: an exporter on $PORT (with $LIBPATH first in its library path), up when it answers /
LIBPATH=
start() {
	env ${LIBPATH:+LD_LIBRARY_PATH="$LIBPATH"} "$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" -i 0.2 "$@" 2> "$tmp/err" & epid=$!
	until_ok 30 get -o /dev/null "http://127.0.0.1:$PORT/"
}
# counter NAME: the exporter's own counter, from a scrape of its own
counter() { get -H 'Connection: close' "http://127.0.0.1:$PORT/metrics" | sed -n "s/^fragtop_exporter_$1 //p"; }

start
# the families are all there once the rules have a window to judge (two
# ticks in it: fragtop_finding_active), so both answers below have them
has_findings() { get "http://127.0.0.1:$PORT/metrics" | grep -q '^fragtop_finding_active'; }
check "the rules judged within 30 s (fragtop_finding_active)" until_ok 30 has_findings
# gzip: what curl --compressed sends; the body is the same families
get -D "$tmp/h" -H 'Accept-Encoding: gzip' -o "$tmp/m.gz" "http://127.0.0.1:$PORT/metrics"
check "Accept-Encoding: gzip: Content-Encoding gzip, Vary" test -n "$(grep -i '^Content-Encoding: gzip' "$tmp/h")" -a \
	-n "$(grep -i '^Vary: Accept-Encoding' "$tmp/h")"
check "... a whole gzip stream" gzip -t "$tmp/m.gz"
gzip -dc "$tmp/m.gz" > "$tmp/m.txt"
get -o "$tmp/plain.txt" "http://127.0.0.1:$PORT/metrics"
check "... of the same families as the plain answer" \
	diff <(grep '^# TYPE' "$tmp/m.txt") <(grep '^# TYPE' "$tmp/plain.txt")
zs=$(stat -c %s "$tmp/m.gz"); ps=$(stat -c %s "$tmp/plain.txt")
echo "a scrape: $ps bytes, gzip $zs"
check "... at least 4 times smaller" test $((zs * 4)) -lt "$ps"
check "no Accept-Encoding: no Content-Encoding" test -z "$(get -D - -o /dev/null "http://127.0.0.1:$PORT/metrics" | grep -i '^Content-Encoding')"
# keep-alive: three scrapes on one connection
a0=$(counter accepted_connections_total); g0=$(counter gzip_scrapes_total)
get --compressed -w '%{num_connects}\n' -o /dev/null -o /dev/null -o /dev/null \
	"http://127.0.0.1:$PORT/metrics" "http://127.0.0.1:$PORT/metrics" "http://127.0.0.1:$PORT/metrics" > "$tmp/nc"
check "three scrapes in one curl: one connection (keep-alive)" test "$(tr '\n' ' ' < "$tmp/nc")" = "1 0 0 "
a1=$(counter accepted_connections_total); g1=$(counter gzip_scrapes_total)
# the counters' own scrapes: g0's and a1's connections
check "... the exporter accepted one connection for them (and one for each counter read)" test $((a1 - a0)) = 3
check "... and gzipped all three" test $((g1 - g0)) = 3
check "HTTP/1.0: Connection: close" grep -qi '^Connection: close' <(get --http1.0 -D - -o /dev/null "http://127.0.0.1:$PORT/metrics")
check "HTTP/1.1: Connection: keep-alive with its timeout" grep -qi '^Keep-Alive: timeout=120' \
	<(get -D - -o /dev/null "http://127.0.0.1:$PORT/metrics")
# pipelined: two requests in one write, the second closing; both answered, in order, then EOF
exec 3<> "/dev/tcp/127.0.0.1/$PORT"
printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' >&3
timeout 5 cat <&3 > "$tmp/pipe"; rc=$?
exec 3>&-
check "pipelined: both answered, then the connection closed" test $rc = 0 -a "$(grep -c '^HTTP/1.1 200' "$tmp/pipe")" = 2
check "... in order (the page, then the metrics)" test "$(grep -n 'fragtop exporter</h1>' "$tmp/pipe" | cut -d: -f1)" -lt \
	"$(grep -n '^# TYPE fragtop_build' "$tmp/pipe" | cut -d: -f1)"
# a body nobody reads: closed after the answer
exec 3<> "/dev/tcp/127.0.0.1/$PORT"
printf 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd' >&3
timeout 5 cat <&3 > "$tmp/body"; rc=$?
exec 3>&-
check "a request with a body: answered, Connection: close, closed" test $rc = 0 -a -n "$(grep -i '^Connection: close' "$tmp/body")"
# RFC 9112's strictness (issue 42, item 8): a bare CR, a NUL, a space before a colon: 400
strict() {
	exec 3<> "/dev/tcp/127.0.0.1/$PORT"
	printf "$1" >&3
	timeout 5 cat <&3 > "$tmp/strict"
	exec 3>&-
	head -n 1 "$tmp/strict" | grep -q '^HTTP/1.1 400'
}
check "a bare CR in a header: 400" strict 'GET / HTTP/1.1\r\nX: a\rAuthorization: Basic YTpi\r\n\r\n'
check "a NUL in the target: 400" strict 'GET /metrics\0junk HTTP/1.1\r\n\r\n'
check "a space before a field's colon: 400" strict 'GET / HTTP/1.1\r\nAuthorization : Basic YTpi\r\n\r\n'
stop_exporter

# --idle-timeout: a kept-alive connection left unused is closed; idle ones give their slots first
start --idle-timeout 1 --max-connections 2 --max-per-client 4
exec 3<> "/dev/tcp/127.0.0.1/$PORT"
printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\n' >&3
timeout 10 cat <&3 > "$tmp/idle"; rc=$?
exec 3>&-
check "--idle-timeout 1: the unused connection is closed by the exporter (no client timeout)" test $rc = 0 -a \
	-n "$(grep '^HTTP/1.1 200' "$tmp/idle")"
check "... and counted" test "$(counter idle_timeouts_total)" -ge 1
stop_exporter
start --idle-timeout 60 --max-connections 2 --max-per-client 4
exec 4<> "/dev/tcp/127.0.0.1/$PORT"; printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\n' >&4
exec 5<> "/dev/tcp/127.0.0.1/$PORT"; printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\n' >&5
idle_two() { [ "$(timeout 2 head -c 12 <&4)" = "HTTP/1.1 200" ] && [ "$(timeout 2 head -c 12 <&5)" = "HTTP/1.1 200" ]; }
check "two kept-alive connections answered (every slot held)" idle_two
check "a newcomer is served, not refused: an idle connection gave its slot" \
	test "$(get -H 'Connection: close' -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")" = 200
check "... counted as evicted" test "$(counter evicted_connections_total)" -ge 1
exec 4>&- 5>&-
stop_exporter
start --idle-timeout 0
check "--idle-timeout 0: Connection: close" grep -qi '^Connection: close' <(get -D - -o /dev/null "http://127.0.0.1:$PORT/metrics")
stop_exporter

# no zlib to be had: a libz.so.1 without deflate first in the library path
if command -v cc > /dev/null; then
	mkdir "$tmp/lib"
	echo 'int ft_not_zlib;' | cc -shared -fPIC -x c -o "$tmp/lib/libz.so.1" -
	LIBPATH="$tmp/lib" start
	get -D "$tmp/h" -H 'Accept-Encoding: gzip' -o "$tmp/nz.txt" "http://127.0.0.1:$PORT/metrics"
	get -H 'Accept-Encoding: gzip' -o /dev/null "http://127.0.0.1:$PORT/metrics"
	check "no usable zlib: answered uncompressed" test -z "$(grep -i '^Content-Encoding' "$tmp/h")" -a \
		-n "$(grep '^HTTP/1.1 200' "$tmp/h")" -a -n "$(grep '^# TYPE fragtop_build' "$tmp/nz.txt")"
	check "... said once, with the reason" test "$(grep -c 'answering uncompressed: libz.so.1 lacks deflate' "$tmp/err")" = 1
	stop_exporter
	LIBPATH=
else
	skip "no C compiler: the missing-zlib case is not tried"
fi
echo "exporter-http.sh: $fails failure(s)"
[ $fails -eq 0 ]
