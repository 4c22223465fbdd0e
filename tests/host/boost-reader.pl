#!/usr/bin/perl
# An independent reader of the watermark boost: /proc/zoneinfo at 100 Hz,
# nothing of fragtop's.  For zone ZONE (default Normal) of every node it
# counts reads, reads that found the boost > 0, episodes and the peak, and
# prints them as one JSON object on SIGTERM or SIGINT.  An episode starts
# when the boost goes from 0 to > 0, or drops while still > 0 (kswapd took
# off one episode's boost and a newer one's is left).  long_episodes counts
# those seen by three reads or more: they lasted over 20 ms, so a 50 Hz
# sampler cannot miss them; shorter ones it sees by chance.  held_peak is
# the highest level the boost stayed at or above for four reads in a row
# (30 ms and more): a 50 Hz sampler cannot miss that level either.
# seconds is how long it read.
# usage: boost-reader.pl [ZONE] > out.json
use strict;
use warnings;
use Time::HiRes qw(usleep time);

my $want = shift // 'Normal';
my ($reads, $boosted, $episodes, $peak, $last) = (0, 0, 0, 0, 0);
my ($long, $run, $held) = (0, 0, 0);
my @recent;
my $stop = 0;
$SIG{TERM} = $SIG{INT} = sub { $stop = 1 };
my $start = time;
my $next = $start;
while (!$stop) {
	open(my $f, '<', '/proc/zoneinfo') or die "zoneinfo: $!";
	my ($zone, $b) = ('', 0);
	while (<$f>) {
		$zone = $1 if /^Node \d+, zone\s+(\S+)/;
		$b += $1 if $zone eq $want && /^\s+boost\s+(\d+)/;
	}
	close($f);
	$reads++;
	if ($b > 0 && ($last == 0 || $b < $last)) {
		$long++ if $run >= 3;
		$episodes++;
		$run = 0;
	}
	if ($b > 0) {
		$boosted++;
		$run++;
		$peak = $b if $b > $peak;
	} else {
		$long++ if $run >= 3;
		$run = 0;
	}
	$last = $b;
	push @recent, $b;
	shift @recent if @recent > 4;
	if (@recent == 4) {
		my $min = $recent[0];
		for my $v (@recent) { $min = $v if $v < $min }
		$held = $min if $min > $held;
	}
	$next += 0.01;
	my $left = $next - time;
	if ($left > 0) { usleep($left * 1e6) } else { $next = time }
}
$long++ if $run >= 3;
printf "{\"reads\":%d,\"boosted\":%d,\"episodes\":%d,\"long_episodes\":%d,\"peak\":%d,\"held_peak\":%d,\"seconds\":%.3f,\"boosted_fraction\":%.6f}\n",
	$reads, $boosted, $episodes, $long, $peak, $held, time - $start, $reads ? $boosted / $reads : 0;
