#!/bin/bash
# The cgroups view (9) on a planted cgroup v2 tree with kubepods: each
# pod by its namespace/name, with its tasks, anonymous memory, THP
# coverage and pressure as the planted files say; sorted by a column
# (s, a click on its header); the overview reads no cgroup, the view
# does (the cost account); and the same rows replayed from a recording
# made with `record --cgroups`, and those of the lab's 6.12 cgroup v2
# kernel (tests/recordings/lab-6.12-cgroups.ftr, by lab/cgroups.sh).  The
# traced columns are checked on this host by tests/host/cgroups.sh.
# usage: cgroups.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v tmux > /dev/null || skip_all "cgroups view: needs tmux"
command -v jq > /dev/null || skip_all "cgroups view: needs jq"
TMPD=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
UID1=0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0	# default/web-7f9c
ROOT=$TMPD/v2
mkdir -p "$ROOT" && cp -r tests/fixtures/6.18-idle/. "$ROOT/"
mkdir -p "$ROOT/var/log/pods/default_web-7f9c_$UID1/web"
C=$ROOT/sys/fs/cgroup
mkdir -p "$C"; echo "cpu io memory pids" > "$C/cgroup.controllers"
cg() {	# DIR ANON ANON_THP PROCS [PRESSURE]: a v2 cgroup
	mkdir -p "$1"
	printf 'anon %s\nfile 4096\nanon_thp %s\nfile_thp 0\nshmem_thp 0\n' "$2" "$3" > "$1/memory.stat"
	seq 100 $((99 + $4)) > "$1/cgroup.procs"
	[ -z "${5:-}" ] || printf '%s\n' "$5" > "$1/memory.pressure"
}
cg "$C/kubepods.slice" 3221225472 1073741824 1
cg "$C/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${UID1//-/_}.slice" 2147483648 1610612736 3 \
	'some avg10=4.00 avg60=2.00 avg300=1.00 total=999
full avg10=1.00 avg60=0.50 avg300=0.25 total=111'
cg "$C/system.slice/sshd.service" 5242880 0 2
cg "$C/system.slice/idle.service" 4096 0 0	# memory, no task: no row

cost_cgroups() {	# the cost account's cgroups files opened so far, from the cost log
	tail -n 1 "$TMPD/cost.jsonl" 2> /dev/null | jq -r '[.cost.by_source[] | select(.source == "cgroups") | .files_opened] | add // 0'
}
tmux_start cgroups 120 30 env XDG_CONFIG_HOME="$TMPD/xdg" "$FT" --no-config --root "$ROOT" --cost-log "$TMPD/cost.jsonl"
check "the overview" wait_for '^N0 DMA '
until_ok 10 test -s "$TMPD/cost.jsonl"
check "the overview opens no cgroup file (cost account: $(cost_cgroups))" test "$(cost_cgroups)" = 0
T send-keys -t ft 9
check "9: the cgroups view, on cgroup v2" wait_for '^[0-9]+ cgroups \(cgroup v2\)'
check "the tab bar has it" wait_for ' 9 cgroups( |$)'
row() { screen | grep -E -- "$1" | head -n 1; }
pod_row() { row ' default/web-7f9c$'; }
check "the pod, by its namespace/name" wait_for ' default/web-7f9c$'
# FRAG CMP_MS RCL_MS ANON THP% PSI10 TASKS: no tracing under --root, so 0 0 0
read -r f cm rm anon thp psi tasks _ <<< "$(pod_row)"
check "its traced columns 0 (no tracing under --root): $f $cm $rm" test "$f $cm $rm" = "0 0 0"
check "its anonymous memory, 2 GiB as planted: $anon" test "$anon" = 2.00G
check "its THP coverage, anon_thp / anon = 75%: $thp" test "$thp" = 75.0
check "its pressure, some avg10 as planted: $psi" test "$psi" = 4.00
check "its tasks, cgroup.procs' 3 lines: $tasks" test "$tasks" = 3
check "a systemd unit by its name, 2 tasks, no pressure file ('-')" \
	sh -c "[ \"\$(echo '$(row ' sshd.service$')' | awk '{ print \$6, \$7 }')\" = '- 2' ]"
check "a cgroup with memory and no task has no row" wait_gone 'idle\.service'
check "the traced columns say why they are 0" wait_for '^no tracepoints: '
read_some() { [ "$(cost_cgroups)" -gt 5 ]; }
check "the cost account: the view reads the cgroups" until_ok 10 read_some
echo "cgroups files opened so far: $(cost_cgroups)"

# sorting: s to ANON; the largest anonymous memory first (kubepods.slice, 3 GiB)
for i in 1 2 3; do T send-keys -t ft s; done
check "s s s: sorted by ANON" wait_for 'sorted by ANON '
first() { screen | sed -n '/CGROUP$/{n;p;q}'; }
check "the largest first: kubepods" sh -c "echo '$(first)' | grep -qE ' kubepods$'"
T send-keys -t ft I
check "I: inverted" wait_for 'sorted by ANON \(inverted\)'
T send-keys -t ft I
check "I again: not inverted" wait_for 'sorted by ANON   '
hy=$(screen | grep -n 'CGROUP$' | head -1 | cut -d: -f1)
x=$(screen | sed -n "${hy}p" | awk '{ print index($0, "TASKS") }')
T send-keys -t ft -l $'\e'"[<0;$((x + 1));${hy}M"$'\e'"[<0;$((x + 1));${hy}m"
check "a click on TASKS sorts by it" wait_for 'sorted by TASKS '
check "... the most tasks first: the pod (3)" sh -c "echo '$(first)' | grep -qE ' default/web-7f9c$'"
T send-keys -t ft h
wait_for '^Keys' > /dev/null
T send-keys -t ft NPage
check "help explains THP%" wait_for 'THP% +huge-page coverage'
T send-keys -t ft q q
until_ok 10 sh -c "! pgrep -f -- '--cost-log $TMPD/cost.jsonl' > /dev/null"

# recorded with --cgroups, replayed: the same rows
"$FT" record --no-trace --cgroups --root "$ROOT" -i 0.2 -t 1 -o "$TMPD/cg.ftr" 2> "$TMPD/rec.err"
check "record --cgroups: exit 0" test $? = 0
tmux_start cgroups 120 30 env XDG_CONFIG_HOME="$TMPD/xdg" "$FT" --no-config replay "$TMPD/cg.ftr"
check "replay" wait_for 'REPLAY \['
T send-keys -t ft ' '
T send-keys -t ft 9
check "replayed: the pod's row, as live" wait_for ' 2\.00G +75\.0 +4\.00 +3 .* default/web-7f9c$'
# a real cgroup v2 kernel's: the lab's 6.12 (lab/cgroups.sh), 25 s in, while
# its two workload cgroups hold their memory (the guest's memory.stat then:
# /thp anon 134275072, anon_thp 134217728: 99.957%; /frag 333500416)
tmux_start cgroups 120 30 env XDG_CONFIG_HOME="$TMPD/xdg" "$FT" --no-config replay tests/recordings/lab-6.12-cgroups.ftr
check "the lab's 6.12 recording" wait_for 'REPLAY \['
T send-keys -t ft ' '
replay_seek 25
T send-keys -t ft 9
check "6.12: cgroup v2" wait_for 'cgroups \(cgroup v2\)'
check "6.12: /thp holds 128M, 99.9% in huge pages (cut, not rounded up to 100), one task" \
	wait_for ' 128M +99\.9 +0\.00 +1 .* /thp$'
check "6.12: /frag holds 318M, its fallbacks traced" wait_for ' 318M +.* 6 +6 .* /frag$'
# the tasks without a cgroup: the name report and JSON give them, its
# reason in help (tests/cli/cgroups.sh holds the counts)
tmux_start cgroups 120 30 env XDG_CONFIG_HOME="$TMPD/xdg" "$FT" --no-config replay tests/recordings/adverse-6.18.ftr
check "the adverse recording" wait_for 'REPLAY \['
T send-keys -t ft ' '
replay_seek 80
T send-keys -t ft 9
check "... its tasks that exited unread under one name, as report's" wait_for ' \(exited unread\)$'
T send-keys -t ft h
wait_for '^Keys' > /dev/null
T send-keys -t ft NPage
check "... help gives its reason" wait_for '\(exited unread\) +the processes exited before fragtop read their cgroup'
# a recording without them says so
"$FT" record --no-trace --root "$ROOT" -i 0.2 -t 1 -o "$TMPD/plain.ftr" 2> /dev/null
tmux_start cgroups 120 30 env XDG_CONFIG_HOME="$TMPD/xdg" "$FT" --no-config replay "$TMPD/plain.ftr"
check "replay of a recording without --cgroups" wait_for 'REPLAY \['
T send-keys -t ft 9
check "... says the recording has none" wait_for 'no cgroups in the recording'
echo "cgroups.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
