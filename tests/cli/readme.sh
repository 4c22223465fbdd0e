#!/bin/bash
# The README against the binary: its key tables are what
# `fragtop help --markdown-keys` makes from the tables the TUI runs (a key
# added, renamed or dropped fails here until the README follows), it names
# every view the TUI has, and it opens with its two commands.
# usage: readme.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$FT" help --markdown-keys > "$tmp/keys.md"; rc=$?
check "help --markdown-keys: exit 0, tables" test $rc = 0 -a "$(grep -c '^| key | what it does |$' "$tmp/keys.md")" -ge 4
sed -n '/^<!-- keys: begin -->$/,/^<!-- keys: end -->$/p' "$top/README.md" | sed '1d;$d' > "$tmp/readme-keys.md"
check "the README's key tables are the binary's (fragtop help --markdown-keys)" diff -u "$tmp/readme-keys.md" "$tmp/keys.md"
# every view key of the Everywhere table, as the README's views sentence names them
views=$(sed -n 's/^| `\([1-9 ]*\)  Tab` | \(.*\); Tab cycles |$/\2/p' "$tmp/keys.md")
check "the binary lists its views" test -n "$views"
miss=
IFS=', ' read -r -a names <<< "$views"
i=1
for v in "${names[@]}"; do
	grep -q "\`$i\` $v" "$top/README.md" || miss="$miss $i:$v"
	i=$((i + 1))
done
check "the README's views sentence names each view with its key ($views)" test -z "$miss"
[ -z "$miss" ] || echo "missing:$miss"
first=$(awk '/^```sh$/ { n++; next } /^```$/ { if (n == 1) exit } n == 1' "$top/README.md" | head -n 2)
check "the README opens with the install-and-run and the test command" test \
	"$(printf '%s\n' "$first" | grep -c -e 'make run' -e 'make check')" = 2
echo "readme.sh: $fails failure(s)"
[ $fails -eq 0 ]
