#!/bin/bash
# Every /proc figure at its extreme, tick by tick (tests/recordings/forged/
# extremes.ftr, `make crafted`: 2^64-1, 0, 2^63-1 and 1 by turns, a second
# apart): the overview and the history show each tick with no "nan", no
# figure spelled out to a wall of digits; seeking to each ends in the
# last tick, alive.
# usage: extremes.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
R=$(realpath tests/recordings/forged/extremes.ftr)
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
TMPD=$(mktemp -d)
export XDG_CONFIG_HOME=$TMPD/config
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap 'end_tmux; rm -rf "$TMPD"' EXIT

spelled_out() { grep -cE 'nan|-?inf[^o]|[0-9]{17,}\.[0-9]|[0-9]{21,}' "$1"; }
tmux_start fragtop-extremes 120 50 "$FT" replay --no-config "$R"
check "replay starts" wait_for 'REPLAY \['
T send-keys -t ft ' '
check "paused" wait_for PAUSED
bad_ticks=
for view in 1 6; do
	T send-keys -t ft "$view"
	for sec in $(seq 0 17); do
		replay_seek "$sec"
		if ! wait_for "at $sec\.0 s \(tick $((sec + 1))\)" > /dev/null; then
			bad_ticks+=" $view/$sec(not reached)"
			continue
		fi
		screen > "$TMPD/s.txt"
		[ "$(spelled_out "$TMPD/s.txt")" = 0 ] || bad_ticks+=" $view/$sec"
	done
done
check "overview and history, every tick (0-17 s): nothing spelled out, no nan${bad_ticks:+ (at$bad_ticks)}" \
	test -z "$bad_ticks"
check "the last tick reached, fragtop alive" wait_for 'at 17\.0 s \(tick 18\)'
[ $fails = 0 ]
