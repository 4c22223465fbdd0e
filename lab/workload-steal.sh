#!/bin/sh
# The lab's workload for the claim-before-steal allocator (6.10+, and
# Debian's 6.12 with the 6.15 split of __rmqueue_fallback()): there a
# movable allocation takes another migratetype's free pages one by one
# ("steal", the fragmenting event the stall patch declines below order 3)
# only when no such block of order >= 4 is free to claim whole.  The slab
# holes of lab/workload.sh sit inside slab pages, so 6.12 rarely steals.
# Each round (lab/rounds.sh), in the spirit of mmtests' thpfioscale as
# lab/workload.sh:
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
. /lab/rounds.sh
holes=${HOLES:-192}
steal_round() {
	on_each_cpu ptes fraggen ptes $((holes / 2)) 3600
	anon=$(($(mb MemFree) + $(mb Cached) - 96))
	on_each_cpu anon fraggen anon $((anon / 2)) 5
	thpalloc 64 0
	wait $pids
}
rounds steal_round
