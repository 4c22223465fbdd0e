#!/bin/sh
# The docs (every file under docs/, its design/ and guide/ parts, the
# README, CONTRIBUTING.md and model/RECORDING.md) name what the code has:
# every backquoted ft_/FT_ identifier in them appears in the sources, and
# every backquoted path under a folder of the tree exists.  A placeholder ends
# in "_x" (`ft_view_x`, `struct ft_x`).  Prints "FILE: NAME: why" lines
# and fails when there are any.  `make check` runs it (tests/cli/idents.sh).
# usage: check-idents.sh [TREE]   (default: this checkout)
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2
bad=0
for doc in docs/*.md docs/design/*.md docs/guide/*.md README.md CONTRIBUTING.md model/RECORDING.md; do
	[ -f "$doc" ] || continue
	spans=$(grep -o '`[^`]*`' "$doc")
	for id in $(printf '%s\n' "$spans" | grep -oE '\b(ft|FT)_[A-Za-z0-9_]+\b' | sort -u); do
		case $id in *_x | ft_x | FT_X) continue ;; esac
		if ! grep -rqw -e "$id" base kernel net model collectors controls analysis render tui cmd tests scripts lab Makefile \
			--include='*.[ch]' --include='*.sh' --include='*.py' --include=Makefile 2> /dev/null; then
			echo "$doc: $id: named but nowhere in the sources"
			bad=1
		fi
	done
	# a path that starts a span or a word (not build/lab/...), whole (not test_<module>.c, linux-VER-{a,b})
	for p in $(printf '%s\n' "$spans" | grep -oE '(^`|[ (`])(base|kernel|net|model|collectors|controls|analysis|render|tui|cmd|tests|scripts|lab|docs|dist|debian)/[A-Za-z0-9_./-]*[A-Za-z0-9_][^A-Za-z0-9_./-]' |
		grep -vE '[<{]$' | sed -E 's/^[ (`]+//; s/.$//' | sort -u); do
		[ -e "$p" ] && continue
		echo "$doc: $p: no such file or folder"
		bad=1
	done
done
[ $bad = 0 ] && echo "check-idents: every name the docs give is in the tree"
exit $bad
