#!/bin/bash
# The exporter under attack for SOAK_MINUTES (10): TLS and basic auth at
# cost 12, scraped once a second by curl through tests/load/delayproxy
# (a 50 ms round trip), while, all at once and from other loopback
# addresses:
# - tests/load/connflood opens 182 empty connections a second (4 addresses);
# - tests/load/tlsloris.pl holds 50 TLS connections trickling their heads;
# - three clients send wrong passwords as fast as they are answered;
# - four clients make TLS handshakes without credentials, one after another;
# - a client pipelines GETs with the password on one TLS connection and
#   reads every answer as fast as it comes (tests/load/pipeline.pl), on
#   a new connection each time the server takes its slot;
# - sixteen TLS connections (four addresses x 4) each send 200 GETs and
#   never read, over and over.
# Every 10 s the exporter's RSS and open descriptors are noted.  It passes
# with at least 99% of the scrapes answered 200 within 2 s, RSS flat (at
# the end no more than 10%, or 2 MiB, above what it was after the first
# minute), and its descriptors back to what they were before the attacks
# once they stop.
# The live host when root (the exporter traces), else the idle fixture.
# Not in CI (`make soak-exporter`).  Needs cc, openssl, curl, perl with
# IO::Socket::SSL.
# usage: soak-exporter.sh FRAGTOP_BINARY
set -u
FT=$(realpath "${1:-./fragtop}")
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/lib.sh"
MIN=${SOAK_MINUTES:-10}
for t in cc openssl curl perl; do
	command -v $t > /dev/null || { echo "soak-exporter: needs $t"; exit 1; }
done
perl -MIO::Socket::SSL -e 1 2> /dev/null || { echo "soak-exporter: needs perl's IO::Socket::SSL (libio-socket-ssl-perl)"; exit 1; }
tmp=$(mktemp -d)
PORT=$(test_port); PPORT=$((PORT + 1))
pids=
cleanup() {
	# shellcheck disable=SC2086
	kill $pids 2> /dev/null
	pkill -P $$ 2> /dev/null
	wait 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$tmp" || exit 1
cc -O2 -o connflood "$TOP/tests/load/connflood.c" && cc -O2 -o delayproxy "$TOP/tests/load/delayproxy.c" || exit 1
test_certs
hash=$(perl -e 'print crypt($ARGV[0], $ARGV[1])' s3cret '$2b$12$abcdefghijklmnopqrstuu')
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  prometheus: %s\n' \
	"$hash" > web.yml
root=()
[ "$(id -u)" = 0 ] || root=(--root "$TOP/tests/fixtures/6.18-idle")
"$FT" exporter "${root[@]}" --listen "127.0.0.1:$PORT" --web.config.file web.yml 2> ex.err & epid=$!
pids="$pids $epid"
until_ok 60 grep -q 'exporter on' ex.err || { cat ex.err; exit 1; }
./delayproxy "$PPORT" "$PORT" 25 $((MIN * 60 + 120)) > proxy.out & pids="$pids $!"
until_ok 10 grep -q 'delayproxy on' proxy.out || { echo "FAIL the proxy did not start"; exit 1; }
secs=$((MIN * 60))
fd0=$(ls "/proc/$epid/fd" | wc -l)
./connflood "$PORT" 182 "$secs" 127.0.0.2 127.0.0.3 127.0.0.4 127.0.0.5 > flood.out & pids="$pids $!"
perl "$TOP/tests/load/tlsloris.pl" "$PORT" 50 "$secs" 127.0.0.6 > loris.out 2>&1 & lpid=$!
pids="$pids $lpid"
loop() {	# ADDR ARGS...: curl over TLS from ADDR, again and again, each status to loop.ADDR
	local a=$1; shift
	while :; do
		curl -s -o /dev/null -w '%{http_code}\n' --max-time 10 --cacert ca.crt --interface "$a" "$@" \
			"https://localhost:$PORT/metrics" >> "loop.$a"
	done
}
for a in 127.0.0.7 127.0.0.8 127.0.0.9; do loop $a -u prometheus:wrong & pids="$pids $!"; done
for a in 127.0.0.10 127.0.0.11 127.0.0.12 127.0.0.13; do loop $a & pids="$pids $!"; done
pipeline() {	# one pipelining reader at a time, again when its connection is taken
	while :; do
		perl "$TOP/tests/load/pipeline.pl" read 127.0.0.1 "$PORT" 20 --src 127.0.0.14 --tls ca.crt \
			--auth prometheus:s3cret >> pipe.out 2>&1
	done
}
pipeline & pids="$pids $!"
noread() {	# ADDR: four connections that send 200 GETs each and never read, again when they are closed
	while :; do
		perl "$TOP/tests/load/pipeline.pl" noread 127.0.0.1 "$PORT" 12 --src "$1" --tls ca.crt --conns 4 \
			--reqs 200 > /dev/null 2>&1
	done
}
for a in 127.0.0.15 127.0.0.16 127.0.0.17 127.0.0.18; do noread $a & pids="$pids $!"; done

note() {	# seconds rss_kb fds
	echo "$1 $(awk '/^VmRSS/ { print $2 }' "/proc/$epid/status") $(ls "/proc/$epid/fd" | wc -l)" >> res.txt
}
echo "soak: $MIN minutes; scrapes through a 50 ms round trip, at 1 s"
start=$SECONDS
i=0
while [ $((SECONDS - start)) -lt "$secs" ]; do
	r=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 2 --cacert ca.crt -u prometheus:s3cret \
		--resolve "localhost:$PPORT:127.0.0.1" "https://localhost:$PPORT/metrics")
	echo "$r" >> scrapes.txt
	[ $((i % 10)) = 0 ] && note $((SECONDS - start))
	i=$((i + 1))
	sleep 1	# the scrape interval
done
note $((SECONDS - start))
loris_done() { ! kill -0 "$lpid" 2> /dev/null; }
until_ok 15 loris_done	# it ends on its own at the same time, and says how many it opened
# every attacker stopped: the exporter's descriptors go back to where they were
# shellcheck disable=SC2086
kill $(echo "$pids" | tr ' ' '\n' | grep -vx "$epid") 2> /dev/null
pkill -f "$TOP/tests/load/pipeline.pl" 2> /dev/null
fds_back() { [ "$(ls "/proc/$epid/fd" | wc -l)" -le "$fd0" ]; }
until_ok 30 fds_back; fd_end=$(ls "/proc/$epid/fd" | wc -l)
kill -0 "$epid" 2> /dev/null || { echo "FAIL the exporter died"; cat ex.err; exit 1; }
total=$(wc -l < scrapes.txt)
good=$(awk '$1 == 200 && $2 <= 2 { n++ } END { print n + 0 }' scrapes.txt)
p50=$(awk '$1 == 200 { print $2 }' scrapes.txt | sort -n | awk '{ t[NR] = $1 } END { printf "%.0f", t[int((NR + 1) / 2)] * 1000 }')
p99=$(awk '$1 == 200 { print $2 }' scrapes.txt | sort -n | awk '{ t[NR] = $1 } END { printf "%.0f", t[int(NR * 0.99 + 0.5)] * 1000 }')
read -r _ rss1 fd1 < <(awk '$1 >= 60' res.txt | head -1)
read -r _ rss2 fd2 < <(tail -1 res.txt)
rssmax=$(awk '{ if ($2 > m) m = $2 } END { print m }' res.txt)
fdmax=$(awk '{ if ($3 > m) m = $3 } END { print m }' res.txt)
counts() { cat "$@" 2> /dev/null | sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }'; }
echo "scrapes: $good of $total answered 200 within 2 s ($(awk -v g="$good" -v t="$total" 'BEGIN { printf "%.1f", 100 * g / t }')%), median $p50 ms, p99 $p99 ms"
echo "other answers: $(awk '$1 != 200 || $2 > 2 { print $1 }' scrapes.txt | sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')"
echo "RSS: $rss1 kB after a minute, $rss2 kB at the end, $rssmax kB at most; fds: $fd1, $fd2, $fdmax at most"
echo "wrong passwords: $(counts loop.127.0.0.7 loop.127.0.0.8 loop.127.0.0.9)"
echo "handshakes without credentials: $(counts loop.127.0.0.1[0-3])"
echo "flood: $(cat flood.out)"
echo "pipelining reader: $(awk '/^answers/ { n++; a += $2 } END { printf "%d answers over %d connections", a, n }' pipe.out)"
echo "$(tail -1 loris.out)"
curl -s --max-time 5 --cacert ca.crt -u prometheus:s3cret "https://localhost:$PORT/metrics" |
	grep -E '^fragtop_exporter_(evicted|refused|unauthorized|tls_handshake_failures|header_timeouts|accepted|throttled|request_timeouts)' |
	sed 's/^/exporter: /'
ok=1
[ "$((good * 100))" -ge "$((total * 99))" ] || { echo "FAIL fewer than 99% of the scrapes"; ok=0; }
[ "$rss2" -le $((rss1 + rss1 / 10 > rss1 + 2048 ? rss1 + rss1 / 10 : rss1 + 2048)) ] ||
	{ echo "FAIL RSS grew: $rss1 -> $rss2 kB"; ok=0; }
echo "descriptors: $fd0 before the attacks, $fd_end once they stopped"
[ "$fd_end" -le "$fd0" ] || { echo "FAIL descriptors did not come back: $fd0 -> $fd_end"; ok=0; }
[ $ok = 1 ] && echo "soak-exporter: passed" || { echo "soak-exporter: failed"; exit 1; }
