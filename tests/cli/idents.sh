#!/bin/bash
# scripts/check-idents.sh: the tree as it is passes; an identifier of
# docs/DESIGN.md renamed to one the sources do not have fails it, naming
# it, and so does a path that is not there.  The copy links the sources
# and copies the docs it changes.
# usage: idents.sh [FRAGTOP_BINARY] (unused: the check reads the sources)
# asan: no (it runs no fragtop)
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(pwd)
fresh() {
	rm -rf "$tmp/t"; mkdir -p "$tmp/t/docs"
	for d in base kernel net model collectors controls analysis render tui cmd tests scripts lab dist debian Makefile \
		README.md; do
		ln -s "$top/$d" "$tmp/t/$d"
	done
	cp -r docs/. "$tmp/t/docs/"; cp CONTRIBUTING.md "$tmp/t/"
}
fresh
check "the tree as it is passes" sh scripts/check-idents.sh "$tmp/t"
grep -q '`ft_session_apply()`' "$tmp/t/docs/DESIGN.md" || bad "DESIGN.md names ft_session_apply() (the planted rename needs it)"
# a name no source has, this test's included (it is put together here)
gone=ft_session_$$_gone
sed -i "s/\`ft_session_apply()\`/\`$gone()\`/" "$tmp/t/docs/DESIGN.md"
sh scripts/check-idents.sh "$tmp/t" > "$tmp/o" 2>&1; rc=$?
check "a renamed identifier fails it, named" eval 'test $rc != 0 && grep -q "DESIGN.md: $gone: named but nowhere" "$tmp/o"'
fresh
echo 'See `tests/cli/gone.sh` for it.' >> "$tmp/t/CONTRIBUTING.md"
sh scripts/check-idents.sh "$tmp/t" > "$tmp/o" 2>&1; rc=$?
check "a path that is not there fails it, named" eval 'test $rc != 0 && grep -q "CONTRIBUTING.md: tests/cli/gone.sh: no such file" "$tmp/o"'
# docs a reader finishes: the index within 300 lines, no docs file past 800
long=
for f in docs/*.md docs/design/*.md docs/guide/*.md README.md CONTRIBUTING.md model/RECORDING.md; do
	[ "$(wc -l < "$f")" -le 800 ] || long="$long $f($(wc -l < "$f"))"
done
check "docs/DESIGN.md within 300 lines ($(wc -l < docs/DESIGN.md))" test "$(wc -l < docs/DESIGN.md)" -le 300
check "no docs file over 800 lines${long:+ (over:$long)}" test -z "$long"
[ $fails = 0 ]
