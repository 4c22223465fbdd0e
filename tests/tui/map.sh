#!/bin/bash
# The map view on this kernel, through a terminal: every zone gets scanned,
# its classes add up to its block count, the cursor line describes a cell,
# zoom, zone switching, the overlay toggle and a full rescan; without root
# it says why.  Needs root and /proc/kpageflags; skipped (passing) otherwise.
# usage: map.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
WAIT_TENTHS=100
FT=$(realpath "${1:-./fragtop}")
SOCK=
if [ "$(id -u)" != 0 ] || [ ! -r /proc/kpageflags ]; then
	skip_all "needs root and /proc/kpageflags"
fi
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
TMPD=$(mktemp -d)
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
start() { tmux_start fragtop-map 120 40 "$@"; wait_for '^fragtop '; }
# "free 7  movable 0 ... hole 0" adds up to "N blocks of" in the line above
sums_up() {
	local s total sum
	s=$(screen)
	total=$(echo "$s" | sed -nE 's/.* ([0-9]+) blocks of .*/\1/p' | head -1)
	sum=$(echo "$s" | grep -E '^free [0-9]+  movable' | head -1 |
		sed -nE 's/^free ([0-9]+)  movable ([0-9]+)  unmovable ([0-9]+)  mixed ([0-9]+)  hole ([0-9]+).*/\1+\2+\3+\4+\5/p')
	[ -n "$total" ] && [ -n "$sum" ] && [ $((sum)) = "$total" ] && ! echo "$s" | grep -q 'unscanned [0-9]'
}

# a generous budget: the test checks what the scan finds, not how slowly it may go
start "$FT" --no-trace --map-cpu 50
T send-keys -t ft 5
check "5: map view of a zone" wait_for '^N0 [A-Za-z0-9]+ +PFN 0x'
largest=$(awk '/^Node/ { z = $4 } /spanned/ { if ($2 > m) { m = $2; best = z } } END { print best }' /proc/zoneinfo)
check "it opens on the largest zone ($largest)" wait_for "^N[0-9]+ $largest "
check "a line of the map gives the scan's budget (not the status line)" wait_for 'scan 50\.0% CPU; [0-9]+ rescans after fallbacks'
check "legend" wait_for '^\. free  m movable  u unmovable  x mixed'
check "first zone scanned (pass 1)" wait_for 'pass [1-9]'
check "its classes add up to its blocks" sums_up
check "pagetypeinfo's counts beside them" wait_for '^pagetypeinfo: Unmovable [0-9]+'
check "the cursor line describes a cell" wait_for '^cursor (0|0x[0-9a-f]+)-0x[0-9a-f]+: '
check "... with its page composition" wait_for '^pages: free [0-9]+  movable [0-9]+  unmovable [0-9]+  hole [0-9]+'
nz=$(screen | sed -nE 's/.*zone [0-9]+\/([0-9]+) .*/\1/p')
cur=$(screen | sed -nE 's/.*zone ([0-9]+)\/[0-9]+ .*/\1/p')
for i in $(seq 2 "${nz:-1}"); do
	cur=$((cur % nz + 1))
	T send-keys -t ft z
	check "z: zone $cur/$nz shown" wait_for "zone $cur/$nz "
	check "zone $cur scanned" wait_for 'pass [1-9]'
	check "zone $cur: classes add up" sums_up
done
bpc=$(screen | sed -nE 's/.* ([0-9]+) per cell .*/\1/p')
if [ "${bpc:-1}" -gt 1 ]; then
	T send-keys -t ft +
	check "+ zooms in" wait_for " $((bpc / 2)) per cell "
	T send-keys -t ft 0
	check "0 fits the zone again" wait_for " $bpc per cell "
else
	T send-keys -t ft -- -
	check "- zooms out" wait_for " 2 per cell "
	T send-keys -t ft 0
	check "0 fits the zone again" wait_for " 1 per cell "
fi
# a resize refits the zone (issue 38: it kept the old zoom, 20 blank rows), unless zoomed by hand
per() { screen | sed -nE 's/.* ([0-9]+) per cell .*/\1/p'; }
grid_rows() { screen | grep -cE '^ +(0|0x[0-9a-f]+)( |$)'; }
# on the largest zone, which needs several blocks a cell at 80x24
on_largest() { screen | grep -qE "^N[0-9]+ $largest +PFN"; }
zone_no() { screen | sed -nE 's/.* zone ([0-9]+)\/[0-9]+ .*/\1/p'; }
zone_moved() { [ "$(zone_no)" != "$1" ]; }
for i in $(seq "${nz:-1}"); do
	on_largest && break
	was=$(zone_no); T send-keys -t ft z; until_ok 5 zone_moved "$was"
done
z=$(screen | sed -nE 's/^(N[0-9]+ [A-Za-z0-9]+) +PFN.*/\1/p')
blocks=$(screen | sed -nE 's/.* ([0-9]+) blocks of .*/\1/p' | head -1)
T resize-window -t ft -x 80 -y 24
wait_for ' per cell ' > /dev/null
small=$(per)
T resize-window -t ft -x 160 -y 50
refit() { [ "$(per)" != "$small" ] && [ "$(per)" -lt "$small" ]; }
check "160x50: fewer blocks per cell than at 80x24 ($small)" until_ok 10 refit
# as many rows as the zone's blocks take at this width (149 cells a row), or the screen's
fills() {
	local want=$(( (blocks / $(per) + 148) / 149 ))
	[ "$want" -gt 40 ] && want=40
	[ "$(grid_rows)" -ge "$want" ]
}
check "... and the grid takes the rows the zone needs ($z, $blocks blocks)" until_ok 10 fills
zin=$(per)
if [ "${zin:-1}" -gt 1 ]; then
	T send-keys -t ft +
	wait_for " $((zin / 2)) per cell " > /dev/null
	T resize-window -t ft -x 120 -y 40
	check "zoomed by hand (+): a resize keeps the zoom" wait_for " $((zin / 2)) per cell "
	T send-keys -t ft 0
else
	T resize-window -t ft -x 120 -y 40
fi
T send-keys -t ft Right Right Down
check "the cursor moves" wait_for '^cursor 0x[0-9a-f]+-0x'
T send-keys -t ft o
check "o: overlay on, legend shows the marks" wait_for 'fallback \* 10s \+ 1min ~ earlier'
T send-keys -t ft R
check "R: full rescan, timed" wait_for 'full rescan: [0-9]+ ms'
# it froze input for most of a second: now it goes in 20 ms slices, keys and draws between
check "... in several slices, keys read between (it froze input for 0.9 s)" \
	wait_for 'full rescan: [0-9]+ ms in ([2-9]|[1-9][0-9]+) slices \(keys read between\)'
T send-keys -t ft R o
check "a key pressed during R is taken at once (o: the overlay off)" wait_for 'o: fallbacks  G: regions$'
check "... and R goes on to its end" wait_for 'full rescan: [0-9]+ ms in'
# beyond the block: the zone's amplification and its gigantic regions, as snapshot --map counts them
# (~: of the blocks read so far; this VM's lazily initialised memory can leave
# part of a zone unread whatever the scan did)
check "the scan line gives the amplification" wait_for '^amplification (~?[0-9]+\.[0-9]{2}|-)  '
kb=$(ls -d /sys/kernel/mm/hugepages/hugepages-*kB 2> /dev/null | sed -E 's/.*-([0-9]+)kB/\1/' | sort -n | tail -1)
if [ "${kb:-0}" -gt 2048 ]; then
	check "... and the zone's gigantic regions" \
		wait_for '^amplification .* regions [0-9]+: [0-9]+ now, [0-9]+ after compaction, [0-9]+ tainted'
	T send-keys -t ft G
	check "G: the cells coloured by their region, the legend says how" \
		wait_for '^G regions: cyan free  green movable  red tainted'
	T send-keys -t ft G
	check "G again: the classes' legend back" wait_for '^\. free  m movable'
else
	skip "gigantic regions: no hugetlb size above 2 MiB here"
fi
T send-keys -t ft 1
check "the overview's zone line gives the amplification once the map has read the zone" \
	wait_for '^N0 [A-Za-z0-9]+ +free .* amp ~?[0-9]+\.[0-9]{2}$'
T send-keys -t ft q

if command -v setpriv > /dev/null; then
	nr=$(mktemp -d); chmod 755 "$nr"; cp "$FT" "$nr/fragtop"
	start setpriv --reuid=65534 --regid=65534 --clear-groups "$nr/fragtop" --no-trace
	T send-keys -t ft 5
	check "non-root: the map view says kpageflags needs root" wait_for 'kpageflags: needs root'
	T send-keys -t ft q
	rm -rf "$nr"
fi

echo "map.sh: $fails failure(s)"
[ $fails -eq 0 ]
