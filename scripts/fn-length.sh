#!/bin/sh
# The longest functions of every folder of the program (cmd/, render/,
# tui/, analysis/, model/, net/, kernel/, collectors/, controls/, base/):
# prints the ten longest, and fails when one is over MAX lines (default 100), counted from
# the line of its name to its closing brace.  `make check` runs it.
# usage: fn-length.sh [MAX] [DIR...]
set -u
cd "$(dirname "$0")/.." || exit 2
mkdir -p build
max=${1:-100}
[ $# -gt 0 ] && shift
dirs=${*:-cmd render tui analysis model net kernel collectors controls base}
for d in $dirs; do
	for f in "$d"/*.c; do
		[ -f "$f" ] || continue
		# a function starts at a "{" alone in column 0; its name is on the
		# nearest line above that starts a declaration (column 0, not a
		# comment or a brace)
		awk -v file="$f" '
			/^[A-Za-z_].*\(/ { head = FNR; name = $0 }
			/^\{$/ { start = head; fn = name; inside = 1; next }
			/^\}/ && inside {
				inside = 0
				sub(/\(.*/, "", fn); n = split(fn, w, /[ *]+/)
				printf "%d %s:%d %s\n", FNR - start + 1, file, start, w[n]
			}' "$f"
	done
done | sort -rn > build/.fn-length 2>/dev/null || true
echo "the longest functions in $dirs:"
head -10 build/.fn-length | awk '{ printf "  %4d  %s  %s\n", $1, $2, $3 }'
over=$(awk -v m="$max" '$1 > m' build/.fn-length | wc -l)
if [ "$over" -gt 0 ]; then
	echo "fn-length: $over functions over $max lines (split them)" >&2
	exit 1
fi
echo "fn-length: none over $max lines"
