#!/bin/bash
# The Prometheus rules in dist/: promtool finds them valid, its unit tests
# (dist/fragtop-rules.test.yml) fire each alert on series made to fire it
# and not on series just short of it, and every metric the rules read is
# one the exporter writes (its families on the 6.18 fixture with mTHP,
# and the traced ones it names in the source of its output).
# usage: rules.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=${1:-./fragtop}
command -v promtool > /dev/null || skip_all "promtool not installed (package prometheus)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "promtool check rules: valid" promtool check rules dist/fragtop-rules.yml
(cd dist && promtool test rules fragtop-rules.test.yml) > "$tmp/t.log" 2>&1; rc=$?
check "promtool test rules: every alert fires where it should, and only there" test $rc = 0
[ $rc = 0 ] || cat "$tmp/t.log"
# the metrics the rules read, against what the exporter writes
"$FT" snapshot --prometheus --root tests/fixtures/6.18-mthp > "$tmp/m.prom"
missing=
for m in $(grep -oE 'fragtop_[a-z_]+' dist/fragtop-rules.yml | sort -u); do
	case $m in fragtop_stall_duration_seconds_bucket) m=fragtop_stall_duration_seconds;; esac
	grep -qE "^# TYPE ($m|${m%_total}) " "$tmp/m.prom" || grep -q "\"$m\"\|\"${m%_total}\"" out/metrics.c ||
		missing="$missing $m"
done
check "every metric the rules read is the exporter's${missing:+ (not:$missing)}" test -z "$missing"
[ $fails -eq 0 ]
