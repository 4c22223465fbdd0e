#!/bin/bash
# The help at 80x24 (issue 38, item 7): its key column never runs into the
# text, it scrolls (j k PgDn PgUp g G, the map's R is reachable), any
# other key returns, and it explains every column header and mark the
# screens show: the processes and THP headers as drawn, the overview's
# "ep", "ceil", "% boosted", "in blocks", the map's ':', the stalls
# view's per-node "N0 3 46ms", CGROUP's '~'.
# usage: help.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/adverse-6.18.ftr
TMPD=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
export XDG_CONFIG_HOME=$TMPD/config

# all_help: the whole help, page after page, into $TMPD/help.txt (the body rows only)
all_help() {
	local i last=
	: > "$TMPD/help.txt"
	T send-keys -t ft g
	wait_for 'help lines 1-' > /dev/null || return 1
	for i in $(seq 40); do
		screen | sed '1,3d;$d' >> "$TMPD/help.txt"
		info=$(screen | tail -n 1 | grep -oE 'help lines [0-9]+-[0-9]+ of [0-9]+')
		[ "$info" = "$last" ] && break
		last=$info
		[[ "$info" =~ lines\ [0-9]+-([0-9]+)\ of\ ([0-9]+) ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && break
		T send-keys -t ft NPage
		until_ok 2 not_last_line "$info"
	done
}
has() { grep -qF -- "$1" "$TMPD/help.txt"; }
not_on_screen() { ! screen | grep -qE -- "$1"; }
not_last_line() { ! screen | tail -n 1 | grep -qF -- "$1"; }

tmux_start help 80 24 "$FT" --no-config replay "$S"
wait_for 'REPLAY' > /dev/null
T send-keys -t ft 5
wait_for 'per cell' > /dev/null
T send-keys -t ft h
check "h opens the help, scrollable at 80x24: its place on the status line" wait_for 'help lines 1-20 of [0-9]+'
check "the key column never runs into the text (8overview, PgDnmove)" not_on_screen '8overview|PgDnmove|Tab(overview| overview)'
check "... two spaces at least between a key and its meaning" wait_for '^  q F10 {2,}quit'
T send-keys -t ft j
check "j scrolls a line (and stays in help)" wait_for 'help lines 2-21 of'
T send-keys -t ft G
check "G: the last page" wait_for 'help lines [0-9]+-([0-9]+) of \1'
all_help
echo "help: $(wc -l < "$TMPD/help.txt") lines read"
check "the map's keys, R included, reachable by scrolling" grep -qE '^  R +rescan every zone' "$TMPD/help.txt"
for term in ': ' 'ep ' 'ceil ' '% boosted ' 'in blocks ' 'N0 3 46ms ' 'CGROUP ' 'unusable@9 ' \
	'fb/s frag ' 'alloc<-fallback ' 'order 1<-9 ' 'zone runs N ' 'n mean p50' '(action) ' 'pollution ' \
	'THP-backed ' 'src: ' 'REPLAY [###]' 'avail 22.7G of 23.5G ' 'every 1s '; do
	check "the help explains '$term'" has "  $term"
done
T send-keys -t ft x
check "... and CGROUP's '~' (a path cut from the left)" grep -qE "CGROUP .*'~'" "$TMPD/help.txt"
check "any other key returns to the view" wait_for 'per cell'
# every column header as the processes and THP views draw them
T send-keys -t ft 7
replay_seek 50 && wait_for 'CGROUP' > /dev/null
hdr=$(screen | grep -E '^ +PID S COMMAND')
T send-keys -t ft h
wait_for 'help lines 1-' > /dev/null
all_help
missing=
for w in $hdr; do has "  $w " || has " $w " || missing="$missing $w"; done
check "every processes column is explained (${hdr//  / })" test -z "$missing"
[ -n "$missing" ] && echo "missing:$missing"
T send-keys -t ft x
end_tmux; SOCK=

tmux_start help 160 40 "$FT" --no-config
wait_for 'overview' > /dev/null
T send-keys -t ft 8
if wait_for 'SIZE ANON' > /dev/null; then
	hdr=$(screen | grep -E '^ +SIZE ANON' | sed 's/IN USE/IN_USE/')
	T send-keys -t ft h
	wait_for 'help lines 1-|any key returns' > /dev/null
	all_help
	missing=
	for w in $hdr; do w=${w/IN_USE/IN USE}; has "$w" || missing="$missing $w"; done
	check "every THP column is explained ($hdr)" test -z "$missing"
	[ -n "$missing" ] && echo "missing:$missing"
else
	skip "no multi-size THP on this kernel: the THP header is not checked"
fi
echo "help.sh: $fails failure(s)"
[ $fails -eq 0 ]
