#!/bin/bash
# Containers from the node itself, on planted trees: `snapshot --json
# --root` gives each pod's namespace/name, memory, THP coverage and
# pressure exactly as the planted files say, on a cgroup v2 host with
# kubepods slices (the systemd driver) and on a v1 host (the cgroupfs
# driver); a tree without cgroups says so; hostile trees (a FIFO, a link,
# a newline in a name) are read around, never waited on or followed.
# usage: cgroups.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
UID1=0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0	# default/web-7f9c
UID2=11111111-2222-3333-4444-555555555555	# kube-system/coredns-abc
UID3=99999999-8888-7777-6666-555555555555	# a pod /var/log/pods does not name
CTR=4c1b9a0e3f2d4c5b6a7980aabbccddeeff00112233445566778899aabbccddee

base() {	# DIR: a root tree of this 6.18 VM, idle, and its pods' log directories
	mkdir -p "$1" && cp -r tests/fixtures/6.18-idle/. "$1/"
	mkdir -p "$1/proc/pressure" "$1/var/log/pods/default_web-7f9c_$UID1/web" \
		"$1/var/log/pods/kube-system_coredns-abc_$UID2/coredns" "$1/var/log/pods/not-a-pod"
	printf 'some avg10=1.50 avg60=0.75 avg300=0.25 total=123456\nfull avg10=0.50 avg60=0.25 avg300=0.05 total=6543\n' \
		> "$1/proc/pressure/memory"
}
cg() {	# DIR ANON ANON_THP PROCS [PRESSURE]: a v2 cgroup
	mkdir -p "$1"
	printf 'anon %s\nfile 4096\nkernel 8192\nanon_thp %s\nfile_thp 0\nshmem_thp 2097152\nthp_fault_alloc 7\nthp_collapse_alloc 1\n' \
		"$2" "$3" > "$1/memory.stat"
	seq 100 $((99 + $4)) > "$1/cgroup.procs"
	[ -z "${5:-}" ] || printf '%s\n' "$5" > "$1/memory.pressure"
}

# ---- v2, kubepods under the systemd driver
V2=$tmp/v2; base "$V2"
C=$V2/sys/fs/cgroup
mkdir -p "$C"; echo "cpuset cpu io memory hugetlb pids rdma misc" > "$C/cgroup.controllers"
POD1=$C/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${UID1//-/_}.slice
cg "$C/kubepods.slice" 3221225472 1073741824 0
cg "$C/kubepods.slice/kubepods-burstable.slice" 3221225472 1073741824 0
cg "$POD1" 2147483648 1610612736 3 'some avg10=4.00 avg60=2.00 avg300=1.00 total=999
full avg10=1.00 avg60=0.50 avg300=0.25 total=111'
cg "$POD1/cri-containerd-$CTR.scope" 2147483648 1610612736 2
cg "$C/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${UID2//-/_}.slice" 1073741824 0 1
cg "$C/kubepods.slice/kubepods-pod${UID3//-/_}.slice" 4096 0 1
cg "$C/system.slice/sshd.service" 5242880 0 1
mkdir -p "$C/system.slice/empty.service"	# no memory.stat: left out
"$FT" snapshot --json --root "$V2" > "$tmp/v2.json" 2> "$tmp/v2.err"
check "v2: snapshot --json exits 0" test $? = 0
q() { jq -r "$1" "$tmp/$2.json"; }
pod1='.cgroups.groups[] | select(.name == "default/web-7f9c")'
check "v2: the hierarchy is v2, two pods named" test "$(q '.cgroups.version, .cgroups.pods' v2 | paste -sd' ')" = "2 2"
check "v2: the pod's namespace and name" test "$(q "$pod1 | .namespace + \" \" + .pod" v2)" = "default web-7f9c"
check "v2: its anon and anon_thp bytes, as planted" \
	test "$(q "$pod1 | [.anon_bytes, .anon_thp_bytes, .shmem_thp_bytes, .thp_fault_alloc] | @tsv" v2)" = \
	"$(printf '2147483648\t1610612736\t2097152\t7')"
check "v2: its coverage, anon_thp / anon = 0.75" test "$(q "$pod1 | .thp_coverage" v2)" = 0.75
check "v2: its pressure, as planted" \
	test "$(q "$pod1 | [.pressure.some.avg10, .pressure.some.avg300, .pressure.some.total_us, .pressure.full.avg60] | @tsv" v2)" = \
	"$(printf '4\t1\t999\t0.5')"
check "v2: its processes counted" test "$(q "$pod1 | .processes" v2)" = 3
check "v2: the container under it, by its id's first 12" \
	test "$(q '.cgroups.groups[] | select(.path | endswith(".scope") and contains("cri-containerd")) | .name' v2)" = \
	"default/web-7f9c/${CTR:0:12}"
check "v2: the other pod, from its own log directory" \
	test "$(q '.cgroups.groups[] | select(.pod == "coredns-abc") | .namespace + "/" + (.anon_bytes | tostring)' v2)" = \
	"kube-system/1073741824"
check "v2: a pod no directory names, by its uid" \
	test "$(q '[.cgroups.groups[].name | select(startswith("pod:"))] | join(",")' v2)" = "pod:99999999"
check "v2: QoS slices and a systemd unit by the names people use" \
	test "$(q '[.cgroups.groups[].name] | map(select(. == "kubepods" or . == "kubepods/burstable" or . == "sshd.service")) | length' v2)" = 3
check "v2: a cgroup without memory.stat is left out" test "$(q '[.cgroups.groups[] | select(.name == "empty.service")] | length' v2)" = 0
check "v2: the host's pressure, as planted" \
	test "$(q '[.pressure.some.avg10, .pressure.some.total_us, .pressure.full.avg300] | @tsv' v2)" = "$(printf '1.5\t123456\t0.05')"

# ---- v1 with the memory controller, kubepods under the cgroupfs driver (a hybrid host's layout)
V1=$tmp/v1; base "$V1"
M=$V1/sys/fs/cgroup/memory
mkdir -p "$M" "$V1/sys/fs/cgroup/unified"
v1cg() {	# DIR RSS RSS_HUGE PROCS
	mkdir -p "$1"
	printf 'cache 8192\nrss 4096\nrss_huge 0\ntotal_cache 8192\ntotal_rss %s\ntotal_rss_huge %s\n' "$2" "$3" > "$1/memory.stat"
	seq 200 $((199 + $4)) > "$1/cgroup.procs"
}
v1cg "$M" 8589934592 2097152 40
v1cg "$M/kubepods/burstable/pod$UID1" 1073741824 536870912 2
v1cg "$M/kubepods/burstable/pod$UID1/$CTR" 1073741824 536870912 2
"$FT" snapshot --json --root "$V1" > "$tmp/v1.json" 2> "$tmp/v1.err"
check "v1: snapshot --json exits 0" test $? = 0
check "v1: the hierarchy is v1" test "$(q '.cgroups.version' v1)" = 1
check "v1: the pod's namespace/name, total_rss and total_rss_huge as its anon and anon_thp" \
	test "$(q "$pod1 | [.namespace, .pod, .anon_bytes, .anon_thp_bytes, .thp_coverage] | @tsv" v1)" = \
	"$(printf 'default\tweb-7f9c\t1073741824\t536870912\t0.5')"
check "v1: no cgroup pressure on v1 (null), the host's as planted" \
	test "$(q "($pod1 | .pressure), .pressure.some.avg60" v1 | paste -sd' ')" = "null 0.75"
check "v1: v2-only fields are null" test "$(q "$pod1 | .shmem_thp_bytes" v1)" = null

# ---- no cgroup fs, no pressure file: said, not failed
"$FT" snapshot --json --root tests/fixtures/6.18-idle > "$tmp/none.json" 2> "$tmp/none.err"
check "no cgroups: exits 0" test $? = 0
check "no cgroups: version null, no groups, no pressure" \
	test "$(q '.cgroups.version, (.cgroups.groups | length), .pressure' none | paste -sd' ')" = "null 0 null"

# ---- hostile: a FIFO for memory.stat, a link to a directory, a newline in a name
H=$tmp/hostile; cp -r "$V2" "$H"
HC=$H/sys/fs/cgroup
mkdir -p "$HC/fifo.service" "$HC/outside" "$HC/evil
name.service"
mkfifo "$HC/fifo.service/memory.stat"
cg "$HC/evil
name.service" 4096 0 1
cg "$tmp/elsewhere" 77777 0 1
ln -s "$tmp/elsewhere" "$HC/linked.service"
timeout 20 "$FT" snapshot --json --root "$H" > "$tmp/h.json" 2> "$tmp/h.err"
check "hostile: exits 0 within 20 s (a FIFO is not waited on)" test $? = 0
check "hostile: the FIFO's and the linked cgroups are left out" \
	test "$(q '[.cgroups.groups[] | select(.path | test("fifo|linked"))] | length' h)" = 0
check "hostile: the newline's is listed, escaped (it was left out, and all under it)" \
	test "$(q '[.cgroups.groups[] | select(.path == "/evil\\x0aname.service") | .anon_bytes][0]' h)" = 4096
check "hostile: the rest is as before" test "$(q "$pod1 | .anon_bytes" h)" = 2147483648
# ESC and BEL in a name, a cgroup under it, and two names that differ in a byte that is not UTF-8
esc=$(printf 'term\033[2J\007.scope')
cg "$HC/$esc" 8192 0 1
cg "$HC/$esc/inner.scope" 12288 0 2
cg "$HC/$(printf 'x\377')" 16384 0 1
cg "$HC/$(printf 'x\376')" 20480 0 1
timeout 20 "$FT" snapshot --json --root "$H" > "$tmp/h.json" 2> "$tmp/h.err"
check "ESC and BEL in a name: listed, escaped" \
	test "$(q '[.cgroups.groups[] | select(.path == "/term\\x1b[2J\\x07.scope") | .anon_bytes][0]' h)" = 8192
check "... and the cgroup under it" \
	test "$(q '[.cgroups.groups[] | select(.path == "/term\\x1b[2J\\x07.scope/inner.scope") | .processes][0]' h)" = 2
check "two names that differ in a byte that is not UTF-8 stay two" \
	test "$(q '[.cgroups.groups[] | select(.path == "/x\\xff" or .path == "/x\\xfe") | .anon_bytes] | sort | join(",")' h)" = \
	"16384,20480"
"$FT" snapshot --root "$H" > "$tmp/h.txt" 2>&1
check "the snapshot's text holds no raw control character" eval '! LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n" < "$tmp/h.txt")'
# ---- a tenant's 5,000 empty cgroups beside a pod: empty ones spend no budget of the listed ones
E=$tmp/empties; cp -r "$V2" "$E"
EC=$E/sys/fs/cgroup
cg "$EC/tenant.slice" 4096 0 1
perl -e 'for my $i (1 .. 5000) { my $d = "$ARGV[0]/e$i"; mkdir $d or die "$d: $!";
	open my $f, ">", "$d/memory.stat" or die; print $f "anon 0\nfile 0\n"; close $f;
	open $f, ">", "$d/cgroup.procs" or die; close $f; }' "$EC/tenant.slice"
# twenty pods beside them, wherever the directory's order puts them (before, the walk stopped
# at 4,096 directories looked at, empty or not: a pod read after them was neither listed nor counted)
for i in $(seq 1 20); do cg "$EC/tenant.slice/pod-$i.scope" 1073741824 0 2; done
timeout 60 "$FT" snapshot --json --root "$E" > "$tmp/e.json" 2> "$tmp/e.err"
check "5,000 empty cgroups beside 20 pods: every pod is listed" \
	test "$(q '[.cgroups.groups[] | select(.path | startswith("/tenant.slice/pod-")) | .anon_bytes] | length' e)" = 20
check "... and so is everything listed before" test "$(q "$pod1 | .anon_bytes" e)" = 2147483648
check "... nothing left out (every directory looked at)" test "$(q '.cgroups.left_out' e)" = 0
# a chain deeper than the walk goes: what it does not look at is counted
D=$tmp/deep; cp -r "$V2" "$D"
p=$D/sys/fs/cgroup
for i in $(seq 1 19); do p=$p/d$i; cg "$p" 4096 0 1; done
timeout 20 "$FT" snapshot --json --root "$D" > "$tmp/d.json" 2> "$tmp/d.err"
check "a chain of 19 under a walk of 16 levels: 16 listed" \
	test "$(q '[.cgroups.groups[] | select(.path | startswith("/d1"))] | length' d)" = 16
check "... the directory below them counted as left out" test "$(q '.cgroups.left_out' d)" = 1
# ---- report --by cgroup on the adverse recording: rows by cgroup add up, and each is its processes' sum
R=tests/recordings/adverse-6.18.ftr
"$FT" report --json "$R" > "$tmp/r.json"
check "report --json: by_cgroup's fragmenting fallbacks sum to the total" \
	test "$(jq '[.by_cgroup[].fragmenting] | add' "$tmp/r.json")" = "$(jq '.totals.extfrag_fragmenting' "$tmp/r.json")"
check "report --json: each cgroup's counts are the sum over its processes" \
	test "$(jq -c '[.processes | group_by(.cgroup // "")[] | {c: (.[0].cgroup // ""), f: (map(.fragmenting) | add)}]
		| sort_by(.c)' "$tmp/r.json")" = "$(jq -c '[.by_cgroup[] | select(.path != null)] | group_by(.path)
		| map({c: .[0].path, f: (map(.fragmenting) | add)}) | sort_by(.c)' "$tmp/r.json")"
check "... and they are numbers (57,606 fragmenting in the workload's cgroup)" \
	test "$(jq '[.by_cgroup[] | select(.path == "/process_api/730b0e66741056fbd04b0a311816c6ea") | .fragmenting][0]' "$tmp/r.json")" = 57606
"$FT" report --by cgroup "$R" > "$tmp/r.txt"
check "report --by cgroup: a cgroups table instead of the processes'" \
	bash -c "grep -q '^  procs fragment .*  cgroup$' '$tmp/r.txt' && ! grep -q '^  processes  ' '$tmp/r.txt'"
check "... the path whole, last (no cut at 22 columns)" \
	grep -q ' /process_api/730b0e66741056fbd04b0a311816c6ea$' "$tmp/r.txt"
# the tasks without a cgroup: one name and one reason, the same in text and JSON
check "... the tasks that exited unread under one name, its reason said under the table" \
	bash -c "grep -q ' (exited unread)$' '$tmp/r.txt' &&
		grep -qx '  (exited unread): the processes exited before fragtop read their cgroup' '$tmp/r.txt'"
check "report --json: the same name and reason, the path empty" \
	test "$(jq -c '[.by_cgroup[] | select(.path == "") | [.name, .unattributed]]' "$tmp/r.json")" = \
	'[["(exited unread)","the processes exited before fragtop read their cgroup"]]'
O=tests/recordings/thpfioscale-boost-0-to-15000.ftr	# recorded before fragtop took names and cgroups
"$FT" report --by cgroup "$O" > "$tmp/o.txt"
"$FT" report "$O" > "$tmp/op.txt"
check "an older recording: not 'exited' but '(no cgroups)', saying so" \
	bash -c "grep -q ' (no cgroups)$' '$tmp/o.txt' && grep -q '^  (no cgroups): no cgroup was read: an older recording' '$tmp/o.txt' &&
		! grep -q 'exited' '$tmp/o.txt'"
check "... and its processes' '?' explained once" \
	test "$(grep -c '^  ?: this recording has no process names' "$tmp/op.txt")" = 1
"$FT" report --by pod "$R" > /dev/null 2> "$tmp/by.err"; rc=$?
check "report --by pod: a usage error (exit $rc), naming the choices" \
	bash -c "[ $rc = 2 ] && grep -q \"'pod' is neither process nor cgroup\" '$tmp/by.err'"
# ---- export --cgroups: a column per most fragmenting cgroup, summing to the report's rows
"$FT" export --csv --cgroups "$R" > "$tmp/e.csv"
check "export --csv --cgroups: a column per cgroup, the workload's first" \
	bash -c "head -n 1 '$tmp/e.csv' | tr ',' '\n' | grep '^fragmenting:' | head -n 1 | grep -qx 'fragmenting:/process_api/730b0e66741056fbd04b0a311816c6ea'"
col_sums() {	# each fragmenting:NAME column's sum, "NAME SUM" lines sorted
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^fragmenting:/) { c[i] = substr($i, 13) } next }
		{ for (i in c) s[c[i]] += $i } END { for (k in s) print k, s[k] }' "$tmp/e.csv" | sort
}
check "... each column sums to its cgroup's row in report --json" \
	test "$(col_sums)" = "$(jq -r '.by_cgroup[] | select(.path != null and .fragmenting > 0) | "\(.path) \(.fragmenting)"' "$tmp/r.json" | sort)"
"$FT" export --json --cgroups "$R" > "$tmp/e.json"
check "export --json --cgroups: the same counts per tick" \
	test "$(jq '[.samples[].fragmenting_by_cgroup | to_entries[].value] | add' "$tmp/e.json")" = \
	"$(jq '[.by_cgroup[] | select(.path != null and .path != "") | .fragmenting] | add' "$tmp/r.json")"
"$FT" export --openmetrics --cgroups "$R" > /dev/null 2> "$tmp/e.err"; rc=$?
check "export --openmetrics --cgroups: a usage error (exit $rc)" test "$rc" = 2

# ---- the host's memory stall over a recording's window, from /proc/pressure/memory's totals
P=$tmp/psi; base "$P"
printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=1000000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=250000\n' \
	> "$P/proc/pressure/memory"
# recorded until a tick has read the new totals (a deadline, not a fixed
# -t: under load, three seconds once ended before the change was read)
"$FT" record --root "$P" -i 0.2 -t 120 -o "$tmp/psi.ftr" 2> /dev/null & rp=$!
until_ok 20 recorded "$tmp/psi.ftr" '.samples >= 3'
printf 'some avg10=5.00 avg60=1.00 avg300=0.20 total=3500000\nfull avg10=1.00 avg60=0.00 avg300=0.00 total=750000\n' \
	> "$P/proc/pressure/memory"
until_ok 30 recorded "$tmp/psi.ftr" '.memory_stall.psi_some_us == 2500000'
kill -INT $rp; wait $rp
"$FT" report --json "$tmp/psi.ftr" > "$tmp/psi.json"
check "report: the memory stall over the window is the totals' growth (2.5 s some, 0.5 s full)" \
	test "$(jq -c '.memory_stall | [.psi_some_us, .psi_full_us]' "$tmp/psi.json")" = "[2500000,500000]"
check "... with no direct compaction share where compaction was not traced" \
	test "$(jq -c '.memory_stall | [.direct_compaction_us, .direct_compaction_share]' "$tmp/psi.json")" = "[null,null]"
check "report (text): the same line" bash -c "'$FT' report '$tmp/psi.ftr' | grep -q '^memory stall  *some 2.500 s   full 0.500 s$'"
check "report of a recording without pressure: memory_stall null" \
	test "$(jq -c '.memory_stall' "$tmp/r.json")" = null
echo "cgroups.sh: $fails failure(s)"
[ $fails -eq 0 ]
