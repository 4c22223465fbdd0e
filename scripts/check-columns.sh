#!/bin/sh
# No line of C over MAX columns (default 100, .editorconfig's
# max_line_length), a tab counting to the next multiple of 8 as an
# editor shows it: every .c and .h of the program and of tests/.  Prints
# "FILE:LINE: N columns" for each and fails when there is any.  `make
# check` runs it (tests/cli/columns-check.sh plants one of 100 and one of
# 101).
# usage: check-columns.sh [MAX] [TREE]
set -u
max=${1:-100}
cd "${2:-$(dirname "$0")/..}" || exit 2
exit_ok=
# shellcheck disable=SC2046
find base kernel net model collectors controls analysis render tui cmd tests \
	-name '*.[ch]' -not -path 'tests/fuzz/corpus/*' 2> /dev/null | sort |
	xargs awk -v max="$max" '
	{
		c = 0
		n = length($0)
		for (i = 1; i <= n; i++)
			c = substr($0, i, 1) == "\t" ? int(c / 8) * 8 + 8 : c + 1
		if (c > max) {
			print FILENAME ":" FNR ": " c " columns"
			bad++
		}
	}
	END { exit bad > 0 }' && exit_ok=1
if [ -z "${exit_ok:-}" ]; then
	echo "check-columns: lines over $max columns (.editorconfig)" >&2
	exit 1
fi
echo "check-columns: no line of C over $max columns"
