#!/bin/bash
# An experiment's state directory (var/lib/fragtop under the root,
# controls/expstate.h) as an attacker sees it, on copies of a captured
# tree (nothing of this host is written):
# - the record says the root, the knob, the original, the values tried
#   and the value left; it is a regular file, root's, 0600;
# - a tree whose var is a link (to what stands for the host's /var): no
#   record written through it, said, nothing changed;
# - a record that is a FIFO, another user's, open to others, for a
#   trigger, or of another root: not applied, said, and no hang;
# - a record whose knob someone changed since: kept, said by the next
#   command (fragtop get), applied by --restore --force;
# - --restore while an experiment runs: said, exit 1.
# usage: experiment-state.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
TMPD=$(mktemp -d)
epid=
trap '[ -n "$epid" ] && kill -9 "$epid" 2> /dev/null; rm -rf "$TMPD"' EXIT
fresh() { rm -rf "$TMPD/t"; cp -r tests/fixtures/6.18-idle "$TMPD/t"; T=$TMPD/t; K=$T/proc/sys/vm/watermark_boost_factor;
	  S=$T/var/lib/fragtop; REC=$S/experiment.restore; }
knob() { cat "$K"; }
is() { [ "$(knob)" = "$1" ]; }
killed() {	# an experiment killed -9 in its first block (0): its record left
	"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 30 --rounds 2 \
		-o "$TMPD/k.ftr" > /dev/null 2>&1 & epid=$!
	until_ok 30 is 0
	kill -9 "$epid"; wait "$epid" 2> /dev/null; epid=
}
restore() { timeout 20 "$FT" experiment --root "$T" --restore "$@" > "$TMPD/out" 2>&1; }

fresh; killed
check "the record: root, knob, original, values tried, the value left" bash -c "grep -qx 'root=$(realpath "$T")' '$REC' &&
	grep -qx 'knob=watermark_boost_factor' '$REC' && grep -qx 'original=15000' '$REC' && grep -qx 'values=0,15000' '$REC' &&
	grep -qx 'left=0' '$REC'"
check "... a regular file, 0600, the directory 0700" test -f "$REC" -a "$(stat -c %a "$REC")" = 600 -a "$(stat -c %a "$S")" = 700
restore; rc=$?
check "... applied while the knob holds what it left: exit 0, the knob back" test $rc = 0 -a "$(knob)" = 15000 -a ! -e "$REC"

# a tree whose var is a link: nothing written through it
fresh; mkdir "$TMPD/hostvar"; ln -s "$TMPD/hostvar" "$T/var"
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 2 --rounds 1 \
	-o "$TMPD/l.ftr" > /dev/null 2> "$TMPD/l.err"; rc=$?
check "var a link: refused (exit $rc), said, nothing written through it, the knob untouched" \
	test $rc = 1 -a -z "$(ls -A "$TMPD/hostvar")" -a "$(knob)" = 15000 && grep -q 'a symbolic link on the way' "$TMPD/l.err"
rm -f "$T/var"; rm -rf "$TMPD/hostvar"

# a record that is a FIFO: no hang, not applied
fresh; killed; rm -f "$REC"; mkfifo -m 600 "$REC"
restore; rc=$?
check "a FIFO for a record: no hang (exit $rc), not applied, said" test $rc = 1 -a "$(knob)" = 0 &&
	grep -q 'not a regular file' "$TMPD/out"
timeout 20 "$FT" get --root "$T" watermark_boost_factor > /dev/null 2> "$TMPD/get.err"; rc=$?
check "... every command's start goes on (get: exit $rc)" test $rc = 0

# another user's record, and one open to others
fresh; killed
chown 65534 "$REC"
restore; rc=$?
check "another user's record: not applied, said" test $rc = 1 -a "$(knob)" = 0 && grep -q "not root's own" "$TMPD/out"
chown 0 "$REC"; chmod 644 "$REC"
restore; rc=$?
check "a record open to others (0644): not applied" test $rc = 1 -a "$(knob)" = 0
chmod 600 "$REC"

# a record for a trigger, and one of another root
sed -i 's/^knob=.*/knob=drop_caches/' "$REC"
restore; rc=$?
check "a record for a trigger (drop_caches): not applied, said" test $rc = 1 && grep -q 'an action, not a setting' "$TMPD/out"
sed -i 's/^knob=.*/knob=watermark_boost_factor/; s#^root=.*#root=/elsewhere#' "$REC"
restore; rc=$?
check "a record of another root: not applied, said" test $rc = 1 -a "$(knob)" = 0 && grep -q 'belongs to the root /elsewhere' "$TMPD/out"
sed -i "s#^root=.*#root=$(realpath "$T")#" "$REC"

# the knob changed since: kept, said, --force applies it
echo 5000 > "$K"
restore; rc=$?
check "the knob changed since (5000, not the 0 left): kept, said" test $rc = 1 -a "$(knob)" = 5000 -a -s "$REC" &&
	grep -q 'is 5000, not the 0 it left (changed since)' "$TMPD/out"
"$FT" get --root "$T" watermark_boost_factor > /dev/null 2> "$TMPD/get.err"
check "... the next command says why" grep -q 'restore record is kept: watermark_boost_factor is 5000' "$TMPD/get.err"
restore --force; rc=$?
check "... --restore --force puts the original back" test $rc = 0 -a "$(knob)" = 15000 -a ! -e "$REC"

# --restore while one runs
fresh
"$FT" experiment --root "$T" --knob watermark_boost_factor --values 0,15000 --period 30 --rounds 2 \
	-o "$TMPD/r.ftr" > /dev/null 2>&1 & epid=$!
until_ok 30 is 0
restore; rc=$?
check "--restore while an experiment runs: exit 1, said, its knob left to it" test $rc = 1 -a "$(knob)" = 0 &&
	grep -q "an experiment (pid $epid) runs" "$TMPD/out"
kill -INT "$epid"; wait "$epid"; epid=
check "... which puts it back itself" is 15000
[ $fails = 0 ]
