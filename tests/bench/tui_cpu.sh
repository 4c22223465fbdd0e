#!/bin/bash
# make bench: the live TUI's CPU and memory (1 s interval, the boost
# sampler's thread and its wake-ups, tracepoints: every thread, from the
# scheduler's own count) beside `htop -d 10` and `top -d 1` (a 1 s refresh
# each), all three drawn in tmux at 160x50 over the same seconds, in one
# run, fragtop with --no-config:
#   idle       nothing else running (the sampler reads at its idle rate)
#   load       tests/load/thpthreads (page tables and THP faults in 4
#              threads: fallbacks that claim pageblocks, so the watermark
#              boosts and the sampler runs at its full rate); changes no
#              sysctl
#   adverse    the seeds' adverse workload (tests/load/thpfioscale-mini.sh
#              at the host's boost factor: a hugetlb reservation, fio, THP
#              faults, about 100 s; root and fio only, restored after)
#   map        idle again with fragtop's map view open (its budget, 2% of
#              a core, covers the scan and its drawing)
# and each one's resident memory after the idle phase, after the workload
# and with the map open.
# Prints CPU seconds, % of a core, RSS and the ratios against the goals
# (at most top's idle, at most htop's under load, RSS at most 6 MB, the
# map within 2% in all); no threshold fails.  With FT_BENCH_OUT set, the
# figures go there too, a "key value unit" line each (scripts/bench-compare.sh).
# Needs tmux; htop and top (procps) are optional.
# usage: tui_cpu.sh FRAGTOP_BINARY [SECONDS]
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
SECS=${2:-60}
top_dir=$(cd "$(dirname "$0")/../.." && pwd)
command -v tmux > /dev/null || { echo "tui_cpu: tmux not installed; skipped"; exit 0; }
TMPD=$(mktemp -d)
lpid=
T() { tmux -S "$TMPD/sock" "$@"; }
trap '[ -n "$lpid" ] && kill "$lpid" 2>/dev/null; end_tmux; rm -rf "$TMPD"' EXIT
figure() { [ -n "${FT_BENCH_OUT:-}" ] && echo "$1 $2 $3" >> "$FT_BENCH_OUT"; return 0; }

cpu_s() {	# PID: CPU seconds of all its threads, from the scheduler's own count
	# (schedstat's run time in ns; utime/stime are sampled at the tick and
	# misjudge a thread that wakes 50 times a second for microseconds)
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.6f\n", s / 1e9 }'
}
rss_kb() { awk '/^VmRSS:/ { print $2 }' /proc/"$1"/status 2> /dev/null; }
pid_in() {	# SESSION: the program's pid in that pane
	pgrep -P "$(T display -p -t "$1" '#{pane_pid}')" | head -n 1
}

names=(fragtop) cmds=("TERM=screen $FT --no-config -d 1 ${FT_ARGS:-}")
command -v htop > /dev/null && { names+=(htop); cmds+=("TERM=screen htop -d 10"); }
command -v top > /dev/null && { names+=(top); cmds+=("TERM=screen top -d 1"); }
declare -A pid
for i in "${!names[@]}"; do
	T new-session -d -s "${names[$i]}" -x 160 -y 50 "${cmds[$i]}; sleep 1"
done
sleep 3	# past the programs' start (a pace, not a wait for a condition)
for n in "${names[@]}"; do
	pid[$n]=$(pid_in "$n")
	[ -n "${pid[$n]}" ] || { echo "tui_cpu: $n did not start"; exit 1; }
done

declare -A used
measure() {	# PHASE [SECS]: CPU over the phase; with no SECS, until $lpid ends
	local n b secs t0=$EPOCHREALTIME
	declare -A c0
	for n in "${names[@]}"; do c0[$n]=$(cpu_s "${pid[$n]}"); done
	if [ -n "${2:-}" ]; then sleep "$2"; else wait "$lpid"; lpid=; fi
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	for n in "${names[@]}"; do
		b=$(cpu_s "${pid[$n]}")
		used[$1.$n]=$(awk -v a="${c0[$n]}" -v b="$b" -v s="$secs" 'BEGIN { printf "%.4f", (b - a) * 100 / s }')
		figure "tui.$1.$n" "${used[$1.$n]}" "%core"
	done
	echo "$1: ${secs} s, % of a core:$(for n in "${names[@]}"; do printf '  %s %s' "$n" "${used[$1.$n]}"; done)"
}
rss() {	# WHEN
	local n
	for n in "${names[@]}"; do figure "rss.$1.$n" "$(rss_kb "${pid[$n]}")" kB; done
	echo "RSS $1:$(for n in "${names[@]}"; do printf '  %s %s kB' "$n" "$(rss_kb "${pid[$n]}")"; done)"
}

echo
echo "live TUI CPU (one run, 160x50 in tmux, every thread's scheduler time)"
measure idle "$SECS"
rss idle
cc -O2 -pthread -o "$TMPD/thpthreads" "$top_dir/tests/load/thpthreads.c" || exit 1
"$TMPD/thpthreads" $((SECS + 5)) 4 > /dev/null & lpid=$!
sleep 2	# the load under way
measure load "$SECS"
wait "$lpid"; lpid=
workload
if [ "$(id -u)" = 0 ] && command -v fio > /dev/null; then
	bash "$WORKLOAD" "$(cat /proc/sys/vm/watermark_boost_factor)" 3072 "$TMPD/tfs" > "$TMPD/wl.log" 2>&1 &
	lpid=$!
	measure adverse
	echo "  the workload: $(grep -o 'fragmenting_events=[0-9]*' "$TMPD/wl.log" | tail -n 1) (its own count)"
else
	echo "adverse: needs root and fio (tests/load/thpfioscale-mini.sh); not measured"
fi
rss end
rss_end=$(rss_kb "${pid[fragtop]}")
sleep 3
T send-keys -t fragtop 5
sleep 3	# the map's first look done
measure map "$SECS"
rss map
ratio() {	# PHASE OTHER GOAL-TEXT
	[ -n "${used[$1.$2]:-}" ] && [ -n "${used[$1.fragtop]:-}" ] || { echo "  $1: no $2 figure, no ratio"; return; }
	awk -v f="${used[$1.fragtop]}" -v o="${used[$1.$2]}" -v p="$1" -v n="$2" -v g="$3" \
		'BEGIN { if (o > 0) printf "  %s: fragtop / %s = %.2f (%s)\n", p, n, f / o, g }'
	figure "tui.$1.fragtop_per_$2" "$(awk -v f="${used[$1.fragtop]}" -v o="${used[$1.$2]}" \
		'BEGIN { printf "%.3f", (o > 0) ? f / o : 0 }')" ratio
}
echo "ratios"
ratio idle top "goal <= 1: at most top's idle"
ratio idle htop "for scale"
ratio load htop "goal <= 1: at most htop's under load"
ratio load top "for scale"
ratio adverse htop "goal <= 1: at most htop's under the adverse workload"
awk -v m="${used[map.fragtop]}" -v i="${used[idle.fragtop]}" 'BEGIN {
	printf "  map: fragtop %.3f%% of a core in all, %.3f%% above the overview (goal: at most 2%% in all)\n", m, m - i }'
echo "  RSS: fragtop ${rss_end} kB on the overview after the workload (goal <= 6 MB);" \
	"$(rss_kb "${pid[fragtop]}") kB with the map open (its blocks' table and scan buffers)"
