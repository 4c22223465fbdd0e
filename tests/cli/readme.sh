#!/bin/bash
# The README and the guide against the binary: the guide's key tables are
# what `fragtop help --markdown-keys` makes from the tables the TUI runs (a
# key added, renamed or dropped fails here until the guide follows); the
# README names every view the TUI has, says first what fragtop is, then
# gives its two commands, and stays within 150 lines; neither has a
# sentence over 60 words (scripts/check-sentences.sh, which a planted
# 61-word sentence fails).
# usage: readme.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$FT" help --markdown-keys > "$tmp/keys.md"; rc=$?
check "help --markdown-keys: exit 0, tables" test $rc = 0 -a "$(grep -c '^| key | what it does |$' "$tmp/keys.md")" -ge 4
sed -n '/^<!-- keys: begin -->$/,/^<!-- keys: end -->$/p' "$top/docs/guide/keys.md" | sed '1d;$d' > "$tmp/guide-keys.md"
check "the guide's key tables are the binary's (fragtop help --markdown-keys)" diff -u "$tmp/guide-keys.md" "$tmp/keys.md"
# every view key of the Everywhere table, as the README's views sentence names them
views=$(sed -n 's/^| `\([1-9 !]*\)  Tab` | \(.*\); Tab cycles |$/\2/p' "$tmp/keys.md")
check "the binary lists its views" test -n "$views"
miss=
IFS=', ' read -r -a names <<< "$views"
i=1
for v in "${names[@]}"; do
	k=$i; [ $i = 10 ] && k='!'	# the tenth view's key is the header marker's
	grep -q "\`$k\` $v" "$top/README.md" || miss="$miss $k:$v"
	i=$((i + 1))
done
check "the README's views sentence names each view with its key ($views)" test -z "$miss"
[ -z "$miss" ] || echo "missing:$miss"
first=$(awk '/^```sh$/ { n++; next } /^```$/ { if (n == 1) exit } n == 1' "$top/README.md" | head -n 2)
check "the README opens with the install-and-run and the test command" test \
	"$(printf '%s\n' "$first" | grep -c -e 'make run' -e 'make check')" = 2
check "... after a first line that says what fragtop is" \
	test "$(awk 'NF && !/^#/ { print; exit }' "$top/README.md")" = 'fragtop is `top` for Linux memory fragmentation: per NUMA node and zone,'
check "... before any block of code" \
	test "$(awk 'NF && !/^#/ { print NR; exit }' "$top/README.md")" -lt "$(grep -n '^```' "$top/README.md" | head -n 1 | cut -d: -f1)"
check "the README is at most 150 lines ($(wc -l < "$top/README.md"))" test "$(wc -l < "$top/README.md")" -le 150
# the README's "man ./fragtop.1": make's default goal makes the page
check "the README names man ./fragtop.1, and make's default goal makes it" \
	eval "grep -q 'man ./fragtop.1' '$top/README.md' && make -C '$top' -pq 2> /dev/null | grep -qE '^all: .*fragtop\.1'"
# sentences short enough to read aloud
guide_sentences() {	# every part of the guide
	local f
	for f in "$top/docs/guide.md" "$top"/docs/guide/*.md; do
		sh "$top/scripts/check-sentences.sh" "$f" 60 || return 1
	done
}
check "the guide has no sentence over 60 words" guide_sentences
check "nor the README" sh "$top/scripts/check-sentences.sh" "$top/README.md" 60
{ printf 'A planted one'; for w in $(seq 57); do printf ' word'; done; printf ' ends.\nShort one.\n'; } > "$tmp/long.md"
check "a planted 61-word sentence fails the check, named by its line" \
	eval "! sh '$top/scripts/check-sentences.sh' '$tmp/long.md' 60 > '$tmp/long.out' && grep -q 'long.md:1: 61 words' '$tmp/long.out'"
{ printf 'A planted one'; for w in $(seq 56); do printf ' word'; done; printf ' ends.\n'; } > "$tmp/ok.md"
check "... and one of 60 passes" sh "$top/scripts/check-sentences.sh" "$tmp/ok.md" 60
echo "readme.sh: $fails failure(s)"
[ $fails -eq 0 ]
