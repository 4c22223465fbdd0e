#!/bin/bash
# On this kernel: fragtop set watermark_boost_factor and put it back (a
# trap restores it even when the test fails); refusals leave it; every
# write is a line in the system log.  The log is read from a socket at
# /dev/log that this test owns when the machine has none (no syslog
# daemon), or from the journal where there is one; else that check says
# why it is skipped.  Needs root.
# usage: set.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=${1:-./fragtop}
tmp=$(mktemp -d)
BOOST=/proc/sys/vm/watermark_boost_factor
orig_boost=
lpid=
own_log=
restore() {
	if [ -n "$orig_boost" ] && [ "$(cat $BOOST)" != "$orig_boost" ]; then
		echo "$orig_boost" > $BOOST && echo "restored $BOOST to $orig_boost"
	fi
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null
	[ -n "$own_log" ] && rm -f /dev/log
	rm -rf "$tmp"
}
trap restore EXIT
if [ "$(id -u)" != 0 ] || [ ! -w $BOOST ]; then
	skip_all "needs root and a writable $BOOST"
fi
# a syslog socket of our own when nobody listens at /dev/log
if [ ! -e /dev/log ] && command -v perl > /dev/null; then
	perl -MIO::Socket::UNIX -MSocket -e '
		my $s = IO::Socket::UNIX->new(Type => SOCK_DGRAM, Local => "/dev/log") or die "$!";
		open(my $o, ">>", $ARGV[0]) or die; $o->autoflush(1);
		print $o "ready\n";
		while (defined($s->recv(my $b, 4096))) { print $o "$b\n"; }
		' "$tmp/syslog" & lpid=$!
	own_log=1
	for i in $(seq 50); do [ -S /dev/log ] && [ -s "$tmp/syslog" ] && break; sleep 0.1; done
fi

orig_boost=$(cat $BOOST)
new=4321; [ "$orig_boost" = 4321 ] && new=4322
"$FT" set watermark_boost_factor=$new > "$tmp/o"; rc=$?
check "kernel: set boost exits 0" test $rc = 0
check "kernel: $BOOST is $new" test "$(cat $BOOST)" = $new
check "kernel: reports old -> new" grep -qx "watermark_boost_factor $orig_boost -> $new" "$tmp/o"
check "kernel: get agrees" test "$("$FT" get watermark_boost_factor)" = $new
for v in -5 abc; do
	"$FT" set watermark_boost_factor=$v 2> /dev/null; rc=$?
	check "kernel: '$v' refused, value kept" test $rc = 1 -a "$(cat $BOOST)" = $new
done
"$FT" set nosuch_knob=1 2> /dev/null; rc=$?
check "kernel: unknown knob refused" test $rc = 1 -a "$(cat $BOOST)" = $new
"$FT" set watermark_boost_factor="$orig_boost" > /dev/null
check "kernel: put back to $orig_boost" test "$(cat $BOOST)" = "$orig_boost"

# the system log: authpriv (10 << 3), notice (5) for a change made, warning for a failed write
if [ -n "$own_log" ]; then
	# the listener writes what it received; wait for the way back's line
	until_ok 10 grep -q "set watermark_boost_factor: $new -> $orig_boost" "$tmp/syslog"
	echo "syslog lines:"; grep fragtop "$tmp/syslog" | sed 's/^/  /'
	check "syslog: the change, with uid and old -> new" \
		grep -qE "^<85>.*fragtop\[[0-9]+\]: uid=0 loginuid=[0-9]+ set watermark_boost_factor: $orig_boost -> $new: ok" "$tmp/syslog"
	check "syslog: values refused before any write log nothing (two lines: the change, the way back)" \
		test "$(grep -c 'fragtop\[' "$tmp/syslog")" = 2
	check "syslog: putting it back" grep -qE "set watermark_boost_factor: $new -> $orig_boost: ok" "$tmp/syslog"
elif command -v journalctl > /dev/null; then
	check "journal: the change" test -n "$(journalctl -q -t fragtop --since '-2 min' | grep "$orig_boost -> $new: ok")"
else
	skip "syslog: /dev/log belongs to a syslog daemon and there is no journal to read"
fi
echo "set.sh: $fails failure(s)"
[ $fails -eq 0 ]
