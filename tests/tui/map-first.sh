#!/bin/bash
# The map's first screen comes from samples, not from a whole pass: on a
# synthetic 1 TiB zone (a sparse /proc/kpageflags of 268M PFNs under a
# fixture tree) and, as root, on this host's largest zone, the grid shows
# no '?' while most of the zone has not been read whole yet, the dim
# cells say what they are built from, and later the whole pass replaces
# them.  The time to the first full screen is printed (not asserted: the
# test must pass on a loaded machine; what it asserts is the order).
# usage: map-first.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
WAIT_TENTHS=${WAIT_TENTHS:-100}
DEADLINE=60	# seconds for the first screen: a deadline, not a target
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")/.." && pwd)
SOCK=
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
command -v perl >/dev/null || { echo "FAIL perl not installed"; exit 1; }
TMPD=$(mktemp -d)
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
start() { tmux_start fragtop-mapfirst 120 40 "$@"; wait_for '^fragtop ' > /dev/null; }
# The grid's rows: "  0x100000  ..." (a hex PFN label, then the cells).
grid() { screen | sed -nE 's/^ *0x[0-9a-f]+  (.*)$/\1/p'; }
# A full first screen: grid rows shown, none with a '?', and the zone
# line still counting blocks not read whole (so the cells came from samples).
first_screen() {
	local s g
	s=$(screen); g=$(grid)
	[ -n "$g" ] && ! printf '%s\n' "$g" | grep -q '?' &&
		printf '%s\n' "$s" | grep -qE 'unscanned [0-9]+ \([0-9]+ sampled\)'
}
# how much of the zone was read whole, in per cent, from the counts line
whole_pct() {
	screen | awk '/unscanned [0-9]+ \([0-9]+ sampled\)/ {
		for (i = 1; i <= NF; i++) if ($i == "unscanned") u = $(i + 1)
	} /blocks of/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "blocks") b = $i }
	END { if (b) printf "%d\n", (b - u) * 100 / b; else print 100 }'
}
# open the map view and time its first full screen
map_first() {
	local what=$1 t0 t1 pct
	T send-keys -t ft 5
	t0=$(date +%s%N)
	if check "$what: a first screen with no '?' cell" until_ok "$DEADLINE" first_screen; then
		t1=$(date +%s%N)
		pct=$(whole_pct)
		echo "     $what: first full screen $(( (t1 - t0) / 1000000 )) ms after the key, $pct% of the zone read whole"
		check "$what: most of the zone not read whole yet ($pct%)" test "$pct" -lt 50
	else
		screen
	fi
	check "$what: the legend says dim cells are sampled" wait_for 'dim: sampled'
	check "$what: the cursor line says what its cell is built from" \
		wait_for '^cursor .*\(([0-9]+) of [0-9]+ read whole(, sampled [a-z]+ [0-9]+)+\)'
}

# A 1 TiB Normal zone (tests/lib.sh tib_tree)
tree=$TMPD/tree
mkdir -p "$tree"
tib_tree "$tree"
start "$FT" --root "$tree" --no-trace
map_first "1 TiB tree"
check "1 TiB tree: the zone line gives the size" wait_for '268435456|0x100fffffff|524288 blocks'
# the first 16 GiB are movable with a mixed block in every 64: the top rows say so
check "1 TiB tree: its written start shows movable and mixed cells" wait_for '^ +0x100000  [mMxX]'

if [ "$(id -u)" = 0 ] && [ -r /proc/kpageflags ]; then
	start "$FT" --no-trace
	map_first "this host"
	# the whole pass comes after; a generous budget makes it come soon
	start "$FT" --no-trace --map-cpu 50
	T send-keys -t ft 5
	check "this host: later a whole pass replaces the samples" wait_for 'pass [1-9]'
else
	skip "this host's map: needs root and /proc/kpageflags"
fi
echo "map-first.sh: $fails failure(s)"
[ $fails -eq 0 ]
