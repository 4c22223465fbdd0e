#!/bin/bash
# What fragtop costs, held by budgets on counts (base/cost.h): files
# opened, read calls and bytes read per source and tick, from the
# --cost-log lines of the live loop over a fixed number of ticks.  Counts
# are the same on every run of the same work, so this is the guard a
# timing test cannot be.  For each mode:
#   - the TUI on each view (fragtoprc opens it; -n 8), over a captured tree,
#     the findings view reading no more than the overview;
#   - record, and one exporter scrape at a time, over the same tree;
#   - the TUI's overview on the live host, read-only (root, when it can).
# From the third tick on nothing is opened (the first opens what is held
# open, the second what the mode's start adds: the view's own files,
# tracing, a recording's metadata); the per-size THP tree is read only for
# the THP view, a recording and a scrape.
# usage: cost.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
ROOT=tests/fixtures/6.18-mthp
TMPD=$(mktemp -d)
SOCK=
xpid=
trap '[ -n "$xpid" ] && kill "$xpid" 2> /dev/null; [ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
command -v tmux > /dev/null || skip_all "tmux not installed"

# jq over the log's lines from tick 3 on: what a tick costs once started
after_first() { jq -s "[.[] | select(.tick >= 3 and .cost.last_tick != null)] | $1" "$2"; }
# SOURCE's last-tick FIELD, the most any tick after the first had
src_max() { after_first "map(.cost.by_source[] | select(.source == \"$1\") | .last_tick.$2) | max // 0" "$3"; }
all_max() { after_first "map(.cost.last_tick.$1) | max // 0" "$2"; }
ticks() { after_first 'length' "$1"; }
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }
logged() { [ "$(lines "$1")" -ge "$2" ]; }	# FILE N: N lines in the log (until_ok evaluates it each time)
scraped() { [ "$(grep -c '"exporter scrape"' "$TMPD/x.jsonl" 2> /dev/null)" -ge "$1" ]; }

# The TUI on each view for 8 ticks at 0.1 s over the tree, the view from
# fragtoprc (a test's own XDG_CONFIG_HOME); its cost log in $TMPD/VIEW.jsonl
declare -A view_reads view_opens
for view in overview events stalls controls map history processes thp findings; do
	log=$TMPD/$view.jsonl
	[ -n "$SOCK" ] && end_tmux
	tmux_n=$((${tmux_n:-0} + 1)); SOCK=cost-$$-$tmux_n
	rm -rf "${XDG_CONFIG_HOME:?}/fragtop"; mkdir -p "$XDG_CONFIG_HOME/fragtop"
	echo "view=$view" > "$XDG_CONFIG_HOME/fragtop/fragtoprc"
	T new-session -d -s ft -x 120 -y 40 \
		"env TERM=screen $(printf '%q' "$FT") --root $ROOT -i 0.1 -n 8 --cost-log $log"
	until_ok 30 logged "$log" 7
	check "$view: 7 ticks logged on the view (-n 8)" \
		test "$(jq -s "[.[] | select(.what == \"top $view\")] | length" "$log")" -ge 6
	opens=$(all_max files_opened "$log")
	reads=$(all_max reads "$log")
	bytes=$(all_max bytes_read "$log")
	thp=$(src_max thp reads "$log")
	echo "     $view: a tick reads at most: $opens files, $reads reads, $bytes bytes" \
		"($thp of the reads the THP tree's)"
	check "$view: no file opened a tick" test "$opens" = 0
	view_reads[$view]=$reads view_opens[$view]=$opens
	case $view in
	thp)
		check "thp: the tree read every tick ($thp reads, 9 sizes)" test "$thp" -ge 150 -a "$thp" -le 200
		check "thp: at most 240 reads and 48 KiB a tick" test "$reads" -le 240 -a "$bytes" -le 49152 ;;
	controls)	# the 17 per-size THP settings too
		check "controls: the THP tree not read" test "$thp" = 0
		check "controls: at most 44 reads and 32 KiB a tick" test "$reads" -le 44 -a "$bytes" -le 32768 ;;
	*)
		check "$view: the THP tree not read" test "$thp" = 0
		check "$view: at most 24 reads and 32 KiB a tick" test "$reads" -le 24 -a "$bytes" -le 32768 ;;
	esac
done
end_tmux; SOCK=
# the findings are judged every tick on every view from what the overview reads anyway
check "findings: no more files or reads a tick than the overview (${view_reads[findings]} against ${view_reads[overview]})" \
	test "${view_reads[findings]}" -le "${view_reads[overview]}" -a "${view_opens[findings]}" -le "${view_opens[overview]}"

# record: everything a view could show, every tick
"$FT" record --root "$ROOT" -i 0.1 -t 1 -o "$TMPD/r.ftr" --cost-log "$TMPD/record.jsonl" 2> "$TMPD/r.err"
check "record: ticks logged" test "$(ticks "$TMPD/record.jsonl")" -ge 5
check "record: no file opened a tick" test "$(all_max files_opened "$TMPD/record.jsonl")" = 0
r=$(src_max thp reads "$TMPD/record.jsonl")
check "record: the THP tree every tick ($r reads)" test "$r" -ge 150 -a "$r" -le 200
check "record: at most 240 reads a tick" test "$(all_max reads "$TMPD/record.jsonl")" -le 240
check "the recording holds the cost (report reads it)" test "$("$FT" report --json "$TMPD/r.ftr" | jq '.cost.ticks')" -ge 5

# the exporter: a sample per scrape (-i 0.1 and a wait between scrapes)
port=$(test_port)
"$FT" exporter --root "$ROOT" --listen "127.0.0.1:$port" -i 0.1 --cost-log "$TMPD/x.jsonl" 2> "$TMPD/x.err" &
xpid=$!
until_ok 20 curl -sf -o /dev/null "http://127.0.0.1:$port/metrics"
for i in 1 2 3 4 5; do
	sleep 0.15	# older than -i: this scrape takes a sample (a pace, not a wait for a condition)
	curl -sf -o /dev/null "http://127.0.0.1:$port/metrics"
	until_ok 5 scraped $i
done
kill "$xpid"; wait "$xpid" 2> /dev/null; xpid=
s=$(jq -s '[.[] | select(.what == "exporter scrape" and .tick >= 3)] | length' "$TMPD/x.jsonl")
check "exporter: scrapes logged ($s past the start)" test "$s" -ge 3
check "exporter: a scrape opens nothing" test "$(all_max files_opened "$TMPD/x.jsonl")" = 0
r=$(src_max thp reads "$TMPD/x.jsonl")
check "exporter: a scrape reads the THP tree ($r reads)" test "$r" -ge 150 -a "$r" -le 200
check "exporter: at most 240 reads a scrape" test "$(all_max reads "$TMPD/x.jsonl")" -le 240

# the live host, read-only: the overview opens nothing after its first tick
# but the names of tasks that made events (/proc/PID, new processes only)
if [ "$(id -u)" = 0 ] && [ -r /proc/zoneinfo ]; then
	log=$TMPD/live.jsonl
	tmux_n=$((${tmux_n:-0} + 1)); SOCK=cost-$$-$tmux_n
	rm -rf "${XDG_CONFIG_HOME:?}/fragtop"
	T new-session -d -s ft -x 160 -y 50 \
		"env TERM=screen $(printf '%q' "$FT") --no-config --read-only -i 0.25 -n 8 --cost-log $log"
	until_ok 30 logged "$log" 7
	# what the host's events bring (their tasks' names, the trace pages)
	# grows with them; the rest is the tick's own
	but() { after_first "map(.cost.last_tick.$1 - ([.cost.by_source[] | select(.source == \"pid\" or
		.source == \"trace\") | .last_tick.$1] | add)) | max // 0" "$log"; }
	o=$(but files_opened)
	r=$(but reads)
	echo "     live overview: a tick reads at most $o files and $r reads but /proc/PID and the trace" \
		"($(all_max reads "$log") reads, $(all_max bytes_read "$log") bytes in all)"
	check "live: no file opened a tick but /proc/PID" test "$o" = 0
	check "live: the THP tree not read" test "$(src_max thp reads "$log")" = 0
	check "live: at most 32 reads a tick but /proc/PID and the trace" test "$r" -le 32
	end_tmux; SOCK=
else
	skip "the live host's overview needs root"
fi
echo "cost.sh: $fails failure(s)"
# --cost-log never writes into a file it did not make: one planted by another user in a
# sticky world-writable directory (as nobody in /tmp) is refused, its bytes and owner kept
sticky=$TMPD/sticky; mkdir -m 1777 "$sticky"
echo planted > "$sticky/log"; chmod 0666 "$sticky/log"; chown 65534:65534 "$sticky/log" 2> /dev/null
"$FT" record --root "$ROOT" -i 0.1 -t 0.3 -o "$TMPD/p.ftr" --cost-log "$sticky/log" 2> "$TMPD/p.err"; rc=$?
check "--cost-log over an existing file: refused, said ($(head -c 80 "$TMPD/p.err"))" test $rc = 1 -a ! -e "$TMPD/p.ftr"
check "... the file untouched" test "$(cat "$sticky/log")" = planted
ln -s "$sticky/log" "$TMPD/link"
"$FT" record --root "$ROOT" -i 0.1 -t 0.3 -o "$TMPD/q.ftr" --cost-log "$TMPD/link" 2> "$TMPD/q.err"; rc=$?
check "--cost-log through a symbolic link: refused" test $rc = 1 -a "$(cat "$sticky/log")" = planted
[ $fails -eq 0 ]
