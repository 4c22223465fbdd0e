#!/bin/bash
# Runs every test binary (plain and ASan+UBSan builds, the threaded ones
# under TSan too) and every shell test under tests/cli and tests/tui, none
# of which changes the host, FT_JOBS at a time (default: twice the CPUs:
# most tests wait on a terminal, a socket or a child), each one's output
# printed whole when it ends; then the ten slowest with their times and one
# closing line "check: N passed, N failed".  With HOST=1 it runs only
# tests/host/*.sh (plain build): they write real sysctls and run the adverse
# workload, each restoring what it changed, one at a time, and beside them
# the ones that touch neither (run_host): "check-host: ...".
# A test's name filters (FT_TESTS, an extended regex on the names) pick some.
# usage: run.sh [BUILD_DIR]
set -u
B=${1:-build}
pass=0 fail=0 skipped=0
failed=()
# tests/lib.sh's skip() names what could not run here; exit 77 skips a whole test
export FT_SKIPS; FT_SKIPS=$(mktemp)
OUT=$(mktemp -d)
trap 'rm -rf "$FT_SKIPS" "$OUT"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
TIMES=$B/test-times${HOST:+-host}.txt	# the last run's times: the slowest start first next time
jobs_max=${FT_JOBS:-$(( $(nproc 2> /dev/null || echo 2) * 2 ))}

names=() cmds=() serial=()
add() {	# name command...: a test to run (unless FT_TESTS leaves it out)
	[ -n "${FT_TESTS:-}" ] && ! [[ $1 =~ $FT_TESTS ]] && return
	names+=("$1")
	cmds+=("$(printf '%q ' "${@:2}")")
	serial+=(0)
}
# A shell test whose head says "# serial: why" compares live values of
# this host over seconds: it runs after the others, alone.
add_sh() {	# name script binary
	add "$1" bash "$2" "$3"
	grep -q '^# serial:' "$2" && serial[$((${#serial[@]} - 1))]=1
	return 0
}

# One test, in the background: its own settings directory (the TUI writes
# fragtoprc on quit, and no test may touch the real one or see another
# test's), its output to $OUT/N.log, then "rc seconds" to $OUT/N.rc.
start() {	# index
	local i=$1
	(
		cfg=$(mktemp -d)
		t0=$EPOCHREALTIME
		export FT_TEST_NAME=${names[$i]} XDG_CONFIG_HOME=$cfg
		eval "${cmds[$i]}" < /dev/null > "$OUT/$i.log" 2>&1
		rc=$?
		t1=$EPOCHREALTIME
		rm -rf "$cfg"
		echo "$rc $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" > "$OUT/$i.rc"
	) &
	pids[$!]=$i
}

# A test that ended: its output, then the count.
finish() {	# index
	local i=$1 rc secs
	read -r rc secs < "$OUT/$i.rc"
	echo "== ${names[$i]} (${secs} s)"
	cat "$OUT/$i.log"
	echo "${secs} ${names[$i]}" >> "$OUT/times"
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
	elif [ "$rc" = 77 ]; then
		skipped=$((skipped + 1))
	else
		fail=$((fail + 1)); failed+=("${names[$i]}")
		echo "FAILED: ${names[$i]} (exit $rc)" >&2
	fi
}

# Run every added test, the slowest of the last run first; the serial ones
# after the rest, one at a time.
run_all() {
	local order=() i running=0 done_pid most=$jobs_max
	declare -gA pids=()
	if [ -s "$TIMES" ]; then
		mapfile -t order < <(for i in "${!names[@]}"; do
			t=$(awk -v n="${names[$i]}" '{ s = $1; $1 = ""; sub(/^ /, ""); if ($0 == n) { print s; exit } }' "$TIMES")
			echo "${serial[$i]} ${t:-0} $i"
		done | sort -k1,1n -k2,2rn | awk '{ print $3 }')
	else
		mapfile -t order < <(for i in "${!names[@]}"; do echo "${serial[$i]} $i"; done | sort -s -k1,1n | awk '{ print $2 }')
	fi
	for i in "${order[@]}"; do
		[ "${serial[$i]}" = 1 ] && most=1
		while [ "$running" -ge "$most" ]; do
			wait -n -p done_pid
			finish "${pids[$done_pid]}"; unset "pids[$done_pid]"
			running=$((running - 1))
		done
		start "$i"
		running=$((running + 1))
	done
	while [ "$running" -gt 0 ]; do
		wait -n -p done_pid
		finish "${pids[$done_pid]}"; unset "pids[$done_pid]"
		running=$((running - 1))
	done
}

# The host tests in two lanes: one at a time on the host's memory and vm
# knobs (the main lane, by "# host-order: N" in the test's head, 50 unless
# said: the ones that measure rates go last), and beside them, one at a
# time, those that touch neither ("# host: beside": a chroot, a package,
# network namespaces).  A test that counts events to the last one or
# measures a sampler's rate ("# host: alone") starts only once the side
# lane is done: a build in a chroot beside it starved an exporter's
# trace drain for seconds once, and it lost events.
run_host() {
	local main=() side=() i f o done_pid busy0=0 busy1=0
	declare -gA pids=() lane_of=()
	for i in "${!names[@]}"; do
		f=${names[$i]}
		if grep -q '^# host: beside' "$f"; then
			side+=("$i")
		else
			o=$(sed -n 's/^# host-order: \([0-9]*\).*/\1/p' "$f" | head -n 1)
			main+=("${o:-50} $i")
		fi
	done
	mapfile -t main < <(printf '%s\n' "${main[@]}" | sort -s -n -k1,1 | awk 'NF { print $2 }')
	while [ ${#main[@]} -gt 0 ] || [ ${#side[@]} -gt 0 ] || [ $busy0 = 1 ] || [ $busy1 = 1 ]; do
		if [ $busy0 = 0 ] && [ ${#main[@]} -gt 0 ] &&
			! { grep -q '^# host: alone' "${names[${main[0]}]}" && { [ $busy1 = 1 ] || [ ${#side[@]} -gt 0 ]; }; }; then
			start "${main[0]}"; lane_of[$!]=0; main=("${main[@]:1}"); busy0=1
			continue
		fi
		if [ $busy1 = 0 ] && [ ${#side[@]} -gt 0 ]; then
			start "${side[0]}"; lane_of[$!]=1; side=("${side[@]:1}"); busy1=1
			continue
		fi
		wait -n -p done_pid
		finish "${pids[$done_pid]}"
		if [ "${lane_of[$done_pid]}" = 0 ]; then busy0=0; else busy1=0; fi
		unset "pids[$done_pid]" "lane_of[$done_pid]"
	done
}

# the closing lines: the slowest, what failed, what was skipped and why, then the count
summary() {	# what
	echo
	if [ -s "$OUT/times" ]; then
		echo "the ten slowest (seconds, $jobs_max at a time):"
		sort -rn "$OUT/times" | head -n 10 | sed 's/^/  /'
		sort -rn "$OUT/times" > "$TIMES" 2> /dev/null
	fi
	[ $fail -eq 0 ] || printf 'failed: %s\n' "${failed[@]}"
	if [ -s "$FT_SKIPS" ]; then
		echo "skipped here ($(wc -l < "$FT_SKIPS") parts):"
		sed 's/^/  /' "$FT_SKIPS"
	fi
	echo "$1: $pass passed, $fail failed, $skipped skipped"
	[ $fail -eq 0 ]
}

# tests that change the host (real sysctls, the adverse workload): only
# with HOST=1 (make check-host), one at a time, with the plain build
if [ "${HOST:-}" = 1 ]; then
	for s in tests/host/*.sh; do
		[ -f "$s" ] && add_sh "$s" "$s" ./fragtop
	done
	jobs_max=2
	run_host
	summary check-host
	exit
fi

for t in "$B"/plain/tests/unit/test_* "$B"/san/tests/unit/test_* "$B"/tsan/tests/unit/test_*; do
	[ -x "$t" ] || continue
	case $t in *.o|*.d) continue;; esac
	add "$t" "$t"
done
for s in tests/cli/*.sh tests/tui/*.sh; do
	[ -f "$s" ] || continue
	add_sh "$s" "$s" ./fragtop
	# the ASan build too, unless the test runs no fragtop ("# asan: no" in its head)
	grep -q '^# asan: no' "$s" || add_sh "$s (asan)" "$s" "$B/fragtop-san"
done
# every fuzz corpus once (FUZZ_REPLAY=1, as make check sets it)
if [ "${FUZZ_REPLAY:-}" = 1 ]; then
	add "fuzz corpora" make -s --no-print-directory fuzz-replay
fi
run_all
summary check
