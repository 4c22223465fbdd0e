#!/bin/sh
# No orphaned doc comment: a comment that ends on the line before another
# comment at the start of a line documents nothing (a function moved away
# from it, or a second comment was written above the first).  A one-line
# section marker naming a file (`/* collectors/live.c */`) may head a
# comment.  Prints "FILE:LINE: an orphaned comment above another" for each
# and fails when any.
# usage: check-comments.sh [DIR]   (default: the tree here)
set -u
top=${1:-.}
cd "$top" || exit 2
bad=0
for f in $(find base kernel net model collectors controls analysis render tui cmd -name '*.[ch]' | sort); do
	awk -v f="$f" '
	NR > 2 && prev ~ /\*\/[ \t]*$/ && (prev ~ /^\/\*/ || prev ~ /^ \*\//) && $0 ~ /^\/\*/ &&
	    prev !~ /^\/\* [a-z]+\/[a-z_0-9]+\.[ch] \*\/$/ {
		printf "%s:%d: an orphaned comment above another\n", f, start; bad = 1
	}
	/^\/\*/ { start = NR }
	{ prev = $0 }
	END { exit bad }' "$f" || bad=1
done
[ $bad = 0 ] && echo "check-comments: no doc comment left above another"
exit $bad
