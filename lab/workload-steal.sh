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
#  2. page tables: HOLES MiB made and every other one freed, unmovable
#     pageblocks full of order-0 holes, held through the round;
#  3. anonymous memory faulted in base pages up to the page cache's size:
#     once the movable free lists are empty the free memory left is those
#     holes, above the watermarks, so movable allocations steal them;
#  4. thpalloc faults THPs while that memory is held;
# then the round's memory is released.  Each step prints one line.
secs=${SECS:-60}
holes=${HOLES:-96}
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
	rm -f /tmp/ptes.out
	fraggen ptes $holes 3600 > /tmp/ptes.out &
	ptes=$!
	until [ -s /tmp/ptes.out ] || ! kill -0 $ptes 2> /dev/null; do sleep 0.2; done
	cat /tmp/ptes.out
	anon=$(($(mb MemFree) + $(mb Cached) - 96))
	rm -f /tmp/anon.out
	fraggen anon $anon 5 > /tmp/anon.out &
	holder=$!
	until [ -s /tmp/anon.out ] || ! kill -0 $holder 2> /dev/null; do sleep 0.2; done
	cat /tmp/anon.out
	thpalloc 64 0
	wait $holder
	kill $reader $ptes 2> /dev/null
	wait $reader $ptes 2> /dev/null
done
echo "workload: $round rounds in $(($(date +%s) - start)) s"
