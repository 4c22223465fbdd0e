#!/bin/bash
# Drives the real binary in a private tmux server against a fixture root
# and checks the screen: the overview dump (tig-style, compared with
# overview-6.1.screen; UPDATE=1 rewrites it), scrolling, help, the interval
# prompt, resize, NO_COLOR, and that q, Ctrl-C and SIGTERM all restore the
# terminal.
# usage: overview.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
ROOT=tests/fixtures/6.1-2node-movable
EXPECT=tests/tui/overview-6.1.screen
SOCK=
n=0
TMPD=$(mktemp -d)
# a private server on a socket in our own temp dir (removed at exit)
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$CONF" "$RC" "$TMPD"' EXIT
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }

dead() { [ "$(T display -p -t ft '#{pane_dead}')" = 1 ]; }
wait_dead() {
	local i
	for i in $(seq 50); do dead && return 0; sleep 0.1; done
	return 1
}
CONF=$(mktemp)
echo "set -g remain-on-exit on" > "$CONF"
RC=$(mktemp)
# Run "env ARGS..." in a fresh private server; its exit status lands in $RC
# (tmux's own pane_dead_status is racy).
start() {
	local cmd=env a
	[ -n "$SOCK" ] && end_tmux
	n=$((n + 1)); SOCK=fragtop-test-$$-$n
	for a in "$@"; do cmd+=" $(printf '%q' "$a")"; done
	: > "$RC"
	fresh_config
	T -f "$CONF" new-session -d -s ft -x 80 -y 24 "$cmd; echo \$? > $RC"
}
rc() { cat "$RC"; }

start TERM=screen "$FT" --root "$ROOT"
check "overview appears" wait_for '^N0 DMA '
sleep 1.2	# second tick: rates are computed (zero on a fixture)
# the dump in the test's own directory: the ASan run of this test runs beside it
screen | sed -E 's/pagetypeinfo [0-9]+s ago/pagetypeinfo Ns ago/' > "$TMPD/screen.got"
if [ "${UPDATE:-}" = 1 ]; then cp "$TMPD/screen.got" "$EXPECT"; fi
if diff -u "$EXPECT" "$TMPD/screen.got"; then ok "80x24 screen dump"; else bad "80x24 screen dump"; fi
check "header: kernel, interval, boost factor" wait_for '6\.1\.0-57-amd64  every 1s  boost_factor 15000'
check "watermark gauge with boost" wait_for 'wmark \[.*m.*l.*h.*\].*boost 0'
check "scroll hint" wait_for 'zones 1-4 of 5'
T send-keys -t ft j j j
check "j scrolls to node 1 Movable" wait_for '^N1 Movable'
check "scroll position" wait_for 'zones 4-5 of 5'
T send-keys -t ft g
check "g back to the top" wait_for '^N0 DMA '
T send-keys -t ft h
check "help lists keys" wait_for 'Keys'
check "help: quit (q, F10)" wait_for '^  q F10 +quit'
check "help: pause" wait_for 'space +pause'
check "help: interval" wait_for '^  d +set the sampling interval'
T send-keys -t ft x
check "any key leaves help" wait_for '^N0 DMA '
T send-keys -t ft 2
check "2: events view says why there is no trace" wait_for "No tracepoints"
check "2: ... because --root is not this host" wait_for "--root is not this host's kernel"
T send-keys -t ft 3
check "3: stalls view says so too" wait_for "No tracepoints: --root"
T send-keys -t ft Tab
check "Tab: controls view" wait_for '^  watermark_boost_factor +15000 +15000'
check "controls under --root are read-only, and say why" wait_for '^read-only: --root'
T send-keys -t ft b
check "b under --root: refused, said in the status line" wait_for 'not set to 12500: --root'
check "... and the fixture is untouched" test "$(cat $ROOT/proc/sys/vm/watermark_boost_factor)" = 15000
T send-keys -t ft Tab
check "Tab: map view; a tree without kpageflags says so" wait_for 'kpageflags: absent'
T send-keys -t ft Tab
check "Tab: history view, the time axis" wait_for '^time '
check "history view: zones charted, scrollable" wait_for 'zones 1-2 of 5 \(j/k\)'
T send-keys -t ft Tab
check "Tab: process view; a tree without tracepoints says so" wait_for 'No tracepoints: --root'
T send-keys -t ft Tab
check "Tab: thp view; a 6.1 tree without multi-size THP says so" wait_for 'No multi-size THP here'
T send-keys -t ft Tab
check "Tab: cgroups view; a tree without a memory cgroup hierarchy says so" \
	wait_for '^0 cgroups \(no memory cgroup hierarchy\)'
T send-keys -t ft Tab
check "Tab: findings view, judged over the window" wait_for 'finding.? over [0-9]+-[0-9]+ s'
T send-keys -t ft Tab
check "Tab cycles back to the overview" wait_for '^N0 DMA '
T send-keys -t ft ' '
check "space pauses" wait_for 'PAUSED'
T send-keys -t ft ' '
check "space resumes" wait_for 'resumed'
T send-keys -t ft d 2 Enter
check "d sets the interval" wait_for 'every 2s'
T send-keys -t ft d a b c Enter
check "d refuses junk" wait_for "'abc' is not an interval"
check "and keeps the interval" wait_for 'every 2s'
T resize-window -t ft -x 120 -y 40
check "resize: everything fits" wait_for '^N1 Movable'
screen | grep -q 'zones .* of 5' && bad "resize: no scroll hint left" || ok "resize: no scroll hint left"
T resize-window -t ft -x 80 -y 24
check "resize back" wait_for 'zones 1-4 of 5'
T send-keys -t ft q
check "q quits" wait_dead
check "q: exit status 0 (got '$(rc)')" test "$(rc)" = 0
check "q: terminal restored" test "$(T display -p -t ft '#{alternate_on}')" = 0

start TERM=screen "$FT" --root "$ROOT"
wait_for '^N0 DMA ' >/dev/null
T send-keys -t ft C-c
check "Ctrl-C quits" wait_dead
check "Ctrl-C: exit status 130 (got '$(rc)')" test "$(rc)" = 130
check "Ctrl-C: terminal restored" test "$(T display -p -t ft '#{alternate_on}')" = 0

start TERM=screen "$FT" --root "$ROOT"
wait_for '^N0 DMA ' >/dev/null
kill -TERM "$(pgrep -P "$(T display -p -t ft '#{pane_pid}')")"
check "SIGTERM quits" wait_dead
check "SIGTERM: exit status 143 (got '$(rc)')" test "$(rc)" = 143
check "SIGTERM: terminal restored" test "$(T display -p -t ft '#{alternate_on}')" = 0

start TERM=screen-256color "$FT" --root "$ROOT"
wait_for '^N0 DMA ' >/dev/null
check "colour by default" bash -c "tmux -S $TMPD/$SOCK capture-pane -e -p -t ft | grep -qE $'\e\\[(3[0-7]|38;)'"
# the setup view's colour row turns them off and on again (curses keeps whether they are on)
coloured() { tmux -S "$TMPD/$SOCK" capture-pane -e -p -t ft | grep -qE $'\e\\[(3[0-7]|38;)'; }
monochrome() { ! coloured; }
T send-keys -t ft F2
wait_for 'colour scheme' > /dev/null
T send-keys -t ft j Enter
check "the setup turns colour off" wait_for 'colour scheme: monochrome'
T send-keys -t ft 1
wait_for '^N0 DMA ' > /dev/null
check "monochrome: no colour on the overview" until_ok 10 monochrome
T send-keys -t ft F2
wait_for 'colour scheme' > /dev/null
T send-keys -t ft Enter
check "the setup turns colour on again" wait_for 'colour scheme: default'
T send-keys -t ft 1
check "colour again on the overview" until_ok 10 coloured
start TERM=screen-256color NO_COLOR=1 "$FT" --root "$ROOT"
wait_for '^N0 DMA ' >/dev/null
check "NO_COLOR: no colour" bash -c "! tmux -S $TMPD/$SOCK capture-pane -e -p -t ft | grep -qE $'\e\\[(3[0-7]|38;)'"

# the host's memory pressure: a line of its own when the kernel has PSI (the
# 6.1 fixture has none, so the screen dump above has no such line)
PSI=$TMPD/psi-root
cp -r "$ROOT" "$PSI"
mkdir -p "$PSI/proc/pressure"
printf 'some avg10=1.50 avg60=0.40 avg300=0.10 total=1000000\nfull avg10=0.25 avg60=0.00 avg300=0.00 total=200000\n' \
	> "$PSI/proc/pressure/memory"
start TERM=screen "$FT" --root "$PSI"
check "pressure: the line, with /proc/pressure/memory's avg10s" wait_for '^pressure +some10 +1\.50% +full10 +0\.25% '
check "pressure: nothing stalled between reads: 0 ms/s" wait_for 'some ms/s +0 +full ms/s +0'
# 5 s more of some and 1 s more of full between two reads: some ms/s is no longer 0
printf 'some avg10=9.00 avg60=1.00 avg300=0.20 total=6000000\nfull avg10=2.00 avg60=0.00 avg300=0.00 total=1200000\n' \
	> "$PSI/proc/pressure/memory"
check "pressure: stalled time a second from the totals" wait_for 'some10 +9\.00% +full10 +2\.00% +some ms/s +[1-9]'
T send-keys -t ft q
check "pressure: q exits" wait_dead

# not root, on this host: says why pagetypeinfo is missing and shows the rest
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ -r /proc/zoneinfo ]; then
	# a copy nobody can reach, wherever the checkout lives
	nr=$(mktemp -d); chmod 755 "$nr"; cp "$FT" "$nr/fragtop"
	start TERM=screen setpriv --reuid=65534 --regid=65534 --clear-groups "$nr/fragtop"
	check "non-root: overview from buddyinfo/zoneinfo" wait_for '^N[0-9]+ (DMA32|Normal) '
	check "non-root: header says pagetypeinfo needs root" wait_for 'pagetypeinfo: needs root'
	check "non-root: blocks line says why" wait_for 'n/a: /proc/pagetypeinfo needs root'
	check "non-root: status line says so" wait_for '^(/proc/pagetypeinfo needs root: no pageblock or migratetype data|no tracepoints: tracing needs root)'
	check "non-root: header says tracing needs root" wait_for 'trace: needs root'
	# the events and stalls views: what /proc/vmstat counts, and what root would add
	T send-keys -t ft 2
	check "non-root events view: vmstat's rates" wait_for '^  direct compactions \(compact_stall\) +[0-9.-]+'
	check "... THP fallbacks and reclaim stalls too" wait_for '^  direct reclaim stalls \(allocstall_\*\) +[0-9.-]+'
	check "... and what root would add" wait_for '^\(mm_page_alloc_extfrag\) with its zone'
	T send-keys -t ft 3
	check "non-root stalls view: vmstat's stall rates" wait_for '^  direct compaction stalls \(compact_stall\) +[0-9.-]+'
	check "... the compaction cost from vmstat" wait_for '^compaction cost +start'
	check "... and what root would add" wait_for 'long each stall took'
	T send-keys -t ft q
	check "non-root: q quits cleanly" wait_dead
	rm -rf "$nr"
fi

# live with tracepoints: the private instance exists while fragtop runs and
# is gone after q, Ctrl-C and SIGTERM; one left by kill -9 is removed by the
# next fragtop
INST=/sys/kernel/tracing/instances
if [ "$(id -u)" = 0 ] && [ -d $INST ]; then
	# fragtop-<pid>-<pid namespace>-<start time>
	inst_of() { ls -d "$INST/fragtop-$(pgrep -P "$(T display -p -t ft '#{pane_pid}')")"-* 2>/dev/null | head -n 1; }
	for how in q C-c TERM KILL; do
		start TERM=screen "$FT"
		check "live ($how): tracing" wait_for 'vmstat  trace'
		if [ $how = q ]; then
			T send-keys -t ft 2
			check "live: events view lists the kinds" wait_for '^fallbacks \(extfrag\) '
			check "live: absent stall event said so" wait_for '^fragmentation stalls +absent on this kernel'
			T send-keys -t ft 3
			check "live: stalls view" wait_for '^direct compaction \(begin->end\)'
			T send-keys -t ft 1
		fi
		dir=$(inst_of)
		check "live ($how): instance $dir exists" test -d "$dir"
		case $how in
		TERM|KILL) kill -$how "$(pgrep -P "$(T display -p -t ft '#{pane_pid}')")";;
		*) T send-keys -t ft "$how";;
		esac
		check "live ($how): exits" wait_dead
		if [ $how = KILL ]; then
			check "live (KILL): instance left behind" test -d "$dir"
			start TERM=screen "$FT"
			# tests run side by side: another test's fragtop may remove it first
			said_or_gone() { WAIT_TENTHS=30 wait_for 'removed 1 tracefs instance' > /dev/null || ! test -d "$dir"; }
			check "next start removes the stale instance (says so, unless another fragtop did)" said_or_gone
			check "stale instance gone" test ! -d "$dir"
			T send-keys -t ft q
			wait_dead
		else
			check "live ($how): instance removed" test ! -d "$dir"
		fi
	done
fi

[ $fails = 0 ]
