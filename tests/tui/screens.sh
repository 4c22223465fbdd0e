#!/bin/bash
# Issue 38, item 10, in replay of the shipped sample: P sorts by FRAG/s
# the largest first, never "(inverted)"; F3 offers its last text and F3
# Enter finds the next match; the history view's cursor stays on its
# tick while new ticks come in, and [ moves it on a history shorter than
# the screen; the controls view lists the recording's changes up to the
# position (3 at 71 s, 2 of them outside, as report says) and says "not
# recorded" for a knob the recording never read; after a seek, FRAG/s is
# there at once.  (The events view's age column is ft_age_format's, held by
# tests/unit/test_clock.c.)
# usage: screens.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/adverse-6.18.ftr
TMPD=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
export XDG_CONFIG_HOME=$TMPD/config
# the row drawn in reverse video (F3's mark), its command
marked() { T capture-pane -p -e -t ft | grep -E $'^\e\\[[0-9;]*7m +[0-9]+ ' | awk '{ print $4 }' | head -1; }
marked_pid() { T capture-pane -p -e -t ft | grep -E $'^\e\\[[0-9;]*7m +[0-9]+ ' | sed $'s/\e\\[[0-9;]*m//g' | awk '{ print $1 }' | head -1; }
marked_is() { [ "$(marked)" = "$1" ]; }	# for until_ok, which expands its arguments once
pid_changed() { [ -n "$(marked_pid)" ] && [ "$(marked_pid)" != "$1" ]; }

tmux_start screens 120 40 "$FT" --no-config replay "$S"
wait_for 'REPLAY' > /dev/null
T send-keys -t ft 7
replay_seek 50
wait_for 'CGROUP' > /dev/null
T send-keys -t ft space
T send-keys -t ft I
check "I inverts the order" wait_for 'sorted by FRAG/s \(inverted\)'
T send-keys -t ft P
check "P: by FRAG/s, not inverted" wait_for 'sorted by FRAG/s +fragmenting'
answer_prompt F3 'search for a command' fio
check "F3 fio: a fio row marked" until_ok 30 marked_is fio
p1=$(marked_pid)
T send-keys -t ft F3
check "F3 again offers the last text" wait_for 'search \(Enter: the next match; empty: none\): fio$'
T send-keys -t ft Enter
check "... Enter on it: the next fio row ($p1, then another)" until_ok 30 pid_changed "$p1"
check "... still a fio" test "$(marked)" = fio

# the controls view in replay: the recording's changes up to the position, as report lists them
T send-keys -t ft 4
replay_seek 71
check "controls in replay at 71 s: the recording's 3 changes, 2 outside (as report)" \
	wait_for '^control changes in the recording up to here: 3 \(2 outside this fragtop\), newest first'
check "... newest first: +63.0s outside, +28.8s step ok, +10.0s outside" bash -c "$(declare -f T screen); TMPD='$TMPD' SOCK='$SOCK'
	screen | grep -A3 '^control changes in the recording' | tail -n 3 | awk '{ print \$1, \$2 }' | tr '\n' ' ' | grep -qx '+63.0s outside +28.8s step +10.0s outside '"
check "... the step with its values" wait_for '^ +\+28\.8s +step +ok +watermark_boost_factor 0 -> 2500'
replay_seek 20
check "at 20 s: only the first" wait_for '^control changes in the recording up to here: 1 \(1 outside'
check "a knob the recording never read: 'not recorded', not an errno" wait_for '^  thp_1024kB +not recorded'

# after a seek the processes view has its rates at once (it showed "-" until the next step)
T send-keys -t ft 7
replay_seek 18
check "a seek to 18 s: FRAG/s at once (fio 6759/s), not '-'" wait_for '^ +13410 x fio +6759 +6823 '
T send-keys -t ft ,
check "... and after a step back (17 s: 58/s)" wait_for '^ +13410 +fio +58 +67 '

# the history view: the cursor stays on its tick while the replay runs on
T send-keys -t ft 6 space
wait_for '^newest' > /dev/null
T send-keys -t ft Left Left Left
wait_for '^cursor ' > /dev/null
c1=$(screen | grep -oE '^cursor \+[0-9.]+ s')
t1=$(screen | grep -oE 'REPLAY \[[#-]+\] [0-9]+' | grep -oE '[0-9]+$')
reached() { [ "$(screen | grep -oE 'REPLAY \[[#-]+\] [0-9]+' | grep -oE '[0-9]+$')" -ge "$1" ]; }
check "the replay runs on 3 s (from ${t1}s)" until_ok 15 reached $((t1 + 3))
check "... the cursor is on the same tick ($c1)" wait_for "^${c1//+/\\+}"
end_tmux; SOCK=

# a history shorter than the screen: [ moves the cursor back half a screen
tmux_start screens 160 50 "$FT" --no-config replay "$S"
wait_for 'REPLAY' > /dev/null
T send-keys -t ft 6
replay_seek 8
T send-keys -t ft space
wait_for '^newest' > /dev/null
T send-keys -t ft '['
check "[ on a short history: the cursor goes to the oldest tick kept" wait_for '^cursor \+[0-9]\.[0-9] s'
end_tmux; SOCK=

# kernel stacks (K): a cut stack says so, and Enter opens the selected one whole
tmux_start screens 100 40 "$FT" --no-config replay tests/recordings/stacks-6.18.ftr
wait_for 'REPLAY' > /dev/null
T send-keys -t ft 2
replay_seek 100
T send-keys -t ft space
check "the stacks table (a recording made with --stacks)" wait_for '^ fragment +share +kernel stack'
check "a stack longer than the row ends in '...'" wait_for '^ +[0-9]+ +[0-9.]+%  allocate_slab < .*\.\.\.$'
T send-keys -t ft j Enter
check "j Enter: the second stack opened, a caller a line" wait_for '^ {20}< alloc_slab_obj_exts$'
check "... its site on its first line" wait_for '^ +[0-9]+ +[0-9.]+%  allocate_slab$'
T send-keys -t ft Enter
closed() { ! screen | grep -qE '^ {20}< '; }
check "Enter again closes it" until_ok 5 closed
echo "screens.sh: $fails failure(s)"
[ $fails -eq 0 ]
