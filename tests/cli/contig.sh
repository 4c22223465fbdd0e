#!/bin/bash
# Beyond the pageblock on a synthetic tree: two nodes, each with a Movable
# zone of three whole 1 GiB regions (one free, one movable, one tainted)
# in a hand-made /proc/kpageflags, and hugetlb sizes of 2 MiB and 1 GiB.
# snapshot --json --map --root gives exactly the planted regions, the
# pages available now and after compaction per zone and per node, the
# tainting blocks, and the planted amplification: 512 where eight slab
# pages sit one to a block, 1 where 512 fill one block.  The text says
# the same.  Without a size above the pageblock there is no gigantic
# figure, and the amplification stays.
# usage: contig.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")/.." && pwd)
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
command -v perl > /dev/null || { echo "FAIL perl not installed"; exit 1; }
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
tree=$TMPD/tree
contig_tree "$tree"

"$FT" snapshot --json --map --root "$tree" --no-trace > "$TMPD/s.json" 2> "$TMPD/err"
check "snapshot --json --map --root: exit 0" test $? = 0 || cat "$TMPD/err"
mov() { jq -c ".zones[] | select(.node == $1 and .zone == \"Movable\") | .pageblocks | $2" "$TMPD/s.json"; }
for n in 0 1; do
	check "node $n Movable: one region of each class" \
		test "$(mov $n '.gigantic | [.order, .page_kb, .regions, .free, .movable, .tainted, .unknown, .uninitialised]')" = '[18,1048576,3,1,1,1,0,0]'
	check "node $n Movable: available now 1, after compaction 2" \
		test "$(mov $n '.gigantic | [.available_now, .available_after_compaction]')" = '[1,2]'
	check "node $n: the same per node" \
		test "$(jq -c ".gigantic_by_node[] | select(.node == $n) | [.regions, .free, .movable, .tainted, .available_now, .available_after_compaction]" "$TMPD/s.json")" = '[3,1,1,1,1,2]'
done
check "node 0: the regions in PFN order, the classes planted" \
	test "$(mov 0 '[.gigantic.by_region[] | [.pfn, .class]]')" = '[[1048576,"free"],[1310720,"movable"],[1572864,"tainted"]]'
check "node 0: the tainted region names its eight slab blocks" \
	test "$(mov 0 '.gigantic.by_region[2] | [.unmovable_blocks, .unmovable_pages, .tainting_block_pfns]')" = \
	"[8,8,[$(seq -s, 1572864 32768 1802240)]]"
check "node 1: the tainted region names its one slab block" \
	test "$(mov 1 '.gigantic.by_region[0] | [.class, .unmovable_blocks, .unmovable_pages, .tainting_block_pfns]')" = '["tainted",1,512,[2097152]]'
check "node 0: amplification 512 (8 of 1792 blocks, 8 of 917504 pages)" \
	test "$(mov 0 '.amplification | [.blocks, .polluted_blocks, .pages, .unmovable_pages, .ratio]')" = '[1792,8,917504,8,512]'
check "node 1: amplification 1 (1 of 1536 blocks, 512 of 786432 pages)" \
	test "$(mov 1 '.amplification | [.blocks, .polluted_blocks, .pages, .unmovable_pages, .ratio]')" = '[1536,1,786432,512,1]'
check "a zone without unmovable pages: ratio null" \
	test "$(jq -c '.zones[] | select(.node == 1 and .zone == "DMA32") | .pageblocks.amplification.ratio' "$TMPD/s.json")" = null

"$FT" snapshot --map --root "$tree" --no-trace > "$TMPD/s.txt" 2>&1
check "text: node 0's amplification" grep -q '^  amplification 512.00: 0.45% of 1792 blocks hold unmovable pages' "$TMPD/s.txt"
check "text: the regions line" grep -q '^  1 GiB regions 3: free 1 movable 1 tainted 1  available now 1, after compaction 2$' "$TMPD/s.txt"
check "text: per node" grep -q '^node 1: 1 GiB pages available now 1, after compaction 2 (of 3 regions; 1 tainted)$' "$TMPD/s.txt"

# The kernel has not initialised node 1's last 1.5 GiB: its free count says so
awk '/^Node 1, zone  Movable/ { m = 1 } /^Node 1, zone   Device/ { m = 0 }
	m && /^  pages free/ { sub(/[0-9]+$/, 0) } { print }' "$tree/proc/zoneinfo" > "$TMPD/zi" && cp "$TMPD/zi" "$tree/proc/zoneinfo"
"$FT" snapshot --json --map --root "$tree" --no-trace > "$TMPD/u.json" 2> /dev/null
# 262144 free pages the kernel does not count: the zone's last 1 GiB, its movable region
check "uninitialised: the zone's last region taken out" \
	test "$(jq -c '.zones[] | select(.node == 1 and .zone == "Movable") | .pageblocks.gigantic | [.uninitialised_pages, .free, .movable, .uninitialised, .available_now, .available_after_compaction]' "$TMPD/u.json")" = '[262144,1,0,1,1,1]'

rm -r "$tree/sys/kernel/mm/hugepages/hugepages-1048576kB"
"$FT" snapshot --json --map --root "$tree" --no-trace > "$TMPD/p.json" 2> /dev/null
check "no size above the block: gigantic null, amplification kept" \
	test "$(jq -c '[.gigantic_by_node, (.zones[] | select(.node == 0 and .zone == "Movable") | .pageblocks | .gigantic, .amplification.ratio)]' "$TMPD/p.json")" = '[null,null,512]'
[ $fails = 0 ]
