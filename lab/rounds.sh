# The lab workloads' rounds (sourced in the guest from /lab/rounds.sh, which
# lab/run.sh puts beside the workload).  rounds FN: a sparse file of half of
# memory on the scratch disk, then rounds until $SECS (default 60) have
# passed, at least one: each reads the file into the page cache (clean,
# movable: what kswapd reclaims) and again in the background for the whole
# round, calls FN, then ends what the round started.  FN may start
# processes to be ended with the round by adding their pids to $held.
# Each step prints one line.
mb() { awk -v k="$1" '$1 == k ":" { print int($2 / 1024) }' /proc/meminfo; }
# on_each_cpu NAME COMMAND...: COMMAND pinned to CPU 0 and to CPU 1, each
# writing /tmp/NAME-CPU.out; returns once both have written (or exited),
# their output printed, their pids in $pids and added to $held
on_each_cpu() {
	name=$1
	shift
	pids=
	for c in 0 1; do
		rm -f /tmp/$name-$c.out
		taskset -c $c "$@" > /tmp/$name-$c.out &
		pids="$pids $!"
	done
	held="$held $pids"
	set -- $pids
	until { [ -s /tmp/$name-0.out ] || ! kill -0 $1 2> /dev/null; } &&
	      { [ -s /tmp/$name-1.out ] || ! kill -0 $2 2> /dev/null; }; do
		sleep 0.2
	done
	cat /tmp/$name-0.out /tmp/$name-1.out
}
rounds() {
	secs=${SECS:-60}
	dd if=/dev/zero of=/data/big bs=1M seek=$(($(mb MemTotal) / 2)) count=0 2> /dev/null
	start=$(date +%s)
	round=0
	while [ $round -eq 0 ] || [ $(($(date +%s) - start)) -lt "$secs" ]; do
		round=$((round + 1))
		echo "workload: round $round at $(($(date +%s) - start)) s"
		fraggen read /data/big 0
		fraggen read /data/big 3600 > /tmp/read.out &
		held=$!
		"$1"
		kill $held 2> /dev/null
		wait $held 2> /dev/null
	done
	echo "workload: $round rounds in $(($(date +%s) - start)) s"
}
