#!/bin/bash
# scripts/check-comments.sh: the tree as it is passes; a doc comment left
# above another (the function it described moved away) fails it, named
# with its file and line; a one-line section marker naming a file may
# head a comment.  The copy links the sources and copies the file it
# changes.
# usage: comments.sh [FRAGTOP_BINARY] (unused: the check reads the sources)
# asan: no (it runs no fragtop)
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(pwd)
fresh() {
	rm -rf "$tmp/t"; mkdir -p "$tmp/t"
	for d in base model collectors controls analysis render tui cmd; do
		cp -r "$top/$d" "$tmp/t/$d"
	done
}
fresh
check "the tree as it is passes" sh scripts/check-comments.sh "$tmp/t"
printf '\n/* Returns the answer. */\n/* Something else, documented twice. */\nint ft_planted(void);\n' >> "$tmp/t/base/text.h"
n=$(($(wc -l < "$tmp/t/base/text.h") - 2))
sh scripts/check-comments.sh "$tmp/t" > "$tmp/o" 2>&1; rc=$?
check "an orphaned comment fails it, named" eval 'test $rc != 0 && grep -q "^base/text.h:$n: an orphaned comment above another" "$tmp/o"'
fresh
printf '\n/* base/text.c */\n/* Returns the answer. */\nint ft_planted(void);\n' >> "$tmp/t/base/text.h"
check "a section marker above a comment passes" sh scripts/check-comments.sh "$tmp/t"
[ $fails = 0 ]
