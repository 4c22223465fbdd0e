#!/bin/bash
# The fleet console for SOAK_MINUTES (10) under ASan against a Prometheus
# that flaps every 5 s between answering (three hosts up), refusing
# connections (its socket closed) and hanging (it takes the request and
# never answers).  Every 10 s the console's screen, RSS and open
# descriptors are noted.  It passes when the console never dies, the
# table (the three hosts) stays on the screen through every phase, its
# status line says why while the server refuses or hangs, RSS is flat (at
# the end no more than 10%, or 2 MiB, above what it was after the first
# minute) and the descriptors at the end are those after the first minute.
# Not in CI (`make soak-fleet`).  Needs perl and tmux.
# usage: soak-fleet.sh FRAGTOP_BINARY (the ASan build: build/fragtop-san)
set -u
FT=$(realpath "${1:-build/fragtop-san}")
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/lib.sh"
MIN=${SOAK_MINUTES:-10}
for t in perl tmux; do
	command -v $t > /dev/null || { echo "soak-fleet: needs $t"; exit 1; }
done
TMPD=$(mktemp -d)
PORT=$(test_port)
SOCK=
spid=
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2> /dev/null
	[ -n "$SOCK" ] && end_tmux
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# the flapping server: phase = int(time / 5) % 3: 0 answers, 1 refuses, 2 hangs
perl -MIO::Socket::INET -MIO::Select -e '
	my ($port, $end) = @ARGV;
	my ($s, @held);
	$SIG{PIPE} = "IGNORE";
	while (time < $end) {
		my $phase = int(time / 5) % 3;
		if ($phase == 1) {		# refuse: no one listens
			close $s if $s; undef $s; close $_ for @held; @held = ();
			select(undef, undef, undef, 0.2); next;
		}
		$s ||= IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => $port, Listen => 64,
					      ReuseAddr => 1) or die "listen: $!";
		close $_ for ($phase == 0 ? @held : ()); @held = () if $phase == 0;
		next unless IO::Select->new($s)->can_read(0.2);
		my $c = $s->accept or next;
		my $req = ""; sysread($c, $req, 65536);
		if ($phase == 2) { push @held, $c; next; }	# hang: held open, never answered
		my $t = time;
		my @v = map { "{\"metric\":{\"__name__\":\"up\",\"instance\":\"soak-$_:9\",\"job\":\"fragtop\"},\"value\":[$t,\"1\"]}" } 1 .. 3;
		my $body = $req =~ m{/query_range} ?
			"{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}" :
			"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[" . join(",", @v) . "]}}";
		print $c "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " . length($body) .
			"\r\nConnection: close\r\n\r\n$body";
		close $c;
	}' "$PORT" $(( $(date +%s) + MIN * 60 + 60 )) 2> "$TMPD/server.err" & spid=$!
until_ok 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT" 2> /dev/null || until_ok 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT"
# ASan's quarantine (freed memory held back, 256 MB by default) is its own, not the console's: kept
# small so RSS shows what the console holds; any report (an error, a leak at exit) goes to a file
export ASAN_OPTIONS="detect_leaks=1:quarantine_size_mb=1:log_path=$TMPD/asan"
tmux_start soak-fleet 160 30 "$FT" --no-config fleet --prometheus "http://127.0.0.1:$PORT" --interval 1 --timeout 2
WAIT_TENTHS=300 check "the console shows the three hosts (within a cycle of the server)" wait_for 'soak-3:9'
fpid=$(pgrep -n -f "fleet --prometheus http://127.0.0.1:$PORT")
rss() { awk '/VmRSS/ { print $2 }' "/proc/$fpid/status"; }
fds() { ls "/proc/$fpid/fd" | wc -l; }
gone=0 lost=0 said=0 samples=0 rss1= fd1=
end=$((SECONDS + MIN * 60))
while [ $SECONDS -lt $end ]; do
	sleep_until=$((SECONDS + 10))
	until_ok 10 seconds_reach "$sleep_until"
	kill -0 "$fpid" 2> /dev/null || { gone=1; break; }
	samples=$((samples + 1))
	s=$(screen)
	grep -q 'soak-1:9' <<< "$s" && grep -q 'soak-3:9' <<< "$s" || lost=$((lost + 1))
	grep -qiE 'refused|in time|no answer|not answer|connect' <<< "$s" && said=$((said + 1))
	if [ $samples = 6 ]; then rss1=$(rss); fd1=$(fds); fi
	echo "soak-fleet: +$((samples * 10)) s rss $(rss) kB fds $(fds)"
done
check "the console lived the whole soak" test $gone = 0
check "the table stayed in every sample ($lost of $samples without it)" test $lost = 0
check "the status said why in some samples ($said of $samples)" test $said -gt 0
r=$(rss); f=$(fds)
check "RSS flat: $r kB at the end, $rss1 kB after a minute" test "$r" -le $(( rss1 + (rss1 / 10 > 2048 ? rss1 / 10 : 2048) ))
check "no descriptor leaked: $f at the end, $fd1 after a minute" test "$f" -le "$fd1"
T send-keys -t ft q
check "q ends it" until_ok 30 bash -c "! kill -0 $fpid 2> /dev/null"
check "ASan said nothing: no error, no leak at exit ($(cat "$TMPD"/asan.* 2> /dev/null | head -3))" \
	bash -c "! ls '$TMPD'/asan.* > /dev/null 2>&1"
[ $fails = 0 ]
