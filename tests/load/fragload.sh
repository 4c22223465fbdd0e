#!/bin/bash
# A sustained thpfioscale-style load for watching the controls act: the
# same set-up as tests/load/thpfioscale-mini.sh (a hugetlb reservation
# shrinks usable memory; fio writes 64K files created on open, no
# fallocate, 150% of usable memory, mixing slab and page cache), repeated in
# cycles for SECS seconds: the first cycle creates the files, later ones
# rewrite them after dropping the page cache, which keeps fallbacks coming
# (deleting and recreating them instead makes almost none here).  Unlike
# the mini script it never touches
# watermark_boost_factor, so the operator can change it from fragtop while
# this runs.  Restores nr_hugepages and removes its files on exit.
# usage: fragload.sh [SECS] [LEAVE_MB]       (root)
set -u
SECS=${1:-120}; LEAVE_MB=${2:-3072}
DIR=/var/tmp/fragload-$$
[ "$(id -u)" = 0 ] || { echo "fragload: needs root" >&2; exit 1; }
command -v fio > /dev/null || { echo "fragload: needs fio" >&2; exit 1; }
orig_huge=$(cat /proc/sys/vm/nr_hugepages)
cleanup() {
	pkill -P $$ fio 2> /dev/null
	rm -rf "$DIR"
	echo "$orig_huge" > /proc/sys/vm/nr_hugepages
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$DIR"
sync; echo 3 > /proc/sys/vm/drop_caches
total_mb=$(awk '/MemFree/ {print int($2/1024)}' /proc/meminfo)
echo $(( (total_mb - LEAVE_MB) / 2 )) > /proc/sys/vm/nr_hugepages
usable_mb=$(awk '/MemAvailable/ {print int($2/1024)}' /proc/meminfo)
files_mb=$(( usable_mb * 3 / 2 ))
echo "fragload: usable_mb=$usable_mb files_mb=$files_mb for ${SECS}s"
end=$(( $(date +%s) + SECS )); cycle=0
while [ "$(date +%s)" -lt $end ]; do
	cycle=$((cycle + 1))
	left=$(( end - $(date +%s) )); [ $left -lt 1 ] && break
	fio --name=write --directory="$DIR" --numjobs=4 --rw=write --bs=64k --filesize=64k \
	    --nrfiles=$(( files_mb * 16 / 4 )) --create_on_open=1 --fallocate=none \
	    --file_service_type=sequential --openfiles=64 --runtime=$left --time_based=0 \
	    > /dev/null 2>&1
	echo 1 > /proc/sys/vm/drop_caches
	echo "fragload: cycle $cycle done at $(date +%T)"
done
