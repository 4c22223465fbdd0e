#!/bin/bash
# Containers on this real kernel: two memory cgroups of our own, the
# seeds' adverse workload (tests/load/thpfioscale-mini.sh, boost 0) in
# one and the mTHP workload (tests/load/mthp.c, holding its memory) in
# the other, while `fragtop record --cgroups` traces and the TUI's
# cgroups view (9) runs in tmux.  Checks:
# - the overview reads no cgroup file and no smaps_rollup; the processes
#   view shows THP% read from the shown processes' smaps_rollup, counted
#   in the cost account's "smaps";
# - the view shows the adverse workload's cgroup by a readable name with
#   its tasks' fallbacks, the rows sorted by fragmenting fallbacks;
# - report --by cgroup's rows add up to the report's totals, and each
#   cgroup's row equals the sum over the processes the report puts in it;
# - `snapshot --json` gives each cgroup's rss_huge (anon_thp_bytes) and
#   rss (anon_bytes) equal to its memory.stat read just before and after
#   (retried while the two reads differ: the kernel moves them).
# The cgroups live under the memory controller's hierarchy (v1 here, v2
# where it has memory) as fragtop-test-PID/{adverse,mthp}; a trap kills
# every process started, moves any left to the root and removes them.
# Root, tracefs, fio, tmux and a C compiler; skipped otherwise.
# usage: cgroups.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
workload
if [ "$(id -u)" != 0 ] || [ ! -d /sys/kernel/tracing/instances ] || ! command -v fio > /dev/null ||
	! command -v tmux > /dev/null || ! command -v cc > /dev/null || [ ! -r "$WORKLOAD" ]; then
	skip_all "cgroups on this host: needs root, tracefs, fio, tmux, cc and $WORKLOAD"
fi
if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2> /dev/null; then
	ROOTCG=/sys/fs/cgroup
	echo "+memory" > $ROOTCG/cgroup.subtree_control 2> /dev/null
	v=2
elif [ -d /sys/fs/cgroup/memory ]; then
	ROOTCG=/sys/fs/cgroup/memory
	v=1
else
	skip_all "cgroups on this host: no memory cgroup hierarchy"
fi
TMPD=$(mktemp -d)
SOCK=
BASE=$ROOTCG/fragtop-test-$$
# the adverse workload's cgroup under a directory that makes its path about
# 198 bytes, Kubernetes-long (a systemd-driver containerd path is ~191):
# its processes must still join its memory (they did not past 127 bytes)
LONG=$(printf 'k%.0s' $(seq 170))
A=$BASE/$LONG/adverse B=$BASE/mthp
AREL=${A#"$ROOTCG"}
pids=()
cleanup() {
	local p g
	[ -n "${rpid:-}" ] && kill "$rpid" 2> /dev/null && wait "$rpid" 2> /dev/null
	[ -n "${xpid:-}" ] && kill "$xpid" 2> /dev/null && wait "$xpid" 2> /dev/null
	for p in "${pids[@]}"; do pkill -P "$p" 2> /dev/null; kill "$p" 2> /dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2> /dev/null; done
	[ -n "$SOCK" ] && end_tmux
	for g in "$A" "$B" "$BASE/$LONG"; do	# anything left (a workload's child): back to the root, then the cgroup goes
		[ -d "$g" ] || continue
		for p in $(cat "$g/cgroup.procs" 2> /dev/null); do kill "$p" 2> /dev/null; echo "$p" > "$ROOTCG/cgroup.procs"; done
		rmdir "$g" 2> /dev/null || until_ok 10 rmdir "$g" || echo "FAIL could not remove $g"
	done
	[ -d "$BASE" ] && { rmdir "$BASE" || echo "FAIL could not remove $BASE"; }
	rm -rf "$TMPD"
}
trap cleanup EXIT
mkdir "$BASE" "$BASE/$LONG" "$A" "$B" || { echo "FAIL cannot make memory cgroups under $ROOTCG"; exit 1; }
echo "cgroups: v$v, under $BASE; the adverse one's path is ${#AREL} bytes"
cc -O2 -o "$TMPD/mthp" "$HERE/../load/mthp.c" || { echo "FAIL cannot build the mTHP workload"; exit 1; }

"$FT" record --cgroups -i 1 -o "$TMPD/cg.ftr" 2> "$TMPD/rec.err" & rpid=$!
until_ok 30 recorded "$TMPD/cg.ftr" '.samples >= 1' || bad "the recording has a tick within 30 s"
PORT=$(test_port)
"$FT" exporter --collector.cgroups --listen "127.0.0.1:$PORT" 2> "$TMPD/exp.err" & xpid=$!
until_ok 30 grep -q 'exporter on' "$TMPD/exp.err" || bad "the exporter started"
tmux_start cgroups 120 40 env XDG_CONFIG_HOME="$TMPD/xdg" "$FT" --no-config --smaps-interval 2 \
	--cost-log "$TMPD/cost.jsonl"
wait_for '^N0 ' > /dev/null
cost_of() { tail -n 1 "$TMPD/cost.jsonl" 2> /dev/null | jq -r --arg s "$1" '[.cost.by_source[] | select(.source == $s) | .files_opened] | add // 0'; }
until_ok 10 test -s "$TMPD/cost.jsonl"
check "the overview reads no smaps_rollup and no cgroup ($(cost_of smaps), $(cost_of cgroups))" \
	test "$(cost_of smaps) $(cost_of cgroups)" = "0 0"
T send-keys -t ft 9
check "the cgroups view" wait_for 'cgroups \(cgroup v[12]'

# each workload starts in its cgroup: the shell moves itself there first, so all its children are in it
sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" 60 512 hold' sh "$B" "$TMPD/mthp" > "$TMPD/mthp.out" 2>&1 & pids+=($!)
sh -c 'echo $$ > "$1/cgroup.procs" && exec bash "$2" 0 "$3" "$4"' sh "$A" "$WORKLOAD" "$WORKLOAD_MB" "$TMPD/work" \
	> "$TMPD/work.log" 2>&1 & wpid=$!; pids+=($wpid)

# the view while the adverse workload runs: its cgroup by a readable name, with the fallbacks its
# tasks made, and the rows in FRAG order.  Which cgroup fragments most is the workload's doing, not
# fragtop's (a run of thpfioscale makes from a handful to thousands of fragmenting fallbacks, and
# the host's other tasks some): the test asks the order, not the winner.
rows() {	# the table's rows: the counters, then the name (not the lines under the table)
	screen | sed -n '/CGROUP$/,$p' | sed 1d |
		awk 'NF >= 9 && $1 ~ /^[0-9.]+[kMGTPE]?$/ && $7 ~ /^[0-9]+$/ && $8 ~ /^[0-9.]+[kMGTPE]?$/'
}
# FRAG is the first column, TASKS the seventh and FALLBK the eighth
adverse_row() { rows | grep -E " ~?[^ ]*k/adverse\$"; }
adverse_shown() { adverse_row | awk '$8 + 0 > 0 && $7 + 0 > 0 { ok = 1 } END { exit !ok }'; }
check "the view: the adverse workload's ${#AREL}-byte cgroup, its tasks' fallbacks joined to its tasks" \
	until_ok 120 adverse_shown
echo "view's adverse row: $(adverse_row)"
# the exporter: the long path's label carries both its tasks' fallbacks and its memory
exported_joined() {
	curl -s --max-time 10 "http://127.0.0.1:$PORT/metrics" > "$TMPD/m.prom" || return 1
	awk -v p="cgroup=\"$AREL\"" 'index($0, "fragtop_cgroup_fragmenting_fallbacks_total{" p) == 1 && $NF + 0 > 0 { f = 1 }
		index($0, "fragtop_cgroup_anon_bytes{" p) == 1 { m = 1 } END { exit !(f && m) }' "$TMPD/m.prom"
}
check "the exporter: the ${#AREL}-byte cgroup's fallbacks and memory under one label" until_ok 120 exported_joined
frag_rows() { rows | grep -v ' other$'; }
some_frag() { frag_rows | awk '$1 + 0 > 0 { ok = 1 } END { exit !ok }'; }
in_frag_order() {
	frag_rows | awk 'NR > 1 && $1 + 0 > last { bad = 1 } { last = $1 + 0 } END { exit bad || NR < 2 }'
}
if until_ok 90 some_frag; then
	check "the view: its rows in FRAG order, most first" in_frag_order
else
	skip "no fragmenting fallback on the host within 90 s: no order to see"
fi
echo "view's rows (FRAG, name): $(rows | awk '{ print $1, $NF }' | tr '\n' ';')"

check "the mTHP workload holds its memory" until_ok 90 grep -q holding "$TMPD/mthp.out"

# the processes view's THP%: read for the rows on screen, into the cost account's "smaps"
T send-keys -t ft 7
check "the processes view has THP%" wait_for 'PID S COMMAND .* THP%'
thp_cells() {	# the THP% column of the rows under the header
	screen | awk 'h { print substr($0, h, 5) } /PID S COMMAND/ { h = index($0, "THP%") }' | grep -E '[0-9]'
}
has_thp_cells() { thp_cells > /dev/null; }
check "a process's THP% read from its smaps_rollup" until_ok 30 has_thp_cells
echo "THP% cells: $(thp_cells | tr '\n' ' ')"
smaps_read() { [ "$(cost_of smaps)" -gt 0 ]; }
check "the cost account counts the smaps_rollup reads" until_ok 10 smaps_read
echo "smaps_rollup files opened: $(cost_of smaps)"
# the mTHP workload's own row, when it made events: its THP% is its smaps_rollup's (it holds its memory)
mpid=${pids[0]}
want_pct() {
	awk '$1 == "Anonymous:" { a = $2 } $1 == "AnonHugePages:" { h = $2 }
		END { if (!a) exit 1; v = 100 * h / a; if (v >= 100) printf "%.0f", v;
			else if (v >= 10) printf "%.1f", int(v * 10) / 10; else printf "%.2f", int(v * 100) / 100 }' \
		"/proc/$mpid/smaps_rollup"
}
mthp_cell() { screen | awk -v p="$mpid" 'h && $1 == p { print substr($0, h - 1, 5) } /PID S COMMAND/ { h = index($0, "THP%") }' | tr -d ' '; }
if until_ok 30 sh -c "[ -n \"\$(tmux -S '$TMPD/$SOCK' capture-pane -p -t ft | awk -v p=$mpid '\$1 == p')\" ]"; then
	same_pct() { [ "$(mthp_cell)" = "$(want_pct)" ]; }
	check "the mTHP process's THP% is its smaps_rollup's AnonHugePages / Anonymous ($(mthp_cell) = $(want_pct))" \
		until_ok 30 same_pct
else
	skip "the mTHP process made no fallback or stall this time: it has no row to compare"
fi
T send-keys -t ft 9


# memory.stat against fragtop's read, while the mTHP workload holds its memory
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1/memory.stat"; }
if [ $v = 1 ]; then kh=total_rss_huge ka=total_rss; else kh=anon_thp ka=anon; fi
mem_ok=
for try in 1 2 3 4 5; do
	h0=$(stat_of "$B" $kh) a0=$(stat_of "$B" $ka)
	"$FT" snapshot --json > "$TMPD/snap.json" 2> /dev/null
	h1=$(stat_of "$B" $kh) a1=$(stat_of "$B" $ka)
	got=$(jq -r --arg p "/fragtop-test-$$/mthp" '.cgroups.groups[] | select(.path == $p) | "\(.anon_thp_bytes) \(.anon_bytes)"' "$TMPD/snap.json")
	echo "mthp cgroup, try $try: memory.stat $kh $h0 -> $h1, $ka $a0 -> $a1; fragtop: $got"
	[ "$h0" = "$h1" ] && [ "$a0" = "$a1" ] || continue
	[ "$got" = "$h0 $a0" ] && mem_ok=1
	break
done
check "the mTHP cgroup's huge and anonymous bytes equal its memory.stat read before and after" test -n "$mem_ok"

until_ok 300 sh -c "! kill -0 $wpid 2> /dev/null"
check "the adverse workload ran" grep -qiE 'fallback|done|boost' "$TMPD/work.log"
kill -INT "$rpid"; wait "$rpid"; rpid=
"$FT" report --json --by cgroup "$TMPD/cg.ftr" > "$TMPD/r.json" 2> "$TMPD/r.err"
check "report --by cgroup: exit 0" test $? = 0
echo "report: $(jq -c '[.by_cgroup[] | {name, processes, fragmenting, extfrag}] | .[:4]' "$TMPD/r.json")"
sum_ok() {	# every counter: the rows add up to the processes' total, "other" included
	jqe '[.by_cgroup[]] as $r | [.processes[]] as $p |
		["fragmenting", "extfrag", "compaction_us", "reclaim_us"] |
		all(. as $k | ([$r[][$k]] | add) == (([$p[][$k]] | add) + 0))' "$1"
}
check "the cgroup rows add up to the processes' totals" sum_ok "$TMPD/r.json"
check "... and to the report's fragmenting total" \
	jqe '([.by_cgroup[].fragmenting] | add) == .totals.extfrag_fragmenting' "$TMPD/r.json"
row_is_its_procs() {	# each cgroup's counts are the sum over its processes
	jqe '[.processes[]] as $p | [.by_cgroup[] | select(.path != null) | . as $r |
		($p | map(select((.cgroup // "") == $r.path)) | [map(.fragmenting), map(.extfrag)] | map(add // 0)) ==
		[$r.fragmenting, $r.extfrag]] | all' "$1"
}
check "each cgroup's fallbacks equal the sum over its processes" row_is_its_procs "$TMPD/r.json"
check "the adverse workload's cgroup made fallbacks" \
	jqe --arg p "$AREL" '[.by_cgroup[] | select(.path == $p) | .extfrag] | .[0] > 0' "$TMPD/r.json"
echo "cgroups.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
