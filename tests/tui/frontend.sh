#!/bin/bash
# What a htop user reaches for, through a terminal, on the adverse sample:
# the tab bar, F10 quits, F2 opens the setup, F3 searches and F4 filters
# the processes, a mouse click (an SGR sequence, as xterm sends it) on a
# tab switches the view and on a column header sorts, the wheel scrolls,
# a click on a map cell moves its cursor; fragtoprc keeps the live view's
# view and sort column between runs (written on q or F10, never by a
# replay or when a signal stops the TUI), a garbage or hostile file gives
# a message and the defaults, and --no-config neither reads nor writes it.
# usage: frontend.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=$(realpath tests/recordings/adverse-6.18.ftr)
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
[ -f "$S" ] || { echo "FAIL sample recording $S missing"; exit 1; }
TMPD=$(mktemp -d)
SOCK=
n=0
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
# start [ARGS...]: the replay of the sample, 120x40, xterm's mouse (SGR), HOME in $TMPD
export HOME=$TMPD/home
unset XDG_CONFIG_HOME
RC=$HOME/.config/fragtop/fragtoprc
mkdir -p "$HOME"
start() {
	local cmd="" a
	[ -n "$SOCK" ] && end_tmux
	n=$((n + 1)); SOCK=fragtop-frontend-$$-$n
	for a in "$@"; do cmd+=" $(printf '%q' "$a")"; done
	: > "$TMPD/rc"
	T new-session -d -s ft -x 120 -y 40 \
		"env TERM=xterm-256color $(printf '%q' "$FT") replay $cmd $(printf '%q' "$S") 2> $TMPD/err; echo \$? > $TMPD/rc; sleep 30"
	wait_for 'REPLAY \[' > /dev/null
}
exited() { [ -s "$TMPD/rc" ]; }
# click COLUMN ROW (0-based, as the screen is counted): a left press and release
click() { T send-keys -t ft -l $'\e'"[<0;$(($1 + 1));$(($2 + 1))M"$'\e'"[<0;$(($1 + 1));$(($2 + 1))m"; }
wheel() { T send-keys -t ft -l $'\e'"[<$((64 + ($1 > 0)));10;10M"; }
# the column a word starts at on screen row ROW (0-based)
col_of() { screen | sed -n "$(($2 + 1))p" | awk -v w="$1" '{ i = index($0, w); print i ? i - 1 : -1 }'; }

start
check "the tab bar names the views, with their keys" wait_for '^ 1 overview  2 events  3 stalls  4 controls  5 map  6 history  7 processes'
T send-keys -t ft ' '
wait_for PAUSED > /dev/null

# a click on a tab
x=$(col_of "7 processes" 2)
click "$x" 2
check "a click on the processes tab opens the processes view" wait_for 'PID S COMMAND +FRAG/s'
# the sample is paused at its start; seek to where its processes have fallbacks
replay_seek 60
wait_for 'sorted by' > /dev/null
hy=$(screen | grep -n 'PID S COMMAND' | head -1 | cut -d: -f1); hy=$((hy - 1))
x=$(col_of FALLBK "$hy")
click "$((x + 2))" "$hy"
check "a click on the FALLBK header sorts by it" wait_for 'sorted by FALLBK '
click "$((x + 2))" "$hy"
check "a second click on it inverts the order" wait_for 'sorted by FALLBK \(inverted\)'
x=$(col_of OWN "$hy")
click "$((x + 1))" "$hy"
check "a click on OWN sorts by it" wait_for 'sorted by OWN '

# F3 and F4
comm=$(screen | awk -v y="$hy" 'NR == y + 2 { print $3 }')
answer_prompt F4 "filter by command" "$comm"
check "F4 filters by command" wait_for "matching '$comm'"
answer_prompt F4 "filter by command" ""
check "F4 with nothing typed clears the filter" wait_for '^[0-9]+ processes +sorted by'
answer_prompt F3 "search for a command" "$comm"
check "F3 searches: the view stays whole" wait_for '^[0-9]+ processes +sorted by'
T send-keys -t ft 1
T send-keys -t ft F3
check "F3 where the view has no search: said" wait_for 'F3 search: not in the overview view'

# F2
T send-keys -t ft F2
check "F2 opens the setup" wait_for '^Setup \(F2 or Esc returns\)'
check "the setup names the file it keeps" wait_for "file  $HOME/.config/fragtop/fragtoprc"
T send-keys -t ft F2
check "F2 again goes back" wait_for '^compaction/s'

# the wheel: the overview scrolls its zones
T resize-window -t ft -x 120 -y 16
check "a short terminal: zones to scroll" wait_for 'zones 1-2 of 3'
wheel 1
check "the wheel scrolls down" wait_for 'zones 2-3 of 3'
wheel -1
check "and up" wait_for 'zones 1-2 of 3'
T resize-window -t ft -x 120 -y 40

# a click on a map cell
T send-keys -t ft 5
if wait_for '^cursor 0x' > /dev/null; then
	gy=$(screen | grep -n '^ *0x[0-9a-f]* ' | head -1 | cut -d: -f1)
	before=$(screen | grep '^cursor ')
	click 30 "$((gy - 1 + 1))"
	check "a click on a map cell moves the cursor there" \
		until_ok 5 bash -c '[ "$(tmux -S "$1" capture-pane -p -t ft | grep "^cursor ")" != "$2" ]' _ "$TMPD/$SOCK" "$before"
else
	skip "the sample has no pageblock map: the map click is not checked"
fi

# F10 quits; a replay leaves the live view's settings alone
T send-keys -t ft 7
wait_for 'PID S COMMAND' > /dev/null
T send-keys -t ft F10
check "F10 quits" until_ok 10 exited
check "F10: exit status 0" test "$(cat "$TMPD/rc")" = 0
check "a replay does not write fragtoprc (the live view's settings)" test ! -e "$RC"

# the live TUI writes them when it quits, and not when a signal stops it
start_live() {
	[ -n "$SOCK" ] && end_tmux
	n=$((n + 1)); SOCK=fragtop-frontend-$$-$n
	: > "$TMPD/rc"
	T new-session -d -s ft -x 120 -y 40 \
		"env TERM=xterm-256color $(printf '%q' "$FT") --root tests/fixtures/6.18-idle 2> $TMPD/err; echo \$? > $TMPD/rc; sleep 30"
	wait_for ' 1 overview ' > /dev/null
}
start_live
T send-keys -t ft 7
wait_for 'No tracepoints' > /dev/null
T send-keys -t ft s	# the next sort column
T send-keys -t ft q
check "live: q quits" until_ok 10 exited
check "fragtoprc written on quit: the view" grep -qx 'view=processes' "$RC"
check "... and the sort column" grep -qx 'sort=FRAG' "$RC"
check "fragtoprc is private" test "$(stat -c %a "$RC")" = 600
cp "$RC" "$TMPD/rc.kept"
start_live
check "live: opens on the view it quit on" wait_for 'No tracepoints'
T send-keys -t ft 3
wait_for 'stall|No tracepoints' > /dev/null
kill -TERM "$(pgrep -P "$(T display -p -t ft '#{pane_pid}')" -f "$FT")" 2> /dev/null
check "live: TERM stops it" until_ok 10 exited
check "live killed by a signal: fragtoprc as it was" cmp -s "$RC" "$TMPD/rc.kept"

# a replay reads them: it opens where the live view quit
start
check "a replay opens on the processes view" wait_for 'PID S COMMAND'
check "... sorted as the file says" wait_for 'sorted by FRAG'
T send-keys -t ft 8
wait_for 'thp|THP' > /dev/null
kill -TERM "$(pgrep -P "$(T display -p -t ft '#{pane_pid}')" -f "$FT")" 2> /dev/null
until_ok 10 exited
check "a replay killed on another view: fragtoprc as it was" cmp -s "$RC" "$TMPD/rc.kept"
start
T send-keys -t ft 3
wait_for 'stall' > /dev/null
T send-keys -t ft q
until_ok 10 exited
check "a replay quit on another view: fragtoprc as it was" cmp -s "$RC" "$TMPD/rc.kept"

# --no-config: the file neither read nor written
cp "$RC" "$TMPD/rc.before"
start --no-config
check "--no-config: the overview, not the file's view" wait_for '^compaction/s'
T send-keys -t ft 3
wait_for 'stall' > /dev/null
T send-keys -t ft q
until_ok 10 exited
check "--no-config: the file is as it was" cmp -s "$RC" "$TMPD/rc.before"

# garbage
head -c 3000 /dev/urandom > "$RC"
printf '\nview=processes\nsort=NOPE\ninterval=abc\n\033[31mred\n' >> "$RC"
start
check "a garbage fragtoprc: said in the status line" wait_for 'fragtoprc: line [0-9]+: .* the defaults for them'
check "... the good line still counts" wait_for 'PID S COMMAND'
check "... an unknown sort column: said, the default kept" wait_for 'sorted by FRAG/s'
cp "$RC" "$TMPD/garbage"
T send-keys -t ft q
until_ok 10 exited
start_live
T send-keys -t ft q
until_ok 10 exited
check "a fragtoprc with errors is not written over by the live TUI" cmp -s "$RC" "$TMPD/garbage"
check "... and the exit says so" grep -q 'settings not saved: fragtoprc has errors' "$TMPD/err"
check "no escape from the file reached the terminal" bash -c '! grep -q $'"'"'\033\[31m'"'"' "$1"' _ "$TMPD/err"

# hostile: a FIFO (no hang), a symbolic link (not followed)
rm -f "$RC"; mkfifo "$RC"
start
check "fragtoprc a FIFO: no hang, said" wait_for 'fragtoprc is not a regular file: using the defaults'
T send-keys -t ft q
check "... and it quits" until_ok 10 exited
rm -f "$RC"; echo 'view=map' > "$TMPD/elsewhere"; ln -s "$TMPD/elsewhere" "$RC"
start
check "fragtoprc a symbolic link: not followed, said" wait_for 'fragtoprc: .*using the defaults'
check "... the overview" wait_for '^compaction/s'
T send-keys -t ft q
until_ok 10 exited
check "... and the link's target is untouched" grep -qx 'view=map' "$TMPD/elsewhere"
rm -f "$RC"

# root with another user's HOME (sudo keeping HOME): reads that user's fragtoprc, creates nothing there
if [ "$(id -u)" = 0 ]; then
	ALICE=$TMPD/alice
	sudo_live() {	# the live TUI as root with HOME=$ALICE, quit with q
		[ -n "$SOCK" ] && end_tmux
		n=$((n + 1)); SOCK=fragtop-frontend-$$-$n
		: > "$TMPD/rc"
		T new-session -d -s ft -x 120 -y 40 "env HOME=$(printf '%q' "$ALICE") TERM=xterm-256color \
			$(printf '%q' "$FT") --root tests/fixtures/6.18-idle 2> $TMPD/err; echo \$? > $TMPD/rc; sleep 30"
		wait_for ' 1 overview ' > /dev/null
	}
	listing() { find "$ALICE" -mindepth 1 -printf '%P %u %m\n' | sort; }
	mkdir -p "$ALICE"; chown 65534:65534 "$ALICE"
	sudo_live
	T send-keys -t ft 5 q
	until_ok 10 exited
	check "root, HOME another user's without .config: nothing made there ($(listing | wc -l) entries)" \
		test -z "$(listing)"
	check "... and the exit says why the settings are not kept" \
		grep -q "settings not saved: $ALICE belongs to uid 65534, not to this user (uid 0)" "$TMPD/err"
	mkdir "$ALICE/.config"; chown 65534:65534 "$ALICE/.config"
	sudo_live
	T send-keys -t ft 5 q
	until_ok 10 exited
	check "... with .config: no .config/fragtop made" test "$(listing)" = ".config nobody 755"
	mkdir "$ALICE/.config/fragtop"; echo 'view=map' > "$ALICE/.config/fragtop/fragtoprc"
	chown -R 65534:65534 "$ALICE/.config/fragtop"
	listing > "$TMPD/alice.before"
	sudo_live
	check "... the user's own fragtoprc is read (view=map)" wait_for 'pageblock'
	T send-keys -t ft 1 q
	until_ok 10 exited
	listing > "$TMPD/alice.after"
	check "... and left as it was, nothing beside it" \
		sh -c "grep -qx 'view=map' '$ALICE/.config/fragtop/fragtoprc' && cmp -s '$TMPD/alice.after' '$TMPD/alice.before'"
else
	skip "root with another user's HOME: needs root (to own a directory as another user)"
fi
[ $fails -eq 0 ]
