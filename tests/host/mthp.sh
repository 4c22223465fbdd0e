#!/bin/bash
# Multi-size THP on this kernel: 64 KiB set to madvise and 2 MiB to never
# through `fragtop set` (so 64 KiB is the size the workload is served),
# the mTHP workload (tests/load/mthp.c) run inside a recording, and the
# recording's report gives each size's anon_fault_alloc and _fallback
# equal to the growth of the sysfs counters read by this script just
# before and after the workload.  The replay's THP view (8) shows both
# sizes.  Then, with the workload holding its 64 KiB folios, the pageblock
# map (snapshot --json --map) counts at least as many THP folios, and 16
# times as many THP pages, as the kernel's nr_anon of that size: KPF_THP
# marks every large folio, not only PMD ones; the map view's line says
# how many pages are THP-backed.  A trap puts both knobs back even when
# the test fails.  Root.
# usage: mthp.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=/sys/kernel/mm/transparent_hugepage
[ "$(id -u)" = 0 ] || skip_all "needs root (it changes THP settings)"
[ -f $S/hugepages-64kB/stats/anon_fault_alloc ] && [ -f $S/hugepages-2048kB/enabled ] ||
	skip_all "no multi-size THP counters on this kernel (6.10+)"
command -v cc > /dev/null || { echo "FAIL no C compiler for the workload"; exit 1; }
TMPD=$(mktemp -d)
SOCK=
rpid=
o64=$("$FT" get thp_64kB) o2m=$("$FT" get thp_2048kB)
T() { tmux -S "$TMPD/$SOCK" "$@"; }
hpid=
cleanup() {
	[ -n "$rpid" ] && kill "$rpid" 2> /dev/null && wait "$rpid" 2> /dev/null
	[ -n "$hpid" ] && kill "$hpid" 2> /dev/null && wait "$hpid" 2> /dev/null
	[ -n "$SOCK" ] && end_tmux
	"$FT" set thp_64kB="$o64" thp_2048kB="$o2m" > /dev/null ||
		echo "FAIL could not put back thp_64kB=$o64 thp_2048kB=$o2m"
	rm -rf "$TMPD"
}
trap cleanup EXIT
cc -O2 -o "$TMPD/mthp" "$(dirname "$0")/../load/mthp.c" || { echo "FAIL cannot build the workload"; exit 1; }

check "fragtop set thp_64kB=madvise thp_2048kB=never" "$FT" set thp_64kB=madvise thp_2048kB=never
check "... the kernel has them" test "$(cat $S/hugepages-64kB/enabled $S/hugepages-2048kB/enabled | tr -d '\n')" = \
	"always inherit [madvise] neveralways inherit madvise [never]"
"$FT" set thp_64kB=bogus 2> "$TMPD/e"
check "a word the kernel does not list: refused with the list" grep -q "not one of always, inherit, madvise, never" "$TMPD/e"

# ticks in the recording so far (0 before its first complete chunk)
ticks() { local n; n=$("$FT" report --json "$TMPD/m.ftr" 2> /dev/null | jq -r '.samples // 0'); echo "${n:-0}"; }
at_least() { [ "$(ticks)" -ge "$1" ]; }
"$FT" record -o "$TMPD/m.ftr" -i 0.5 -t 300 2> "$TMPD/rec.log" & rpid=$!
check "the recording has its first ticks" until_ok 30 at_least 2
read_counts() { for z in 64kB 2048kB; do for c in anon_fault_alloc anon_fault_fallback; do
	echo "$z $c $(cat $S/hugepages-$z/stats/$c)"; done; done; }
read_counts > "$TMPD/before"
"$TMPD/mthp" 6 1024
read_counts > "$TMPD/after"
n=$(ticks)
check "... and ticks after the workload" until_ok 30 at_least $((n + 2))
kill -INT "$rpid"; wait "$rpid"; rpid=
"$FT" set thp_64kB="$o64" thp_2048kB="$o2m" > /dev/null
"$FT" report --json "$TMPD/m.ftr" > "$TMPD/r.json"
while read -r z c b; do
	a=$(awk -v z="$z" -v c="$c" '$1 == z && $2 == c { print $3 }' "$TMPD/after")
	got=$(jq -r --arg z "${z%kB}" --arg c "$c" '.thp_by_size[] | select(.size_kb == ($z | tonumber)) | .[$c]' "$TMPD/r.json")
	check "report: $z $c $got = sysfs growth $((a - b))" test "$got" = "$((a - b))"
done < "$TMPD/before"
check "64 KiB served the workload" test "$(jq '.thp_by_size[] | select(.size_kb == 64) | .anon_fault_alloc' "$TMPD/r.json")" -gt 0
"$FT" report "$TMPD/m.ftr" > "$TMPD/r.txt"
check "the text report has a row for 64kB" grep -qE '^  64kB +madvise +[0-9]+ +[0-9]+ ' "$TMPD/r.txt"

# the replay's THP view
if command -v tmux > /dev/null; then
	SOCK=fragtop-mthp-$$
	T new-session -d -s ft -x 120 -y 40 "$FT replay --no-config $TMPD/m.ftr; sleep 30"
	wait_for 'REPLAY \[' > /dev/null
	T send-keys -t ft 8
	check "the THP view shows 64kB" wait_for '^ +64kB madvise'
	check "... and 2048kB" wait_for '^ +2048kB never'
	end_tmux; SOCK=
fi

# the pageblock map and large folios: 64 KiB ones held by the workload
if [ -r /proc/kpageflags ]; then
	"$FT" set thp_64kB=madvise thp_2048kB=never > /dev/null
	"$TMPD/mthp" 4 512 hold > "$TMPD/hold.log" & hpid=$!
	check "the workload holds its folios" until_ok 120 grep -q '^holding' "$TMPD/hold.log"
	n0=$(cat $S/hugepages-64kB/stats/nr_anon)
	"$FT" snapshot --json --map --no-trace > "$TMPD/map.json"
	n1=$(cat $S/hugepages-64kB/stats/nr_anon)
	nmin=$(( n0 < n1 ? n0 : n1 ))
	folios=$(jq '[.zones[].pageblocks.thp_folios // 0] | add' "$TMPD/map.json")
	pages=$(jq '[.zones[].pageblocks.thp_pages // 0] | add' "$TMPD/map.json")
	echo "map: $pages THP pages in $folios folios; 64kB nr_anon $n0 before, $n1 after the scan"
	check "the map's THP folios >= the 64 KiB folios held ($folios >= $nmin)" \
		test "$nmin" -gt 0 -a "$folios" -ge "$nmin"
	check "... and its THP pages >= 16 x that ($pages >= $((16 * nmin)))" test "$pages" -ge $((16 * nmin))
	if command -v tmux > /dev/null; then
		SOCK=fragtop-mthp-map-$$
		fresh_config
		T new-session -d -s ft -x 140 -y 40 "$FT --no-trace; sleep 30"
		wait_for '^fragtop ' > /dev/null
		T send-keys -t ft 5
		WAIT_TENTHS=600 check "map view: the zone's THP-backed pages" wait_for 'pollution [0-9]+ pages  THP-backed [1-9]'
		for i in 1 2 3 4 5 6 7 8; do T send-keys -t ft -- -; done	# a cell of many blocks
		check "the cursor's cell: THP-backed pages, folios and their mean size" \
			wait_for '^pages: .* THP-backed [1-9][0-9]* \([1-9][0-9]* folios, mean [0-9]+ kB\)'
		T send-keys -t ft q
	fi
	kill "$hpid"; wait "$hpid" 2> /dev/null; hpid=
else
	skip "map and large folios: no /proc/kpageflags"
fi
[ $fails -eq 0 ]
