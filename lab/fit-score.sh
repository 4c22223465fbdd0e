#!/bin/bash
# The guest's "lab: fit" lines (lab/workload-fit.sh) on stdin, one row per
# state and size on stdout (tab-separated, a header first):
#   kernel state size  now now_max after after_max  memavail buddy  kernel
# fragtop's figures for the host from preflight --json before anything was
# asked; memavail: MemAvailable / size, the first baseline; buddy:
# /proc/buddyinfo's free blocks of the order and above (as their multiple;
# above the largest order, the largest order's blocks / their multiple),
# the second; kernel: what the kernel gave (2M, 1G: hugetlb pages asked
# beyond fragtop's upper figure; 4M: the free lists above the watermark
# after compact_memory, as preflight reads them).
# usage: fit-score.sh VERSION < GUEST_LINES
set -euo pipefail
v=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n 's/^lab: fit \([0-9]*\) \([0-9]*[KMG]\) /\1 \2 /p' > "$tmp/lines"
printf 'kernel\tstate\tsize\tnow\tnow_max\tafter\tafter_max\tmemavail\tbuddy\tkernel_gave\n'
# one state and size: its look (json, meminfo, buddyinfo) and the kernel's answer
awk '$3 == "gave" { print $1, $2 }' "$tmp/lines" | sort -n -k1,1 -k2,2 | while read -r s size; do
	pick() { awk -v s="$s" -v z="$size" -v w="$1" '$1 == s && $2 == z && $3 == w { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' "$tmp/lines"; }
	pick json > "$tmp/p.json"
	avail=$(pick meminfo | awk '{ for (i = 1; i < NF; i++) if ($i == "MemAvailable:") print $(i + 1) }')
	buddy=$(pick buddyinfo)
	gave=$(pick gave | awk '{ print $1 }')
	case $size in 2M) kb=2048 ;; 4M) kb=4096 ;; 1G) kb=1048576 ;; *) continue ;; esac
	f=$(jq -r --arg z "$size" '.sizes[] | select(.size == $z) | .host |
		"\(.now)\t\(.now_max // "-")\t\(.after_compaction // "-")\t\(.after_compaction_max // "-")"' "$tmp/p.json")
	[ -n "$f" ] && [ -n "$gave" ] && [ -n "$avail" ] || continue
	# buddyinfo: the size's order in 4 KiB pages, each zone's blocks at it and above
	b=$(awk -v kb=$kb 'BEGIN { RS = "|"; o = 0; for (p = 4; p < kb; p *= 2) o++ }
		NF > 4 { top = NF - 4; for (i = 0; i < top; i++) { c[i] += $(i + 5) } n = top }
		END { s = 0; if (o < n) { for (i = o; i < n; i++) s += c[i] * 2 ^ (i - o) }
		      else s = int(c[n - 1] / 2 ^ (o - n + 1)); printf "%d", s }' <<< "$buddy")
	printf '%s\t%s\t%s\t%s\t%d\t%s\t%s\n' "$v" "$s" "$size" "$f" $((avail / kb)) "$b" "$gave"
done
