#!/bin/bash
# record --dir cannot be redirected mid-run: another user who owns the
# directory above root's --dir swaps it for a link to a directory of
# their own while the recorder rotates every second.  The recordings go
# on into the directory the recorder checked and opened at the start
# (moved aside, it is the same directory), and none lands in theirs.
# Before, each rotation resolved DIR by name again: root's next
# recordings went to the link's target.  Root only (it acts as nobody
# through runuser).
# usage: record-dir-swap.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
[ "$(id -u)" = 0 ] || skip_all "acting as another user needs root"
command -v runuser > /dev/null || skip_all "runuser (util-linux) not installed"
id nobody > /dev/null 2>&1 || skip_all "no user nobody"
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
chmod 711 "$T"
mkdir "$T/parent"
chown nobody "$T/parent"
chmod 755 "$T/parent"
"$FT" record --dir "$T/parent/rec" --rotate 1 --root tests/fixtures/6.18-idle -i 0.2 2> "$T/err" & pid=$!
n_in() { find "$1" -maxdepth 1 -name 'fragtop-*.ftr' 2> /dev/null | wc -l; }
has() { [ "$(n_in "$1")" -ge "$2" ]; }
until_ok 30 has "$T/parent/rec" 2 || { cat "$T/err"; bad "the recorder did not rotate"; }
runuser -u nobody -- sh -c "mv '$T/parent/rec' '$T/parent/rec.old' && mkdir '$T/parent/evil' &&
	ln -s evil '$T/parent/rec'"
check "nobody swapped the directory for a link" test -L "$T/parent/rec"
before=$(n_in "$T/parent/rec.old")
until_ok 30 has "$T/parent/rec.old" $((before + 3))
check "the recordings go on where they began ($(n_in "$T/parent/rec.old") files, $before before the swap)" \
	has "$T/parent/rec.old" $((before + 3))
check "none went to the link's target" test "$(n_in "$T/parent/evil")" = 0
check "... and what it says names the directory as given" grep -q "recording to $T/parent/rec/fragtop-" "$T/err"
check "... never /proc/self/fd" eval '! grep -q /proc/self/fd "$T/err"'
[ $fails = 0 ]
