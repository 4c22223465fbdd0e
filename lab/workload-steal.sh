#!/bin/sh
# The lab's workload for the claim-before-steal allocator (6.10+, and
# Debian's 6.12 with the 6.15 split of __rmqueue_fallback()): there a
# movable allocation takes another migratetype's free pages one by one
# ("steal", the fragmenting event the stall patch declines below order 3)
# only when no such block of order >= 4 is free to claim whole.  The slab
# holes of lab/workload.sh sit inside slab pages, so 6.12 rarely steals.
# Each round, in the spirit of mmtests' thpfioscale as lab/workload.sh:
#  1. a sparse file of half of memory read into the page cache and again
#     in the background (clean, movable: what kswapd reclaims);
#  2. page tables: HOLES MiB made (half on each node: one maker pinned to
#     each CPU) and every other one freed, unmovable pageblocks full of
#     order-0 holes, held through the round;
#  3. anonymous memory faulted in base pages up to the page cache's size,
#     half from each CPU: once the movable free lists are empty the free
#     memory left is those holes, above the watermarks, so movable
#     allocations steal them.  Both nodes run dry together: with one node
#     still holding movable pages the patched kernel declines the local
#     steal and takes a remote page, no stall (with one filler the
#     patched 6.12 stalled 0 to 33 times a 30 s run, 0 in 2 of 5 runs of
#     a table; with one pinned to each CPU 4 to 6 in 3 runs);
#  4. thpalloc faults THPs while that memory is held;
# then the round's memory is released.  Each step prints one line.
secs=${SECS:-60}
holes=${HOLES:-192}
mb() { awk -v k="$1" '$1 == k ":" { print int($2 / 1024) }' /proc/meminfo; }
mem=$(mb MemTotal)
dd if=/dev/zero of=/data/big bs=1M seek=$((mem / 2)) count=0 2> /dev/null
start=$(date +%s)
round=0
while [ $round -eq 0 ] || [ $(($(date +%s) - start)) -lt "$secs" ]; do
	round=$((round + 1))
	echo "workload: round $round at $(($(date +%s) - start)) s"
	fraggen read /data/big 0
	fraggen read /data/big 3600 > /tmp/read.out &
	reader=$!
	rm -f /tmp/ptes0.out /tmp/ptes1.out
	taskset -c 0 fraggen ptes $((holes / 2)) 3600 > /tmp/ptes0.out &
	ptes=$!
	taskset -c 1 fraggen ptes $((holes / 2)) 3600 > /tmp/ptes1.out &
	ptes="$ptes $!"
	until [ -s /tmp/ptes0.out ] && [ -s /tmp/ptes1.out ]; do sleep 0.2; done
	cat /tmp/ptes0.out /tmp/ptes1.out
	anon=$(($(mb MemFree) + $(mb Cached) - 96))
	rm -f /tmp/anon0.out /tmp/anon1.out
	taskset -c 0 fraggen anon $((anon / 2)) 5 > /tmp/anon0.out &
	holder=$!
	taskset -c 1 fraggen anon $((anon / 2)) 5 > /tmp/anon1.out &
	holder="$holder $!"
	until [ -s /tmp/anon0.out ] && [ -s /tmp/anon1.out ]; do sleep 0.2; done
	cat /tmp/anon0.out /tmp/anon1.out
	thpalloc 64 0
	wait $holder
	kill $reader $ptes 2> /dev/null
	wait $reader $ptes 2> /dev/null
done
echo "workload: $round rounds in $(($(date +%s) - start)) s"
