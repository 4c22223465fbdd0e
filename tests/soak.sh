#!/bin/bash
# make soak (root; not CI): the record service's command line
# (dist/fragtop-record.service's ExecStart, its directory moved onto a
# tmpfs of our own) for SOAK_MINUTES (30) under the adverse workload
# (tests/load/fragload.sh), killed with SIGKILL every 60 s and started
# again as systemd's Restart= would, sent SIGHUP (its ExecReload) every
# 7 s, its tmpfs filled and freed twice, with files planted by another
# user (nobody) in its directory.  At the end: every file of the series
# reads, every flushed sample in it; the planted files are untouched; the
# gaps between the files kept (--keep 7) are counted against the kills
# and the full disks.
# Prints its numbers; exit 1 when a check fails.
# usage: soak.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
MIN=${SOAK_MINUTES:-30}
[ "$(id -u)" = 0 ] || { echo "soak: needs root (the workload, a tmpfs)"; exit 1; }
id nobody > /dev/null 2>&1 || { echo "soak: needs the user nobody"; exit 1; }
command -v fio > /dev/null || { echo "soak: needs fio (the workload)"; exit 1; }
W=$(mktemp -d /tmp/fragtop-soak-XXXXXX)
D=$W/fs/rec
rpid= lpid=
cleanup() {
	[ -n "$rpid" ] && kill -9 "$rpid" 2> /dev/null
	[ -n "$lpid" ] && { kill "$lpid" 2> /dev/null; wait "$lpid" 2> /dev/null; }
	mountpoint -q "$W/fs" && umount "$W/fs"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$W/fs"
mount -t tmpfs -o size=64m,mode=0700 tmpfs "$W/fs"
mkdir -m 0700 "$D"
# the unit's command line, its directory ours
args=$(sed -n 's|^ExecStart=/usr/bin/fragtop ||p' "$HERE/../dist/fragtop-record.service")
args=${args//\/var\/log\/fragtop/$D}
read -r -a ARGV <<< "$args"
echo "soak: fragtop ${ARGV[*]} for $MIN min"
# planted by another user: old-looking names, one with a recording's header of another series
for n in 20000101-000000-000001 20000101-000000-000002 19700101-000000-000000; do
	printf 'not a recording\n' > "$D/fragtop-$n.ftr"
done
head -c 4096 "$HERE/recordings/adverse-6.18.ftr" > "$D/fragtop-20000101-000000-000003.ftr"
chown nobody "$D"/fragtop-2000* "$D"/fragtop-1970*
(cd "$D" && sha256sum fragtop-2000* fragtop-1970*) > "$W/planted.sum"

# a subshell that execs at once: bash would run this script's EXIT trap in a
# child killed by a signal before its exec (a SIGHUP right after a restart)
start_rec() { ( trap - EXIT; exec "$FT" "${ARGV[@]}" 2>> "$W/rec.err" ) & rpid=$! started=$SECONDS; }
"$HERE/load/fragload.sh" $((MIN * 60 + 60)) > "$W/load.log" 2>&1 & lpid=$!
start_rec
t0=$SECONDS end=$((SECONDS + MIN * 60))
kills=0 hups=0 fills=0 fill_at=$((MIN * 60 * 1 / 4)) fill2_at=$((MIN * 60 * 2 / 3)) filled_until=0
next_kill=60 next_hup=7
while [ $SECONDS -lt $end ]; do
	e=$((SECONDS - t0))
	if [ $e -ge $next_kill ]; then
		kill -9 "$rpid" 2> /dev/null; wait "$rpid" 2> /dev/null
		kills=$((kills + 1)); next_kill=$((next_kill + 60))
		start_rec	# Restart=on-failure
	fi
	# a reload comes once the service has started (its handlers are set a
	# moment after exec; systemd reloads a started unit)
	if [ $e -ge $next_hup ] && [ $((SECONDS - started)) -ge 2 ]; then
		kill -HUP "$rpid" 2> /dev/null && hups=$((hups + 1))
		next_hup=$((next_hup + 7))
	fi
	if { [ $e -ge $fill_at ] && [ $fills = 0 ]; } || { [ $e -ge $fill2_at ] && [ $fills = 1 ]; }; then
		dd if=/dev/zero of="$W/fs/fill" bs=64k 2> /dev/null
		fills=$((fills + 1)); filled_until=$((e + 60))
		echo "soak: $(date +%T) tmpfs filled ($fills)"
	fi
	if [ $filled_until -gt 0 ] && [ $e -ge $filled_until ]; then
		rm -f "$W/fs/fill"; filled_until=0
		echo "soak: $(date +%T) tmpfs freed"
	fi
	# the recorder exits only if something is wrong: say so, and start it again
	if ! kill -0 "$rpid" 2> /dev/null; then
		wait "$rpid"; echo "soak: the recorder exited ($?) at $e s: $(tail -n 1 "$W/rec.err")"
		start_rec
	fi
	sleep 0.5	# the pace of the schedule above, not a wait for a condition
done
kill -TERM "$rpid"; wait "$rpid"; rc=$?; rpid=
kill "$lpid" 2> /dev/null; wait "$lpid" 2> /dev/null; lpid=

fails=0
check "the last recorder stopped cleanly on SIGTERM (rc $rc)" test "$rc" = 0
check "the planted files are untouched" bash -c "cd '$D' && sha256sum -c --quiet '$W/planted.sum'"
# the series, in its order (names sort as the series does)
ls "$D" | grep -E '^fragtop-[0-9]{8}-[0-9]{6}-[0-9]{6}\.ftr$' | grep -v -e '^fragtop-2000' -e '^fragtop-1970' > "$W/files"
nfiles=$(wc -l < "$W/files")
unread=0 samples=0 gaps=0 maxgap=0 prev_end= clean=0 first_start=
while read -r f; do
	if ! "$FT" report --json "$D/$f" > "$W/r.json" 2> "$W/r.err"; then
		unread=$((unread + 1)); echo "  unreadable: $f: $(head -n 1 "$W/r.err")"; continue
	fi
	"$FT" report "$D/$f" 2> /dev/null | grep -q "closed cleanly" && clean=$((clean + 1))
	read -r s0 dur smp <<< "$(jq -r '"\(.start_realtime_ns) \(.duration_s) \(.samples)"' "$W/r.json")"
	samples=$((samples + smp))
	[ -z "$first_start" ] && first_start=$s0
	if [ -n "$prev_end" ]; then
		g=$(awk -v a="$prev_end" -v b="$s0" 'BEGIN { printf "%.0f", (b - a) / 1e6 }')
		[ "$g" -gt 2500 ] && gaps=$((gaps + 1))
		[ "$g" -gt "$maxgap" ] && maxgap=$g
	fi
	prev_end=$(awk -v s="$s0" -v d="$dur" 'BEGIN { printf "%.0f", s + d * 1e9 }')
done < "$W/files"
dropped=$(grep -oE 'again: [0-9]+ samples dropped' "$W/rec.err" | awk '{ s += $2 } END { print s + 0 }')
fulls=$(grep -c 'the disk is full' "$W/rec.err")
span=$(awk -v a="${first_start:-0}" -v b="${prev_end:-0}" 'BEGIN { printf "%.0f", (b - a) / 1e9 }')
pruned=$(grep -c '^fragtop: deleted ' "$W/rec.err")
echo "soak: $MIN min: $kills kills, $hups SIGHUPs, $fills fills; $pruned files pruned (--keep), $nfiles kept ($clean closed cleanly), $samples samples over their $span s"
echo "soak: gaps over 2.5 s between files: $gaps (longest $maxgap ms); full-disk closes $fulls, samples dropped for it $dropped"
check "every file of the series reads ($unread unreadable)" test "$unread" = 0
check "the kept files: at least 80% of a sample a second over their span ($samples in $span s)" \
	test "$((samples * 10))" -ge $((span * 8))
check "gaps only at the kills and the full disks ($gaps <= $kills + $fills)" test "$gaps" -le $((kills + fills))
check "the full disks were met and said ($fulls)" test "$fulls" -ge 1
echo "soak: $fails failure(s)"
[ $fails -eq 0 ]
