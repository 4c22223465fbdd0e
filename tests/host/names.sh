#!/bin/bash
# On this real kernel: a process that makes fallbacks and exits before
# fragtop reads its /proc entry still gets its name, from the tracer's
# saved_cmdlines (collectors/live.c saved_name()).  A page-table holder
# (lab/fraggen.c ptes) as large as the unmovable free lists of
# /proc/pagetypeinfo plus 512 MiB empties them (held for under a minute);
# then eight times a page-table maker that lives a few milliseconds falls
# back and exits, and a small holder takes what it freed.  The pids of
# the short ones are kept.  `fragtop record` traces it; its report
# must name every process row (no "?") and name the short ones whose
# fallbacks it counted "fraggen".  Needs root, tracefs, gcc and the top
# level's record-cmd option on (the kernel's default); skipped otherwise.
# The fallbacks are the kernel's to make: when none of the short ones fell
# back (a host whose unmovable free lists are deep) it says so and checks
# the rows it has.  Kills every process it started, even on failure.
# usage: names.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
T=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || [ ! -d $T/instances ] || ! command -v gcc > /dev/null; then
	skip_all "names of exited processes: needs root, tracefs and gcc"
fi
if [ "$(cat $T/options/record-cmd 2> /dev/null)" != 1 ]; then
	skip_all "names of exited processes: the tracer's record-cmd option is off here, so saved_cmdlines stays empty"
fi
tmp=$(mktemp -d)
holders=()
cleanup() {
	[ -n "${fpid:-}" ] && kill "$fpid" 2> /dev/null
	[ ${#holders[@]} -gt 0 ] && kill "${holders[@]}" 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
gcc -O2 -o "$tmp/fraggen" "$HERE/../../lab/fraggen.c" || { bad "fraggen builds"; exit 1; }

"$FT" record -i 1 -o "$tmp/n.ftr" 2> "$tmp/rec.err" & fpid=$!
until_ok 30 recorded "$tmp/n.ftr" '.samples >= 1' || bad "the recording has a tick within 30 s"
# hold: MB of page tables, all kept for 60 s; returns once they are made
hold() {
	"$tmp/fraggen" ptes "$1" 60 1 > "$tmp/h" & holders+=($!)
	until_ok 60 test -s "$tmp/h" || bad "a holder of $1 MiB allocated within 60 s"
	rm -f "$tmp/h"
}
free_mb=$(awk '/zone/ && /type +Unmovable/ { for (i = 7; i <= NF; i++) s += $i * 2 ^ (i - 7) }
	END { print int(s * 4 / 1024) }' /proc/pagetypeinfo)
echo "names: $free_mb MiB free in the unmovable lists; holding $((free_mb + 512)) MiB of page tables"
hold $((free_mb + 512))
: > "$tmp/short"
for round in 1 2 3 4 5 6 7 8; do
	"$tmp/fraggen" ptes 8 0 1 > /dev/null & echo $! >> "$tmp/short"
	wait $!
	hold 16
done
kill -INT "$fpid"; wait "$fpid"; fpid_was=$fpid; fpid=
kill "${holders[@]}" 2> /dev/null; holders=()
"$FT" report --json "$tmp/n.ftr" > "$tmp/n.json"
short=$(jq -R 'tonumber' "$tmp/short" | jq -s -c .)
echo "names: $(jq '.totals.extfrag' "$tmp/n.json") fallbacks; $(jq '.processes | length' "$tmp/n.json") process rows;" \
	"short-lived rows: $(jq -c --argjson s "$short" '[.processes[] | select(.pid as $p | $s | index($p)) | {pid, comm, extfrag}]' "$tmp/n.json")"
check "the recording traced fallbacks" jqe '.totals.extfrag > 0' "$tmp/n.json"
check "the recorder's own footprint: its pid, its rows summed (self)" \
	jqe --argjson p "$fpid_was" '.self.pid == $p and .self.fragmenting == ([.processes[] | select(.tgid == $p or .pid == $p) | .fragmenting] | add // 0)' "$tmp/n.json"
check "... and report's text says it" bash -c "'$FT' report '$tmp/n.ftr' | grep -qE '^fragtop itself +pid $fpid_was: [0-9]+ fragmenting fallbacks'"
check "no process row is unnamed" jqe '[.processes[] | select(.comm == "?" or .comm == "")] | length == 0' "$tmp/n.json"
if jqe --argjson s "$short" '[.processes[] | select(.pid as $p | $s | index($p))] | length > 0' "$tmp/n.json"; then
	check "the short-lived processes with fallbacks are named fraggen" \
		jqe --argjson s "$short" '[.processes[] | select(.pid as $p | $s | index($p)) | .comm] | all(. == "fraggen")' "$tmp/n.json"
else
	skip "no short-lived process fell back this time (the kernel's free lists): only the rows it has were checked"
fi
[ $fails -eq 0 ]
