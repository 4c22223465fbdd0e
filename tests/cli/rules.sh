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
	grep -qE "^# TYPE ($m|${m%_total}) " "$tmp/m.prom" || grep -q "\"$m\"\|\"${m%_total}\"" render/metrics.c model/zonefield.c ||
		missing="$missing $m"
done
check "every metric the rules read is the exporter's${missing:+ (not:$missing)}" test -z "$missing"
# every alert explains itself and links its section of the runbook
bad=
for a in $(grep -oE '^ *- alert: [A-Za-z]+' dist/fragtop-rules.yml | awk '{ print $3 }'); do
	body=$(awk -v a="$a" '$0 ~ "- alert: " a "$" { f = 1; next } f && /- alert: / { f = 0 } f' dist/fragtop-rules.yml)
	anchor=$(echo "$a" | tr 'A-Z' 'a-z')
	grep -q 'description: "' <<< "$body" || bad="$bad $a:description"
	# FragtopFinding links each rule's own section (tests/cli/doctor.sh checks there is one)
	grep -qE "runbook_url: \"docs/runbook.md#($anchor|\{\{ \\\$labels.rule \}\})\"" <<< "$body" ||
		bad="$bad $a:runbook_url"
	grep -q "^## $a\$" docs/runbook.md || bad="$bad $a:runbook-section"
	grep -q 'for: ' <<< "$body" || bad="$bad $a:for"
done
check "every alert: a description, a for:, and a runbook_url to its runbook section${bad:+ (not:$bad)}" test -z "$bad"
[ $fails -eq 0 ]
