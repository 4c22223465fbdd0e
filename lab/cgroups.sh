#!/bin/bash
# Containers on another kernel: Debian's 6.12 (stock, built from
# linux-source-6.12 with cgroup v2, the memory controller and PSI) boots
# under qemu with cgroup2 mounted, runs lab/workload-cgroups.sh (a
# fragmenting cgroup and one holding THPs) inside `fragtop record
# --cgroups`, and this script checks, from what the guest printed:
# - fragtop's snapshot in the guest gives each cgroup's anon and
#   anon_thp bytes, and so its THP coverage, equal to the guest's own
#   memory.stat read just before and after it;
# - the recording's report --by cgroup has the two cgroups' rows, which
#   add up to the report's totals, each with its memory stall over the
#   window (memory.pressure, v2).
# usage: lab/cgroups.sh [-o OUT.ftr]   (default build/lab/cgroups-6.12.ftr)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$HERE/..
CACHE=${LAB_CACHE:-$TOP/build/lab}
out=$CACHE/cgroups-6.12.ftr
[ "${1:-}" = -o ] && out=$2
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
kernel=$("$HERE/build-kernel.sh" --stock 6.12) || { echo "FAIL no 6.12 lab kernel"; exit 1; }
"$HERE/run.sh" --kernel "$kernel" --cgroups --workload "$HERE/workload-cgroups.sh" --seconds 40 -o "$out" 2> "$out.log"
rc=$?
grep '^lab:' "$out.log" | grep -v '^lab: snapshot' | sed 's/^/  /'
[ $rc = 0 ] || { echo "FAIL the lab run (exit $rc): $out.log"; exit 1; }
con=$CACHE/console-last.log
snap=$(sed -n 's/^lab: snapshot //p' "$con" | head -n 1)
[ -n "$snap" ] && jq -e . > /dev/null <<< "$snap" || { echo "FAIL no snapshot from the guest"; exit 1; }
[ "$(jq -r .cgroups.version <<< "$snap")" = 2 ] && ok "the guest's fragtop reads cgroup v2" || bad "cgroup v2 in the guest"
for cg in frag thp; do
	before=$(sed -n "s/^lab: memstat before $cg //p" "$con" | tr -d ' ')
	after=$(sed -n "s/^lab: memstat after $cg //p" "$con" | tr -d ' ')
	got=$(jq -r --arg p "/$cg" '.cgroups.groups[] | select(.path == $p) | "anon=\(.anon_bytes)anon_thp=\(.anon_thp_bytes)"' <<< "$snap")
	cov=$(jq -r --arg p "/$cg" '.cgroups.groups[] | select(.path == $p) | .thp_coverage' <<< "$snap")
	echo "  /$cg: memory.stat before $before, after $after; fragtop $got, coverage $cov"
	if [ "$before" != "$after" ]; then
		echo "  /$cg moved between the two reads: not compared"
	elif [ "$got" = "$before" ]; then
		ok "/$cg: fragtop's anon and anon_thp equal the guest's memory.stat (coverage $cov)"
	else
		bad "/$cg: fragtop $got, memory.stat $before"
	fi
done
"$TOP/fragtop" report --json --by cgroup "$out" > "$out.json" 2> /dev/null
echo "  report: $(jq -c '[.by_cgroup[] | {name, fragmenting, extfrag}]' "$out.json")"
if jq -e '([.by_cgroup[].fragmenting] | add) == .totals.extfrag_fragmenting and
	([.by_cgroup[] | select(.path == "/frag" or .path == "/thp")] | length) >= 1' "$out.json" > /dev/null; then
	ok "report --by cgroup: the rows add up to the total, the workload's cgroups among them"
else
	bad "report --by cgroup's rows"
fi
if jq -e '[.by_cgroup[] | select(.path == "/frag" or .path == "/thp") | .memory_stall_us] | all(. != null)' \
	"$out.json" > /dev/null; then
	ok "report --by cgroup: each workload cgroup's memory stall over the window (v2 memory.pressure)"
else
	bad "report --by cgroup: a workload cgroup without its memory stall"
fi
echo "  memory stall: $(jq -c '[.by_cgroup[] | select(.path != null) | {path, memory_stall_us, compaction_us, compaction_share_of_stall}]' "$out.json")"
echo "lab/cgroups.sh: $fails failure(s)"
[ $fails = 0 ]
