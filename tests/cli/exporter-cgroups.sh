#!/bin/bash
# The exporter's cgroup families are bounded: on a planted cgroup v2 tree
# of 300 pods, `exporter --collector.cgroups --collector.cgroups.top 20`
# serves at most 21 cgroups per family (the 20 chosen, the counters with
# one "other"), names the pods as people know them, gives the planted
# memory and pressure, keeps the same 20 while nothing changes, chooses
# a larger cgroup made later at the next scrape (the 20 are chosen again
# each time), and promtool check metrics finds nothing to say.  Without the flag there
# is no cgroup family, and no /proc/PID is read for them.
# usage: exporter-cgroups.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v curl > /dev/null || skip_all "exporter cgroups: needs curl"
tmp=$(mktemp -d)
PORT=$(test_port)
trap 'stop_exporter; rm -rf "$tmp"' EXIT
ROOT=$tmp/root
mkdir -p "$ROOT" && cp -r tests/fixtures/6.18-idle/. "$ROOT/"
C=$ROOT/sys/fs/cgroup
mkdir -p "$C" && echo "cpu io memory pids" > "$C/cgroup.controllers"
# pod i: anon i MiB, a quarter of it huge; its log directory names it default/web-i
for i in $(seq 1 300); do
	uid=$(printf '%08d-0000-4000-8000-%012d' "$i" "$i")
	d=$C/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${uid//-/_}.slice
	mkdir -p "$d" "$ROOT/var/log/pods/default_web-${i}_$uid"
	printf 'anon %d\nanon_thp %d\nfile 0\n' $((i << 20)) $((i << 18)) > "$d/memory.stat"
	echo $((1000 + i)) > "$d/cgroup.procs"
	printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=%d\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=%d\n' \
		$((i * 1000000)) $((i * 1000)) > "$d/memory.pressure"
done

"$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" --collector.cgroups --collector.cgroups.top 20 \
	2> "$tmp/err" & epid=$!
check "the exporter answers" until_ok 20 up
scrape "$tmp/m1"
scrape "$tmp/m2"
fam() { grep -E "^$1(_total)?\{" "$2"; }
for f in fragtop_cgroup_fragmenting_fallbacks fragtop_cgroup_fallbacks fragtop_cgroup_compaction_stall_seconds \
	fragtop_cgroup_reclaim_stall_seconds; do
	n=$(fam $f "$tmp/m1" | grep -o 'cgroup="[^"]*"' | sort -u | wc -l)
	check "$f: $n cgroups, the 20 and \"other\"" test "$n" = 21
done
for f in fragtop_cgroup_anon_bytes fragtop_cgroup_anon_thp_bytes fragtop_cgroup_pressure_memory_waiting_seconds \
	fragtop_cgroup_pressure_memory_stalled_seconds; do
	n=$(fam $f "$tmp/m1" | grep -o 'cgroup="[^"]*"' | sort -u | wc -l)
	check "$f: $n cgroups, the 20 chosen" test "$n" = 20
done
# no task traced under --root: the 20 with the most anonymous memory, pods 281 to 300
check "the largest pod, by its namespace/name, with its planted bytes" \
	grep -qE '^fragtop_cgroup_anon_bytes\{cgroup="[^"]*pod00000300_0000[^"]*",name="default/web-300"\} 314572800$' "$tmp/m1"
check "... its huge bytes, a quarter" \
	grep -qE '^fragtop_cgroup_anon_thp_bytes\{[^}]*name="default/web-300"\} 78643200$' "$tmp/m1"
check "... its pressure in seconds (300 s some, 0.3 s full)" \
	sh -c "grep -qE '^fragtop_cgroup_pressure_memory_waiting_seconds_total\{[^}]*name=\"default/web-300\"\} 300$' '$tmp/m1' &&
		grep -qE '^fragtop_cgroup_pressure_memory_stalled_seconds_total\{[^}]*name=\"default/web-300\"\} 0.3$' '$tmp/m1'"
check "the 281st is in, the 280th not" \
	sh -c "grep -q 'name=\"default/web-281\"' '$tmp/m1' && ! grep -q 'name=\"default/web-280\"' '$tmp/m1'"
check "what the read left out, by reason: nothing here" \
	sh -c "grep -qx 'fragtop_cgroups_unlisted{reason=\"not_looked_at\"} 0' '$tmp/m1' &&
		grep -qx 'fragtop_cgroups_unlisted{reason=\"past_table\"} 0' '$tmp/m1'"
check "\"other\" is there with 0 (nothing traced)" \
	grep -qE '^fragtop_cgroup_fragmenting_fallbacks_total\{cgroup="other",name="other"\} 0$' "$tmp/m1"
check "the same cgroups at the next scrape" \
	test "$(grep -o 'cgroup="[^"]*"' "$tmp/m1" | sort -u)" = "$(grep -o 'cgroup="[^"]*"' "$tmp/m2" | sort -u)"
# a larger cgroup made after the first scrapes takes a place at the next (a choice that stuck kept it out)
B=$C/system.slice/big.service
mkdir -p "$B"
printf 'anon %d\nanon_thp 0\nfile 0\n' $((400 << 20)) > "$B/memory.stat"
echo 4242 > "$B/cgroup.procs"
big_in() { scrape "$tmp/m3"; grep -qE '^fragtop_cgroup_anon_bytes\{cgroup="/system.slice/big.service",[^}]*\} 419430400$' "$tmp/m3"; }
check "a cgroup made later with more memory is chosen at a scrape after a new sample (-i 1)" until_ok 10 big_in
check "... and the smallest of the 20 leaves (absent: Prometheus marks it stale)" \
	sh -c "grep -q 'name=\"default/web-281\"' '$tmp/m2' && ! grep -q 'name=\"default/web-281\"' '$tmp/m3'"
check "... 20 still" test "$(fam fragtop_cgroup_anon_bytes "$tmp/m3" | wc -l)" = 20
if command -v promtool > /dev/null; then
	promtool check metrics < "$tmp/m1" > "$tmp/promtool.out" 2>&1
	check "promtool check metrics: nothing to say ($(wc -l < "$tmp/promtool.out") lines)" \
		sh -c "[ ! -s '$tmp/promtool.out' ]"
else
	skip "promtool not installed: the exposition is not linted here"
fi
stop_exporter

"$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" 2> "$tmp/err2" & epid=$!
until_ok 20 up
scrape "$tmp/m3"
check "without --collector.cgroups: no cgroup family" sh -c "! grep -q '^fragtop_cgroup_' '$tmp/m3'"
"$FT" exporter --collector.cgroups.top 0 > /dev/null 2> "$tmp/err3"; rc=$?
check "--collector.cgroups.top 0: a usage error (exit $rc)" test "$rc" = 2
echo "exporter-cgroups.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
