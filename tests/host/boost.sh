#!/bin/bash
# On this real kernel: the boost sampler against an independent reader.
# While the workload runs at watermark_boost_factor 15000, `fragtop record`
# (its sampler at the default 50 Hz) and boost-reader.pl (100 Hz, its own
# parsing of /proc/zoneinfo) watch the Normal zone; fragtop's peak and
# boosted fraction must each be within a factor of 2 of the reader's.
# Episodes often last 10-40 ms, so a 50 Hz sampler sees the shortest by
# chance: fragtop's count must be at least half the reader's episodes that
# lasted over 20 ms (which it cannot miss) and at most twice all of them.
# At factor 0 nothing is boosted and both must say 0.  The factor-0
# recording also answers "who fragments": report --json lists processes
# whose fragmenting counts add up to the total, the workload's own (fio,
# thpalloc) among the top three, and replaying it shows their names in the
# process view.  Changes
# watermark_boost_factor (through the workload) and restores it; needs
# root, fio and the workload script; skipped otherwise.
# usage: boost.sh FRAGTOP_BINARY
# host-order: 90 (it compares sampling rates: it runs when the other lane is done)
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")" && pwd)
workload
if [ "$(id -u)" != 0 ] || [ ! -r "$WORKLOAD" ] || ! command -v fio >/dev/null ||
   ! grep -q '^ *boost' /proc/zoneinfo; then
	skip_all "boost integration: needs root, fio, $WORKLOAD and a kernel with boost"
fi
tmp=$(mktemp -d)
boost0=$(cat /proc/sys/vm/watermark_boost_factor)
cleanup() {
	[ -n "${fpid:-}" ] && kill "$fpid" 2>/dev/null
	[ -n "${rpid:-}" ] && kill "$rpid" 2>/dev/null
	[ -S "$tmp/tmux" ] && tmux -S "$tmp/tmux" kill-server 2>/dev/null
	echo "$boost0" > /proc/sys/vm/watermark_boost_factor
	rm -rf "$tmp"
}
trap cleanup EXIT

within2() {	# A B: each within a factor of 2 of the other (0 only with 0)
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == 0 || b == 0) exit !(a == b);
		r = a / b; exit !(r >= 0.5 && r <= 2) }'
}

for boost in 15000 0; do
	echo "$boost" > /proc/sys/vm/watermark_boost_factor
	"$FT" record -o "$tmp/$boost.ftr" 2> "$tmp/$boost.err" & fpid=$!
	perl "$HERE/boost-reader.pl" Normal > "$tmp/$boost.ref" & rpid=$!
	until_ok 30 recorded "$tmp/$boost.ftr" '.samples >= 1' || echo "boost $boost: the recording has no tick after 30 s"
	bash "$WORKLOAD" "$boost" "$WORKLOAD_MB" "$tmp/work-$boost" > "$tmp/work-$boost.log" 2>&1
	kill -INT "$fpid"; wait "$fpid"; fpid=
	kill -TERM "$rpid"; wait "$rpid"; rpid=
	"$FT" report --json "$tmp/$boost.ftr" > "$tmp/$boost.json"
	ft=$(jq -c '[.boost_by_zone[] | select(.zone == "Normal")] | {peak: (map(.peak) | max),
		episodes: (map(.episodes) | add), samples: (map(.samples) | add),
		boosted_fraction: ((map(.boosted_fraction * .samples) | add) / (map(.samples) | add))}' "$tmp/$boost.json")
	echo "boost $boost: fragtop $ft; reader $(cat "$tmp/$boost.ref"); workload: $(tail -n 1 "$tmp/work-$boost.log")"
	fp=$(jq '.peak' <<< "$ft"); fe=$(jq '.episodes' <<< "$ft"); ff=$(jq '.boosted_fraction' <<< "$ft")
	rp=$(jq '.peak' "$tmp/$boost.ref"); re=$(jq '.episodes' "$tmp/$boost.ref"); rf=$(jq '.boosted_fraction' "$tmp/$boost.ref")
	check "boost $boost: the sampler read at about 50 Hz" awk -v s="$(jq '.samples' <<< "$ft")" \
		-v d="$(jq '.duration_s' "$tmp/$boost.json")" 'BEGIN { exit !(s >= 40 * d && s <= 52 * d) }'
	if [ "$boost" = 0 ]; then
		check "boost 0: fragtop saw no boost" test "$fp" = 0 -a "$fe" = 0
		check "boost 0: nor did the reader" test "$rp" = 0 -a "$re" = 0
		j=$tmp/0.json
		echo "boost 0: top processes $(jq -c '[.processes[0:5][] | {comm, pid, fragmenting}]' "$j")"
		check "boost 0: processes' fragmenting add up to the total" \
			jqe '([.processes[].fragmenting] | add) == .totals.extfrag_fragmenting' "$j"
		check "boost 0: the workload's processes are among the top three" \
			jqe '.totals.extfrag_fragmenting > 0 and
			     ([.processes[0:3][].comm] | any(. == "fio" or . == "thpalloc"))' "$j"
		# a process that exits before the next trace drain (100 ms) is named
		# from the tracer's saved_cmdlines (tests/host/names.sh): none is "?"
		echo "boost 0: fragmenting fallbacks by unnamed processes: $(jq '[.processes[] |
			select(.comm == "?") | .fragmenting] | add // 0' "$j") of $(jq .totals.extfrag_fragmenting "$j")"
		check "boost 0: every fragmenting fallback by a named process" \
			jqe '[.processes[] | select(.comm == "?" and .fragmenting > 0)] | length == 0' "$j"
		if command -v tmux > /dev/null; then
			SOCK=$tmp/tmux
			T() { tmux -S "$SOCK" "$@"; }
			fresh_config
			T new-session -d -s ft -x 120 -y 40 "$FT replay $tmp/0.ftr; sleep 30"
			wait_for 'REPLAY \[' > /dev/null
			T send-keys -t ft ' '
			wait_for PAUSED > /dev/null
			replay_seek 50%
			T send-keys -t ft 7
			check "boost 0: replay's process view names the workload" \
				wait_for '^ +[0-9]+ [ x] (fio|thpalloc) '
			end_tmux
		fi
	else
		check "boost $boost: peak within 2x of the reader's ($fp, $rp)" within2 "$fp" "$rp"
		rl=$(jq '.long_episodes' "$tmp/$boost.ref")
		check "boost $boost: episodes between half the reader's long ones and twice all ($fe; $rl, $re)" \
			awk -v f="$fe" -v l="$rl" -v a="$re" 'BEGIN { exit !(f > 0 && 2 * f >= l && f <= 2 * a) }'
		check "boost $boost: boosted fraction within 2x ($ff, $rf)" within2 "$ff" "$rf"
	fi
done 2>&1
[ $fails = 0 ]
