#!/bin/bash
# The lab's stall-on recording (tests/recordings/lab-6.1-stall.ftr, a real
# 6.1 with the seeds' stall under qemu) replayed through a terminal: the
# title names the patched kernel and the lab host; the stalls view has the
# fragmentation stall's histogram with the report's count; the process
# view shows the workload's processes with the stalls they paid.
# usage: lab.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/lab-6.1-stall.ftr
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
[ -f "$S" ] || { echo "FAIL lab recording $S missing (make lab makes it)"; exit 1; }
n=$("$FT" report --json "$S" | jq '.latency.fragmentation_stall.count')
TMPD=$(mktemp -d)
SOCK=fragtop-lab-$$
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap 'end_tmux; rm -rf "$TMPD"' EXIT

T new-session -d -s ft -x 160 -y 50 "$FT replay --speed 1000 $(printf '%q' "$(realpath "$S")"); sleep 30"
check "replay: the patched kernel and the lab's host in the title" \
	wait_for '^fragtop [0-9.]+ +fragtop-lab +6\.1\.[0-9]+-fragtop-stall '
WAIT_TENTHS=300 check "replay runs to the end" wait_for 'end of the recording'
T send-keys -t ft 3
check "stalls view" wait_for '^window '
T send-keys -t ft v v
check "stalls view since the start" wait_for '\[since start\]'
check "fragmentation stall: the report's count ($n)" \
	wait_for "^fragmentation stall\$"
got=$(screen | awk '/^fragmentation stall$/ { getline; if ($1 == "n") print $2 }')
check "fragmentation stall: n $got = $n" test "${got:-x}" = "$n"
check "fragmentation stall: histogram rows in us with bars" \
	test -n "$(screen | awk '/^fragmentation stall$/ { f = 1; next } f && /^  \[ *[0-9]+, *[0-9]+\) us +[0-9]+ +█/ { print; exit }')"
T send-keys -t ft 2
check "events view: the latest fallbacks" wait_for ' command$'
named=$(screen | awk '/ command$/ { f = 1; next } f && / (yes|no) +(yes|no) / { n++; if ($NF == "fraggen" || $NF == "thpalloc") k++; if ($NF == "?") q++ } END { print n + 0, k + 0, q + 0 }')
read -r nrows nnamed nq <<< "$named"
check "events view: latest fallbacks named fraggen or thpalloc ($nnamed of $nrows), none '?' ($nq)" \
	test "$nrows" -gt 0 -a "$nnamed" -gt 0 -a "$nq" = 0
T send-keys -t ft 7
check "process view: a stall column" wait_for ' FSTALL +FST_MS'
kc=$(screen | awk '{ o = $2 == "x" } $(2 + o) ~ /kcompactd/ && $(7 + o) != 0 { k++ } END { print k + 0 }')
check "process view: no kcompactd row with a direct compaction" test "$kc" = 0
# the workload's processes (exited by the end: marked x) with stalls
# rows: PID, S (x: exited, or blank), COMMAND, the counters
stalled=$(screen | awk '{ c = $2 == "x" ? $3 : $2 } c ~ /^(fraggen|thpalloc)$/ && $(NF - 1) ~ /^[0-9]+$/ && $(NF - 1) > 0 { k++ } END { print k + 0 }')
check "process view: the exited mark is a column of its own (grep -w thpalloc matches)" \
	test -n "$(screen | grep -w thpalloc | grep -E '^ +[0-9]+ x thpalloc ')"
check "process view: workload processes that stalled ($stalled rows)" test "$stalled" -ge 2
T send-keys -t ft q
echo "lab.sh: $fails failure(s)"
[ $fails -eq 0 ]
