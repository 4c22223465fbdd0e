#!/bin/bash
# fragtop replay through a terminal: a recording made from a fixture root
# (and the repo's sample, when present) replays, pauses, steps both ways,
# changes speed, seeks, runs to the next control change, and works for a
# non-root user; prompts keep sampling; TERM=dumb is refused with a reason.
# usage: replay.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
SAMPLE=tests/recordings/thpfioscale-boost-0-to-15000.ftr
SOCK=
n=0
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
TMPD=$(mktemp -d); chmod 755 "$TMPD"
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
start() {
	local cmd="" a
	[ -n "$SOCK" ] && end_tmux
	n=$((n + 1)); SOCK=fragtop-replay-$$-$n
	for a in "$@"; do cmd+=" $(printf '%q' "$a")"; done
	: > "$TMPD/rc"
	fresh_config
	T new-session -d -s ft -x "${COLS_:-120}" -y 40 "$cmd 2> $TMPD/err; echo \$? > $TMPD/rc; sleep 30"
}
pos() { screen | sed -nE '1s/.*REPLAY \[[#-]+\] ([0-9]+)\/([0-9]+)s.*/\1/p'; }

R=$TMPD/root; mkdir -p "$R"; cp -r tests/fixtures/6.18-idle/. "$R/"
"$FT" record -o "$TMPD/r.ftr" --root "$R" -i 0.5 -t 10 2> /dev/null
chmod 644 "$TMPD/r.ftr"

start "$FT" replay "$TMPD/r.ftr"
check "replay: the overview of the recording, a timeline" wait_for 'REPLAY \[[#-]+\] [0-9]+/10s x1'
check "replay: zones from the recording" wait_for '^N0 Normal '
T send-keys -t ft ' '
check "space pauses" wait_for 'PAUSED'
p0=$(pos)
replay_seek 5
check "T 5: seeks to 5 s" wait_for 'at 5\.[0-9] s \(tick'
T send-keys -t ft . . .
check ". steps forward (0.5 s a tick)" wait_for 'REPLAY \[[#-]+\] (6|7)/10s'
T send-keys -t ft , , , , , ,
check ", steps back" wait_for 'REPLAY \[[#-]+\] (4|5)/10s'
replay_seek 90%
check "T 90%: seeks" wait_for 'REPLAY \[[#-]+\] (9|10)/10s'
T send-keys -t ft '>' '>'
check "> > : x4" wait_for 'x4'
T send-keys -t ft n
check "n: says there is no control change left" wait_for 'no control change after this point'
T send-keys -t ft b
check "b in replay: refused as a live key, said" wait_for "replay: 'b B' is the live TUI's .*a recording is not a host"
T send-keys -t ft 2
check "events view: this recording has no tracepoints" wait_for 'No tracepoints'
T send-keys -t ft q
for i in $(seq 30); do [ -s "$TMPD/rc" ] && break; sleep 0.1; done
check "q exits 0" test "$(cat "$TMPD/rc")" = 0
T send-keys -t ft q 2>/dev/null

# a recording killed with SIGKILL replays up to its last complete chunk, and says so
"$FT" record -o "$TMPD/k.ftr" --root "$R" -i 0.25 2> /dev/null & pid=$!
until_ok 60 recorded "$TMPD/k.ftr" '.duration_s >= 2' || echo "killed: under 2 s kept after 60 s"
kill -9 $pid; wait $pid 2> /dev/null
start "$FT" replay "$TMPD/k.ftr"
check "killed recording: replays" wait_for 'REPLAY \[[#-]+\] [0-9]+/[2-5]s'
check "killed recording: says it was not closed" wait_for 'not closed cleanly|ends inside'
T send-keys -t ft q

"$FT" replay /dev/null < /dev/null > /dev/null 2> "$TMPD/e"; rc=$?
check "no terminal: exit 1, points at report" test $rc = 1 -a -n "$(grep "fragtop report" "$TMPD/e")"
head -c 100 "$TMPD/r.ftr" > "$TMPD/short.ftr"
start "$FT" replay "$TMPD/short.ftr"
for i in $(seq 30); do [ -s "$TMPD/rc" ] && break; sleep 0.1; done
check "a recording without a complete sample: exit 1, says so" test "$(cat "$TMPD/rc")" = 1 -a \
	-n "$(grep 'no complete sample' "$TMPD/err")"

# a non-root user replays a recording (and the repo's sample)
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	cp "$FT" "$TMPD/fragtop"
	for f in "$TMPD/r.ftr" ${SAMPLE:+$(realpath -q "$SAMPLE")}; do
		[ -f "$f" ] || continue
		cp "$f" "$TMPD/nr.ftr"; chmod 644 "$TMPD/nr.ftr"
		start setpriv --reuid=65534 --regid=65534 --clear-groups "$TMPD/fragtop" replay "$TMPD/nr.ftr"
		check "non-root replays $(basename "$f")" wait_for 'REPLAY \[[#-]+\]'
		T send-keys -t ft q
	done
fi

# a recording made before fragtop recorded names: each process '?', said once why
start "$FT" replay "$SAMPLE"
check "no names recorded: replays" wait_for 'REPLAY \['
T send-keys -t ft ' '
replay_seek 90%
T send-keys -t ft 7
check "... the processes view's rows are '?'" wait_for '^ +2399 +[?] '
check "... and it says why above the table" wait_for '^\?: this recording has no process names \(made before fragtop recorded them\)'
T send-keys -t ft q

# a hostile recording: names with terminal escapes and a bidi override are
# shown as text; no title change reaches the terminal
H=$TMPD/hostile; cp -r tests/fixtures/6.18-idle "$H"
printf 'evil\033]0;pwned\007\n' > "$H/proc/sys/kernel/hostname"
printf '6.18\xe2\x80\xaeexe.txt\n' > "$H/proc/sys/kernel/osrelease"
"$FT" record -o "$TMPD/h.ftr" --root "$H" -i 0.25 -t 1 2> /dev/null
start "$FT" replay "$TMPD/h.ftr"
check "hostile names: shown escaped" wait_for 'evil\\x1b\]0;pwned\\x07'
check "hostile names: the bidi override shown as text" wait_for '6\.18\\u\{202e\}exe'
check "hostile names: no raw bidi override on screen" test -z "$(screen | grep -F "$(printf '\xe2\x80\xae')")"
check "hostile names: the terminal title is untouched" test "$(T display -p -t ft '#{pane_title}')" != pwned
T send-keys -t ft q

# the boost sampler's peak, recorded, in the overview: a tree whose Normal
# zone is boosted by 4096 pages, sampled at 50 Hz (asked: off for a tree)
B=$TMPD/boosted; cp -r tests/fixtures/6.18-idle "$B"
awk '/^Node/ { z = $4 } /^ +boost/ && z == "Normal" { sub(/[0-9]+$/, "4096") } { print }' \
	"$B/proc/zoneinfo" > "$TMPD/zi" && cat "$TMPD/zi" > "$B/proc/zoneinfo"
"$FT" record -o "$TMPD/b.ftr" --root "$B" --boost-hz 50 -i 0.5 -t 2 2> /dev/null
start "$FT" replay "$TMPD/b.ftr"
check "boost sampler: the overview shows the recorded peak, share and episodes" \
	wait_for 'wmark \[[^]]*\+[^]]*\] .*high +[0-9]+ +boost 4096 +100% boosted +[0-9]+ ep +ceil'
check "boost sampler: zones never boosted show 0" wait_for 'boost 0 +0% boosted +0 ep'
T send-keys -t ft q

# sampling goes on while a prompt waits for the operator: a -w recording
# with the interval prompt open for 3 s has no gap longer than a tick or two
start "$FT" --root "$R" -i 0.25 -w "$TMPD/p.ftr"
check "-w: recording" wait_for 'REC'
T send-keys -t ft d
check "d: the interval prompt is open" wait_for 'interval in seconds'
# 3 s more of recorded ticks with the prompt open (the file syncs every 2 s)
t0=$("$FT" report --json "$TMPD/p.ftr" 2> /dev/null | jq '.duration_s // 0')
t0=${t0:-0}
until_ok 60 recorded "$TMPD/p.ftr" ".duration_s >= $t0 + 3" || echo "prompt open: under 3 s more recorded after 60 s"
T send-keys -t ft Escape
wait_gone 'interval in seconds' > /dev/null	# q right after Escape would read as Alt-q
T send-keys -t ft q
for i in $(seq 50); do [ -s "$TMPD/rc" ] && break; sleep 0.1; done
"$FT" export "$TMPD/p.ftr" --csv > "$TMPD/p.csv"
gap=$(awk -F, 'NR > 2 { d = $1 - p; if (d > m) m = d } NR > 1 { p = $1 } END { printf "%.2f", m }' "$TMPD/p.csv")
echo "longest gap between ticks with a prompt open: $gap s (interval 0.25 s)"
# a loop that waited on the prompt leaves a gap as long as it stays open
# (3 s and more); a loaded host may delay a tick or two beyond 1 s
check "prompt open: sampling went on (no gap of 2 s)" awk -v g="$gap" 'BEGIN { exit !(g > 0 && g < 2) }'

# a terminal that cannot run the TUI says so and points at snapshot
start env TERM=dumb "$FT" --root "$R"
for i in $(seq 30); do [ -s "$TMPD/rc" ] && break; sleep 0.1; done
check "TERM=dumb: exit 1, says the terminal cannot run the TUI" test "$(cat "$TMPD/rc")" = 1 -a \
	-n "$(grep "cannot run the TUI; 'fragtop snapshot'" "$TMPD/err")"

# 80 columns: the timeline gives up its bar rather than write over the host's part
COLS_=80 start "$FT" replay "$TMPD/r.ftr"
check "80 columns: the header whole, the position and PAUSED beside it" \
	wait_for '^fragtop [0-9.]+ .* boost_factor [0-9]+ +REPLAY( \[[#-]+\])? [0-9]+/10s x1( |$)'
T send-keys -t ft ' '
check "80 columns: PAUSED after the position" wait_for 'boost_factor [0-9]+ +REPLAY( \[[#-]+\])? [0-9]+/10s x1 +PAUSED'

echo "replay.sh: $fails failure(s)"
[ $fails -eq 0 ]
