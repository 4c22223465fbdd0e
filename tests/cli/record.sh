#!/bin/bash
# fragtop record / report / compare: clean stops, a recording killed with
# SIGKILL, cut and corrupted copies (a clear message or a recovered prefix,
# never a crash), existing files, and a two-recording compare; all against
# a fixture root so no root is needed.
# usage: record.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=${1:-./fragtop}
tmp=$(mktemp -d); trap 'kill -9 $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
R=$tmp/root; mkdir -p "$R"; cp -r tests/fixtures/6.18-idle/. "$R/"

"$FT" record -o "$tmp/a.ftr" --root "$R" -i 0.2 -t 2 2> "$tmp/a.err"; rc=$?
check "record --duration: exit 0" test $rc = 0
check "record: says what it wrote" grep -q "ticks, 0 trace pages, 0 map batches" "$tmp/a.err"
"$FT" report "$tmp/a.ftr" > "$tmp/a.txt"; rc=$?
check "report: exit 0" test $rc = 0
check "report: closed cleanly" grep -q "closed cleanly" "$tmp/a.txt"
"$FT" report --json "$tmp/a.ftr" > "$tmp/a.json"
check "report --json: samples, duration, intervals" jqe '.samples >= 9 and .duration_s > 1.5 and
	.recording.clean and (.intervals | length) == 1 and .traced == false' "$tmp/a.json"
"$FT" record -o "$tmp/a.ftr" --root "$R" -t 1 2> "$tmp/e"; rc=$?
check "record refuses an existing file" test $rc = 1 -a -n "$(grep 'exists' "$tmp/e")"
"$FT" record -o "$tmp/a.ftr" --root "$R" -i 0.2 -t 1 --force 2> /dev/null; rc=$?
check "--force overwrites" test $rc = 0
check "a recording is 0600 (root-only data)" test "$(stat -c %a "$tmp/a.ftr")" = 600

# a link planted where the recording goes is never written through
echo "someone's file" > "$tmp/victim"; chmod 644 "$tmp/victim"
ln -s "$tmp/victim" "$tmp/planted"
"$FT" record -o "$tmp/planted" --root "$R" -t 1 2> "$tmp/e"; rc=$?
check "record to a symlink: refused, says why" test $rc = 1 -a -n "$(grep 'symbolic link' "$tmp/e")"
"$FT" record -o "$tmp/planted" --root "$R" -i 0.2 -t 1 --force 2> /dev/null; rc=$?
check "--force on a symlink: exit 0" test $rc = 0
check "--force on a symlink: the target is untouched" test "$(cat "$tmp/victim")" = "someone's file" -a \
	"$(stat -c %a "$tmp/victim")" = 644
check "--force on a symlink: the link became the recording" test ! -L "$tmp/planted" -a -f "$tmp/planted"
"$FT" report "$tmp/planted" > /dev/null; rc=$?
check "--force on a symlink: the recording reads" test $rc = 0
ln -s "$tmp/nowhere" "$tmp/dangling"
"$FT" record -o "$tmp/dangling" --root "$R" -t 1 2> "$tmp/e"; rc=$?
check "a dangling symlink: refused as a link, nothing created" test $rc = 1 -a ! -e "$tmp/nowhere" -a \
	-n "$(grep 'symbolic link' "$tmp/e")"

# the boost sampler in a recording and its report: off for a tree unless asked
B=$tmp/boosted; cp -r tests/fixtures/6.18-idle "$B"
awk '/^Node/ { z = $4 } /^ +boost/ && z == "Normal" { sub(/[0-9]+$/, "4096") } { print }' \
	"$B/proc/zoneinfo" > "$tmp/zi" && cat "$tmp/zi" > "$B/proc/zoneinfo"
"$FT" record -o "$tmp/b.ftr" --root "$B" --boost-hz 50 -i 0.5 -t 2 2> /dev/null
"$FT" report --json "$tmp/b.ftr" > "$tmp/b.json"
check "report --json: boost_by_zone from the sampler" jqe '(.boost_by_zone | map(select(.zone == "Normal"))[0] |
	.peak == 4096 and .boosted_fraction == 1 and .episodes <= 1 and .samples >= 60) and
	(.boost_by_zone | map(select(.zone == "DMA"))[0] | .peak == 0 and .episodes == 0) and
	(.intervals[0].boost_by_zone | length) == (.boost_by_zone | length)' "$tmp/b.json"
check "record --root without --boost-hz: no sampler" jqe '.boost_by_zone == []' "$tmp/a.json"
"$FT" export "$tmp/b.ftr" --csv > "$tmp/b.csv"
check "export --csv: the boost columns" grep -q 'N0_Normal_boost_peak,N0_Normal_boosted_fraction' "$tmp/b.csv"

for sig in INT TERM; do
	"$FT" record -o "$tmp/$sig.ftr" --root "$R" -i 0.2 2> /dev/null & pid=$!
	until_ok 60 recorded "$tmp/$sig.ftr" '.samples >= 5' || echo "SIG$sig: under 5 samples after 60 s"
	kill -$sig $pid; wait $pid; rc=$?
	check "SIG$sig: a clean stop (exit 0)" test $rc = 0
	"$FT" report --json "$tmp/$sig.ftr" > "$tmp/$sig.json"
	check "SIG$sig: the file closes cleanly" jqe '.recording.clean and .samples >= 5' "$tmp/$sig.json"
done

# SIGKILL: everything up to the last synced chunk (2 s) is kept
"$FT" record -o "$tmp/k.ftr" --root "$R" -i 0.2 2> /dev/null & pid=$!
until_ok 60 recorded "$tmp/k.ftr" '.duration_s >= 3 and .samples >= 15' || echo "killed: under 3 s kept after 60 s"
kill -9 $pid; wait $pid 2> /dev/null
"$FT" report --json "$tmp/k.ftr" > "$tmp/k.json"; rc=$?
check "killed: report exits 0" test $rc = 0
check "killed: not clean, read by the scan, >= 3 s of samples kept" jqe '(.recording.clean | not) and
	.duration_s >= 3 and .samples >= 15' "$tmp/k.json"
"$FT" report "$tmp/k.ftr" | grep -q "not closed (killed?)"
check "killed: the text report says so" test $? = 0

# cut copies of a 6 s recording (3 data chunks): every 97 bytes; each
# reports a prefix or says why, never crashes
"$FT" record -o "$tmp/c.ftr" --root "$R" -i 0.2 -t 6 2> /dev/null
size=$(stat -c %s "$tmp/c.ftr"); crashed=0; prefixes=0
for ((n = 0; n < size; n += 97)); do
	head -c $n "$tmp/c.ftr" > "$tmp/cut.ftr"
	"$FT" report "$tmp/cut.ftr" > /dev/null 2> "$tmp/cut.err"; rc=$?
	[ $rc -ge 2 ] && { crashed=$((crashed + 1)); echo "cut at $n: exit $rc"; cat "$tmp/cut.err"; }
	[ $rc = 0 ] && prefixes=$((prefixes + 1))
	[ $rc = 1 ] && ! [ -s "$tmp/cut.err" ] && { crashed=$((crashed + 1)); echo "cut at $n: exit 1 without a message"; }
done
check "cut copies: no crash, a message when nothing is left ($prefixes of $((size / 97 + 1)) gave a prefix)" test $crashed = 0
check "cut copies: those past the first data chunk give a prefix" test $prefixes -gt 0
# flipped bytes
crashed=0
for pos in 3 20 50 60 100 200 400 700 1000 $((size / 2)) $((size - 40)) $((size - 10)); do
	cp "$tmp/c.ftr" "$tmp/flip.ftr"
	printf '\xff' | dd of="$tmp/flip.ftr" bs=1 seek=$pos conv=notrunc 2> /dev/null
	"$FT" report "$tmp/flip.ftr" > /dev/null 2> "$tmp/flip.err"; rc=$?
	[ $rc -ge 2 ] && { crashed=$((crashed + 1)); echo "flip at $pos: exit $rc"; cat "$tmp/flip.err"; }
done
check "flipped bytes: no crash" test $crashed = 0
"$FT" report tests/fixtures/6.18-idle/proc/zoneinfo 2> "$tmp/e"; rc=$?
check "not a recording: exit 1, says so" test $rc = 1 -a -n "$(grep 'not a fragtop recording' "$tmp/e")"

"$FT" compare "$tmp/INT.ftr" "$tmp/TERM.ftr" > "$tmp/c.txt"; rc=$?
check "compare: two bare files are two groups named by file" test $rc = 0 -a \
	-n "$(grep -E '^ +INT.ftr \(n=1\) +TERM.ftr \(n=1\) +change$' "$tmp/c.txt")"
check "compare: no tracepoints, no fallback rows; THP and compaction rows" test \
	-z "$(grep '^fragmenting' "$tmp/c.txt")" -a -n "$(grep '^compaction stalls' "$tmp/c.txt")"
"$FT" compare --json "$tmp/INT.ftr" "$tmp/TERM.ftr" > "$tmp/c.json"
check "compare --json: rows with stable keys" jqe '.rows[0].metric == "duration_s" and
	any(.rows[]; .metric == "extfrag_fragmenting_per_s" and .groups[0].n == 0)' "$tmp/c.json"

# the repo's sample: thpfioscale-mini at boost 0, flipped to 15000 from the TUI
S=tests/recordings/thpfioscale-boost-0-to-15000.ftr
if [ -f "$S" ]; then
	"$FT" report --json "$S" > "$tmp/s.json"; rc=$?
	check "sample: report exits 0" test $rc = 0
	check "sample: traced, clean, a minute or more of samples" jqe '.traced and .recording.clean and
		.samples >= 60 and .lost == 0' "$tmp/s.json"
	check "sample: the flip to 15000 is a control change" jqe 'any(.controls[]; .outcome == "ok" and
		.knob == "watermark_boost_factor" and .new == "15000")' "$tmp/s.json"
	check "sample: intervals at boost 0 and at 15000, fallbacks in the first" jqe '
		any(.intervals[]; .watermark_boost_factor == 0 and .extfrag_fragmenting > 0) and
		any(.intervals[]; .watermark_boost_factor == 15000)' "$tmp/s.json"
	check "sample: fragmenting fallbacks add up over the intervals" jqe '
		([.intervals[].extfrag_fragmenting] | add) == .totals.extfrag_fragmenting' "$tmp/s.json"
	# exact percentiles: each is a recorded value's bucket, at its nearest rank
	check "sample: exact stall percentiles agree with the buckets (nearest rank)" jqe '
		[[.latency.compaction, .latency.direct_reclaim][] | . as $l |
		 $l.exact and $l.count > 0 and ($l.buckets | map(.count) | add) == $l.count and
		 $l.max_us >= $l.p999_us and $l.p999_us >= $l.p99_us and $l.p99_us >= $l.p90_us and
		 $l.p90_us >= $l.p50_us and
		 ([["p50_us", 50], ["p90_us", 90], ["p99_us", 99], ["p999_us", 99.9]][] as [$k, $p] |
		  ($l.count * $p / 100 | ceil) as $rank | $l[$k] as $v |
		  ([$l.buckets[] | select(.hi_us <= $v) | .count] | add // 0) < $rank and
		  ([$l.buckets[] | select(.lo_us <= $v) | .count] | add) >= $rank and
		  any($l.buckets[]; .lo_us <= $v and $v < .hi_us and .count > 0))] | all' "$tmp/s.json"
	check "sample: the report text fits 80 columns" test \
		"$("$FT" report "$S" | awk '{ if (length > m) m = length } END { print m }')" -le 80
	"$FT" export "$S" --csv > "$tmp/s.csv"; rc=$?
	check "export --csv: a header and one row per sample" test $rc = 0 -a \
		"$(($(wc -l < "$tmp/s.csv") - 1))" = "$(jq .samples "$tmp/s.json")"
	check "export --csv: the fragmenting column adds up to the report's total" test \
		"$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "extfrag_fragmenting") c = i; next }
			{ s += $c } END { print s }' "$tmp/s.csv")" = "$(jq .totals.extfrag_fragmenting "$tmp/s.json")"
	"$FT" export "$S" --json > "$tmp/e.json"
	check "export --json: samples with zones" jqe --argjson n "$(jq .samples "$tmp/s.json")" \
		'(.samples | length) == $n and (.samples[0].zones | length) > 0 and .samples[5].t_s > 4' "$tmp/e.json"
else
	bad "sample recording $S missing"
fi
"$FT" export "$tmp/a.ftr" 2> /dev/null; rc=$?
check "export without --csv/--json: usage, exit 2" test $rc = 2

# the pageblock map in a recording (root, live host)
if [ "$(id -u)" = 0 ] && [ -r /proc/kpageflags ]; then
	"$FT" record -o "$tmp/m.ftr" --no-trace --map-interval 2 -t 5 2> "$tmp/m.err"; rc=$?
	check "record --map-interval: exit 0, map batches written" test $rc = 0 -a \
		-n "$(grep -E '[1-9][0-9]* map batches' "$tmp/m.err")"
	"$FT" report --json "$tmp/m.ftr" > "$tmp/m.json"
	check "report: the recorded map, every zone scanned and adding up" jqe '(.pageblocks | length) > 0 and
		all(.pageblocks[]; .unscanned == 0 and .total == .free + .movable + .unmovable + .mixed + .hole)' "$tmp/m.json"
	"$FT" snapshot --json --map --no-trace > "$tmp/live-map.json"
	check "report: the recorded map's blocks = the live map's" test \
		"$(jq -c '[.pageblocks[] | .total]' "$tmp/m.json")" = "$(jq -c '[.zones[] | .pageblocks.total]' "$tmp/live-map.json")"
fi

# continuous recording: a file a period, the oldest deleted, each closed cleanly;
# SIGHUP starts a new file, SIGTERM closes the last one cleanly
D=$tmp/rotating
files_started() { [ "$(grep -c '^fragtop: recording to ' "$tmp/rot.err")" -ge "$1" ]; }
# a file turns over 3 s after the last one started; a SIGHUP or a stop right
# after a turn would leave a file without a sample (a rotation before any
# tick: issue 26), so each signal goes 1.5 s after a file was seen to start
# (a pace from an observed event, not a wait for a condition)
"$FT" record --root tests/fixtures/6.18-idle --dir "$D" --rotate 3 --keep 3 -i 0.5 2> "$tmp/rot.err" & rpid=$!
until_ok 120 files_started 4 || echo "info: rotation slower than expected"
sleep 1.5
n=$(grep -c '^fragtop: recording to ' "$tmp/rot.err")
kill -HUP $rpid
until_ok 60 files_started $((n + 1))
sleep 1.5
kill -TERM $rpid; wait $rpid; rc=$?
check "--dir --rotate 3 --keep 3: exit 0 on SIGTERM" test $rc = 0
check "--keep 3: three files left" test "$(ls "$D" | grep -c '^fragtop-[0-9]\{8\}-[0-9]\{6\}\(-[0-9]*\)\?\.ftr$')" = 3
check "the oldest were deleted, and said so" grep -q 'deleted .* (beyond --keep 3)' "$tmp/rot.err"
check "SIGHUP: a new file" test "$(grep -c '^fragtop: recording to ' "$tmp/rot.err")" -ge $((n + 1))
ok_all=1
for f in "$D"/*.ftr; do
	"$FT" report "$f" 2> /dev/null | grep -q "closed cleanly" || { ok_all=0; echo "not clean: $f: $("$FT" report "$f" 2>&1 | head -n 3 | tr "\n" " ")"; }
done
check "every kept file reads as closed cleanly" test $ok_all = 1
check "files are private (0600)" test "$(stat -c %a "$(ls "$D"/*.ftr | head -1)")" = 600
"$FT" record --dir "$D" -o "$tmp/x.ftr" 2> /dev/null; rc=$?
check "-o and --dir together: usage, exit 2" test $rc = 2
"$FT" record --dir "$D" --rotate weekly 2> /dev/null; rc=$?
check "--rotate weekly: usage, exit 2" test $rc = 2
"$FT" record -o "$tmp/y.ftr" --keep 3 2> /dev/null; rc=$?
check "--keep without --dir: usage, exit 2" test $rc = 2

# a stop is sticky: SIGTERM then SIGHUP (a reload during a stop) still ends it, 10 of 10
exited=0
[ -d "$tmp" ] || bad "the test's own temporary directory is gone before the sticky-stop runs"
for i in $(seq 10); do
	st=$(mktemp -d)
	"$FT" record --root tests/fixtures/6.18-idle --dir "$st/d" --rotate 60 -i 0.5 2> "$st/err" & rpid=$!
	until_ok 60 grep -q '^fragtop: recording to ' "$st/err"
	kill -TERM $rpid; kill -HUP $rpid 2> /dev/null
	until_ok 30 bash -c "! kill -0 $rpid 2> /dev/null" && exited=$((exited + 1))
	kill -KILL $rpid 2> /dev/null; wait $rpid 2> /dev/null
	rm -rf "$st"
done
check "SIGTERM then SIGHUP: the recorder exits, $exited of 10" test $exited = 10
for r in nan inf 1e300 1.8e10 0.5 -3; do
	why=$("$FT" record --dir "$tmp/bad" --rotate "$r" 2>&1 > /dev/null); rc=$?
	check "--rotate $r: refused (usage, exit 2), says the range" test $rc = 2 -a -n "$(grep '1 to a year' <<< "$why")"
done

# --dir: files planted there (another user's, or ours but not recordings,
# with older-looking names) are neither counted against --keep nor deleted
D2=$tmp/plantdir
mkdir -m 0700 "$D2"
printf 'junk\n' > "$D2/fragtop-20000101-000001.ftr"
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
	printf 'nobody planted this\n' > "$D2/fragtop-20000101-000000.ftr"
	cp tests/recordings/lab-6.1-stock.ftr "$D2/fragtop-20000101-000002.ftr"	# a real recording, another user's
	chown nobody "$D2/fragtop-20000101-000000.ftr" "$D2/fragtop-20000101-000002.ftr"
fi
# ours, a recording, named like the series' files, but of no series (record -o): not the recorder's
"$FT" record --root tests/fixtures/6.18-idle -o "$D2/fragtop-incident-keepme.ftr" -i 0.5 --duration 1 2> /dev/null
planted=$(cd "$D2" && md5sum fragtop-2000*.ftr fragtop-incident-keepme.ftr)
"$FT" record --root tests/fixtures/6.18-idle --dir "$D2" --rotate 2 --keep 1 -i 0.5 2> "$tmp/pl.err" & rpid=$!
pl_started() { [ "$(grep -c '^fragtop: recording to ' "$tmp/pl.err")" -ge 3 ]; }
until_ok 60 pl_started
kill -TERM $rpid; wait $rpid; rc=$?
check "--keep 1 beside planted files: exit 0" test $rc = 0
check "... the planted files are all there, unchanged (record -o's fragtop-incident-keepme.ftr too)" \
	test "$(cd "$D2" && md5sum fragtop-2000*.ftr fragtop-incident-keepme.ftr 2> /dev/null)" = "$planted"
check "... only its own were deleted" test -z "$(grep 'deleted' "$tmp/pl.err" | grep 'fragtop-2000\|keepme')" -a \
	-n "$(grep 'deleted' "$tmp/pl.err")"
check "... and its newest recording is kept (one of its own)" \
	test "$(ls "$D2" | grep -v '^fragtop-2000\|keepme' | grep -c '\.ftr$')" = 1

# the series' order is the headers' sequence, never the names: 14 quick
# SIGHUPs in one second, --keep 3 keeps the newest 3; a file renamed to
# sort first is still the newest; a new recorder goes on with the series
S=$tmp/series
"$FT" record --root tests/fixtures/6.18-idle --dir "$S" --rotate 60 --keep 3 -i 0.5 2> "$tmp/s.err" & rpid=$!
s_started() { [ "$(grep -c '^fragtop: recording to ' "$tmp/s.err")" -ge "$1" ]; }
until_ok 60 s_started 1
for i in $(seq 2 15); do kill -HUP $rpid; until_ok 30 s_started "$i"; done
newest=$(ls "$S" | grep '\.ftr$' | sort | tail -n 1)
mv "$S/$newest" "$S/fragtop-19990101-000000-000001.ftr"	# sorts first by name, not by the header
kill -HUP $rpid; until_ok 30 s_started 16
kill -TERM $rpid; wait $rpid; rc=$?
left=$(ls "$S" | grep '\.ftr$' | tr '\n' ' ')
check "14 quick SIGHUPs, --keep 3: the newest three by the headers' sequence are kept ($left)" test $rc = 0 -a \
	"$(ls "$S" | grep -c '\.ftr$')" = 3 -a -e "$S/fragtop-19990101-000000-000001.ftr" -a \
	-n "$(ls "$S" | grep -- '-000016\.ftr$')" -a -n "$(ls "$S" | grep -- '-000014\.ftr$')"
check "... names carry the zero-padded sequence" test -z "$(ls "$S" | grep '\.ftr$' | grep -v -- '-[0-9]\{6\}\.ftr$')"
"$FT" record --root tests/fixtures/6.18-idle --dir "$S" --keep 3 -i 0.5 --duration 1 2> "$tmp/s2.err"; rc=$?
check "a new recorder goes on with the series (17), pruning the oldest of it" test $rc = 0 -a \
	-n "$(grep 'recording to .*-000017\.ftr' "$tmp/s2.err")" -a -n "$(grep 'deleted .*-000014\.ftr' "$tmp/s2.err")"
printf 'garbage\n' > "$S/.fragtop-series"
"$FT" record --root tests/fixtures/6.18-idle --dir "$S" --duration 1 2> "$tmp/s3.err"; rc=$?
check "a broken series file: refused, saying so" test $rc = 1 -a -n "$(grep "not this recorder's series file" "$tmp/s3.err")"

# --max-size: the oldest go while all the series' files exceed it (the current one is never deleted)
M=$tmp/maxsize
"$FT" record --root tests/fixtures/6.18-idle --dir "$M" --rotate 1 --keep 1000 --max-size 20000 -i 0.25 \
	2> "$tmp/m.err" & rpid=$!
m_started() { [ "$(grep -c '^fragtop: recording to ' "$tmp/m.err")" -ge "$1" ]; }
until_ok 60 m_started 8
kill -TERM $rpid; wait $rpid; rc=$?
msum=$(stat -c %s "$M"/*.ftr | awk '{ s += $1 } END { print s }')
mlast=$(stat -c %s "$(ls "$M"/*.ftr | sort | tail -n 1)")
check "--max-size 20000: the oldest deleted, and said so" test $rc = 0 -a \
	-n "$(grep 'deleted .* (beyond --keep 1000 or --max-size)' "$tmp/m.err")"
check "... what is left is within it, but for the newest file ($msum bytes in $(ls "$M"/*.ftr | wc -l) files)" \
	test $((msum - mlast)) -le 20000

# a --dir others could plant files in, or switch, is refused unless --unsafe-dir
U=$tmp/unsafe
mkdir -m 1777 "$U"
"$FT" record --root tests/fixtures/6.18-idle --dir "$U" --duration 1 2> "$tmp/u.err"; rc=$?
check "--dir writable by others (1777): refused, saying so" test $rc = 1 -a -n "$(grep 'may be written by others' "$tmp/u.err")"
ln -s "$D2" "$tmp/link"
"$FT" record --root tests/fixtures/6.18-idle --dir "$tmp/link" --duration 1 2> "$tmp/u.err"; rc=$?
check "--dir a symbolic link: refused, saying so" test $rc = 1 -a -n "$(grep 'is a symbolic link' "$tmp/u.err")"
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
	mkdir -m 0700 "$tmp/theirs"; chown nobody "$tmp/theirs"
	"$FT" record --root tests/fixtures/6.18-idle --dir "$tmp/theirs" --duration 1 2> "$tmp/u.err"; rc=$?
	check "--dir another user's: refused, saying so" test $rc = 1 -a -n "$(grep 'belongs to another user' "$tmp/u.err")"
fi
"$FT" record --root tests/fixtures/6.18-idle --dir "$U" --unsafe-dir --duration 1 -i 0.5 2> "$tmp/u.err"; rc=$?
check "--unsafe-dir: taken all the same" test $rc = 0 -a "$(ls "$U" | grep -c '\.ftr$')" = 1

# a full disk at the start leaves no empty file (a private tmpfs, filled)
# (a chroot, whose / is no mount point, cannot make its mounts private: skipped there)
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && ! unshare -m --propagation private true 2> /dev/null; then
	skip "full disk: no private mount namespace here (a chroot?)"
elif [ "$(id -u)" = 0 ] && command -v unshare > /dev/null; then
	mkdir -m 0700 "$tmp/full"
	unshare -m --propagation private sh -c '
		if ! mount -t tmpfs -o size=256k,mode=0700 tmpfs "$1" 2> "$1/../full.err"; then
			echo nomount > "$1/../full.rc"; exit 0
		fi
		# a new directory on a full disk: not even its series file fits
		mkdir -m 0700 "$1/new" "$1/rec" &&
		"$2" record --root tests/fixtures/6.18-idle --dir "$1/rec" --duration 1 -i 0.5 2> /dev/null &&
		{ dd if=/dev/zero of="$1/fill" bs=4k 2> /dev/null; true; } &&
		"$2" record --root tests/fixtures/6.18-idle --dir "$1/new" --duration 2 -i 0.5 2> "$1/../new.err"
		echo "rc=$?" > "$1/../new.rc"; ls -la "$1/new" > "$1/../new.ls"
		# the series there already (a service restarted on a full disk): it waits for space
		"$2" record --root tests/fixtures/6.18-idle --dir "$1/rec" --duration 2 -i 0.5 2> "$1/../full.err"
		echo "rc=$?" > "$1/../full.rc"; ls -la "$1/rec" > "$1/../full.ls"' sh "$tmp/full" "$FT"
	if [ "$(cat "$tmp/full.rc" 2> /dev/null)" = nomount ]; then
		skip "full disk: no tmpfs can be mounted here ($(head -c 120 "$tmp/full.err"))"
	else
		check "full disk, a new directory: refused, saying why, no file left" test "$(cat "$tmp/new.rc")" != rc=0 -a \
			-n "$(grep 'No space left on device' "$tmp/new.err")" -a -z "$(grep '\.ftr' "$tmp/new.ls")"
		check "full disk at the start of a series: no empty file left behind" test -s "$tmp/full.rc" -a \
			"$(grep -c '\.ftr' "$tmp/full.ls")" = 1 -a -z "$(awk '$5 == 0 && /\.ftr$/' "$tmp/full.ls")"
		check "... saying why, waiting for space until its --duration, exit 0" test "$(cat "$tmp/full.rc")" = rc=0 -a \
			-n "$(grep 'No space left on device; recording when there is space' "$tmp/full.err")" -a \
			-n "$(grep 'stopped while waiting for space' "$tmp/full.err")"
	fi
fi

# rotation at 2 s for 12 s: files turn over at the period's end (wall-clock
# multiples of 2 s), each closed cleanly and holding a period's samples,
# and no sample lost between them (counted, never timed)
R5=$tmp/rot5
"$FT" record --root tests/fixtures/6.18-idle --dir "$R5" --rotate 2 --duration 12 -i 0.5 2> "$tmp/r5.err"; rc=$?
nf=$(ls "$R5"/*.ftr 2> /dev/null | wc -l)
check "--rotate 2 for 12 s: exit 0, 6 or 7 files ($nf)" test $rc = 0 -a "$nf" -ge 6 -a "$nf" -le 7
r5ok=1 r5samples=0
for f in "$R5"/*.ftr; do
	"$FT" report --json "$f" > "$tmp/r5.json" 2> /dev/null || { r5ok=0; continue; }
	"$FT" report "$f" 2> /dev/null | grep -q "closed cleanly" || r5ok=0
	smp=$(jq -r '.samples' "$tmp/r5.json")
	r5samples=$((r5samples + smp))
	# no file holds more than its period's ticks and one (counted, not timed: a loaded
	# machine makes a tick late, not a file long)
	[ "$smp" -le 5 ] || { r5ok=0; echo "  $f: $smp samples"; }
done
check "... each closed cleanly, at most a period's 4 samples and one" test $r5ok = 1
check "... 24 samples of 0.5 s in all, give or take one at each end ($r5samples)" \
	test "$r5samples" -ge 22 -a "$r5samples" -le 26

# the disk fills mid-run: the file is closed cleanly, the samples dropped are
# counted, and recording goes on in a new file once there is space again
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && ! unshare -m --propagation private true 2> /dev/null; then
	skip "full disk mid-run: no private mount namespace here (a chroot?)"
elif [ "$(id -u)" = 0 ] && command -v unshare > /dev/null; then
	mkdir -m 0700 "$tmp/mid"
	unshare -m --propagation private bash -c '
		d=$1 ft=$2 out=$1/..
		mount -t tmpfs -o size=1m,mode=0700 tmpfs "$d" 2> "$out/mid.mnt" || { echo nomount > "$out/mid.rc"; exit 0; }
		mkdir -m 0700 "$d/rec"
		# deadlines, not pauses: each wait ends at its condition
		waitfor() { local end=$((SECONDS + 60)); until grep -qE -- "$1" "$out/mid.err"; do
			[ $SECONDS -lt $end ] || return 1; sleep 0.1; done; }
		"$ft" record --root tests/fixtures/6.18-idle --dir "$d/rec" -i 0.2 2> "$out/mid.err" & rp=$!
		waitfor "recording to" || echo "no start" >> "$out/mid.log"
		# a first chunk on disk (the header alone is 64 bytes)
		end=$((SECONDS + 60)); until [ "$(cat "$d"/rec/*.ftr 2> /dev/null | wc -c)" -gt 200 ] || [ $SECONDS -ge $end ]; do sleep 0.1; done
		dd if=/dev/zero of="$d/fill" bs=4k 2> /dev/null
		waitfor "the disk is full: closed" || echo "no full close" >> "$out/mid.log"
		# the chunk that did not fit was dropped, and counted; now make room
		rm -f "$d/fill"
		waitfor "recording to .* \(again: [0-9]+ samples dropped" || echo "no resume" >> "$out/mid.log"
		kill -TERM $rp; wait $rp; echo "rc=$?" > "$out/mid.rc"
		ls -la "$d/rec" > "$out/mid.ls"
		for f in "$d"/rec/*.ftr; do
			"$ft" report "$f" > "$out/mid.one" 2>&1
			printf "%s %s\n" "$(basename "$f")" "$(grep -c "closed cleanly" "$out/mid.one")" >> "$out/mid.clean"
		done
		umount "$d"' bash "$tmp/mid" "$FT"
	if [ "$(cat "$tmp/mid.rc" 2> /dev/null)" = nomount ]; then
		skip "full disk mid-run: no tmpfs can be mounted here ($(head -c 120 "$tmp/mid.mnt"))"
	else
		[ -s "$tmp/mid.log" ] && cat "$tmp/mid.log"
		check "full disk mid-run: the file closed cleanly, saying so" \
			grep -q 'the disk is full: closed cleanly after [0-9]* ticks' "$tmp/mid.err"
		dropped=$(sed -nE 's/.*\(again: ([0-9]+) samples dropped.*/\1/p' "$tmp/mid.err" | head -1)
		check "... recording went on once there was space, counting the samples dropped (${dropped:-none})" \
			test "${dropped:-0}" -gt 0
		check "... exit 0 on SIGTERM, the total dropped said" test "$(cat "$tmp/mid.rc")" = rc=0 -a \
			-n "$(grep 'samples dropped for a full disk in all' "$tmp/mid.err")"
		check "... two files or more, every one closed cleanly" test "$(wc -l < "$tmp/mid.clean")" -ge 2 -a \
			-z "$(awk '$2 != 1' "$tmp/mid.clean")"
		check "... and no empty file" test -z "$(awk '$5 == 0 && /\.ftr$/' "$tmp/mid.ls")"
	fi
fi

echo "record.sh: $fails failure(s)"
[ $fails -eq 0 ]
