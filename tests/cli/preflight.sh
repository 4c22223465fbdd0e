#!/bin/bash
# fragtop preflight on a synthetic two-node tree with planted blocks: each
# node has one populated zone (Movable, 4 GiB: four 1 GiB regions), a
# hand-made /proc/kpageflags and free lists that agree with it, min
# watermark 128 and no lowmem reserve:
#   node 0: R0 free; R1 every other page free (no free 2 MiB block, all
#           of it emptiable); R2 movable with a slab page in every 64th
#           block; R3 movable.  Free: 1.5 GiB (buddy: 256 x 4M, 131072 x 4K)
#   node 1: R0 free but a slab page at its first PFN; R1 movable with one
#           slab block; R2 free; R3 every other page free.  Free: 2.5 GiB - 4K
# so, worked by hand (model/fit.h: now = free lists above the watermark,
# or all-free runs above the buddy's order; after compaction = runs of
# free and movable pages, no more than the free memory holds: the zone's
# for the buddy's orders, the host's 1048319 pages above them, since
# alloc_contig_range() migrates to any node):
#   2M:  node 0 now 512 after 767, node 1 now 1023 after 1279, host 1535 2046
#   32M: node 0 now 32 after 120,  node 1 now 63 after 126,   host 95 127
#   1G:  node 0 now 1 after 3,     node 1 now 1 after 2,      host 2 3
# preflight --json --root gives those, and the exit codes 0, 1 and 2 for
# needs that fit now, after compaction only, not at all; bad input is 3.
# usage: preflight.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
command -v perl > /dev/null || { echo "FAIL perl not installed"; exit 1; }
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
T=$TMPD/tree
G=262144	# PFNs in 1 GiB

fit_tree "$T"

"$FT" preflight --json --root "$T" -s 32M > "$TMPD/all.json" 2> "$TMPD/err"; rc=$?
check "the table: exit 0" test $rc = 0 || cat "$TMPD/err"
check "the map was read" test "$(jq -c '.map | [.read, .unread_blocks]' "$TMPD/all.json")" = '[true,0]'
fig() {	# SIZE NODE: [now, now_max, after, after_max]
	jq -c ".sizes[] | select(.size == \"$1\") | .nodes[] | select(.node == $2) |
		[.now, .now_max, .after_compaction, .after_compaction_max]" "$TMPD/all.json"
}
check "2M node 0: now 512, after compaction 767" test "$(fig 2M 0)" = '[512,512,767,767]'
check "2M node 1: now 1023, after compaction 1279" test "$(fig 2M 1)" = '[1023,1023,1279,1279]'
check "32M node 0: now 32, after compaction 120" test "$(fig 32M 0)" = '[32,32,120,120]'
check "32M node 1: now 63, after compaction 126" test "$(fig 32M 1)" = '[63,63,126,126]'
check "1G node 0: now 1, after compaction 3 (the movable pages go to node 1)" test "$(fig 1G 0)" = '[1,1,3,3]'
check "1G node 1: now 1, after compaction 2" test "$(fig 1G 1)" = '[1,1,2,2]'
check "the host: the nodes summed, above the buddy held to the host's free memory (4 GiB - 1 page: 3 1G)" \
	test "$(jq -c '[.sizes[] | select(.size == "2M" or .size == "32M" or .size == "1G") |
	[.size, .host.now, .host.after_compaction]]' "$TMPD/all.json")" = '[["2M",1535,2046],["32M",95,127],["1G",2,3]]'
check "1G node 0: the slab region is in the way, its first slab block named" \
	test "$(jq -c '.sizes[] | select(.size == "1G") | .nodes[0].zones[0] |
		[.blocks, .free_blocks, .emptiable_blocks, .tainted_blocks, .held_by_one_pageblock, .in_the_way[0].pfn]' \
		"$TMPD/all.json")" = "[4,1,3,1,0,$((6 * G))]"
check "1G node 1: two regions held by a single block each" \
	test "$(jq -c '.sizes[] | select(.size == "1G") | .nodes[1].zones[0] | [.tainted_blocks, .held_by_one_pageblock, [.in_the_way[].pfn]]' \
		"$TMPD/all.json")" = "[2,2,[$((8 * G)),$((9 * G + 100 * 512))]]"
check "the sizes' sources" test "$(jq -c '[.sizes[] | select(.size == "2M" or .size == "32M") | .sources]' "$TMPD/all.json")" = \
	'[["hugetlb","pageblock"],["asked"]]'

# the exit codes: 0 now, 1 after compaction only, 2 not at all
need() {	# EXPECTED-EXIT WHAT ARGS...
	local want=$1 what=$2; shift 2
	"$FT" preflight --root "$T" "$@" > "$TMPD/out" 2> "$TMPD/err"; local rc=$?
	check "$what: exit $want" test $rc = "$want" || { cat "$TMPD/out" "$TMPD/err"; }
}
need 0 "2x1G (one free region on each node)" --need 2x1G
need 1 "3x1G (the third after compaction)" --need 3x1G
need 2 "4x1G" --need 4x1G
need 0 "--node 0 1x1G" --node 0 --need 1x1G
need 1 "--node 1 2x1G" --node 1 --need 2x1G
need 1 "--node 0 3x1G (its movable pages migrate to node 1)" --node 0 --need 3x1G
need 2 "--node 0 4x1G (compaction makes no free memory: the host has 4 GiB - 1 page)" --node 0 --need 4x1G
need 1 "100x32M" --need 100x32M
need 0 "1535x2M" --need 1535x2M
need 1 "1536x2M" --need 1536x2M
need 2 "2047x2M" --need 2047x2M
need 1 "2x1G,1000x2M together: the 1G pages take 1024 blocks of 2M" --need 2x1G,1000x2M
check "... the text says each need's line" grep -q '^1000x2M *fits after compaction *511 now, 1022 after compaction' "$TMPD/out"
"$FT" preflight --json --root "$T" --need 3x1G > "$TMPD/n.json"
check "JSON: the need, its verdict and what was left for it" test "$(jq -c '[.verdict, .exit, (.needs[0] |
	[.need, .count, .size_bytes, .verdict, .available.now, .available.after_compaction])]' "$TMPD/n.json")" = \
	'["after_compaction",1,["3x1G",3,1073741824,"after_compaction",2,3]]'
"$FT" preflight --root "$T" --need 4x1G > "$TMPD/t.txt"
check "text: one line per need, and what is in the way" grep -qE '^4x1G +does not fit +2 now, 3 after compaction' "$TMPD/t.txt"
check "... the tainted regions" grep -q 'in the way: 3 of 8 1G blocks hold an unmovable page or a hole; 2 held by a single pageblock' "$TMPD/t.txt"

# bad input: a clear message and exit 3, never 2 ("does not fit")
need 3 "a malformed need" --need 4y1G
check "... says what is wrong" grep -q "expected COUNTxSIZE" "$TMPD/err"
need 3 "a size that is not a power of two" --need 4x3M
check "... says so" grep -q "not a power of two" "$TMPD/err"
need 3 "a count of 0" --need 0x2M
need 3 "a node that does not exist" --node 7 --need 1x2M
check "... names the nodes there are" grep -q "no node 7 here (nodes: 0, 1)" "$TMPD/err"
need 3 "a size above the largest zone" --need 1x8G
check "... says the largest" grep -q "larger than any zone (the largest spans 4G)" "$TMPD/err"
need 3 "an unknown option" --needs 1x2M
need 3 "--compact without --need" --compact
need 3 "a bad --size" --size 3M

# without the map: the free lists answer alone, else it cannot tell
"$FT" preflight --root "$T" --need 1x2M --no-map > "$TMPD/out"; rc=$?
check "--no-map: 1x2M fits in the free lists (exit 0)" test $rc = 0
need 3 "--no-map 1536x2M: beyond the free lists, nothing more known" --need 1536x2M --no-map
check "... says why" grep -q 'cannot tell: the free lists do not hold it' "$TMPD/out"
mv "$T/proc/kpageflags" "$T/proc/kpf"
need 3 "no /proc/kpageflags: 3x1G cannot tell" --need 3x1G
check "... says why" grep -q 'cannot tell: no /proc/kpageflags' "$TMPD/out"
need 0 "no /proc/kpageflags: 1x2M still fits now" --need 1x2M
mv "$T/proc/kpf" "$T/proc/kpageflags"

# --compact: the nodes' compact files written, logged, and once a minute at most
need 1 "--compact 3x1G: asked, and the answer after it" --need 3x1G --compact
check "... compaction said" grep -q '^compaction: nodes 0, 1 compacted' "$TMPD/out"
check "... node 0's compact file written" test "$(cat "$T/sys/devices/system/node/node0/compact")" = 1
check "... node 1's too" test "$(cat "$T/sys/devices/system/node/node1/compact")" = 1
check "... the time kept" test -s "$T/run/fragtop/compact.stamp"
: > "$T/sys/devices/system/node/node0/compact"
need 1 "--compact again within the minute: refused" --need 3x1G --compact
check "... says so" grep -q '^compaction: refused: the last one was [0-9]* s ago (at most one a minute)' "$TMPD/out"
check "... nothing written" test ! -s "$T/sys/devices/system/node/node0/compact"
need 0 "--compact when it fits now: not asked" --need 1x1G --compact
check "... and not on stderr either: a missing pagetypeinfo is no news for preflight" test ! -s "$TMPD/err"
check "... says so" grep -q '^compaction: not asked: the needs fit now' "$TMPD/out"

# a need is judged as it will be allocated: a hugetlb size of this CPU must be one the host offers
rmdir "$T/sys/kernel/mm/hugepages/hugepages-1048576kB"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep pge pse36\n\n' \
	> "$T/proc/cpuinfo"
need 2 "a CPU without 1 GiB pages (no pdpe1gb, no hugepages-1048576kB): 1x1G does not fit" --need 1x1G
check "... the reason, where the answer is" grep -q '^1x1G .*this CPU has no 1 GiB pages: no pdpe1gb' "$TMPD/out"
"$FT" preflight --root "$T" --need 1x1G --json > "$TMPD/h.json"
check "... and in the JSON: as hugetlb, not offered, the note" jqe '.exit == 2 and .needs[0].as == "hugetlb" and
	.needs[0].host_offers == false and (.needs[0].as_note | test("no pdpe1gb"))' "$TMPD/h.json"
check "... the sizes say which are hugetlb sizes here (2M, not 1G)" jqe '[.sizes[] | select(.size == "2M" or .size == "1G") |
	.hugetlb] == [true, false]' "$TMPD/h.json"
need 0 "... --contig: the contiguous range's answer, as before" --need 1x1G --contig
check "... said so" grep -q 'judged as a contiguous range (--contig)' "$TMPD/out"
need 0 "... 2x4M is no hugetlb size: a contiguous range" --need 2x4M
check "... said so" grep -q 'judged as a contiguous range: 4M is no hugetlb size here' "$TMPD/out"
sed -i 's/ pse36$/ pse36 pdpe1gb/' "$T/proc/cpuinfo"
need 2 "a CPU with pdpe1gb whose kernel offers no 1G pages: 1x1G does not fit" --need 1x1G
check "... the reason" grep -q 'this host offers no 1G hugetlb pages (no hugepages-1048576kB' "$TMPD/out"
mkdir -p "$T/sys/kernel/mm/hugepages/hugepages-1048576kB"
need 0 "... with hugepages-1048576kB: judged as hugetlb pages, and it fits" --need 1x1G
check "... said so" grep -q 'judged as 1G hugetlb pages (hugepages-1048576kB)' "$TMPD/out"
rm -f "$T/proc/cpuinfo"
[ $fails = 0 ]
