#!/bin/bash
# Runs every test binary (plain and ASan+UBSan builds, the threaded ones
# under TSan too) and every shell test
# under tests/cli and tests/tui, none of which changes the host, then prints
# one closing line "check: N passed, N failed".  With HOST=1 it runs only
# tests/host/*.sh (plain build), which write real sysctls and run the
# adverse workload, each restoring what it changed: "check-host: ...".
set -u
B=${1:-build}
pass=0 fail=0 skipped=0
failed=()
# tests/lib.sh's skip() names what could not run here; exit 77 skips a whole test
export FT_SKIPS; FT_SKIPS=$(mktemp)
trap 'rm -f "$FT_SKIPS"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

run() {	# name command...
	local name=$1 rc cfg; shift
	# each test its own settings directory: the TUI writes fragtoprc on
	# quit, and no test may touch the real one or see another test's
	cfg=$(mktemp -d)
	FT_TEST_NAME=$name XDG_CONFIG_HOME=$cfg "$@"; rc=$?
	rm -rf "$cfg"
	if [ $rc = 0 ]; then
		pass=$((pass + 1))
	elif [ $rc = 77 ]; then
		skipped=$((skipped + 1))
	else
		fail=$((fail + 1)); failed+=("$name")
		echo "FAILED: $name" >&2
	fi
}

# the closing lines: what failed, what was skipped and why, then the count
summary() {	# what
	echo
	[ $fail -eq 0 ] || printf 'failed: %s\n' "${failed[@]}"
	if [ -s "$FT_SKIPS" ]; then
		echo "skipped here ($(wc -l < "$FT_SKIPS") parts):"
		sed 's/^/  /' "$FT_SKIPS"
	fi
	echo "$1: $pass passed, $fail failed, $skipped skipped"
	[ $fail -eq 0 ]
}

# tests that change the host (real sysctls, the adverse workload): only
# with HOST=1 (make check-host), once, with the plain build
if [ "${HOST:-}" = 1 ]; then
	for s in tests/host/*.sh; do
		[ -f "$s" ] || continue
		echo "== $s"
		run "$s" bash "$s" ./fragtop
	done
	summary check-host
	exit
fi

export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
for t in "$B"/plain/tests/test_* "$B"/san/tests/test_* "$B"/tsan/tests/test_*; do
	[ -x "$t" ] || continue
	case $t in *.o|*.d) continue;; esac
	run "$t" "$t"
done
for s in tests/cli/*.sh tests/tui/*.sh; do
	[ -f "$s" ] || continue
	echo "== $s"
	run "$s" bash "$s" ./fragtop
	run "$s (asan)" bash "$s" "$B/fragtop-san"
done
# every fuzz corpus once (FUZZ_REPLAY=1, as make check sets it)
if [ "${FUZZ_REPLAY:-}" = 1 ]; then
	run "fuzz corpora" make -s --no-print-directory fuzz-replay
fi

summary check
