#!/usr/bin/perl
# Slowloris over TLS, for the exporter's soak: N connections to
# 127.0.0.1:PORT from SRC, each finishing its TLS handshake and then
# sending its request head a byte every half second; reconnected when
# closed.  Loopback only, bounded: N at most 200, SECS at most 3600.
# Needs IO::Socket::SSL (Debian: libio-socket-ssl-perl).
# usage: tlsloris.pl PORT N SECS SRC
use strict; use warnings;
use IO::Socket::SSL; use Time::HiRes qw(sleep time);
my ($port, $n, $secs, $src) = @ARGV;
die "usage: tlsloris.pl PORT N SECS SRC\n" unless defined $src;
die "tlsloris: N is 1..200, SECS 1..3600\n" unless $n >= 1 && $n <= 200 && $secs >= 1 && $secs <= 3600;
die "tlsloris: SRC must be in 127.0.0.0/8\n" unless $src =~ /^127\.\d+\.\d+\.\d+$/;
$SIG{PIPE} = 'IGNORE';
my (@s, $opened);
$opened = 0;
sub conn {
	my $c = IO::Socket::SSL->new(PeerAddr => '127.0.0.1', PeerPort => $port, LocalAddr => $src,
				     SSL_verify_mode => SSL_VERIFY_NONE, Timeout => 2) or return undef;
	$c->blocking(0);
	$opened++;
	syswrite($c, "GET /metrics HTTP/1.1\r\nX-Slow: ");
	return $c;
}
my $end = time() + $secs;
while (time() < $end) {
	for my $i (0 .. $n - 1) {
		my $c = $s[$i];
		if ($c) {
			my $buf;
			my $r = sysread($c, $buf, 4096);
			if ((defined $r && $r == 0) || !defined syswrite($c, "a")) { close($c); $c = undef; }
		}
		$s[$i] = $c // conn();
	}
	sleep(0.5);
}
print "tlsloris: opened $opened\n";
