#!/bin/bash
# At 80x24 every column can be reached (issue 38, item 8): the processes
# view's Right scrolls the columns after COMMAND until the cgroup stands
# alone with its whole path, Left comes back; the THP view scrolls the
# columns after SIZE and lists the sizes that saw faults or hold THPs
# first; the controls view says the selected knob's range whole where its
# row cuts it ("defer+madvise").
# usage: columns.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=tests/recordings/adverse-6.18.ftr
TMPD=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
export XDG_CONFIG_HOME=$TMPD/config

# heads REGEX: the header line matching REGEX, after each Right until the status line's
# "columns a-N of N" (or "cols a-N/N"), into $TMPD/heads (one line per screen)
heads() {
	local i info
	: > "$TMPD/heads"
	for i in $(seq 16); do
		screen | grep -E -- "$1" >> "$TMPD/heads"
		info=$(screen | tail -n 1 | grep -oE '(columns|cols) [0-9]+-[0-9]+( of |/)[0-9]+')
		[[ "$info" =~ -([0-9]+)(\ of\ |/)([0-9]+) ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[3]}" ] &&
			[ "$(screen | grep -cE -- "$1")" -gt 0 ] && [ "$i" -gt 1 ] && break
		T send-keys -t ft Right
		until_ok 2 status_changed "$info"
	done
}
status_changed() { [ -z "$1" ] || ! screen | tail -n 1 | grep -qF -- "$1"; }

tmux_start columns 80 24 "$FT" --no-config replay "$S"
wait_for 'REPLAY' > /dev/null
T send-keys -t ft 7
replay_seek 50
wait_for 'CGROUP|CMP_MS' > /dev/null
check "80x24 processes: the status line says some columns are off screen" wait_for 'cols 1-[0-9]+/12$'
heads '^ +PID S COMMAND'
missing=
for w in FRAG/s FRAG FALLBK OWN COMPACT CMP_MS RECLAIM RCL_MS FSTALL FST_MS CGROUP; do
	grep -qE "(^| )$w( |$)" "$TMPD/heads" || missing="$missing $w"
done
check "Right reaches every column of the processes view (missing:${missing:- none})" test -z "$missing"
T send-keys -t ft Right Right Right Right Right Right Right Right Right Right Right
check "... until the cgroup stands alone, its path whole" wait_for '^ +13618 x thpthreads +/process_api/730b0e66741056fbd04b0a311816c6ea$'
check "... the status line says so" wait_for 'cols 12-12/12$'
T send-keys -t ft Left Left Left Left Left Left Left Left Left Left Left Left
check "Left comes back to the first columns" wait_for '^ +PID S COMMAND +FRAG/s +FRAG '

# the controls view: thp_defrag's range cut by its row, whole below
T send-keys -t ft 4
wait_for 'knob +value' > /dev/null
for i in $(seq 9); do T send-keys -t ft j; done
check "controls: the selected knob's range whole under the table (defer+madvise)" \
	wait_for '^  range always defer defer\+madvise madvise never'
end_tmux; SOCK=

# the THP view, live: sizes with faults or THPs in use first
if ls /sys/kernel/mm/transparent_hugepage/hugepages-*kB/stats/anon_fault_alloc > /dev/null 2>&1; then
	active=
	for d in /sys/kernel/mm/transparent_hugepage/hugepages-*kB; do
		sum=0
		for f in anon_fault_alloc anon_fault_fallback nr_anon shmem_alloc shmem_fallback; do
			[ -r "$d/stats/$f" ] && sum=$((sum + $(cat "$d/stats/$f")))
		done
		[ "$sum" -gt 0 ] && active="$active ${d##*hugepages-}"
	done
	tmux_start columns 80 24 "$FT" --no-config
	wait_for 'overview' > /dev/null
	T send-keys -t ft 8
	wait_for '^ +SIZE ANON' > /dev/null
	first=$(screen | awk '/^ +SIZE/ { on = 1; next } on && /^ +[0-9]+kB/ { print $1 } on && !/^ +[0-9]+kB/ { exit }' |
		head -n "$(echo $active | wc -w)" | sort | tr '\n' ' ')
	want=$(printf '%s\n' $active | sort | tr '\n' ' ')
	check "THP: the sizes that saw faults or hold THPs come first (${want:-none})" test "$first" = "$want"
	check "THP: the status line says some columns are off screen" wait_for 'cols 1-[0-9]+/10$'
	heads '^ +SIZE '
	missing=
	for w in ANON SHMEM ALLOC/s FALLBK/s OK% SPLIT/s SWPFB/s ALLOC FALLBACK 'IN USE'; do
		grep -qE "(^| )$w( |$)" "$TMPD/heads" || missing="$missing $w"
	done
	check "Right reaches every THP column (missing:${missing:- none})" test -z "$missing"
else
	skip "no multi-size THP counters here: the THP view is not checked"
fi
end_tmux; SOCK=

# the column chooser (setup, F2): FALLBK hidden, kept in fragtoprc, back at the next start
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing ]; then
	RCF=$XDG_CONFIG_HOME/fragtop/fragtoprc
	# as tmux_start, without its fresh config: this part reads what the last run kept
	keep_start() {
		[ -n "${SOCK:-}" ] && end_tmux
		tmux_n=$((${tmux_n:-0} + 1)); SOCK=columns-$$-$tmux_n
		T new-session -d -s ft -x 120 -y 30 "XDG_CONFIG_HOME=$(printf '%q' "$XDG_CONFIG_HOME") $(printf '%q' "$FT"); sleep 60"
	}
	fresh_config
	keep_start
	wait_for 'overview' > /dev/null
	T send-keys -t ft F2
	wait_for '^  processes columns' > /dev/null
	T send-keys -t ft j j j
	check "setup: the processes columns, each shown" wait_for '^  processes columns +\[x\] FRAG/s \[x\] FRAG \[x\] FALLBK'
	T send-keys -t ft Right Right Enter
	check "Right Right Enter: FALLBK hidden" wait_for '\[ \] FALLBK'
	T send-keys -t ft Escape 7
	check "the processes view without FALLBK" wait_for '^ +PID S COMMAND +FRAG/s +FRAG +OWN '
	T send-keys -t ft q
	until_ok 10 test -s "$RCF"
	check "fragtoprc keeps the columns shown" grep -qx 'columns=FRAG/s,FRAG,OWN,COMPACT,CMP_MS,RECLAIM,RCL_MS,FSTALL,FST_MS,THP%,CGROUP' "$RCF"
	keep_start
	check "... and the next start opens without FALLBK" wait_for '^ +PID S COMMAND +FRAG/s +FRAG +OWN '
	T send-keys -t ft q
	end_tmux; SOCK=
	printf 'config_version=1\nview=processes\ncolumns=FRAG,BOGUS\n' > "$RCF"
	keep_start
	check "columns= with a word that is no column: said" wait_for "fragtoprc: columns: 'BOGUS' is no column"
	check "... the others kept" wait_for '^ +PID S COMMAND +FRAG *$'
	T send-keys -t ft q
else
	skip "the column chooser is tried live, as root with tracefs"
fi
echo "columns.sh: $fails failure(s)"
[ $fails -eq 0 ]
