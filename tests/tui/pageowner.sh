#!/bin/bash
# Who pins a mixed block, from page_owner: on a tree whose kpageflags has
# a slab page in every 64th block of its Normal zone and whose
# sys/kernel/debug/page_owner (plain text, as a captured tree has it)
# names that page's allocation and a movable neighbour, the map's cursor
# on a mixed cell lists the unmovable allocation with its command and
# stack (the allocator's own frames left out), and not the movable one;
# `record --map-interval` records the looks, and the report's "top
# owners" section and its JSON add up; a replay shows them on the cursor
# after O; the kept recordings of the lab's 6.12 and 6.1 kernels
# (page_owner=on) do the same in report and replay; without page_owner the map says how
# to turn it on.
# usage: pageowner.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")/.." && pwd)
command -v tmux >/dev/null || { echo "FAIL tmux not installed"; exit 1; }
command -v perl >/dev/null || { echo "FAIL perl not installed"; exit 1; }
TMPD=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
start() { tmux_start fragtop-pageowner 150 45 "$@"; wait_for '^fragtop ' > /dev/null; }

tree=$TMPD/tree
cp -r "$HERE/fixtures/6.18-idle/." "$tree/"
truncate -s $(( (0x100000 + 8192 * 512) * 8 )) "$tree/proc/kpageflags" "$tree/proc/kpagecount"
kpf_movable_mixed "$tree/proc/kpageflags"
mkdir -p "$tree/sys/kernel/debug"
perl -e '
	for my $b (0 .. 8191) {
		next if $b % 64;
		my $pfn = 0x100000 + $b * 512;
		printf "Page allocated via order 0, mask 0x52cc0(GFP_KERNEL|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP), pid 88, tgid 88 (kworker/u8:3), ts %d ns\n", 1000 + $b;
		printf "PFN 0x%x type Unmovable Block %d type Movable Flags 0x200(slab|node=0|zone=2)\n", $pfn, $pfn >> 9;
		print " post_alloc_hook+0x1a1/0x1d0\n get_page_from_freelist+0x3a1/0x10d0\n __alloc_pages_noprof+0x1c6/0x340\n",
		      " alloc_slab_page+0x19/0x85\n allocate_slab+0x7a/0x2f0\n ___slab_alloc+0x3c1/0x8f0\n",
		      " kmem_cache_alloc_noprof+0x1f1/0x300\n alloc_buffer_head+0x21/0x90\n\n";
		printf "Page allocated via order 0, mask 0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), pid 412, tgid 412 (fio), ts %d ns\n", 2000 + $b;
		printf "PFN 0x%x type Movable Block %d type Movable Flags 0x2003c(lru|node=0|zone=2)\n", $pfn + 1, $pfn >> 9;
		print " post_alloc_hook+0x1a1/0x1d0\n get_page_from_freelist+0x3a1/0x10d0\n do_anonymous_page+0x21/0x90\n\n";
	}' > "$tree/sys/kernel/debug/page_owner"

# 6.9+'s page_owner_stacks/show_stacks: two stacks, the slab one the same as the pinning page's
mkdir -p "$tree/sys/kernel/debug/page_owner_stacks"
printf '%s\n' ' post_alloc_hook+0x1a1/0x1d0' ' get_page_from_freelist+0x3a1/0x10d0' \
	' __alloc_pages_noprof+0x1c6/0x340' ' folio_alloc_mpol_noprof+0x15/0x30' \
	' do_anonymous_page+0x21/0x90' 'nr_base_pages: 4000' '' \
	' post_alloc_hook+0x1a1/0x1d0' ' get_page_from_freelist+0x3a1/0x10d0' \
	' __alloc_pages_noprof+0x1c6/0x340' ' alloc_slab_page+0x19/0x85' ' allocate_slab+0x7a/0x2f0' \
	' ___slab_alloc+0x3c1/0x8f0' ' kmem_cache_alloc_noprof+0x1f1/0x300' ' alloc_buffer_head+0x21/0x90' \
	'nr_base_pages: 128' '' > "$tree/sys/kernel/debug/page_owner_stacks/show_stacks"

# live: the cursor starts on the zone's first cell, which holds a mixed block
start "$FT" --root "$tree" --no-trace -w "$TMPD/live.ftr"
T send-keys -t ft 5
wait_for '^cursor ' > /dev/null
T send-keys -t ft R	# whole reads now: a sample of the cell can miss its one slab page
check "live: the cursor's mixed block lists its pinning allocation" \
	wait_for '^page owners: 1 pinning allocation \(1 page\) by 1 stack; 2 allocations in all'
check "live: with its type, command and stack past the allocator's frames" \
	wait_for 'Unmovable +GFP_KERNEL.* 88 kworker/u8:3 +alloc_slab_page < allocate_slab < ___slab_alloc'
check "live: not the movable page's owner" sh -c "! tmux -S '$TMPD/$SOCK' capture-pane -p -t ft | grep -q 'do_anonymous_page\|(fio)'"
T send-keys -t ft q
check "live: the session's recording is closed" until_ok 10 sh -c "'$FT' report '$TMPD/live.ftr' > '$TMPD/live.txt' 2>&1"
check "live recording: show_stacks read when page_owner opened, the slab stack marked as pinning" \
	grep -qE '^ +128 +3\.1% \* +alloc_slab_page < allocate_slab' "$TMPD/live.txt"

# recorded: every mixed block's looks after a scan, then the report
"$FT" record --root "$tree" --no-trace --map-interval 1 --owner-blocks 200 -t 2 -o "$TMPD/po.ftr" 2> "$TMPD/rec.err"
check "record: a recording" test -s "$TMPD/po.ftr"
"$FT" report --json "$TMPD/po.ftr" > "$TMPD/r.json"
check "report: 128 mixed blocks read, 128 pinned pages" \
	test "$(jq -c '[.owners.mixed_blocks, .owners.pinned_pages, .owners.error]' "$TMPD/r.json")" = "[128,128,0]"
check "report: no input skipped (the first scan comes after a recorded tick)" \
	test "$(jq '.recording.bad_inputs' "$TMPD/r.json")" = 0
check "report: the groups add up to the pinned pages" \
	test "$(jq '([.owners.groups[].pages] | add) + .owners.past_table_pages == .owners.pinned_pages' "$TMPD/r.json")" = true
check "report: the top owner is the slab path" \
	test "$(jq -r '.owners.groups[0].stack' "$TMPD/r.json")" = \
	"alloc_slab_page < allocate_slab < ___slab_alloc < kmem_cache_alloc_noprof < alloc_buffer_head"
"$FT" report "$TMPD/po.ftr" > "$TMPD/r.txt"
check "report: the text section lists the top owners" \
	grep -qE '^ +128 100\.0% +128  o0 Unmovable GFP_KERNEL.*, 88 kworker/u8:3$' "$TMPD/r.txt"
check "report: and the stacks owning the most pages anywhere (show_stacks)" \
	test "$(jq -c '[.owners.show_stacks.stacks, .owners.show_stacks.pages, .owners.show_stacks.top[0].pages]' "$TMPD/r.json")" = "[2,4128,4000]"

# replayed: O puts the cursor on a block with owners read
start "$FT" replay "$TMPD/po.ftr"
T send-keys -t ft 5
wait_for '^cursor ' > /dev/null
T send-keys -t ft O
check "replay: O finds a block with page owners, which the panel lists" \
	wait_for '^page owners: 1 pinning allocation .* 1 block read'
check "replay: the stack" wait_for 'kworker/u8:3 +alloc_slab_page < allocate_slab'

# the kept recordings of the lab's 6.12 and 6.1 kernels booted
# page_owner=on (lab/run.sh --page-owner: page_owner read through debugfs,
# a pread a PFN; 6.1 prints PFNs in decimal): their reports name the
# owners of mixed blocks' pinned pages, and their replays show them on the
# cursor after O
for K in tests/recordings/pageowner-6.12.ftr tests/recordings/pageowner-6.1.ftr; do
	k=$(basename "$K" .ftr)
	"$FT" report --json "$K" > "$TMPD/k.json"
	check "$k: page_owner was read, mixed blocks among the looks" \
		test "$(jq '.owners.error == 0 and .owners.mixed_blocks >= 1 and .owners.pinned_pages >= 1' "$TMPD/k.json")" = true
	check "$k: the top owner is an unmovable allocation with a stack" \
		test "$(jq -r '.owners.groups[0] | "\(.migratetype) \(.stack | length > 0)"' "$TMPD/k.json")" = "Unmovable true"
	check "$k: the groups add up" \
		test "$(jq '([.owners.groups[].pages] | add) + .owners.past_table_pages == .owners.pinned_pages' "$TMPD/k.json")" = true
	"$FT" report "$K" > "$TMPD/k.txt"
	check "$k: the text report lists the top owners" \
		grep -qE '^top owners of pinned pages in mixed blocks \(page_owner: [1-9][0-9]* mixed of [1-9][0-9]* blocks read\)' "$TMPD/k.txt"
	start "$FT" replay --speed 1000 "$K"
	T send-keys -t ft 5
	check "$k replay: the recording played to its end" wait_for 'end of the recording'
	# O until the cursor is on a mixed block (the looks include unmovable blocks)
	for i in $(seq 40); do
		T send-keys -t ft O
		sleep 0.1
		screen | grep -qE '^cursor 0x[0-9a-f]+-0x[0-9a-f]+: mixed' && break
	done
	check "$k replay: O puts the cursor on a mixed block" wait_for '^cursor 0x[0-9a-f]+-0x[0-9a-f]+: mixed'
	check "$k replay: which lists an unmovable allocation and its stack" \
		wait_for '^ +[0-9]+ pg +[0-9]+x o[0-9]+ Unmovable .* [a-z_]+ < [a-z_]+'
	# labels against contents: the panel's line and report's table say the same
	hidden=$(jq '.labels.movable_with_unmovable' "$TMPD/k.json")
	check "$k: report's labels table: a Movable-labelled block holding unmovable pages, listed" \
		test "$(jq '.labels.blocks >= 1 and .labels.movable_with_unmovable >= 1 and
			(.labels.movable_with_unmovable_blocks | length) >= 1 and
			.labels.by_label.Movable.mixed >= 1' "$TMPD/k.json")" = true
	check "$k: the text report prints the table" \
		grep -qE "^  labelled Movable, holding unmovable pages: $hidden$" "$TMPD/k.txt"
	check "$k replay: the map panel's labels line says the same" \
		wait_for "^labels: of [0-9]+ blocks page_owner and the map read, [0-9]+ labelled Movable, $hidden of them holding"
done
check "6.1: the top owner is fraggen's shmem inodes, on SLOB" \
	test "$("$FT" report --json tests/recordings/pageowner-6.1.ftr | jq -r '.owners.groups[0] | "\(.comm) \(.stack)"')" = \
	"fraggen slob_new_pages < slob_alloc < slob_alloc_node < shmem_alloc_inode < alloc_inode"

# no page_owner: the map says how to have it
rm "$tree/sys/kernel/debug/page_owner"
start "$FT" --root "$tree" --no-trace
T send-keys -t ft 5
wait_for '^cursor ' > /dev/null
T send-keys -t ft R
check "no page_owner: the map says how to turn it on" \
	wait_for '^page owners: none: boot a CONFIG_PAGE_OWNER kernel with page_owner=on'
# the map's note on the status line stays with the map: at 80x24 it lasted
# into the next view and ran into its text
tmux_start fragtop-pageowner 80 24 "$FT" --no-config --root "$tree" --no-trace
wait_for '^fragtop ' > /dev/null
T send-keys -t ft 5
footer() { screen | tail -n 1 | grep -q -- "$1"; }
check "80x24: the map's page_owner note on the status line" until_ok 10 footer '^page owners: '
T send-keys -t ft 1
check "... gone on the overview, its key hint back" until_ok 10 footer '^q quit  h help'
T send-keys -t ft 5
check "... and back on the map while it is fresh" until_ok 10 footer '^page owners: '
echo "pageowner.sh: $fails failure(s)"
[ $fails -eq 0 ]
