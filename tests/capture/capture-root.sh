#!/bin/sh
# Capture the kernel files fragtop reads into a root tree (DIR/proc/...,
# DIR/sys/...), for tests and bug reports: `fragtop snapshot --root DIR`.
# POSIX sh and cat only, so the same script runs inside a busybox guest.
#
# buddyinfo, pagetypeinfo and debugfs extfrag/* are taken together and retried until
# buddyinfo is unchanged across them, so the kernel's indices match the
# free lists captured beside them.
set -u
dir=${1:?usage: capture-root.sh DIR}

mkdir -p "$dir/proc/sys/kernel" "$dir/proc/sys/vm" \
	"$dir/sys/kernel/mm/transparent_hugepage" "$dir/sys/kernel/debug/extfrag"

copy() {	# copy /PATH to DIR/PATH if readable
	[ -r "/$1" ] || return 0
	cat "/$1" > "$dir/$1" 2>/dev/null || rm -f "$dir/$1"
}

if [ ! -r /sys/kernel/debug/extfrag/unusable_index ]; then
	mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
fi

tries=0
while :; do
	cat /proc/buddyinfo > "$dir/proc/buddyinfo"
	copy proc/pagetypeinfo
	copy sys/kernel/debug/extfrag/unusable_index
	copy sys/kernel/debug/extfrag/extfrag_index
	cat /proc/buddyinfo > "$dir/proc/buddyinfo.check"
	if cmp -s "$dir/proc/buddyinfo" "$dir/proc/buddyinfo.check" 2>/dev/null ||
	   [ "$(cat "$dir/proc/buddyinfo")" = "$(cat "$dir/proc/buddyinfo.check")" ]; then
		break
	fi
	tries=$((tries + 1))
	if [ $tries -ge 50 ]; then
		echo "capture-root: buddyinfo kept changing; indices may differ" >&2
		break
	fi
done
rm -f "$dir/proc/buddyinfo.check"

for f in proc/zoneinfo proc/vmstat proc/meminfo proc/iomem \
	proc/sys/kernel/osrelease proc/sys/kernel/hostname \
	sys/kernel/mm/transparent_hugepage/enabled \
	sys/kernel/mm/transparent_hugepage/defrag \
	sys/kernel/mm/transparent_hugepage/hpage_pmd_size; do
	copy "$f"
done
for f in /proc/sys/vm/watermark_boost_factor /proc/sys/vm/watermark_scale_factor \
	/proc/sys/vm/min_free_kbytes /proc/sys/vm/extfrag_threshold \
	/proc/sys/vm/compaction_proactiveness /proc/sys/vm/defrag_mode \
	/proc/sys/vm/fragment_stall_order /proc/sys/vm/compact_unevictable_allowed; do
	copy "${f#/}"
done

# Trace event formats and the ring buffer page header, for the tracepoint
# decoder's tests (only what fragtop enables; absent events are skipped).
t=/sys/kernel/tracing
if [ ! -r $t/events/header_page ]; then
	mount -t tracefs nodev $t 2>/dev/null || true
fi
if [ -r $t/events/header_page ]; then
	mkdir -p "$dir/sys/kernel/tracing/events"
	cat $t/events/header_page > "$dir/sys/kernel/tracing/events/header_page"
	cat $t/events/header_event > "$dir/sys/kernel/tracing/events/header_event" 2>/dev/null
	for e in kmem/mm_page_alloc_extfrag kmem/mm_fragmentation_stall \
		compaction/mm_compaction_begin compaction/mm_compaction_end \
		compaction/mm_compaction_suitable compaction/mm_compaction_deferred \
		compaction/mm_compaction_kcompactd_wake compaction/mm_compaction_migratepages \
		compaction/mm_compaction_try_to_compact_pages \
		vmscan/mm_vmscan_direct_reclaim_begin vmscan/mm_vmscan_direct_reclaim_end \
		vmscan/mm_vmscan_wakeup_kswapd vmscan/mm_vmscan_kswapd_wake \
		vmscan/mm_vmscan_kswapd_sleep; do
		[ -r $t/events/$e/format ] || continue
		mkdir -p "$dir/sys/kernel/tracing/events/$e"
		cat $t/events/$e/format > "$dir/sys/kernel/tracing/events/$e/format"
	done
fi
