#!/bin/bash
# The command line as git's users expect it: a mistyped command, option or
# knob gets "did you mean" with the closest name, in a few lines rather
# than the whole usage; an option missing its value is named; `version`
# is a command; the global flags (--no-config, --no-color) go before or
# after any command, and options before a command go to it.
# usage: typos.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
R=tests/fixtures/6.18-idle
S=tests/recordings/adverse-6.18.ftr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

err() { "$FT" "$@" > "$tmp/out" 2> "$tmp/err"; echo $? > "$tmp/rc"; }
rc() { cat "$tmp/rc"; }

err snapshto
check "a mistyped command: exit 2, did you mean 'snapshot'" \
	test "$(rc)" = 2 -a -n "$(grep -F "'snapshto' is not a fragtop command; did you mean 'snapshot'?" "$tmp/err")"
check "... in two lines, not the whole usage" test "$(wc -l < "$tmp/err")" -le 2
err xyzzy
check "a word far from every command: no guess" \
	test "$(rc)" = 2 -a -n "$(grep -Fx "fragtop: 'xyzzy' is not a fragtop command" "$tmp/err")"
err help snapshto
check "help of a mistyped command: did you mean" grep -qF "did you mean 'snapshot'?" "$tmp/err"
err snapshot --jsn --root "$R"
check "a mistyped long option: exit 2, did you mean --json" \
	test "$(rc)" = 2 -a -n "$(grep -F -- "--jsn: unknown option; did you mean --json?" "$tmp/err")"
err --intervall 2
check "the TUI's too: did you mean --interval" grep -qF -- "--intervall: unknown option; did you mean --interval?" "$tmp/err"
err snapshot --root
check "an option without its value is named, with what it takes" \
	test "$(rc)" = 2 -a -n "$(grep -F -- "--root needs a value (DIR)" "$tmp/err")"
err -i
check "... a short one too" grep -qF -- "-i needs a value (SECS)" "$tmp/err"
err get watermark_bost_factor --root "$R"
check "a mistyped knob: did you mean watermark_boost_factor" \
	test "$(rc)" = 1 -a -n "$(grep -F "unknown knob 'watermark_bost_factor'; did you mean watermark_boost_factor?" "$tmp/err")"
err version
check "version: a command, as --version" test "$(rc)" = 0 -a "$(cat "$tmp/out")" = "$("$FT" --version)"
# global flags and options before the command
"$FT" report "$S" > "$tmp/plain.txt" 2> /dev/null
err --no-color report "$S"
check "--no-color before report: taken, the same report" cmp -s "$tmp/out" "$tmp/plain.txt"
err report --no-config "$S"
check "--no-config after report: taken (a no-op there)" cmp -s "$tmp/out" "$tmp/plain.txt"
err --root "$R" snapshot --json
check "--root DIR before snapshot: goes to snapshot" jqe '.zones | length > 0' "$tmp/out"
err --no-config --no-color help
check "global flags before help: the usage" test "$(rc)" = 0 -a -n "$(grep -F 'Every command takes --no-config and --no-color' "$tmp/out")"
err -d 2 snapshot --root "$R"
check "an option before a command that does not take it: that command says so" \
	test "$(rc)" = 2 -a -n "$(grep -F 'fragtop snapshot: -d: unknown option' "$tmp/err")"
echo "typos.sh: $fails failure(s)"
[ $fails -eq 0 ]
