#!/bin/sh
# The lab's default workload.  It runs in the guest (run.sh copies it to
# /lab/workload.sh and passes SECS) in rounds until SECS have passed, at
# least one round (lab/rounds.sh); each round is the pressure the stall
# patch is about, in the spirit of mmtests' thpfioscale, sized to what qemu TCG does in a
# minute:
#  1. a sparse file on the scratch disk, half of memory, read into the page
#     cache (clean and movable: what kswapd can reclaim when a stall wakes
#     it) and read again in the background for the whole round;
#  2. slab: tmpfs files made and all but every 16th unlinked, which leaves
#     unmovable and reclaimable pageblocks with small free holes;
#  3. anonymous memory faulted in base pages up to the page cache's size:
#     movable allocations that find only those holes, the "serious"
#     fragmentation events the patched kernel stalls on;
#  4. thpalloc faults THPs while that memory is held (the THP success rate
#     is the seeds' measure of what fragmentation cost);
# then the round's memory is released.  Each step prints one line.
. /lab/rounds.sh
files=${FILES:-60000}
slab_round() {
	fraggen slab /tmp/slab $files 16
	anon=$(($(mb MemFree) + $(mb Cached) - 96))
	rm -f /tmp/anon.out
	fraggen anon $anon 5 > /tmp/anon.out &
	holder=$!
	until [ -s /tmp/anon.out ] || ! kill -0 $holder 2> /dev/null; do sleep 0.2; done
	cat /tmp/anon.out
	thpalloc 64 0
	wait $holder
	rm -rf /tmp/slab
}
rounds slab_round
