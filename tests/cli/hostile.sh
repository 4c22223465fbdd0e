#!/bin/bash
# What a hostile tree or recording can put in fragtop's output: a host name
# with terminal escapes (a title change, an OSC 52 clipboard write), a
# kernel string with a bidirectional override and a C1 CSI, a byte that is
# not UTF-8, a zone named 'a,"b' with a screen-clear escape.  Text output
# shows them escaped (never raw), JSON stays valid UTF-8 with the controls
# as \u escapes, CSV keeps its columns.  FIFOs in a tree or given as a
# recording block nothing; links in a tree are never written through.
# Every /proc figure at its extreme reads as a figure, not a wall of digits.
# usage: hostile.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=${1:-./fragtop}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
H=$tmp/tree; cp -r tests/fixtures/6.18-idle "$H"
printf 'evil\033]0;pwned\007\033]52;c;aGk=\007\xff\n' > "$H/proc/sys/kernel/hostname"
printf '6.18\xe2\x80\xaeexe.txt\xc2\x9b31m\n' > "$H/proc/sys/kernel/osrelease"
sed -i 's/zone   Normal/zone a,"b\x1b[2J/' "$H/proc/zoneinfo" "$H/proc/buddyinfo"

# raw C0 (but tab and newline), DEL, C1 as UTF-8, bidi controls; and UTF-8 validity
raw_controls() { LC_ALL=C grep -cP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c' "$1"; }
clean() { [ "$(raw_controls "$1")" = 0 ] && iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1; }

"$FT" snapshot --root "$H" > "$tmp/s.txt" 2> "$tmp/s.err"; rc=$?
check "snapshot text: exit 0" test $rc = 0
check "snapshot text: no raw control, valid UTF-8" clean "$tmp/s.txt"
check "snapshot text: the escapes shown as text" grep -qF 'evil\x1b]0;pwned\x07\x1b]52;c;aGk=\x07\xff' "$tmp/s.txt"
check "snapshot text: the bidi override and C1 shown as text" grep -qF '6.18\u{202e}exe.txt\u{009b}31m' "$tmp/s.txt"
"$FT" snapshot --json --root "$H" > "$tmp/s.json"
check "snapshot JSON: no raw control, valid UTF-8" clean "$tmp/s.json"
check "snapshot JSON: the names kept, as escapes" jqe '(.hostname | startswith("evil\u001b]0;pwned")) and
	(.kernel | contains("\u202e")) and (.zones[2].zone == "a,\"b\u001b[2J")' "$tmp/s.json"

"$FT" record -o "$tmp/h.ftr" --root "$H" -i 0.2 -t 1 2> /dev/null
"$FT" report "$tmp/h.ftr" > "$tmp/r.txt"; rc=$?
check "report text: exit 0, no raw control" test $rc = 0 -a "$(raw_controls "$tmp/r.txt")" = 0
# doctor, preflight and report's errors on the hostile sources: stdout and stderr alike
"$FT" doctor "$tmp/h.ftr" > "$tmp/d.txt" 2>&1
"$FT" doctor --timeline "$tmp/h.ftr" >> "$tmp/d.txt" 2>&1
check "doctor (and --timeline) on it: no raw control" test "$(raw_controls "$tmp/d.txt")" = 0
"$FT" preflight --root "$H" --need 1x2M > "$tmp/p.txt" 2>&1
"$FT" preflight --root "$H" --need 1x1G > "$tmp/p.txt" 2>&1
check "preflight on the tree: no raw control" test "$(raw_controls "$tmp/p.txt")" = 0 -a -s "$tmp/p.txt"
"$FT" report "$tmp/h.ftr" --from $'\e]0;x\a' > "$tmp/re.txt" 2>&1
check "report's error quoting a hostile argument: no raw control" test "$(raw_controls "$tmp/re.txt")" = 0 -a -s "$tmp/re.txt"
"$FT" report --json "$tmp/h.ftr" > "$tmp/r.json"
check "report JSON: valid, no raw control" clean "$tmp/r.json"
check "report JSON: parses" jqe '.samples > 0' "$tmp/r.json"
"$FT" export "$tmp/h.ftr" --csv > "$tmp/e.csv"
check "export CSV: no raw control" clean "$tmp/e.csv"
check "export CSV: the zone name quoted" grep -qF '"N0_a,""b\x1b[2J_free_pages"' "$tmp/e.csv"
# every line has the header's number of fields (quotes respected)
fields() { sed -E 's/"([^"]|"")*"/Q/g' "$1" | awk -F, '{ print NF }' | sort -u; }
check "export CSV: every row has the header's columns" test "$(fields "$tmp/e.csv" | wc -l)" = 1
"$FT" export "$tmp/h.ftr" --json > "$tmp/e.json"
check "export JSON: valid, no raw control" clean "$tmp/e.json"

# FIFOs in a tree: nothing blocks (each command under a 20 s guard), each says why
F=$tmp/fifo; cp -r tests/fixtures/6.18-idle "$F"
rm "$F/proc/vmstat" "$F/proc/sys/vm/watermark_boost_factor"
mkfifo "$F/proc/vmstat" "$F/proc/sys/vm/watermark_boost_factor"
timeout 20 "$FT" snapshot --root "$F" > /dev/null 2> "$tmp/f.err"; rc=$?
check "FIFO in a tree: snapshot does not hang, says why" test $rc = 0 -a -n "$(grep 'vmstat: not a regular file' "$tmp/f.err")"
timeout 20 "$FT" get --root "$F" > "$tmp/f.out" 2>&1; rc=$?
check "FIFO in a tree: get does not hang" test $rc != 124 -a -n "$(grep 'not a regular file' "$tmp/f.out")"
timeout 20 "$FT" set --root "$F" --dry-run watermark_boost_factor=5 > /dev/null 2>&1; rc=$?
check "FIFO in a tree: set --dry-run does not hang" test $rc != 124
timeout 20 "$FT" set --root "$F" watermark_boost_factor=5 > /dev/null 2> "$tmp/f.err"; rc=$?
check "FIFO in a tree: set refuses, nothing written" test $rc = 1 -a -n "$(grep 'nothing changed' "$tmp/f.err")"
timeout 20 "$FT" record -o "$tmp/f.ftr" --root "$F" -t 1 > /dev/null 2>&1; rc=$?
check "FIFO in a tree: record does not hang (one clean stop)" test $rc = 0
timeout 20 "$FT" report "$F/proc/vmstat" > /dev/null 2> "$tmp/f.err"; rc=$?
check "report on a FIFO: refused at once, says why" test $rc = 1 -a -n "$(grep 'not a regular file' "$tmp/f.err")"
timeout 20 "$FT" report "$tmp" > /dev/null 2> "$tmp/f.err"; rc=$?
check "report on a directory: says so" test $rc = 1 -a -n "$(grep 'a directory' "$tmp/f.err")"

# a tree whose directory is a link elsewhere: set never writes through it
L=$tmp/linked; cp -r tests/fixtures/6.18-idle "$L"
mkdir -p "$tmp/decoy"; cp -r "$L/proc/sys/vm" "$tmp/decoy/vm"; rm -rf "$L/proc/sys/vm"
ln -s "$tmp/decoy/vm" "$L/proc/sys/vm"
before=$(cat "$tmp/decoy/vm/watermark_boost_factor")
"$FT" set --root "$L" watermark_boost_factor=4321 > /dev/null 2> "$tmp/l.err"; rc=$?
check "a linked directory in a tree: set refuses" test $rc = 1 -a -n "$(grep 'symbolic link' "$tmp/l.err")"
check "a linked directory in a tree: the link's target unchanged" \
	test "$(cat "$tmp/decoy/vm/watermark_boost_factor")" = "$before"
ln -sf "$tmp/decoy/vm/watermark_boost_factor" "$F/proc/sys/vm/extfrag_threshold"
"$FT" set --root "$F" extfrag_threshold=600 > /dev/null 2>&1; rc=$?
check "a linked knob file: set refuses, the target unchanged" test $rc = 1 -a \
	"$(cat "$tmp/decoy/vm/watermark_boost_factor")" = "$before"

# every /proc figure at 2^64-1, 0 and 2^63-1 by turns (tests/recordings/forged/extremes.ftr,
# `make crafted`): no figure spelled out to hundreds of digits, no "nan", no crash
X=tests/recordings/forged/extremes.ftr
spelled_out() { grep -cE 'nan|[0-9]{17,}\.[0-9]|[0-9]{21,}' "$1"; }
for c in report doctor "export --csv"; do
	n=${c%% *}
	$FT $c "$X" > "$tmp/x-$n.out" 2>&1; rc=$?
	check "$c of every figure at its extreme: exit 0, no raw control, nothing spelled out" \
		test $rc = 0 -a "$(raw_controls "$tmp/x-$n.out")" = 0 -a "$(spelled_out "$tmp/x-$n.out")" = 0
done
"$FT" report --json "$X" > "$tmp/x.json" 2>&1
check "report --json of it: valid JSON" jqe '.samples == 18' "$tmp/x.json"

echo "hostile.sh: $fails failure(s)"
[ $fails -eq 0 ]
