#!/bin/bash
# Basic auth that no config or client can stall (on a fixture tree):
# - a hash above the highest cost taken (14) is refused at start, with its
#   line, at once (a cost-31 decoy used to hang the start);
# - at cost 14, while clients from three addresses send wrong passwords
#   as fast as they are answered, a client whose password is cached gets
#   20 of 20 scrapes (bcrypt runs on the checker's thread, not the loop),
#   and an address with two checks in flight gets 429 for a third;
# - SIGTERM with checks running: the exporter is gone at once;
# - a wrong password for a cost-4 user is refused no faster than one for
#   a cost-12 user or an unknown name (timing tells no names: at least a
#   third as long, whatever the load beside; it was 0.004 s against 0.207 s).
# The hashes were made with perl's crypt (libcrypt), fixed salts.
# Needs curl.
# usage: exporter-auth.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
ROOT=$(realpath tests/fixtures/6.18-idle)
command -v curl > /dev/null || skip_all "exporter auth: needs curl"
tmp=$(mktemp -d)
PORT=$(test_port)
epid= fl=
cleanup() {
	for p in $fl $epid; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
# "s3cret" at costs 4, 12 and 14
H04='$2b$04$abcdefghijklmnopqrstuuLZYjhNQAOdpbzt4WxWlUHjv1wsyH5DG'
H12='$2b$12$abcdefghijklmnopqrstuuIkD3QUGeSzQARHziTZIsG4D8yrNpG.S'
H14='$2b$14$abcdefghijklmnopqrstuuMZKx76V3UUCd6wG8PLwzH6qINtghgcC'
H31='$2b$31$abcdefghijklmnopqrstuuIkD3QUGeSzQARHziTZIsG4D8yrNpG.S'

printf 'basic_auth_users:\n  alice: %s\n  slow: %s\n' "$H04" "$H31" > cost31.yml
t0=$(date +%s%N)
timeout 10 "$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" --web.config.file cost31.yml 2> c31.err; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "a cost-31 hash: refused at start in $ms ms (exit $rc), naming its line" \
	grep -q "cost31.yml: line 3: user 'slow': bcrypt cost 31 is above 14" c31.err
check "... exit 1, not a hang" test "$rc" = 1

start() {	# CONFIG: an exporter with it; waits for its first line
	rm -f ex.err
	"$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" --web.config.file "$1" 2> ex.err & epid=$!
	until_ok 60 grep -qs 'exporter on' ex.err || { cat ex.err; echo "FAIL the exporter did not start"; exit 1; }
}
get() {	# USER:PASS [ADDR]: the status code and the seconds it took
	curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time "${3:-5}" -u "$1" \
		--interface "${2:-127.0.0.1}" "http://127.0.0.1:$PORT/metrics"
}

printf 'basic_auth_users:\n  prometheus: %s\n' "$H14" > cost14.yml
start cost14.yml
check "cost 14: the right password, the first time (bcrypt): 200" test "$(get prometheus:s3cret '' 30 | cut -d' ' -f1)" = 200
# the flood: three clients from each of three addresses, each sending a wrong password again as
# soon as it is answered (the third of an address finds two checks in flight: 429)
flood() { while :; do get prometheus:wrong "$1" 30 >> "flood.$1"; done; }
fl=
for a in 127.0.0.2 127.0.0.3 127.0.0.4; do
	for i in 1 2 3; do flood $a & fl="$fl $!"; done
done
flooding() { cat flood.* 2> /dev/null | grep -q '^429'; }
until_ok 60 flooding
ok=0
for i in $(seq 20); do
	r=$(get prometheus:s3cret '' 2)
	echo "$r" >> mine
	[ "${r%% *}" = 200 ] && ok=$((ok + 1))
	sleep 0.2	# the pace of the scrapes: 4 s of flood, three refusals' worth at cost 14
done
med=$(sort -n -k2 mine | awk '{ t[NR] = $2 } END { printf "%.0f", t[int((NR + 1) / 2)] * 1000 }')
check "under a wrong-password flood at cost 14: $ok of 20 cached scrapes got 200 (median $med ms)" test "$ok" = 20
# a refusal at cost 14 takes a second or more of bcrypt, more on a loaded machine: wait for one
refused401() { cat flood.* 2> /dev/null | grep -q '^401'; }
until_ok 60 refused401
codes=$(cat flood.* | cut -d' ' -f1 | sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')
check "... the flood got 401 and, two checks in flight per address, 429 ($codes)" \
	sh -c "cat flood.* | grep -q '^401' && cat flood.* | grep -q '^429'"
# stop while checks are running: prompt
t0=$(date +%s%N)
kill -TERM "$epid"
gone() { ! kill -0 "$epid" 2> /dev/null; }
until_ok 10 gone; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
wait "$epid"; erc=$?; epid=
kill $fl 2> /dev/null; wait $fl 2> /dev/null; fl=
check "SIGTERM with bcrypt running: gone in $ms ms, exit $erc" test "$rc" = 0 -a "$erc" = 0

# timing tells no names: alice (cost 4), bob (cost 12) and nobody, three wrong passwords each
printf 'basic_auth_users:\n  alice: %s\n  bob: %s\n' "$H04" "$H12" > names.yml
start names.yml
# interleaved, five rounds: the machine's load changes alike for the three
for i in 1 2 3 4 5; do
	for u in alice bob nobody; do echo "$u $(get "$u:wrong" '' 10 | cut -d' ' -f2)"; done
done > times
median() { awk -v u="$1" '$1 == u { print $2 }' times | sort -n | sed -n 3p; }
a=$(median alice); b=$(median bob); n=$(median nobody)
echo "refusal times (median of 5): alice (cost 4) $a s, bob (cost 12) $b s, an unknown name $n s"
# before: 0.004 s against 0.207 s; a third holds that apart whatever the load beside
check "a cost-4 user's refusal takes at least a third of a cost-12 user's, and of an unknown name's" \
	awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { exit !(a >= b / 3 && a >= n / 3 && n >= b / 3 && b >= n / 3) }'
check "... and the right password still gets 200" test "$(get alice:s3cret | cut -d' ' -f1)" = 200
kill -TERM "$epid"; wait "$epid"; epid=
echo "exporter-auth.sh: $fails failure(s)"
[ $fails -eq 0 ]
