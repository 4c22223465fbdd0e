#!/bin/bash
# make bench: the live TUI's CPU (1 s interval, boost sampler at 50 Hz,
# tracepoints) beside `htop -d 10` (a 1 s refresh), both drawn in tmux at
# 120x40 for the same 30 s, in one run; then the same with fragtop's map
# view open (its scan budget: 2% of a core by default).  Prints CPU seconds
# and the ratios; no threshold.  Needs tmux; htop is optional (apt-get
# install htop).
# usage: tui_cpu.sh FRAGTOP_BINARY [SECONDS]
set -u
FT=$(realpath "${1:-./fragtop}")
SECS=${2:-30}
command -v tmux > /dev/null || { echo "tui_cpu: tmux not installed; skipped"; exit 0; }
TMPD=$(mktemp -d)
T() { tmux -S "$TMPD/sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT

cpu_s() {	# PID: CPU seconds of all its threads, from the scheduler's own count
	# (schedstat's run time in ns; utime/stime are sampled at the tick and
	# misjudge a thread that wakes 50 times a second for microseconds)
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.6f\n", s / 1e9 }'
}
pid_in() {	# SESSION: the program's pid in that pane
	pgrep -P "$(T display -p -t "$1" '#{pane_pid}')" | head -n 1
}

T new-session -d -s ft -x 120 -y 40 "TERM=screen $FT ${FT_ARGS:-}; sleep 1"
have_htop=
if command -v htop > /dev/null; then
	T new-session -d -s ht -x 120 -y 40 "TERM=screen htop -d 10; sleep 1"
	have_htop=1
fi
sleep 3
fp=$(pid_in ft); hp=${have_htop:+$(pid_in ht)}
[ -n "$fp" ] || { echo "tui_cpu: fragtop did not start"; exit 1; }
f0=$(cpu_s "$fp"); [ -n "$hp" ] && h0=$(cpu_s "$hp")
sleep "$SECS"
f1=$(cpu_s "$fp"); [ -n "$hp" ] && h1=$(cpu_s "$hp")
echo
echo "live TUI CPU over ${SECS} s (one run, 120x40 in tmux)"
awk -v a="$f0" -v b="$f1" -v s="$SECS" 'BEGIN { printf "  fragtop (1 s, boost sampler 50 Hz, tracing): %.3f s CPU = %.3f%% of a core\n", b - a, (b - a) * 100 / s }'
if [ -n "$hp" ]; then
	awk -v a="$h0" -v b="$h1" -v s="$SECS" -v fa="$f0" -v fb="$f1" 'BEGIN {
		printf "  htop -d 10 (1 s):                            %.3f s CPU = %.3f%% of a core\n", b - a, (b - a) * 100 / s
		if (b > a) printf "  fragtop / htop: %.2f (goal <= 1)\n", (fb - fa) / (b - a) }'
else
	echo "  htop is not installed (apt-get install htop): no comparison"
fi

# the map view open: its kpageflags scan on top, within --map-cpu (2%)
T send-keys -t ft 5
sleep 3
f0=$(cpu_s "$fp"); [ -n "$hp" ] && h0=$(cpu_s "$hp")
sleep "$SECS"
f1=$(cpu_s "$fp"); [ -n "$hp" ] && h1=$(cpu_s "$hp")
echo "with the map view open, same ${SECS} s"
awk -v a="$f0" -v b="$f1" -v s="$SECS" 'BEGIN { printf "  fragtop, map view (scan budget 2%% of a core): %.3f s CPU = %.3f%% of a core\n", b - a, (b - a) * 100 / s }'
if [ -n "$hp" ]; then
	awk -v a="$h0" -v b="$h1" -v s="$SECS" -v fa="$f0" -v fb="$f1" 'BEGIN {
		printf "  htop -d 10 (1 s):                             %.3f s CPU = %.3f%% of a core\n", b - a, (b - a) * 100 / s
		if (b > a) printf "  fragtop (map) / htop: %.2f\n", (fb - fa) / (b - a) }'
fi
