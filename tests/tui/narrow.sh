#!/bin/bash
# Narrow terminals cut no figure: at 60 columns the header gives up the
# kernel release, then the host, before it cuts boost_factor 15000 to
# "15" (live with PAUSED, and replay with its position); at 40x10 the map
# says it needs more room instead of "rows 5-1 of 1".
# usage: narrow.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
command -v perl > /dev/null || { echo "FAIL perl not installed"; exit 1; }
TMPD=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
export XDG_CONFIG_HOME=$TMPD/config
tree=$TMPD/tree
cp -r tests/fixtures/6.18-idle/. "$tree/"
echo 15000 > "$tree/proc/sys/vm/watermark_boost_factor"
truncate -s $(( (0x100000 + 8192 * 512) * 8 )) "$tree/proc/kpageflags" "$tree/proc/kpagecount"
kpf_movable_mixed "$tree/proc/kpageflags"
head1() { screen | head -n 1; }

tmux_start narrow 60 24 "$FT" --no-config --root "$tree" --no-trace
check "60 columns live: boost_factor 15000 whole" wait_for '^fragtop .* boost_factor 15000( |$)'
T send-keys -t ft ' '
check "... and with PAUSED beside it" wait_for '^fragtop .* boost_factor 15000 +PAUSED'
echo "60 columns, live: $(head1)"

tmux_start narrow 60 24 "$FT" --no-config replay tests/recordings/thpfioscale-boost-0-to-15000.ftr
wait_for 'REPLAY|[0-9]+/[0-9]+s' > /dev/null
T send-keys -t ft ' '
replay_seek 90%
check "60 columns replay: boost_factor 15000 whole, the position and PAUSED beside it" \
	wait_for '^fragtop .* boost_factor 15000 .* [0-9]+/[0-9]+s x1 +PAUSED'
echo "60 columns, replay: $(head1)"

tmux_start narrow 40 10 "$FT" --no-config --root "$tree" --no-trace
wait_for '^fragtop|^boost' > /dev/null
T send-keys -t ft 5
check "40x10 map: says the room it needs" wait_for '^map: needs 19x[0-9]+ or more'
check "... and no impossible row range" bash -c "! tmux -S '$TMPD/$SOCK' capture-pane -p -t ft | grep -q 'rows [0-9]*-[0-9]* of'"
echo "narrow.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
