#!/bin/bash
# Will it fit, beyond preflight, on the planted two-node tree of
# tests/lib.sh's fit_tree (the figures worked by hand in
# tests/cli/preflight.sh):
# - the exporter's fragtop_contiguous_blocks{node,zone,size_bytes,when}
#   has the planted counts once --collector.map has read the map, a
#   series per zone, size and when, so their number is the zones times the
#   sizes times two, within the bound docs/design/fit.md gives; promtool finds
#   nothing to say; without the map only when="now" of the buddy's sizes;
# - `fragtop labels` writes a node-feature-discovery feature file that
#   parses as NFD documents it (comments, one "# +expiry-time=" directive
#   in RFC 3339, "<namespace>/<name>=<value>" lines whose name and value
#   are Kubernetes label names and values, under 64 kB), with the planted
#   counts, per NUMA node too; -o writes it whole.
# usage: contiguity.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
command -v curl > /dev/null || skip_all "contiguity: needs curl"
command -v perl > /dev/null || { echo "FAIL perl not installed"; exit 1; }
tmp=$(mktemp -d)
PORT=$(test_port)
trap 'stop_exporter; rm -rf "$tmp"' EXIT
fit_tree "$tmp/root"
# both Movable zones read whole: their 1G after-compaction series are there
scanned() {
	scrape "$tmp/m"
	[ "$(grep -c '^fragtop_contiguous_blocks{node="[01]",zone="Movable",size_bytes="1073741824",when="after_compaction"}' "$tmp/m")" = 2 ] &&
		! grep -q '^fragtop_zone_gigantic_pages_available_after_compaction{.*} 0$' "$tmp/m"
}
series() {	# NODE SIZE_BYTES WHEN: the value
	sed -nE "s/^fragtop_contiguous_blocks\\{node=\"$1\",zone=\"Movable\",size_bytes=\"$2\",when=\"$3\"\\} ([0-9]+)\$/\\1/p" "$tmp/m"
}

"$FT" exporter --root "$tmp/root" --listen "127.0.0.1:$PORT" --no-trace --collector.map --map-cpu 50 \
	--collector.contiguity.sizes 32M 2> "$tmp/err" & epid=$!
check "the exporter answers" until_ok 20 up
check "the map is read whole between scrapes" until_ok 60 scanned
M2=2097152 M32=33554432 G1=1073741824
check "2M: node 0 now 512, after 767; node 1 now 1023, after 1279" \
	test "$(series 0 $M2 now) $(series 0 $M2 after_compaction) $(series 1 $M2 now) $(series 1 $M2 after_compaction)" = "512 767 1023 1279"
check "32M (--collector.contiguity.sizes): 32 120 63 126" \
	test "$(series 0 $M32 now) $(series 0 $M32 after_compaction) $(series 1 $M32 now) $(series 1 $M32 after_compaction)" = "32 120 63 126"
check "1G: 1 3 1 2" \
	test "$(series 0 $G1 now) $(series 0 $G1 after_compaction) $(series 1 $G1 now) $(series 1 $G1 after_compaction)" = "1 3 1 2"
n=$(grep -c '^fragtop_contiguous_blocks{' "$tmp/m")
# 2 zones x 3 sizes (2M: hugetlb and the pageblock; 1G; 32M) x 2
check "one series per zone, size and when: 2 x 3 x 2 = 12 ($n)" test "$n" = 12
check "within the design's bound: 2 x 16 a zone" test "$n" -le $((2 * 16 * 2))
if command -v promtool > /dev/null; then
	check "promtool check metrics: nothing to say" eval 'promtool check metrics < "$tmp/m" > "$tmp/pt" 2>&1 && [ ! -s "$tmp/pt" ]'
	[ -s "$tmp/pt" ] && cat "$tmp/pt"
else
	skip "promtool not installed"
fi
stop_exporter

PORT=$((PORT + 1))
"$FT" exporter --root "$tmp/root" --listen "127.0.0.1:$PORT" --no-trace 2> "$tmp/err2" & epid=$!
check "without the map: the exporter answers" until_ok 20 up
scrape "$tmp/m"
check "... now for 2M, from the free lists" test "$(series 0 $M2 now) $(series 1 $M2 now)" = "512 1023"
check "... no after_compaction series, nor 1G (above the buddy: the map's)" \
	eval '! grep -qE "^fragtop_contiguous_blocks\\{.*(when=\"after_compaction\"|size_bytes=\"1073741824\")" "$tmp/m"'
stop_exporter

# the NFD feature file
"$FT" labels --root "$tmp/root" -o "$tmp/fragtop.features" 2> "$tmp/lerr"
check "labels -o: exit 0" test $? = 0 || cat "$tmp/lerr"
f=$tmp/fragtop.features
label='[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?'
nfd_ok() {
	local line exp=0
	[ "$(stat -c %s "$f")" -lt 65536 ] || return 1
	while IFS= read -r line; do
		case $line in
		'# +expiry-time='*) exp=$((exp + 1)); date -d "${line#*=}" > /dev/null 2>&1 || return 1 ;;
		'#'* | '') ;;
		*) [[ $line =~ ^([a-z0-9]([-a-z0-9.]*[a-z0-9])?)/($label)=($label)$ ]] || { echo "not NFD: $line"; return 1; } ;;
		esac
	done < "$f"
	[ $exp = 1 ]
}
check "the file parses as NFD's local source documents it" nfd_ok
lbl() { sed -n "s|^feature.node.kubernetes.io/fragtop.$1=||p" "$f"; }
check "host: 2M now 1535, after compaction 2046" test "$(lbl contiguous-2M-now) $(lbl contiguous-2M-after-compaction)" = "1535 2046"
check "host: 1G now 2, after compaction 3" test "$(lbl contiguous-1G-now) $(lbl contiguous-1G-after-compaction)" = "2 3"
check "per NUMA node: node1 1G now 1, after compaction 2" \
	test "$(lbl node1.contiguous-1G-now) $(lbl node1.contiguous-1G-after-compaction)" = "1 2"
exp=$(sed -n 's/^# +expiry-time=//p' "$f")
d=$(( $(date -d "$exp" +%s) - $(date +%s) ))
check "expires in about 10 minutes ($d s)" test "$d" -gt 500 -a "$d" -le 600
"$FT" labels --root "$tmp/root" --no-map --size 32M,2M > "$tmp/nomap" 2>&1
check "--no-map --size: now of the buddy's sizes only" test "$(grep -c '^feature' "$tmp/nomap") $(grep -c 'contiguous-2M-now=1535' "$tmp/nomap")" = "3 1"
"$FT" labels --root "$tmp/root" --size 3M > /dev/null 2> "$tmp/bad"; rc=$?
check "a size that is not a power of two: exit 2, said" eval 'test $rc = 2 && grep -q "not a power of two" "$tmp/bad"'
[ $fails = 0 ]
