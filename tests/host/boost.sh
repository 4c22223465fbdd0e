#!/bin/bash
# On this real kernel: the boost sampler against an independent reader.
# While the workload runs at watermark_boost_factor 15000, `fragtop record`
# (its sampler at the default 50 Hz) and boost-reader.pl (100 Hz, its own
# parsing of /proc/zoneinfo) watch the Normal zone.  Episodes often last
# 10-40 ms, so a 50 Hz sampler sees the shortest by chance, and fragtop's
# sampler reads once a second while cold (no boost or traced fallback in
# 2 s), one read standing for fifty, until the next trace drain (1 s at
# most) heats it.  When a run boosts little, a ratio of the two samplers'
# figures is noise, so the checks are bounds sampling cannot break; the
# reader marks its reads "sure" where fragtop must be hot (see
# boost-reader.pl):
#  - fragtop's peak is at least the highest level the reader saw held for
#    four sure reads (30 ms), and at most the boost's ceiling, which the
#    kernel never passes (boost_watermark(): the high watermark times the
#    factor / 10000, a pageblock at least).  A reader's peak is no upper
#    bound: fragtop may catch a high level the reader missed;
#  - fragtop's episodes are at least half the reader's long (over 20 ms)
#    sure ones and at most the zone's traced fallbacks (a boost starts
#    only with one; the reader's count bounds nothing above, as it may
#    miss episodes when descheduled);
#  - the boosted time (boosted samples times each sampler's own mean
#    period) differs from the reader's by less than one period of each
#    per episode either saw (a sampler of period P counts an episode of
#    length L as floor(L/P) or ceil(L/P) samples), plus 2 s per cold
#    start (a cold read standing for 1 s, or up to 1 s unseen before the
#    drain).  An episode neither saw adds nothing to either.
# If the reader saw no boost at all, the workload runs once more.
# At factor 0 nothing is boosted and both must say 0.  The factor-0
# recording also answers "who fragments": report --json lists processes
# whose fragmenting counts add up to the total, the workload's own (fio,
# thpalloc) among the top three, and replaying it shows their names in the
# process view.  Changes
# watermark_boost_factor (through the workload) and restores it; needs
# root, fio and the workload script; skipped otherwise.
# usage: boost.sh FRAGTOP_BINARY
# host-order: 90 (it compares sampling rates: it runs last)
# host: alone (no build beside it may starve the samplers)
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

# The boost's ceiling at factor $1 in pages: the Normal zones' largest
# (high - boost is the base high watermark: zoneinfo's high includes the
# boost), a pageblock at least.  Read before and after a run, the larger
# kept: the watermarks only grow while deferred memory is initialised.
ceiling() {
	awk -v f="$1" -v pb=$((1 << $(pageblock_order))) '
		/^Node [0-9]+, zone/ { z = ($4 == "Normal") }
		z && $1 == "boost" { b = $2 }
		z && $1 == "high" { c = int(($2 - b) * f / 10000); if (c < pb) c = pb; if (c > m) m = c }
		END { print m + 0 }' /proc/zoneinfo
}
pageblock_order() {
	awk '/^Pages per block:/ { n = $4 } END { o = 0; while (n > 1) { n /= 2; o++ } print (o ? o : 9) }' \
		/proc/pagetypeinfo 2> /dev/null || echo 9
}

# one run of the workload at factor $1, watched by fragtop and the reader
watch_run() {
	local boost=$1

	rm -rf "$tmp/work-$boost" "$tmp/$boost.ftr"
	echo "$boost" > /proc/sys/vm/watermark_boost_factor
	ceil0=$(ceiling "$boost")
	"$FT" record -o "$tmp/$boost.ftr" 2> "$tmp/$boost.err" & fpid=$!
	perl "$HERE/boost-reader.pl" Normal > "$tmp/$boost.ref" & rpid=$!
	until_ok 30 recorded "$tmp/$boost.ftr" '.samples >= 1' || echo "boost $boost: the recording has no tick after 30 s"
	bash "$WORKLOAD" "$boost" "$WORKLOAD_MB" "$tmp/work-$boost" > "$tmp/work-$boost.log" 2>&1
	kill -INT "$fpid"; wait "$fpid"; fpid=
	kill -TERM "$rpid"; wait "$rpid"; rpid=
	ceil=$(ceiling "$boost")
	[ "$ceil0" -gt "$ceil" ] && ceil=$ceil0
}

for boost in 15000 0; do
	watch_run "$boost"
	# The boost comes from fragmenting fallbacks, and some runs of the
	# workload at 15000 make none: then there is nothing to compare, and
	# the workload runs once more.
	if [ "$boost" != 0 ] && [ "$(jq .boosted "$tmp/$boost.ref")" = 0 ]; then
		echo "boost $boost: the reader saw no boost ($(tail -n 1 "$tmp/work-$boost.log")); running the workload again"
		watch_run "$boost"
	fi
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
		[ "$(jq .boosted "$tmp/$boost.ref")" = 0 ] &&
			echo "boost $boost: twice no boost at all: the checks below can only show that both samplers saw none"
		rh=$(jq '.held_peak' "$tmp/$boost.ref")
		check "boost $boost: peak between the reader's held level and the kernel's ceiling ($fp; $rh, $ceil; reader's peak $rp)" \
			awk -v f="$fp" -v h="$rh" -v c="$ceil" 'BEGIN { exit !(f >= h && f <= c) }'
		rl=$(jq '.long_sure' "$tmp/$boost.ref")
		# the upper bound sampling cannot break: an episode starts with a
		# boost, and a boost only with a fallback in the zone (the reader's
		# count is none: a descheduled reader misses episodes fragtop sees)
		nf=$(jq '[.extfrag_by_zone[] | select(.zone == "Normal") | .total] | add // 0' "$tmp/$boost.json")
		check "boost $boost: episodes between half the reader's long sure ones and the zone's fallbacks ($fe; $rl, $nf; reader $re)" \
			awk -v f="$fe" -v l="$rl" -v n="$nf" 'BEGIN { exit !(2 * f >= l && f <= n) }'
		# boosted time, each sampler's own mean period, and what sampling allows
		bt=$(awk -v ff="$ff" -v n="$(jq '.samples' <<< "$ft")" -v d="$(jq '.duration_s' "$tmp/$boost.json")" \
			-v rb="$(jq '.boosted' "$tmp/$boost.ref")" -v rn="$(jq '.reads' "$tmp/$boost.ref")" \
			-v rs="$(jq '.seconds' "$tmp/$boost.ref")" -v fe="$fe" -v re="$re" \
			-v cold="$(jq '.cold_starts' "$tmp/$boost.ref")" 'BEGIN {
				pf = d / n; pr = rs / rn
				printf "%.3f %.3f %.3f", ff * n * pf, rb * pr, (fe + re) * (pf + pr) + 2 * cold }')
		read -r tf tr allow <<< "$bt"
		check "boost $boost: boosted time agrees within sampling (${tf} s, reader ${tr} s, allowed ${allow} s)" \
			awk -v f="$tf" -v r="$tr" -v a="$allow" 'BEGIN { d = f - r; if (d < 0) d = -d; exit !(d <= a) }'
	fi
done 2>&1
[ $fails = 0 ]
