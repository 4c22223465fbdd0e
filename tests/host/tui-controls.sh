#!/bin/bash
# The controls on this kernel, driven through a terminal: the boost keys
# change /proc/sys/vm/watermark_boost_factor, the audit log shows it, u puts
# it back, --restore-on-exit and --read-only do what they say, and a value
# left changed is reported on exit.  A trap restores the kernel's value even
# when the test fails.  Needs root; skipped (passing) otherwise.
# usage: controls.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
BOOST=/proc/sys/vm/watermark_boost_factor
SOCK=
n=0
if [ "$(id -u)" != 0 ] || [ ! -w $BOOST ]; then
	skip_all "needs root and a writable $BOOST"
fi
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
TMPD=$(mktemp -d)
orig=$(cat $BOOST)
T() { tmux -S "$TMPD/$SOCK" "$@"; }
cleanup() {
	[ -n "$SOCK" ] && end_tmux
	if [ "$(cat $BOOST)" != "$orig" ]; then
		echo "$orig" > $BOOST && echo "restored $BOOST to $orig"
	fi
	rm -rf "$TMPD"
}
trap cleanup EXIT

wait_value() {	# the kernel's value, 5 s
	local i
	for i in $(seq 50); do
		[ "$(cat $BOOST)" = "$1" ] && return 0
		sleep 0.1
	done
	echo "$BOOST is $(cat $BOOST), wanted $1"
	return 1
}
wait_exit() {
	local i
	for i in $(seq 50); do [ -s "$TMPD/rc" ] && return 0; sleep 0.1; done
	return 1
}
start() {	# fragtop args...; stderr in $TMPD/err, exit status in $TMPD/rc
	local cmd a
	[ -n "$SOCK" ] && end_tmux
	n=$((n + 1)); SOCK=fragtop-ctl-$$-$n
	cmd=$(printf '%q' "$FT")
	for a in "$@"; do cmd+=" $(printf '%q' "$a")"; done
	: > "$TMPD/rc"
	fresh_config
	T new-session -d -s ft -x 120 -y 40 "$cmd 2> $TMPD/err; echo \$? > $TMPD/rc; sleep 30"
	wait_for '^fragtop '
}

# the first knob write of a session asks once, naming the host; y goes ahead
# The header's " REC n ": wait until n is above what it is now (a tick was
# recorded since), 30 s at most.
rec_ticks() { screen | sed -n '1s/.* REC \([0-9][0-9]*\).*/\1/p'; }
next_tick() {
	local n; n=$(rec_ticks)
	WAIT_TENTHS=300 wait_for ' REC [0-9]+( |$)' > /dev/null || return 1
	until_ok 30 eval '[ "$(rec_ticks)" -gt "${n:-0}" ]' || echo "no tick recorded in 30 s (REC ${n:-?})"
}
yes_first() {
	wait_for "change vm knobs on $(hostname)\? \[y/N\]" > /dev/null || bad "the first write asked nothing"
	T send-keys -t ft y
}

# b lowers by one step of 2500 (to a multiple of it), B raises; from 0, b cannot go lower.
if [ "$orig" -ge 2500 ]; then key=b; want=$(( orig % 2500 ? orig - orig % 2500 : orig - 2500 ))
else key=B; want=2500; fi

start --no-trace
T send-keys -t ft $key
check "the first write asks once, naming the host" wait_for "change vm knobs on $(hostname)\? \[y/N\]"
T send-keys -t ft n
check "n: nothing changed, said" wait_for "nothing changed"
check "... the kernel's value untouched" test "$(cat $BOOST)" = "$orig"
T send-keys -t ft $key
yes_first
check "$key (after y) changes the kernel's value to $want" wait_value $want
check "the status line reports it" wait_for "watermark_boost_factor $orig -> $want"
check "the header shows the new value" wait_for "boost_factor $want( |$)"
WAIT_TENTHS=120 check "5 ticks later the status line says what the boost did" \
	wait_for "5 s after watermark_boost_factor $orig -> $want: .*(boosted [0-9]+%, [0-9]+ ep;|no zone was boosted)"
T send-keys -t ft 4
check "4: controls view lists the knob" wait_for "^\* watermark_boost_factor +$want "
check "the audit log shows the change" wait_for "uid 0 step +ok +watermark_boost_factor $orig -> $want"
T send-keys -t ft u
check "u puts the kernel's value back" wait_value "$orig"
check "the audit log shows the undo" wait_for "undo +ok +watermark_boost_factor $want -> $orig"
T send-keys -t ft u
check "a second u: nothing to undo" wait_for "nothing to undo"
# typed value, refused: nothing changes
T send-keys -t ft e
wait_for 'watermark_boost_factor \(0\.\.' > /dev/null
T send-keys -t ft -l -- -5
T send-keys -t ft Enter
check "e -5: refused with the reason" wait_for "-5 is below the minimum 0; nothing changed"
check "... and the value is unchanged" test "$(cat $BOOST)" = "$orig"
# a drastic action asks first; n cancels and nothing is written
for i in $(seq 12); do T send-keys -t ft j; done
T send-keys -t ft Enter
check "Enter on drop_caches asks for the value" wait_for "^drop_caches \\(1\\.\\.3\\):"
T send-keys -t ft 3 Enter
check "... then asks for confirmation" wait_for "drop_caches=3: .*Sure\? \[y/N\]"
T send-keys -t ft n
check "n cancels" wait_for "cancelled"
check "... and leaves no audit entry" wait_for "audit log \(this session: 3 entries"
T send-keys -t ft q
wait_exit
check "q exits 0" test "$(cat "$TMPD/rc")" = 0
check "nothing left changed, nothing reported" test ! -s "$TMPD/err"

start --no-trace
T send-keys -t ft $key
yes_first
wait_value $want > /dev/null
T send-keys -t ft q
wait_exit
check "a change left in place is reported on exit" \
	grep -q "left changed: watermark_boost_factor $want (was $orig" "$TMPD/err"
check "... and stays (the operator's call)" test "$(cat $BOOST)" = $want
echo "$orig" > $BOOST

start --no-trace --restore-on-exit
T send-keys -t ft $key
yes_first
check "--restore-on-exit: the change happens" wait_value $want
T send-keys -t ft C-c
wait_exit
check "--restore-on-exit: Ctrl-C puts it back" wait_value "$orig"
check "--restore-on-exit: says so" grep -q "restore: watermark_boost_factor $want -> $orig" "$TMPD/err"

start --no-trace --read-only
T send-keys -t ft $key
check "--read-only: the key is refused in the status line" wait_for "not set to $want: fragtop runs --read-only"
check "--read-only: the kernel's value is unchanged" test "$(cat $BOOST)" = "$orig"
T send-keys -t ft q
wait_exit

# -w: the session and its control changes land in a recording
start --no-trace -w "$TMPD/s.ftr"
check "-w: REC in the header" wait_for ' REC [0-9]+( |$)'
next_tick	# a first recorded tick before the change
T send-keys -t ft $key
yes_first
wait_value $want > /dev/null
next_tick
T send-keys -t ft u
wait_value "$orig" > /dev/null
next_tick
T send-keys -t ft q
wait_exit
check "-w: says what it recorded" grep -q "recorded [0-9]* ticks to $TMPD/s.ftr" "$TMPD/err"
"$FT" report --json "$TMPD/s.ftr" > "$TMPD/s.json" 2>/dev/null
check "-w: report lists both changes and three intervals" jqe '(.controls | length) == 2 and
	([.controls[].outcome] == ["ok", "ok"]) and .controls[0].new == "'$want'" and
	(.intervals | length) == 3 and .intervals[1].watermark_boost_factor == '$want'' "$TMPD/s.json"

# w: start and stop a recording from inside the TUI
start --no-trace
T send-keys -t ft w
check "w asks for a file" wait_for '^record to file:'
T send-keys -t ft "$TMPD/w.ftr" Enter
check "w: recording, REC in the header" wait_for ' REC [0-9]+( |$)'
next_tick
T send-keys -t ft $key
yes_first
wait_value $want > /dev/null
next_tick
T send-keys -t ft u
wait_value "$orig" > /dev/null
T send-keys -t ft w
check "w again asks before stopping" wait_for 'stop recording to .*\[y/N\]'
T send-keys -t ft y
check "w: stopped, says what it recorded" wait_for "recorded [0-9]+ ticks to $TMPD/w.ftr"
"$FT" report --json "$TMPD/w.ftr" > "$TMPD/w.json" 2>/dev/null
check "w: the recording holds both changes" jqe '(.controls | length) == 2 and .recording.clean' "$TMPD/w.json"
T send-keys -t ft q
wait_exit

[ $fails -gt 0 ] && [ -s "$TMPD/s.json" ] && jq -c "{controls, iv: [.intervals[] | {from_s, to_s, watermark_boost_factor, after}]}" "$TMPD/s.json"
echo "controls.sh (tui): $fails failure(s)"
[ $fails -eq 0 ]
