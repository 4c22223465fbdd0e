#!/bin/bash
# `fragtop fields`: the registries' rows, and the outputs that walk them.
# Every counter row is a key of report --json's totals (and every total
# that is a plain counter is a row: the derived shares are the only
# others); the process counters are the keys of report's processes; every
# zone row with an exporter family is a family of the
# exporter's output on the 6.18 fixture unless the boost sampler feeds
# it; text and JSON list the same rows; a stray argument is a usage error.
# usage: fields.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=${1:-./fragtop}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$FT" fields > "$tmp/f.txt"; rc=$?
check "fields: exit 0" test $rc = 0
"$FT" fields --json > "$tmp/f.json"; rc=$?
check "fields --json: exit 0, one document" jqe '.zone_fields and .counters' "$tmp/f.json"
unlisted=
for k in $(jq -r '.zone_fields[].key, .counters[].key, .process_counters[].key' "$tmp/f.json"); do
	grep -q "^  $k " "$tmp/f.txt" || unlisted="$unlisted $k"
done
check "fields: the text lists every row of the JSON${unlisted:+ (not:$unlisted)}" test -z "$unlisted"

S=tests/recordings/thpfioscale-boost-0-to-15000.ftr
"$FT" report --json "$S" > "$tmp/r.json"
jq -r '.counters[].key' "$tmp/f.json" | sort > "$tmp/rows"
jq -r '.totals | keys[]' "$tmp/r.json" | grep -vx 'thp_fault_success\|compact_success_per_stall' | sort > "$tmp/totals"
check "every counter row is a report total, and every plain total a row" diff "$tmp/rows" "$tmp/totals"

jq -r '.process_counters[].key' "$tmp/f.json" | sort > "$tmp/prows"
jq -r '[.processes[] | select(.pid >= 0)][0] | keys[]' "$tmp/r.json" |
	grep -vx 'pid\|tgid\|threads\|comm\|exited\|cgroup' | sort > "$tmp/pkeys"
check "every process counter row is a key of report's processes, and the other way round" \
	diff "$tmp/prows" "$tmp/pkeys"
"$FT" snapshot --prometheus --root tests/fixtures/6.18-frag > "$tmp/m.prom"
missing=
# the sampler's families need the boost sampler, the map's a map scan (--map, --collector.map)
map_keys='^pollution_amplification$|^gigantic_'
for fam in $(jq -r --arg m "$map_keys" '.zone_fields[] | select(.family != null and
		(.key | test("^boost_peak$|^boosted_|" + $m)) == false) | .family' "$tmp/f.json"); do
	grep -q "^# TYPE $fam " "$tmp/m.prom" || missing="$missing $fam"
done
check "every zone family (but the sampler's and the map's) in the exporter's output:${missing:- all there}" test -z "$missing"
# the map's: in snapshot --map's output on the two-node tree (tests/lib.sh)
contig_tree "$tmp/ctree"
"$FT" snapshot --prometheus --map --no-trace --root "$tmp/ctree" > "$tmp/cm.prom" 2> /dev/null
missing=
for fam in $(jq -r --arg m "$map_keys" '.zone_fields[] | select(.family != null and (.key | test($m))) | .family' "$tmp/f.json"); do
	grep -q "^# TYPE $fam " "$tmp/cm.prom" || missing="$missing $fam"
done
check "the map's zone families in snapshot --map's output:${missing:- all there}" test -z "$missing"

"$FT" fields extra > /dev/null 2> "$tmp/e"; rc=$?
check "fields ARG: usage error, exit 2" test $rc = 2 -a -s "$tmp/e"
echo "fields.sh: $fails failure(s)"
[ $fails -eq 0 ]
