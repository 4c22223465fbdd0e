#!/bin/bash
# A kernel made to look like a CONFIG_DEBUG_VM build before 6.17 (a fixture
# tree with its /proc/config.gz or /boot/config-<release>): reading
# /proc/kpageflags while folios split can trip VM_BUG_ON there, so the map
# does not scan until asked.  snapshot --map exits 1 and says why;
# --map-force scans; the map view says why and A scans.  6.17 and a
# kernel without DEBUG_VM scan as before, and an unreadable config is
# said and does not stop the map.
# usage: map-debugvm.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
HERE=$(cd "$(dirname "$0")/.." && pwd)
SOCK=
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
command -v jq > /dev/null || { echo "FAIL jq not installed"; exit 1; }
command -v gzip > /dev/null || { echo "FAIL gzip not installed"; exit 1; }
TMPD=$(mktemp -d)
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
tree=$TMPD/tree
cp -r "$HERE/fixtures/6.1-2node-movable/." "$tree/"
release=$(cat "$tree/proc/sys/kernel/osrelease")
truncate -s $(( 0x80000 * 8 )) "$tree/proc/kpageflags" "$tree/proc/kpagecount"
printf '# CONFIG_DEBUG_VM_PGFLAGS is not set\nCONFIG_DEBUG_VM=y\n' | gzip > "$tree/proc/config.gz"

snap() { "$FT" snapshot --json --map --no-trace --root "$tree" "$@" > "$TMPD/s.json" 2> "$TMPD/s.err"; }
snap
check "DEBUG_VM before 6.17: snapshot --map exits 1" test $? = 1
check "... its JSON says why, with no pageblocks" jqe '(.map_error | test("kept off: a CONFIG_DEBUG_VM kernel before 6.17")) and
	all(.zones[]; .pageblocks == null)' "$TMPD/s.json"
check "... stderr names the kernel, the risk and the way out" \
	grep -q "pageblock map off: this kernel ($release) is built with CONFIG_DEBUG_VM and reads /proc/kpageflags without snapshot_page() (6.17): .*VM_WARN_ON_FOLIO.*--map-force scans anyway" "$TMPD/s.err"
snap --map-force
check "--map-force: the map is read" jqe '.map_error == null and ([.zones[].pageblocks.total] | add) > 0' "$TMPD/s.json"

# the same from /boot/config-<release>, DEBUG_VM_PGFLAGS this time: a BUG, not a warning
rm "$tree/proc/config.gz"
mkdir -p "$tree/boot"
printf 'CONFIG_DEBUG_VM=y\nCONFIG_DEBUG_VM_PGFLAGS=y\n' > "$tree/boot/config-$release"
snap; rc=$?
check "/boot/config-$release with DEBUG_VM_PGFLAGS: kept off, VM_BUG_ON named" \
	eval 'test $rc = 1 && grep -q "CONFIG_DEBUG_VM_PGFLAGS .*VM_BUG_ON (a crash)" "$TMPD/s.err"'

# the map view: why, and A
tmux_start fragtop-debugvm 100 30 "$FT" --no-trace --root "$tree"
wait_for '^fragtop ' > /dev/null
T send-keys -t ft 5
check "the map view says the map is kept off, and why" wait_for 'The pageblock map is kept off on this kernel'
check "... naming DEBUG_VM and the file it read" wait_for "CONFIG_DEBUG_VM_PGFLAGS|/boot/config-$release"
check "... and how to scan anyway" wait_for '^  A: scan anyway \(or start with --map-force\)'
T send-keys -t ft A
check "A: the map scans" wait_for '^N[01] [A-Za-z0-9]+ +PFN 0x'
check "... and the status line says it was asked for" wait_for 'scanning /proc/kpageflags on a DEBUG_VM kernel, as asked'
T send-keys -t ft q
end_tmux; SOCK=

# 6.17 reads kpageflags through snapshot_page(): no risk
echo "6.17.3-test" > "$tree/proc/sys/kernel/osrelease"
printf 'CONFIG_DEBUG_VM=y\nCONFIG_DEBUG_VM_PGFLAGS=y\n' | gzip > "$tree/proc/config.gz"
snap
check "6.17 with DEBUG_VM: the map is read" jqe '.map_error == null' "$TMPD/s.json"
# an unreadable config: said nowhere as a refusal, the map is read
echo "6.12.1-test" > "$tree/proc/sys/kernel/osrelease"
echo "not gzip" > "$tree/proc/config.gz"
snap
check "a corrupt config.gz: the map is read all the same" jqe '.map_error == null' "$TMPD/s.json"
printf '# CONFIG_DEBUG_VM is not set\n' | gzip > "$tree/proc/config.gz"
snap
check "6.12 without DEBUG_VM: the map is read" jqe '.map_error == null' "$TMPD/s.json"
[ $fails = 0 ]
