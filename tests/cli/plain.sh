#!/bin/bash
# What a checkpoint saves whole holds no pointer (model/checkpoint.c): each
# struct's `state` (model/session.h and its members) is walked in the
# binary's own debug information, through nested structs, unions and
# arrays, and any pointer or function in it fails here.  C's
# _Static_assert cannot see a struct's member types; the debug info can.
# A planted struct with a pointer in an array of structs inside a nested
# struct must fail the same walk.
# usage: plain.sh FRAGTOP_BINARY
# asan: no (it reads the plain build's debug info)
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
STATES="ft_session_state ft_sample_state ft_buddyinfo_state ft_pagetypeinfo_state ft_tracedec_state
ft_events_state ft_pbmap_state ft_pbmap_zone_state ft_latring_state"

# walk BINARY STRUCT: "pointer PATH" lines, then "members N"
walk() {
	gdb -nx -batch -x "$here/plain.py" -ex "python walk('$2')" "$1" 2>&1
}

if ! command -v gdb > /dev/null; then
	skip "gdb is not installed (make deps-test installs it)"
	exit 0
fi
for st in $STATES; do
	walk "$FT" "$st" > "$tmp/$st.txt"
	n=$(sed -n 's/^members //p' "$tmp/$st.txt")
	check "struct $st is in the binary's debug info (${n:-0} plain members)" test "${n:-0}" -gt 0
	p=$(sed -n 's/^pointer //p' "$tmp/$st.txt" | head -3 | paste -sd' ')
	check "struct $st holds no pointer, however deep${p:+ (found: $p)}" test -z "$p"
done
cat > "$tmp/planted.c" <<'C'
struct inner { int n; const char *name; };
struct ft_planted_state { int a; struct { struct inner in[2]; } nested; };
struct ft_planted_state planted;
int main(void) { return planted.a; }
C
cc -g -o "$tmp/planted" "$tmp/planted.c"
p=$(walk "$tmp/planted" ft_planted_state | sed -n 's/^pointer //p')
check "a pointer in an array of structs in a nested struct is found (${p:-nothing})" \
	test "$p" = "ft_planted_state.nested.in[].name"
echo "plain.sh: $fails failure(s)"
[ $fails -eq 0 ]
