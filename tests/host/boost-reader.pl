#!/usr/bin/perl
# An independent reader of the watermark boost: /proc/zoneinfo at 100 Hz,
# nothing of fragtop's.  For zone ZONE (default Normal) of every node it
# counts reads, reads that found the boost > 0, episodes and the peak, and
# prints them as one JSON object on SIGTERM or SIGINT.  An episode starts
# when the boost goes from 0 to > 0, or drops while still > 0 (kswapd took
# off one episode's boost and a newer one's is left).
#
# fragtop's sampler reads at 50 Hz while it is hot (it saw a boost, or a
# trace drain brought a fallback, in the last 2 s) and once a second while
# cold; a drain comes within 1 s.  So the reader marks what a 50 Hz
# sampler cannot miss, and what it may:
#  - cold_starts: boosted reads after 1.5 s without one.  fragtop may be
#    cold there, for up to the drain that brings the fallback behind it.
#  - a read is sure 1.5 s and more after the cold start of its run of
#    boosts (no 1.5 s gap): by then fragtop is hot.
#  - long_episodes: episodes seen by three reads or more (over 20 ms);
#    long_sure: those of them that began sure.
#  - held_peak: the highest level the boost stayed at or above for four
#    sure reads in a row (30 ms and more).
# seconds is how long it read.
# usage: boost-reader.pl [ZONE] > out.json
use strict;
use warnings;
use Time::HiRes qw(usleep time);

my $want = shift // 'Normal';
my $quiet = 1.5;	# a gap this long makes the next boost a cold start
my $warm = 1.5;		# and the sampler is sure to be hot this long after
my ($reads, $boosted, $episodes, $peak, $last) = (0, 0, 0, 0, 0);
my ($long, $long_sure, $run, $run_sure, $held, $cold) = (0, 0, 0, 0, 0, 0);
my ($last_boosted, $cold_at);
my @recent;	# [value, sure] of the last four reads
my $stop = 0;
$SIG{TERM} = $SIG{INT} = sub { $stop = 1 };
my $start = time;
my $next = $start;

sub end_run {
	$long++ if $run >= 3;
	$long_sure++ if $run >= 3 && $run_sure;
	$run = 0;
}

while (!$stop) {
	open(my $f, '<', '/proc/zoneinfo') or die "zoneinfo: $!";
	my ($zone, $b) = ('', 0);
	while (<$f>) {
		$zone = $1 if /^Node \d+, zone\s+(\S+)/;
		$b += $1 if $zone eq $want && /^\s+boost\s+(\d+)/;
	}
	close($f);
	my $now = time;
	$reads++;
	if ($b > 0 && (!defined $last_boosted || $now - $last_boosted >= $quiet)) {
		$cold++;
		$cold_at = $now;
	}
	my $sure = $b > 0 && $now - $cold_at >= $warm;
	if ($b > 0 && ($last == 0 || $b < $last)) {
		end_run();
		$episodes++;
		$run_sure = $sure;
	}
	if ($b > 0) {
		$boosted++;
		$run++;
		$peak = $b if $b > $peak;
		$last_boosted = $now;
	} else {
		end_run();
	}
	$last = $b;
	push @recent, [$b, $sure];
	shift @recent if @recent > 4;
	if (@recent == 4 && !grep { !$_->[1] } @recent) {
		my $min = $recent[0][0];
		for my $r (@recent) { $min = $r->[0] if $r->[0] < $min }
		$held = $min if $min > $held;
	}
	$next += 0.01;
	my $left = $next - time;
	if ($left > 0) { usleep($left * 1e6) } else { $next = time }
}
end_run();
printf "{\"reads\":%d,\"boosted\":%d,\"episodes\":%d,\"long_episodes\":%d,\"long_sure\":%d,\"cold_starts\":%d,\"peak\":%d,\"held_peak\":%d,\"seconds\":%.3f,\"boosted_fraction\":%.6f}\n",
	$reads, $boosted, $episodes, $long, $long_sure, $cold, $peak, $held, time - $start, $reads ? $boosted / $reads : 0;
