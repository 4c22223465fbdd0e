#!/bin/bash
# The man page: built from the binary's own tables, mandoc finds no
# warning in it, every command and every long option of `fragtop help`
# and `fragtop help COMMAND` is in it, and the keys; make install puts
# the binary, the page, the completion and the unit under DESTDIR; the
# completion offers commands, options and knob names.
# usage: man.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/mkman.sh "$FT" 0.1 > "$tmp/fragtop.1"; rc=$?
check "the page builds" test $rc = 0 -a -s "$tmp/fragtop.1"
if command -v mandoc > /dev/null; then
	mandoc -Tlint -Wwarning "$tmp/fragtop.1" > "$tmp/lint" 2>&1
	check "mandoc -Tlint: no warning or error" test ! -s "$tmp/lint"
	[ -s "$tmp/lint" ] && head "$tmp/lint"
	mandoc -Tascii "$tmp/fragtop.1" | col -b > "$tmp/page.txt"
else
	man -l "$tmp/fragtop.1" 2> /dev/null | col -b > "$tmp/page.txt"
fi
for s in NAME SYNOPSIS DESCRIPTION "COMMANDS AND OPTIONS" KEYS FILES ENVIRONMENT "EXIT STATUS" EXAMPLES; do
	check "section $s" grep -q "^$s" "$tmp/page.txt"
done
missing=
for cmd in $("$FT" help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 && $1 != "help" { print $1 }'); do
	grep -q "fragtop $cmd" "$tmp/page.txt" || missing="$missing $cmd"
	for o in $("$FT" help "$cmd" | grep -oE -- '--[a-z][a-z0-9-]*' | grep -vx -- --help | sort -u); do
		grep -q -- "$o" "$tmp/page.txt" || missing="$missing $cmd$o"
	done
done
for o in $("$FT" help | sed -n '/^usage: fragtop \[OPTIONS\]/,$p' | grep -oE -- '--[a-z][a-z0-9-]*' | grep -vx -- --help | sort -u); do
	grep -q -- "$o" "$tmp/page.txt" || missing="$missing $o"
done
check "every command and option of --help is in the page${missing:+ (missing:$missing)}" test -z "$missing"
check "the keys: b B, the history cursor, the process sort" test -n "$(grep -E '^ +b B' "$tmp/page.txt")" -a \
	-n "$(grep -E 'Left Right' "$tmp/page.txt")" -a -n "$(grep -E '^ +s S F6' "$tmp/page.txt")"
check "-V and --version" test "$("$FT" -V)" = "fragtop 0.1" -a "$("$FT" --version)" = "fragtop 0.1"
# global options go anywhere, as the page says: beside --version too
check "--no-config --version, --no-color -V, --version --no-config" \
	test "$("$FT" --no-config --version)" = "fragtop 0.1" -a "$("$FT" --no-color -V)" = "fragtop 0.1" \
	-a "$("$FT" --version --no-config)" = "fragtop 0.1"
check "... and --version beside an unknown option is refused" eval "! '$FT' --no-color --version --bogus > /dev/null 2>&1"
# an option's bad value is quoted once, with what it should be
by=$("$FT" report --by bogus "$(dirname "$0")/../recordings/adverse-6.18.ftr" 2>&1 | head -n 1)
check "report --by bogus: says it once ($by)" test "$by" = "fragtop report: --by: 'bogus' is neither process nor cgroup"

make -s install DESTDIR="$tmp/root" PREFIX=/usr > "$tmp/install.log" 2>&1; rc=$?
check "make install DESTDIR: binary, page, completion, unit, the alerts' runbook" test $rc = 0 -a -x "$tmp/root/usr/bin/fragtop" -a \
	-s "$tmp/root/usr/share/fragtop/runbook.md" -a \
	-s "$tmp/root/usr/share/man/man1/fragtop.1" -a -s "$tmp/root/usr/share/bash-completion/completions/fragtop" -a \
	-s "$tmp/root/lib/systemd/system/fragtop-record.service"
if [ -r /usr/share/bash-completion/bash_completion ]; then
	mkdir -p "$tmp/bin" && ln -sf "$FT" "$tmp/bin/fragtop"	# the completion runs "fragtop"
	comp() {	# WORDS...: what the completion offers for the last word
		PATH="$tmp/bin:$PATH" bash -c '
			. /usr/share/bash-completion/bash_completion
			. dist/fragtop.bash-completion
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			_fragtop; printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
	}
	check "completion: commands" test -n "$(comp fragtop rep | grep -x report)" -a -n "$(comp fragtop rep | grep -x replay)"
	check "completion: a command's options" test -n "$(comp fragtop record --ro | grep -x -- --rotate)"
	check "completion: knob names for set" test -n "$(comp fragtop set watermark_b | grep -x 'watermark_boost_factor=')"
	check "completion: the TUI's options once each" test -z "$(comp fragtop -- | sort | uniq -d)" -a \
		-n "$(comp fragtop -- | grep -x -- --root)"
	check "completion: help offers the commands" test -n "$(comp fragtop help rep | grep -x report)"
	check "completion: a selector knob's words for set" \
		test "$(comp fragtop set thp_enabled=m)" = "thp_enabled=madvise"
	check "completion: a numeric knob offers no words" test -z "$(comp fragtop set watermark_boost_factor=)"
	check "completion: a command after a global option" test -n "$(comp fragtop --no-config rep | grep -x replay)"
	# not in PATH: the fragtop being completed is asked
	comp_here() {
		bash -c '. /usr/share/bash-completion/bash_completion; . dist/fragtop.bash-completion
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			_fragtop; printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
	}
	check "completion: ./fragtop, not in PATH, completes too" test -n "$(comp_here "$FT" rep | grep -x report)"
fi
echo "man.sh: $fails failure(s)"
[ $fails -eq 0 ]
