#!/usr/bin/perl
# Clients that pipeline HTTP requests, for the exporter's fairness tests.
#   pipeline.pl read   HOST PORT SECS [options]: one connection; a child
#       writes requests into it without pause (as many as the server
#       takes) while the parent reads every answer as fast as it comes;
#       at the end prints "answers N bytes B".
#   pipeline.pl noread HOST PORT SECS [options]: --conns connections each
#       send --reqs requests at once, then never read, and are held for
#       SECS.  Prints "opened N".
# options: --src ADDR (the address to connect from), --tls CAFILE (TLS,
# checked against that CA, name localhost), --auth USER:PASS, --path P
# (/metrics), --conns N (4), --reqs N (200).
use strict;
use warnings;
use IO::Socket::INET;
use Time::HiRes qw(time sleep);
use MIME::Base64 qw(encode_base64);

my ($mode, $host, $port, $secs) = splice(@ARGV, 0, 4);
die "usage: pipeline.pl read|noread HOST PORT SECS [options]\n" unless defined $secs;
my %o = (src => undef, tls => undef, auth => undef, path => '/metrics', conns => 4, reqs => 200);
while (@ARGV) {
	my $k = shift @ARGV;
	$k =~ s/^--// or die "pipeline.pl: $k: not an option\n";
	die "pipeline.pl: --$k: unknown\n" unless exists $o{$k};
	$o{$k} = shift @ARGV;
}
my $auth = defined $o{auth} ? 'Authorization: Basic ' . encode_base64($o{auth}, '') . "\r\n" : '';
my $req = "GET $o{path} HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n";

sub connect_one {
	my %a = (PeerHost => $host, PeerPort => $port, Proto => 'tcp');
	$a{LocalAddr} = $o{src} if defined $o{src};
	if (defined $o{tls}) {
		require IO::Socket::SSL;
		return IO::Socket::SSL->new(%a, SSL_ca_file => $o{tls}, SSL_verifycn_name => 'localhost',
			SSL_hostname => 'localhost');
	}
	return IO::Socket::INET->new(%a);
}

my $end = time + $secs;
$SIG{PIPE} = 'IGNORE';
if ($mode eq 'read') {
	my ($answers, $bytes) = (0, 0);
	my $s = connect_one() or die "pipeline.pl: connect: $!\n";
	my $buf = '';
	my $writer;
	if (!defined $o{tls}) {
		# plain: a child writes, so the requests never stop coming
		$writer = fork() // die "pipeline.pl: fork: $!\n";
		if (!$writer) {
			my $batch = $req x 64;
			while (time < $end) {
				last unless defined syswrite($s, $batch);
			}
			exit 0;
		}
	}
	while (time < $end) {
		# TLS (one process may not write and read one session at once): a batch, then what came
		syswrite($s, $req x 64) if defined $o{tls} && $answers % 64 == 0;
		my $n = sysread($s, $buf, 1 << 20, length $buf);
		last unless $n;
		$bytes += $n;
		# whole answers off the front: head, then Content-Length bytes
		while ((my $he = index($buf, "\r\n\r\n")) >= 0) {
			my ($len) = substr($buf, 0, $he) =~ /\r\nContent-Length: (\d+)/i;
			$len //= 0;
			last if length($buf) < $he + 4 + $len;
			substr($buf, 0, $he + 4 + $len, '');
			$answers++;
			syswrite($s, $req x 64) if defined $o{tls} && $answers % 64 == 0;
		}
	}
	kill 'TERM', $writer if $writer;
	print "answers $answers bytes $bytes\n";
	exit 0;
}
die "pipeline.pl: $mode: read or noread\n" unless $mode eq 'noread';
my ($opened, @s) = (0);
for my $i (1 .. $o{conns}) {
	my $c = connect_one() or next;
	$opened++;
	syswrite($c, $req x $o{reqs});
	push @s, $c;
}
$| = 1;
print "opened $opened\n";
sleep 0.1 while time < $end;
