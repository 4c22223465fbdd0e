#!/bin/bash
# Will it fit, on this real kernel: fragtop preflight's figures for node 0
# against what the kernel gives.
#  - 2M and 1G, through node 0's own hugetlb files: preflight --json --node 0
#    (the map read whole), then nr_hugepages set to two more than the
#    upper "after compaction", what the kernel gave read back, and 0 put
#    back.  The kernel gives at least "now" and at most "after compaction"
#    (the interval's ends).  Five trials idle, five after the seeds'
#    adverse workload (boost 0), every one printed; at least 9 of the 10 of
#    each size must hold (docs/design/fit.md says why one may not: memory
#    freed or taken by others between the read and the ask).
#  - 4M and 32M, which no hugetlb size has: node 0 compacted (fragtop set
#    compact_node=0), and preflight's "now" read again: the free lists
#    above the watermark (4M), the all-free runs (32M) are at most "after
#    compaction" of before and at least its "now", less 1% for the free
#    blocks compaction itself takes as migration targets, idle and after
#    the workload.
# A hugetlb allocation reclaims as well as compacts, and "after
# compaction" counts no reclaim: each trial drops the clean page cache and
# the reclaimable slab first (drop_caches 3; the lab saw the kernel give a
# 1 GiB page more than fragtop's figure by shrinking dentries otherwise).  On a boot with deferred struct page init
# (deferred_init=lazy here) free memory is faulted in once first, as
# tests/host/gigantic.sh does.  Needs root and /proc/kpageflags; skipped
# when pages of a size are already held.  Restores nr_hugepages (trap).
# usage: fit.sh FRAGTOP_BINARY
# host-order: 80 (it asks the kernel for every free page: late, when the other lane is done)
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
workload
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
if [ "$(id -u)" != 0 ] || [ ! -r /proc/kpageflags ]; then
	skip_all "will it fit against the kernel: needs root and /proc/kpageflags"
fi
N=/sys/devices/system/node/node0/hugepages
TMPD=$(mktemp -d)
declare -A OLD
cleanup() {
	local kb
	for kb in "${!OLD[@]}"; do
		echo "${OLD[$kb]}" > "$N/hugepages-${kb}kB/nr_hugepages"
		[ "$(cat "$N/hugepages-${kb}kB/nr_hugepages")" = "${OLD[$kb]}" ] ||
			echo "FAIL $N/hugepages-${kb}kB/nr_hugepages not restored to ${OLD[$kb]}"
	done
	rm -rf "$TMPD"
}
trap cleanup EXIT
sizes=
for kb in 2048 1048576; do
	f=$N/hugepages-${kb}kB/nr_hugepages
	[ -w "$f" ] || { skip "$kb kB: no per-node hugetlb file"; continue; }
	[ "$(cat "$f")" = 0 ] || { skip "$kb kB: pages already held (they would read as movable)"; continue; }
	OLD[$kb]=0
	sizes="$sizes $kb"
done
[ -n "$sizes" ] || skip_all "no hugetlb size to ask node 0 for"
name() { case $1 in 2048) echo 2M ;; 4096) echo 4M ;; 32768) echo 32M ;; 1048576) echo 1G ;; esac; }

# a never-touched lazily initialised boot reads its uninitialised memory as free: fault it in once
"$FT" preflight --json --node 0 > "$TMPD/first.json" 2> "$TMPD/err" || true
uninit=$(jq '[.sizes[0].nodes[0].zones[].uninitialised_pages // 0] | add' "$TMPD/first.json")
if [ "${uninit:-0}" -gt 65536 ]; then
	echo "     $uninit pages not initialised by the kernel yet: faulting free memory in once first"
	cc -O2 -o "$TMPD/thpalloc" "$(dirname "$0")/../load/thpalloc.c" &&
		"$TMPD/thpalloc" $(( $(awk '/^MemFree:/ { print int($2 / 1024) }' /proc/meminfo) * 9 / 10 )) 0 > /dev/null
fi

# the node's figure of SIZE in FILE: now now_max after after_max
fig() {
	jq -r --arg s "$1" '.sizes[] | select(.size == $s) | .nodes[] | select(.node == 0) |
		"\(.now) \(.now_max // "null") \(.after_compaction // "null") \(.after_compaction_max // "null")"' "$2"
}
declare -A hits tries
# WHEN I: one trial of each hugetlb size
trial() {
	local when=$1 i=$2 kb f now nmax after amax ask gave
	sync
	echo 3 > /proc/sys/vm/drop_caches
	"$FT" preflight --json --node 0 > "$TMPD/p.json" 2> "$TMPD/err"
	[ $? -le 2 ] || { cat "$TMPD/err"; bad "$when $i: preflight ran"; return; }
	for kb in $sizes; do
		f=$N/hugepages-${kb}kB/nr_hugepages
		read -r now nmax after amax <<< "$(fig "$(name $kb)" "$TMPD/p.json")"
		[ "$amax" != null ] || { bad "$when $i $(name $kb): no after-compaction figure"; continue; }
		ask=$((amax + 2))
		echo "$ask" > "$f"
		gave=$(cat "$f")
		echo 0 > "$f"
		[ "$(cat "$f")" = 0 ] || bad "$when $i $(name $kb): every page given back"
		tries[$kb]=$((${tries[$kb]:-0} + 1))
		if [ "$gave" -ge "$now" ] && [ "$gave" -le "$amax" ]; then
			hits[$kb]=$((${hits[$kb]:-0} + 1)); r=in
		else
			r=OUT
		fi
		printf '     %-18s %-3s now %s-%s, after compaction %s-%s; asked %s, the kernel gave %s: %s\n' \
			"$when $i" "$(name $kb)" "$now" "$nmax" "$after" "$amax" "$ask" "$gave" "$r"
	done
}
# WHEN: node 0 compacted; 4M's and 32M's now after it against [now, after] before
free_kb() { awk '/^MemFree:/ { print $2 }' /proc/meminfo; }
compacted() {
	local when=$1 s now nmax after amax n2 rest f0 f1 grew
	sync
	echo 3 > /proc/sys/vm/drop_caches
	f0=$(free_kb)
	"$FT" preflight --json --node 0 --size 4M,32M > "$TMPD/b.json" 2> "$TMPD/err"
	"$FT" set compact_node=0 > /dev/null 2>&1 || { bad "$when: compact_node=0"; return; }
	"$FT" preflight --json --node 0 --size 4M,32M > "$TMPD/a.json" 2> "$TMPD/err"
	f1=$(free_kb)
	# memory others freed meanwhile (caches still going, a test beside this
	# one ending) can make blocks compaction alone could not: as many as it
	# holds whole are allowed above the bound
	grew=$((f1 > f0 ? f1 - f0 : 0))
	for s in 4M 32M; do
		read -r now nmax after amax <<< "$(fig $s "$TMPD/b.json")"
		read -r n2 rest <<< "$(fig $s "$TMPD/a.json")"
		local kb=$(( ${s%M} * 1024 )) more
		more=$((grew / kb))
		echo "     $when $s: before now $now-$nmax, after compaction $after-$amax; compacted, now $n2" \
			"(free memory grew $grew kB meanwhile: $more blocks)"
		check "$when $s: compacting gave at most 'after compaction' ($n2 <= $amax + $more)" \
			test "$n2" -le $((amax + more))
		# a full compaction takes its migration targets from free blocks at
		# the zone's top: it may leave a few fewer than there were (the lab
		# saw one of ~900 4M blocks go in 3 of 10 states): 1% of now
		check "$when $s: and at least 'now', but for what compaction took as targets ($n2 >= $now - 1%)" \
			test "$n2" -ge $((now - (now + 99) / 100))
	done
}

for i in 1 2 3 4 5; do trial idle $i; done
compacted idle
if [ -r "$WORKLOAD" ] && command -v fio > /dev/null; then
	bash "$WORKLOAD" 0 "${WORKLOAD_MB:-3072}" "$TMPD/work" > "$TMPD/work.log" 2>&1
	check "the adverse workload ran" grep -qiE 'fallback|done|boost' "$TMPD/work.log"
	rm -rf "$TMPD/work"
	for i in 1 2 3 4 5; do trial "after the workload" $i; done
	compacted "after the workload"
else
	skip "after the adverse workload: needs fio and $WORKLOAD"
fi
for kb in $sizes; do
	check "$(name $kb): the kernel gave within [now, after compaction] in ${hits[$kb]:-0} of ${tries[$kb]:-0} trials (at least 9 of 10)" \
		test "${hits[$kb]:-0}" -ge $(( ${tries[$kb]:-0} - ${tries[$kb]:-0} / 10 )) -a "${tries[$kb]:-0}" -gt 0
done
[ $fails = 0 ]
