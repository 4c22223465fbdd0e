#!/bin/bash
# One lab run: boot a kernel (the lab's patched 6.1 by default, or any
# bzImage with --kernel) under qemu (TCG: no KVM needed) with two NUMA
# nodes, an ext2 scratch disk (virtio-blk, mounted at /data) and an
# initramfs holding busybox, this fragtop with its libraries, and a
# workload (lab/workload.sh by default, with lab/fraggen.c and
# tests/load/thpalloc.c built static); `fragtop record` runs around the
# workload; the recording comes back over the serial console (base64
# between markers) into OUT.
#   --stall-order N   set vm.fragment_stall_order before the workload
#   --stall-off-at S  set it to 0 from fragtop (`fragtop set`) S seconds into
#                     the workload (0: just before it starts)
#   --boost-factor N  set vm.watermark_boost_factor to N (`fragtop set`,
#                     before the recording starts; the kernel's default is
#                     15000, 0 turns boosting off)
#   --seconds S       how long the workload runs (default 60)
#   --workload FILE   a sh script to run instead of lab/workload.sh (it gets
#                     SECS; fraggen, thpalloc and busybox are on its PATH,
#                     and it may source /lab/rounds.sh for the rounds)
#   --cgroups         mount cgroup2 at /sys/fs/cgroup with the memory
#                     controller on for the children (a kernel built with
#                     CONFIG_MEMCG, as lab/kernel.config has it) and record
#                     with --cgroups
#   --map-interval S  record a whole map scan every S seconds (amplification,
#                     futile compaction: record --map-interval)
#   --memory MB       guest memory, split over the two nodes (default 1024)
#   --cpu MODEL       qemu's -cpu (default qemu's own; max has pdpe1gb: 1 GiB pages)
#   --experiment ARGS run `fragtop experiment ARGS --json` instead of record
#                     (it records itself), the workload looping until its
#                     blocks are done (--seconds: their total); its JSON
#                     comes back as OUT.ftr.json
#   --page-owner      boot with page_owner=on (a kernel built with
#                     CONFIG_PAGE_OWNER), record a map scan every 10 s with
#                     the page owners of 64 mixed blocks after each
#                     (record --map-interval --owner-blocks) and, after the
#                     workload, take back
#                     the first 256 KiB of /sys/kernel/debug/page_owner and
#                     of page_owner_stacks/show_stacks (6.9+) as
#                     OUT.ftr.page_owner and OUT.ftr.show_stacks
# Beside the recording, OUT.ftr.extfrag holds the kernel's own count of the
# fallbacks in two instances of the run's own around fragtop's window (the
# text of mm_page_alloc_extfrag: its fragmenting= and change_ownership=).
# usage: run.sh [--kernel BZIMAGE] [--stall-order N] [--stall-off-at S]
#               [--boost-factor N] [--seconds S] [--workload FILE] [--cgroups] [--page-owner]
#               [--memory MB] [--cpu MODEL] [--map-interval S] -o OUT.ftr
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$HERE/..
CACHE=${LAB_CACHE:-$TOP/build/lab}
mem=1024 cpu= kernel= out= stall_order= stall_off= secs=60 workload=$HERE/workload.sh page_owner= rec_extra= boost= cgroups=
experiment=
usage="usage: run.sh [--kernel BZIMAGE] [--stall-order N] [--stall-off-at S] [--boost-factor N] [--seconds S] [--workload FILE] [--cgroups] [--page-owner] [--memory MB] [--cpu MODEL] [--map-interval S] -o OUT.ftr"
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--stall-order) stall_order=$2; shift 2 ;;
	--stall-off-at) stall_off=$2; shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	--memory) mem=$2; shift 2 ;;
	--map-interval) rec_extra="$rec_extra --map-interval $2"; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--workload) workload=$2; shift 2 ;;
	--boost-factor) boost=$2; shift 2 ;;
	--page-owner) page_owner=" page_owner=on"; rec_extra="$rec_extra --map-interval 10 --owner-blocks 64"; shift ;;
	--cgroups) cgroups=1; rec_extra="$rec_extra --cgroups"; shift ;;
	--experiment) experiment=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || { echo "run.sh: -o OUT.ftr is required" >&2; exit 2; }
case $mem in ''|*[!0-9]*) echo "run.sh: --memory takes MB: $mem" >&2; exit 2 ;; esac
[ "$mem" -ge 512 ] && [ $((mem % 2)) = 0 ] || { echo "run.sh: --memory: at least 512, even" >&2; exit 2; }
[ -r "$workload" ] || { echo "run.sh: cannot read the workload $workload" >&2; exit 2; }
command -v mkfs.ext2 > /dev/null || { echo "run.sh: mkfs.ext2 missing (apt-get install e2fsprogs)" >&2; exit 1; }
command -v qemu-system-x86_64 > /dev/null || { echo "run.sh: qemu-system-x86_64 missing (apt-get install qemu-system-x86)" >&2; exit 1; }
BB=$(command -v busybox) || { echo "run.sh: busybox missing (apt-get install busybox-static)" >&2; exit 1; }
file "$BB" | grep -q "statically linked" || { echo "run.sh: $BB is not static (apt-get install busybox-static)" >&2; exit 1; }
[ -x "$TOP/fragtop" ] || make -C "$TOP" -s fragtop
[ -n "$kernel" ] || kernel=$("$HERE/build-kernel.sh")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
R=$work/root
mkdir -p "$R"/{bin,sbin,proc,sys,dev,tmp,rec,data,lab,lib,lib64,usr/bin}
cp "$BB" "$R/bin/busybox"
for a in $("$BB" --list); do [ "$a" = busybox ] || ln -sf busybox "$R/bin/$a"; done
# fragtop with every library it loads, and the loader
cp "$TOP/fragtop" "$R/usr/bin/fragtop"
for lib in $(ldd "$TOP/fragtop" | awk '/=>/ { print $3 } /ld-linux/ { print $1 }'); do
	mkdir -p "$R$(dirname "$lib")"
	cp -L "$lib" "$R$lib"
done
# perf, when the host has it (linux-perf), to count the event as perf does beside fragtop
PERF=$(command -v perf || true)
if [ -n "$PERF" ]; then
	cp "$PERF" "$R/usr/bin/perf"
	for lib in $(ldd "$PERF" | awk '/=>/ { print $3 }'); do
		mkdir -p "$R$(dirname "$lib")"
		[ -e "$R$lib" ] || cp -L "$lib" "$R$lib"
	done
fi
gcc -O2 -static -o "$R/usr/bin/thpalloc" "$TOP/tests/load/thpalloc.c"
gcc -O2 -Wall -static -o "$R/usr/bin/fraggen" "$HERE/fraggen.c"
cp "$workload" "$R/lab/workload.sh"
cp "$HERE/rounds.sh" "$R/lab/rounds.sh"
# the scratch disk: sparse, so it costs only what the guest writes
truncate -s 2G "$work/disk.img"
mkfs.ext2 -q -F "$work/disk.img"
cat > "$R/init" <<INIT
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev 2>/dev/null
hostname fragtop-lab
mount -t tmpfs -o size=95% tmp /tmp; mkdir -p /rec; mount -t tmpfs -o size=24m rec /rec
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t ext2 /dev/vda /data || echo 'lab: no scratch disk at /dev/vda'
echo always > /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
if [ -n "$cgroups" ]; then
	mount -t cgroup2 cgroup2 /sys/fs/cgroup && echo +memory > /sys/fs/cgroup/cgroup.subtree_control &&
		echo "lab: cgroup2 at /sys/fs/cgroup, controllers \$(cat /sys/fs/cgroup/cgroup.subtree_control)" ||
		echo "lab: no cgroup2 with memory here"
fi
[ -n "$stall_order" ] && echo $stall_order > /proc/sys/vm/fragment_stall_order
[ -n "$boost" ] && fragtop set watermark_boost_factor=$boost | sed 's/^/lab: /'
echo "lab: kernel \$(uname -r), fragment_stall_order \$(cat /proc/sys/vm/fragment_stall_order 2>/dev/null || echo absent), watermark_boost_factor \$(cat /proc/sys/vm/watermark_boost_factor)"
# the kernel's own count of its fallbacks, to hold fragtop's against: two
# instances of our own, the outer on before fragtop starts and off after it
# ends, the inner on once fragtop's instance is and off before it is
# stopped (fragtop's count lies between them); their text says
# fragmenting= and change_ownership= as the kernel computes them
T=/sys/kernel/tracing
ref_on() {
	mkdir -p \$T/instances/lab-\$1 && echo 16384 > \$T/instances/lab-\$1/buffer_size_kb &&
		echo 1 > \$T/instances/lab-\$1/events/kmem/mm_page_alloc_extfrag/enable
}
ref_count() {
	I=\$T/instances/lab-\$1
	[ -d \$I ] || return
	echo 0 > \$I/tracing_on
	echo "lab: extfrag reference \$1 total \$(grep -c mm_page_alloc_extfrag \$I/trace) fragmenting \$(grep -c 'fragmenting=1' \$I/trace) ownership \$(grep -c 'change_ownership=1' \$I/trace) lost \$(cat \$I/per_cpu/cpu*/stats | awk '/^overrun:|^dropped events:/ { s += \$NF } END { print s + 0 }')"
}
ref_on outer
if [ -n "$experiment" ]; then
	fragtop experiment $experiment --trace-buffer-kb 2048 -o /rec/lab.ftr --json > /rec/exp.json 2> /rec/rec.err &
else
	fragtop record -o /rec/lab.ftr -i 0.5 --boost-hz 20 --trace-buffer-kb 2048 $rec_extra 2> /rec/rec.err &
fi
rec=\$!
for i in \$(seq 300); do
	cat \$T/instances/fragtop-*/events/kmem/mm_page_alloc_extfrag/enable 2> /dev/null | grep -q 1 && break
	sleep 0.1
done
# a report counts from the recording's first tick (every 0.5 s): the inner
# reference starts after it, and stops a second before fragtop does
sleep 2
ref_on inner
sleep 3
if [ "$stall_off" = 0 ]; then
	fragtop set fragment_stall_order=0 | sed 's/^/lab: /'
elif [ -n "$stall_off" ]; then
	( sleep $stall_off; fragtop set fragment_stall_order=0 | sed 's/^/lab: /' ) &
fi
if [ -n "$experiment" ]; then
	# the workload until the experiment has run its blocks (it ends itself)
	SECS=$secs sh /lab/workload.sh
	wait \$rec
	echo "----- fragtop experiment begins -----"
	cat /rec/exp.json
	echo "----- fragtop experiment ends -----"
elif command -v perf > /dev/null; then
	# perf's own count of the event over the workload (inside fragtop's window)
	SECS=$secs perf stat -a -x, -e kmem:mm_page_alloc_extfrag -o /rec/perf.csv -- sh /lab/workload.sh
	echo "lab: extfrag reference perf total \$(awk -F, '/mm_page_alloc_extfrag/ { print \$1 }' /rec/perf.csv)"
else
	SECS=$secs sh /lab/workload.sh
fi
sleep 2
echo 0 > \$T/instances/lab-inner/tracing_on 2> /dev/null
sleep 1
[ -n "$experiment" ] || { kill -INT \$rec; wait \$rec; }
echo 0 > \$T/instances/lab-outer/tracing_on 2> /dev/null
ref_count inner
ref_count outer
cat /rec/rec.err
for f in page_owner page_owner_stacks/show_stacks; do
	[ -r /sys/kernel/debug/\$f ] || continue
	echo "----- \$f begins -----"
	head -c 262144 /sys/kernel/debug/\$f
	echo; echo "----- \$f ends -----"	# after a line cut by head
done
fs=\$(awk '/^fragment_stall / { print \$2 }' /proc/vmstat)
echo "lab: vmstat fragment_stall \${fs:-absent (not a kernel with the stall)}"
echo "----- fragtop recording begins -----"
base64 /rec/lab.ftr
echo "----- fragtop recording ends -----"
poweroff -f
INIT
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initramfs.gz"
echo "lab: booting $(basename "$kernel") under qemu (TCG, 2 nodes, $mem MiB); workload ${secs}s" >&2
timeout $((secs * 4 + 300)) qemu-system-x86_64 -m "$mem" -smp 2 ${cpu:+-cpu "$cpu"} \
	-object memory-backend-ram,id=m0,size=$((mem / 2))M -object memory-backend-ram,id=m1,size=$((mem / 2))M \
	-numa node,memdev=m0,cpus=0 -numa node,memdev=m1,cpus=1 \
	-drive file="$work/disk.img",format=raw,if=virtio,cache=unsafe \
	-kernel "$kernel" -initrd "$work/initramfs.gz" -nographic -no-reboot \
	-append "console=ttyS0 rdinit=/init quiet panic=1 transparent_hugepage=always$page_owner" \
	> "$work/console.log" 2>&1 || true
# the guest's console stays for a look after a failure or a timeout
mkdir -p "$CACHE" && tr -d '\r' < "$work/console.log" > "$CACHE/console-last.log" || true
grep '^lab:\|^fragtop:' "$work/console.log" | tr -d '\r' >&2 || true
sed -n '/^----- fragtop recording begins -----/,/^----- fragtop recording ends -----/p' "$work/console.log" |
	tr -d '\r' | sed '1d;$d' | base64 -d > "$out" 2> /dev/null || true
[ -z "$experiment" ] || sed -n '/^----- fragtop experiment begins -----/,/^----- fragtop experiment ends -----/p' \
	"$work/console.log" | tr -d '\r' | sed '1d;$d' > "$out.json"
# page_owner's text as the kernel printed it (the console adds \r)
for f in page_owner page_owner_stacks/show_stacks; do
	[ -n "$page_owner" ] || break
	sed -n "\|^----- $f begins -----|,\|^----- $f ends -----|p" "$work/console.log" | tr -d '\r' |
		sed '1d;$d' > "$out.$(basename "$f")"
	[ -s "$out.$(basename "$f")" ] || rm -f "$out.$(basename "$f")"
done
# the reference counts beside the recording: "inner|outer total T fragmenting F ownership O lost L"
grep '^lab: extfrag reference ' "$work/console.log" | tr -d '\r' | sed 's/^lab: extfrag reference //' > "$out.extfrag" || true
[ -s "$out.extfrag" ] || rm -f "$out.extfrag"
if [ ! -s "$out" ] || ! "$TOP/fragtop" report "$out" > /dev/null 2>&1; then
	echo "run.sh: no usable recording came back (console: $CACHE/console-last.log); its end:" >&2
	tail -30 "$work/console.log" | tr -d '\r' >&2
	exit 1
fi
echo "lab: recording in $out" >&2
