#!/bin/bash
# Slow and hostile clients cannot blind the exporter (on fixture trees):
# - 100 connections that trickle a byte of their request head at a time
#   (slowloris; perl, one process), first from another address
#   (127.0.0.2: --max-per-client holds them to a few slots), then from the
#   scraper's own: 19 of 20 scrapes at 0.5 s still get a 200;
# - a silent connection is closed after --header-timeout, and counted;
# - a refused client gets its 503, not a reset: every slot is answering a
#   client that does not read (a small receive buffer, a 400-node
#   tree's 6.6 MB answer), and curl, refused, reads "503" cleanly.
# Needs perl, curl and ss (iproute2).
# usage: exporter-slow.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
ROOT=$(realpath tests/fixtures/6.18-idle)
command -v perl > /dev/null && command -v curl > /dev/null && command -v ss > /dev/null ||
	skip_all "slow clients: needs perl, curl and ss"
tmp=$(mktemp -d)
PORT=$(test_port)	# below the ephemeral range (32768+), ours alone
epid= tpid= rpid=
cleanup() {
	for p in $tpid $rpid $epid; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# N connections from SRC, each sending its request head a byte at a time
# (one every 0.5 s); reconnected when closed.  Runs until killed; prints
# how many connections it opened to FILE every round.
cat > "$tmp/trickle.pl" <<'PERL'
use strict; use warnings;
use IO::Socket::INET; use Time::HiRes qw(sleep);
my ($port, $n, $src, $file) = @ARGV;
my (@s, $opened);
$opened = 0;
$SIG{PIPE} = 'IGNORE';
sub conn {
	my $c = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port, LocalAddr => $src,
				      Proto => 'tcp', Timeout => 2) or return undef;
	$c->blocking(0);
	$opened++;
	syswrite($c, "GET /metrics HTTP/1.1\r\nX-Slow: ");
	return $c;
}
while (1) {
	for my $i (0 .. $n - 1) {
		my $c = $s[$i];
		if ($c) {
			my $buf;
			my $r = sysread($c, $buf, 4096);
			if ((defined $r && $r == 0) || !defined syswrite($c, "a")) { close($c); $c = undef; }
		}
		$s[$i] = $c // conn();
	}
	if (open(my $f, '>', "$file.tmp")) {
		print $f "$opened\n";
		close($f);
		rename("$file.tmp", $file);
	}
	sleep(0.5);
}
PERL

start() {	# ARGS...: an exporter on the fixture tree
	"$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" "$@" 2> "$tmp/ex.err" & epid=$!
	until_ok 30 curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/"
}
stop() { kill -TERM "$epid"; wait "$epid"; epid=; }
scrapes() {	# N: N scrapes half a second apart while the trickle runs; how many got 200
	local i ok=0
	for i in $(seq "$1"); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$PORT/metrics")" = 200 ] &&
			ok=$((ok + 1))
		sleep 0.5	# the pace of the scrapes over the trickle's 10 s (three header timeouts)
	done
	echo "$ok"
}
opened() { cat "$tmp/opened" 2>/dev/null || echo 0; }
opened_at_least() { [ "$(opened)" -ge "$1" ]; }	# for until_ok: read again each time

start
for src in 127.0.0.2 127.0.0.1; do
	rm -f "$tmp/opened"
	perl "$tmp/trickle.pl" "$PORT" 100 "$src" "$tmp/opened" & tpid=$!
	until_ok 30 opened_at_least 100
	ok=$(scrapes 20)
	n=$(opened)
	kill "$tpid"; wait "$tpid" 2>/dev/null; tpid=
	check "100 trickling clients from $src ($n connections opened): $ok of 20 scrapes at 0.5 s got 200" \
		test "$ok" -ge 19 -a "$n" -ge 100
done
curl -s --max-time 5 "http://127.0.0.1:$PORT/metrics" > "$tmp/m.txt"
check "... the slots they lost are counted" test "$(sed -n 's/^fragtop_exporter_evicted_connections_total //p' "$tmp/m.txt")" -gt 0
stop

# a silent connection: closed after --header-timeout, counted
start --header-timeout 2
exec 7<>"/dev/tcp/127.0.0.1/$PORT"
t0=$(date +%s%N)
timeout 10 cat <&7 > /dev/null
t1=$(date +%s%N)
exec 7>&-
ms=$(( (t1 - t0) / 1000000 ))
curl -s --max-time 5 "http://127.0.0.1:$PORT/metrics" > "$tmp/m.txt"
check "--header-timeout 2: a silent connection is closed after ${ms} ms, and counted" test "$ms" -ge 1500 -a "$ms" -lt 8000 -a \
	"$(sed -n 's/^fragtop_exporter_header_timeouts_total //p' "$tmp/m.txt")" -ge 1
stop

# a refusal is a 503 the client reads, not a reset
# (400 nodes: a 6.6 MB answer, more than the socket buffers take, so the writes wait)
bash tests/fixtures/many-nodes.sh 400 "$tmp/tree"
ROOT=$tmp/tree
start --max-connections 1
cat > "$tmp/noread.pl" <<'PERL'
use strict; use warnings; use Socket; use IO::Socket::INET;
my ($port) = @ARGV;
socket(my $s, PF_INET, SOCK_STREAM, 0) or die;
setsockopt($s, SOL_SOCKET, SO_RCVBUF, 2048);
connect($s, sockaddr_in($port, inet_aton('127.0.0.1'))) or die;
syswrite($s, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
sleep 30;	# never reads: the exporter's answer waits in its socket
PERL
perl "$tmp/noread.pl" "$PORT" & rpid=$!
# it holds the slot once the exporter's answer to it waits in the socket (Send-Q)
stuck() { ss -tnH state established "( sport = :$PORT )" | awk '$2 > 100000 { f = 1 } END { exit !f }'; }
until_ok 30 stuck
curl -s -o "$tmp/r.txt" -D "$tmp/r.h" --max-time 5 "http://127.0.0.1:$PORT/metrics"; rc=$?
check "every slot answering: the newcomer reads a 503 (curl exit $rc, no reset)" \
	test "$rc" = 0 -a -n "$(grep '^HTTP/1.1 503' "$tmp/r.h")"
kill "$rpid"; wait "$rpid" 2>/dev/null; rpid=
until_ok 30 sh -c "curl -s -o /dev/null -w '%{http_code}' --max-time 5 'http://127.0.0.1:$PORT/metrics' | grep -q 200"
check "... and once the slow reader is gone, scrapes are answered" \
	test "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$PORT/metrics")" = 200
stop
echo "exporter-slow.sh: $fails failure(s)"
[ $fails -eq 0 ]
