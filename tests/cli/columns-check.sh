#!/bin/bash
# scripts/check-columns.sh: the tree as it is passes; a planted line of
# exactly 100 columns (tabs to multiples of 8) passes, one of 101 fails,
# named with its file, line and width.
# usage: columns-check.sh [FRAGTOP_BINARY] (unused: the check reads the sources)
# asan: no (it runs no fragtop)
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(pwd)
check "the tree as it is passes" sh scripts/check-columns.sh
mkdir -p "$tmp/t/base"
line() {	# COLUMNS: a tab, then text to COLUMNS columns
	printf '\t/* %s */\n' "$(printf '%*s' $(($1 - 8 - 6)) '' | tr ' ' x)"
}
{ echo 'int a;'; line 100; } > "$tmp/t/base/a.c"
check "a line of 100 columns passes" sh "$top/scripts/check-columns.sh" 100 "$tmp/t"
{ echo 'int a;'; line 101; } > "$tmp/t/base/a.c"
sh "$top/scripts/check-columns.sh" 100 "$tmp/t" > "$tmp/o" 2>&1; rc=$?
check "a line of 101 fails, named ($(head -1 "$tmp/o"))" \
	eval 'test $rc != 0 && grep -q "^base/a.c:2: 101 columns" "$tmp/o"'
[ $fails = 0 ]
