#!/usr/bin/perl
# An independent reader of the watermark boost: /proc/zoneinfo at 100 Hz,
# nothing of fragtop's.  For zone ZONE (default Normal) of every node it
# counts reads, reads that found the boost > 0, episodes (0 -> > 0) and the
# peak, and prints them as one JSON object on SIGTERM or SIGINT.
# usage: boost-reader.pl [ZONE] > out.json
use strict;
use warnings;
use Time::HiRes qw(usleep time);

my $want = shift // 'Normal';
my ($reads, $boosted, $episodes, $peak, $was) = (0, 0, 0, 0, 0);
my $stop = 0;
$SIG{TERM} = $SIG{INT} = sub { $stop = 1 };
my $next = time;
while (!$stop) {
	open(my $f, '<', '/proc/zoneinfo') or die "zoneinfo: $!";
	my ($zone, $b) = ('', 0);
	while (<$f>) {
		$zone = $1 if /^Node \d+, zone\s+(\S+)/;
		$b += $1 if $zone eq $want && /^\s+boost\s+(\d+)/;
	}
	close($f);
	$reads++;
	if ($b > 0) {
		$boosted++;
		$episodes++ unless $was;
		$peak = $b if $b > $peak;
	}
	$was = $b > 0;
	$next += 0.01;
	my $left = $next - time;
	if ($left > 0) { usleep($left * 1e6) } else { $next = time }
}
printf "{\"reads\":%d,\"boosted\":%d,\"episodes\":%d,\"peak\":%d,\"boosted_fraction\":%.6f}\n",
	$reads, $boosted, $episodes, $peak, $reads ? $boosted / $reads : 0;
