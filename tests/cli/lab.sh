#!/bin/bash
# The patched-kernel lab's recordings (lab/fixtures.sh, kept in
# tests/recordings): fragtop recorded inside qemu on Debian's 6.1 with the
# seeds' stall ported (lab/fragment-stall.patch), the same kernel with the
# stall turned off from fragtop, and the stock 6.1.  Replayed here, no
# kernel built: the stalls the trace saw equal the kernel's own vmstat
# count, have durations, name their processes; the outside change of
# fragment_stall_order is listed; compare puts the three side by side.
# usage: lab.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=${1:-./fragtop}
R=tests/recordings
ON=$R/lab-6.1-stall.ftr OFF=$R/lab-6.1-stall-off.ftr STOCK=$R/lab-6.1-stock.ftr
for f in "$ON" "$OFF" "$STOCK"; do
	[ -f "$f" ] || { echo "FAIL lab recording $f missing (make lab makes them)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the stall on (fragment_stall_order at its default, 3)
"$FT" report --json "$ON" > "$tmp/on.json"
check "stall on: the kernel string names the patched build" \
	jqe '.kernel | test("^6\\.1\\.[0-9]+-fragtop-stall$")' "$tmp/on.json"
check "stall on: at least 10 fragmentation stalls traced, none lost" \
	jqe '.latency.fragmentation_stall.count >= 10 and .lost == 0' "$tmp/on.json"
check "stall on: every stall has a duration (no bucket starts at 0 us)" \
	jqe '.latency.fragmentation_stall.buckets | length > 0 and all(.lo_us > 0)' "$tmp/on.json"
check "stall on: the buckets hold every stall" \
	jqe '([.latency.fragmentation_stall.buckets[].count] | add) == .latency.fragmentation_stall.count' "$tmp/on.json"
check "stall on: traced stalls = the growth of /proc/vmstat fragment_stall = totals" \
	jqe '.latency.fragmentation_stall.count == .totals.vmstat_fragment_stall and
	     .totals.fragmentation_stalls == .totals.vmstat_fragment_stall' "$tmp/on.json"
check "stall on: the processes' stalls add up to the total" \
	jqe '([.processes[].fragmentation_stalls // 0] | add) == .totals.fragmentation_stalls' "$tmp/on.json"
check "stall on: both nodes' zones took fallbacks" \
	jqe '[.extfrag_by_zone[] | select(.total > 0) | .node] | unique == [0, 1]' "$tmp/on.json"
"$FT" report "$ON" > "$tmp/on.txt"
n=$(jq '.totals.fragmentation_stalls' "$tmp/on.json")
check "stall on, text: the vmstat count beside the trace's" \
	grep -q "^  fragmentation stalls in /proc/vmstat (fragment_stall): $n\$" "$tmp/on.txt"
check "stall on, text: a stall column in the process table, a stalling workload process in it" \
	awk '/^  processes .* fstall$/ { t = 1; next } t && /^  (fraggen|thpalloc) / && $NF > 0 { f = 1 } END { exit !f }' "$tmp/on.txt"
check "stall on, text: the stall histogram" grep -q '^  fragmentation_stall, us$' "$tmp/on.txt"

# the stall turned off by `fragtop set fragment_stall_order=0` in the guest
"$FT" report --json "$OFF" > "$tmp/off.json"
check "stall off: the change is listed, from outside the recording fragtop" \
	jqe '[.controls[] | select(.knob == "fragment_stall_order" and .old == "3" and .new == "0" and
	       .how == "outside")] | length == 1' "$tmp/off.json"
check "stall off: an interval opens at the change; no stall after it" \
	jqe '.intervals | length == 2 and (.[1].after | test("fragment_stall_order 3 -> 0")) and
	     .[1].fragmentation_stalls == 0' "$tmp/off.json"
check "stall off: the kernel counted none either" jqe '.totals.vmstat_fragment_stall == 0' "$tmp/off.json"
check "stall off, text: the change in the control changes" \
	bash -c '"$1" report "$2" | grep -A2 "^control changes    1 (1 of them outside this fragtop)" |
		grep -q "outside seen *fragment_stall_order 3 -> 0"' _ "$FT" "$OFF"

# the stock kernel: no stall tracepoint, no vmstat counter
"$FT" report --json "$STOCK" > "$tmp/stock.json"
check "stock: the kernel string names the stock build" \
	jqe '.kernel | test("^6\\.1\\.[0-9]+-fragtop-stock$")' "$tmp/stock.json"
check "stock: fragmentation_stall absent, no vmstat counter, no count (null, not 0)" \
	jqe '.latency.fragmentation_stall == null and .totals.vmstat_fragment_stall == null and
	     .totals.fragmentation_stalls == null and all(.intervals[]; .fragmentation_stalls == null)' "$tmp/stock.json"
check "stock, text: says the source is absent" \
	bash -c '"$1" report "$2" | grep -q "^  fragmentation_stall absent on the recorded kernel"' _ "$FT" "$STOCK"

# compaction split: the lab's kernel compacted only in kcompactd (compact_stall
# did not grow), so no direct stall; kcompactd's work listed per node apart
for r in on off stock; do
	check "$r: direct compaction stalls = the growth of compact_stall; kcompactd's apart" \
		jqe '.totals.direct_compaction_stalls == .totals.compact_stall and .compaction.background_compactions > 0 and
		     (.compaction.background_by_node | length) >= 1 and
		     all(.processes[]; (.comm | startswith("kcompactd") | not) or .compaction_stalls == 0)' "$tmp/$r.json"
done

# compare: the three side by side, each figure the report's
"$FT" compare --json stall="$ON" off="$OFF" stock="$STOCK" > "$tmp/cmp.json"
row() { jq -c --arg m "$1" '[.rows[] | select(.metric == $m) | .groups[].mean]' "$tmp/cmp.json"; }
want_frag=$(jq -s -c '[.[].totals.extfrag_fragmenting]' "$tmp/on.json" "$tmp/off.json" "$tmp/stock.json")
check "compare: fragmenting fallbacks of the three runs ($want_frag)" test "$(row extfrag_fragmenting)" = "$want_frag"
check "compare: fragmentation stalls, stock absent" \
	test "$(row fragmentation_stalls)" = "[$n,0,null]"
"$FT" compare stall="$ON" off="$OFF" stock="$STOCK" > "$tmp/cmp.txt"
check "compare text: both rows for every group, within 80 columns" \
	awk '/^fragmenting fallbacks / { f++ } /^fragmentation stalls / { s++ } length > 80 { w = 1 }
	     END { exit !(f == 2 && s == 2 && !w) }' "$tmp/cmp.txt"
echo "lab.sh: $fails failure(s)"
[ $fails -eq 0 ]
