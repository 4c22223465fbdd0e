#!/bin/bash
# fragtop set / get: validation, refusal with nothing changed, absent knobs,
# roll-back of a half-applied command, non-root, against a fake root (the
# host's own knobs are tests/host/set.sh's).
# usage: controls.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=${1:-./fragtop}
tmp=$(mktemp -d)
BOOST=/proc/sys/vm/watermark_boost_factor
orig_boost=
restore() {
	if [ -n "$orig_boost" ] && [ "$(cat $BOOST)" != "$orig_boost" ]; then
		echo "$orig_boost" > $BOOST && echo "restored $BOOST to $orig_boost"
	fi
	rm -rf "$tmp"
}
trap restore EXIT

# A fake root: this project's 6.18 capture of /proc/sys/vm and THP, plus the
# write-only triggers.
R=$tmp/root
mkdir -p "$R/proc/sys" "$R/sys/kernel/mm" "$R/sys/devices/system/node/node0"
cp -r tests/fixtures/6.18-idle/proc/sys/vm "$R/proc/sys/"
cp -r tests/fixtures/6.18-idle/sys/kernel/mm/transparent_hugepage "$R/sys/kernel/mm/"
: > "$R/proc/sys/vm/compact_memory"; : > "$R/proc/sys/vm/drop_caches"
: > "$R/sys/devices/system/node/node0/compact"
snap() { (cd "$R" && find . -type f -exec md5sum {} + | sort); }

"$FT" get --root "$R" > "$tmp/get.txt"; rc=$?
check "get: exit 0" test $rc = 0
check "get: lists boost with value and default" \
	grep -Eq '^watermark_boost_factor +15000 +15000 ' "$tmp/get.txt"
check "get: fragment_stall_order absent here" grep -Eq '^fragment_stall_order +absent' "$tmp/get.txt"
check "get: one knob prints the bare value" test "$("$FT" get --root "$R" watermark_boost_factor)" = 15000
check "get: vm. prefix accepted" test "$("$FT" get --root "$R" vm.extfrag_threshold)" = 500
check "get: selector value" test "$("$FT" get --root "$R" thp_enabled)" = madvise
"$FT" get --root "$R" nosuch > /dev/null 2> "$tmp/e"; rc=$?
check "get: unknown knob exits 1 with a message" test $rc = 1 -a -n "$(grep "unknown knob 'nosuch'" "$tmp/e")"
"$FT" get --root "$R" fragment_stall_order > /dev/null 2> "$tmp/e"; rc=$?
check "get: absent knob exits 1, says why" test $rc = 1 -a -n "$(grep 'absent on this kernel' "$tmp/e")"
if command -v jq > /dev/null; then
	"$FT" get --root "$R" --json > "$tmp/get.json"
	check "get --json: every knob, typed values" jqe --argjson n "$("$FT" get --root "$R" | wc -l)" '(.knobs | length) == $n - 1 and
		(.knobs[] | select(.name == "thp_64kB") | .available == false) and
		(.knobs[] | select(.name == "watermark_boost_factor") | .value == 15000 and .default == 15000)
		and (.knobs[] | select(.name == "fragment_stall_order") | .available == false)
		and (.knobs[] | select(.name == "thp_enabled") | .value == "madvise" and (.options | length) == 3)' \
		"$tmp/get.json"
fi

"$FT" set --root "$R" watermark_boost_factor=4321 > "$tmp/o"; rc=$?
check "set: exit 0" test $rc = 0
check "set: reports old -> new" grep -qx 'watermark_boost_factor 15000 -> 4321' "$tmp/o"
check "set: file changed" test "$(cat "$R/proc/sys/vm/watermark_boost_factor")" = 4321

before=$(snap)
for v in -5 abc "" 1.5 99999999999999999999; do
	"$FT" set --root "$R" "watermark_boost_factor=$v" > /dev/null 2> "$tmp/e"; rc=$?
	check "set boost='$v': refused with exit 1" test $rc = 1
	check "set boost='$v': says nothing changed" grep -q "nothing changed" "$tmp/e"
done
check "set -5: the reason" grep -q "watermark_boost_factor: -5 is below the minimum 0" <("$FT" set --root "$R" watermark_boost_factor=-5 2>&1)
check "set abc: the reason" grep -q "'abc' is not an integer" <("$FT" set --root "$R" watermark_boost_factor=abc 2>&1)
"$FT" set --root "$R" nosuch=1 2> "$tmp/e"; rc=$?
check "set unknown knob: exit 1, message" test $rc = 1 -a -n "$(grep "unknown knob 'nosuch'" "$tmp/e")"
"$FT" set --root "$R" fragment_stall_order=2 2> "$tmp/e"; rc=$?
check "set absent knob: exit 1, says absent" test $rc = 1 -a -n "$(grep "absent on this kernel" "$tmp/e")"
"$FT" set --root "$R" thp_enabled=sometimes 2> "$tmp/e"; rc=$?
check "set bad option: lists the options" grep -q "not one of always, madvise, never" "$tmp/e"
# one bad value among good ones: none is written
"$FT" set --root "$R" watermark_scale_factor=100 extfrag_threshold=5000 2> "$tmp/e"; rc=$?
check "set several, one invalid: exit 1" test $rc = 1
check "refusals changed no file" test "$(snap)" = "$before"
"$FT" set --root "$R" watermark_boost_factor 2> /dev/null; rc=$?
check "set without =: usage, exit 2" test $rc = 2
"$FT" set --root "$R" --dry-run watermark_boost_factor=0 > "$tmp/o"; rc=$?
check "--dry-run: valid, nothing written" test $rc = 0 -a "$(snap)" = "$before"

# a write that fails after another succeeded: the first is put back
mv "$R/proc/sys/vm/extfrag_threshold" "$tmp/x"; mkdir "$R/proc/sys/vm/extfrag_threshold"
echo 500 > "$tmp/dummy"
"$FT" set --root "$R" watermark_scale_factor=100 extfrag_threshold=600 > "$tmp/o" 2> "$tmp/e"; rc=$?
check "half-applied set: exit 1" test $rc = 1
check "half-applied set: names the failure" grep -q "extfrag_threshold: cannot read the current value" "$tmp/e"
check "half-applied set: the first change is put back" \
	test "$(cat "$R/proc/sys/vm/watermark_scale_factor")" = 10
rmdir "$R/proc/sys/vm/extfrag_threshold"; mv "$tmp/x" "$R/proc/sys/vm/extfrag_threshold"

"$FT" set --root "$R" thp_enabled=never compact_node=0 > "$tmp/o"; rc=$?
check "set selector and per-node action" test $rc = 0 -a "$(cat "$R/sys/devices/system/node/node0/compact")" = 1
check "selector written" test "$("$FT" get --root "$R" thp_enabled)" = never
"$FT" set --root "$R" compact_node=3 2> "$tmp/e"; rc=$?
check "set compact_node of a missing node: exit 1" test $rc = 1 -a -n "$(grep 'there is no node 3' "$tmp/e")"

if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	nr=$(mktemp -d); chmod 755 "$nr" "$tmp"; cp "$FT" "$nr/fragtop"
	before=$(snap)
	setpriv --reuid=65534 --regid=65534 --clear-groups "$nr/fragtop" set --root "$R" \
		watermark_boost_factor=1 2> "$tmp/e"; rc=$?
	check "non-root set: exit 1" test $rc = 1
	check "non-root set: permission denied (needs root)" grep -q "permission denied (needs root)" "$tmp/e"
	check "non-root set: nothing changed" test "$(snap)" = "$before"
	rm -rf "$nr"
fi

# this kernel's own knobs: tests/host/set.sh (make check-host)

echo "controls.sh: $fails failure(s)"
[ $fails -eq 0 ]
