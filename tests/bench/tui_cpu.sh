#!/bin/bash
# make bench: the live TUI's CPU (1 s interval, the boost sampler's thread
# and its wake-ups, tracepoints: every thread, from the scheduler's own
# count) beside `htop -d 10` and `top -d 1` (a 1 s refresh each), all
# three drawn in tmux at 120x40 over the same seconds, in one run:
#   idle       nothing else running (the sampler reads at its idle rate)
#   load       tests/load/thpthreads (page tables and THP faults in 4
#              threads: fallbacks that claim pageblocks, so the watermark
#              boosts and the sampler runs at its full rate); changes no
#              sysctl
#   map        idle again with fragtop's map view open (its scan budget:
#              2% of a core)
# Prints CPU seconds, % of a core and the ratios against the goals (at
# most top's idle, at most htop's under load, the map within 2%); no
# threshold fails.  Needs tmux; htop and top (procps) are optional.
# usage: tui_cpu.sh FRAGTOP_BINARY [SECONDS]
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
SECS=${2:-30}
top_dir=$(cd "$(dirname "$0")/../.." && pwd)
command -v tmux > /dev/null || { echo "tui_cpu: tmux not installed; skipped"; exit 0; }
TMPD=$(mktemp -d)
lpid=
T() { tmux -S "$TMPD/sock" "$@"; }
trap '[ -n "$lpid" ] && kill "$lpid" 2>/dev/null; end_tmux; rm -rf "$TMPD"' EXIT

cpu_s() {	# PID: CPU seconds of all its threads, from the scheduler's own count
	# (schedstat's run time in ns; utime/stime are sampled at the tick and
	# misjudge a thread that wakes 50 times a second for microseconds)
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.6f\n", s / 1e9 }'
}
pid_in() {	# SESSION: the program's pid in that pane
	pgrep -P "$(T display -p -t "$1" '#{pane_pid}')" | head -n 1
}

names=(fragtop) cmds=("TERM=screen $FT ${FT_ARGS:-}")
command -v htop > /dev/null && { names+=(htop); cmds+=("TERM=screen htop -d 10"); }
command -v top > /dev/null && { names+=(top); cmds+=("TERM=screen top -d 1"); }
declare -A pid
for i in "${!names[@]}"; do
	T new-session -d -s "${names[$i]}" -x 120 -y 40 "${cmds[$i]}; sleep 1"
done
sleep 3
for n in "${names[@]}"; do
	pid[$n]=$(pid_in "$n")
	[ -n "${pid[$n]}" ] || { echo "tui_cpu: $n did not start"; exit 1; }
done

declare -A used
measure() {	# PHASE
	local n a b
	declare -A c0
	for n in "${names[@]}"; do c0[$n]=$(cpu_s "${pid[$n]}"); done
	sleep "$SECS"
	for n in "${names[@]}"; do
		b=$(cpu_s "${pid[$n]}")
		used[$1.$n]=$(awk -v a="${c0[$n]}" -v b="$b" -v s="$SECS" 'BEGIN { printf "%.4f", (b - a) * 100 / s }')
	done
	echo "$1: ${SECS} s, % of a core:$(for n in "${names[@]}"; do printf '  %s %s' "$n" "${used[$1.$n]}"; done)"
}

echo
echo "live TUI CPU (one run, 120x40 in tmux, every thread's scheduler time)"
measure idle
cc -O2 -pthread -o "$TMPD/thpthreads" "$top_dir/tests/load/thpthreads.c" || exit 1
"$TMPD/thpthreads" $((SECS + 5)) 4 > /dev/null & lpid=$!
sleep 2
measure load
wait "$lpid"; lpid=
sleep 3
T send-keys -t fragtop 5
sleep 3
measure map
ratio() {	# PHASE OTHER GOAL-TEXT
	[ -n "${used[$1.$2]:-}" ] || { echo "  $1: $2 not installed, no ratio"; return; }
	awk -v f="${used[$1.fragtop]}" -v o="${used[$1.$2]}" -v p="$1" -v n="$2" -v g="$3" \
		'BEGIN { if (o > 0) printf "  %s: fragtop / %s = %.2f (%s)\n", p, n, f / o, g }'
}
echo "ratios"
ratio idle top "goal <= 1: at most top's idle"
ratio idle htop "for scale"
ratio load htop "goal <= 1: at most htop's under load"
ratio load top "for scale"
awk -v m="${used[map.fragtop]}" -v i="${used[idle.fragtop]}" 'BEGIN {
	printf "  map: fragtop %.3f%% of a core, %.3f%% above the overview (goal: the scan within 2%%)\n", m, m - i }'
