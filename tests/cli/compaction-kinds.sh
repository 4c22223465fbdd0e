#!/bin/bash
# fragtop_compaction_scanned_pages_total's kinds mean what report's do:
# on the sample recording (compaction asked through compact_memory at
# two ticks, traced), the last tick's export --openmetrics gives kind
# "direct" equal to report --json's direct_compaction_cost (migrate and
# free scanned), "background" equal to kcompactd's, and the three kinds
# add up to what vmstat's scanners counted over the recording (report's
# totals).  The HELP names all three.
# usage: compaction-kinds.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")/.." && pwd)
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
rec=$HERE/recordings/adverse-6.18.ftr

"$FT" export --openmetrics "$rec" > "$TMPD/om" 2> "$TMPD/err"
check "export --openmetrics: exit 0" test $? = 0
"$FT" report --json "$rec" > "$TMPD/r.json"
last() {	# the last tick's value of scanner $1, kind $2
	grep "^fragtop_compaction_scanned_pages_total{scanner=\"$1\",kind=\"$2\"} " "$TMPD/om" | tail -n 1 | awk '{ print $2 }'
}
for s in migrate free; do
	d=$(last $s direct) b=$(last $s background) m=$(last $s compact_memory)
	rd=$(jq ".direct_compaction_cost.${s}_scanned" "$TMPD/r.json")
	rb=$(jq ".direct_compaction_cost.kcompactd_${s}_scanned" "$TMPD/r.json")
	rt=$(jq ".totals.compact_${s}_scanned" "$TMPD/r.json")
	echo "$s: exporter direct $d, background $b, compact_memory $m; report direct $rd, kcompactd $rb, all $rt"
	check "$s: kind=\"direct\" is report's direct figure ($d = $rd)" test "$d" = "$rd"
	check "$s: kind=\"background\" is kcompactd's ($b = $rb)" test "$b" = "$rb"
	check "$s: the three kinds add up to what the scanners counted ($d + $b + $m = $rt)" \
		test "$((d + b + m))" = "$rt"
done
check "the sample recording has compact_memory's scanning apart (it asked at two ticks)" \
	test "$(last migrate compact_memory)" -gt 0
check "the HELP names the three kinds" \
	grep -q '^# HELP fragtop_compaction_scanned_pages .*direct.*background.*compact_memory' "$TMPD/om"
echo "compaction-kinds.sh: $fails failure(s)"
[ $fails -eq 0 ]
