#!/bin/bash
# Capture a fixture root tree from Debian's packaged kernel booted under
# qemu (TCG; nested KVM hangs on these machines) with two NUMA nodes and a
# Movable zone.  The guest is a busybox initramfs that runs
# capture-root.sh and prints every file base64-encoded on the serial
# console; this script decodes them into OUTDIR.
#
# usage: qemu-capture.sh OUTDIR [KERNEL_PACKAGE]
#   KERNEL_PACKAGE defaults to what linux-image-amd64 depends on (6.1 on
#   Debian 12).  Needs qemu-system-x86, busybox-static, cpio (apt-get).
set -euo pipefail
out=${1:?usage: qemu-capture.sh OUTDIR [KERNEL_PACKAGE]}
pkg=${2:-$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$work"
apt-get download "$pkg" >/dev/null 2>&1 || { echo "cannot download $pkg" >&2; exit 1; }
dpkg-deb -x ./*.deb kernel
vmlinuz=$(ls kernel/boot/vmlinuz-*)

mkdir -p initrd/bin initrd/proc initrd/sys initrd/dev initrd/cap
cp /bin/busybox initrd/bin/busybox
for app in sh cat mkdir mount cmp rm sleep poweroff base64 find sort echo; do
	ln -s busybox "initrd/bin/$app"
done
cp "$here/capture-root.sh" initrd/bin/capture-root.sh
cat > initrd/init <<'INIT'
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
sleep 2
/bin/capture-root.sh /cap
echo "@@BEGIN"
for f in $(cd /cap && find . -type f | sort); do
	echo "@@FILE ${f#./}"
	base64 "/cap/$f"
	echo "@@END"
done
echo "@@DONE"
poweroff -f
INIT
chmod +x initrd/init
(cd initrd && find . | cpio -o -H newc 2>/dev/null | gzip -1) > initrd.cpio.gz

timeout 600 qemu-system-x86_64 -machine pc -m 2048 -smp 2 \
	-object memory-backend-ram,id=m0,size=1024M \
	-object memory-backend-ram,id=m1,size=1024M \
	-numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1 \
	-kernel "$vmlinuz" -initrd initrd.cpio.gz \
	-append "console=ttyS0 quiet loglevel=0 movablecore=256M panic=-1" \
	-display none -serial file:serial.log -no-reboot -monitor none

tr -d '\r' < serial.log > serial.txt
grep -q '^@@DONE' serial.txt || { echo "guest did not finish; see serial log:" >&2; tail -20 serial.txt >&2; exit 1; }
mkdir -p "$out"
# awk cannot create directories: do it from the list, then decode.
grep '^@@FILE ' serial.txt | cut -d' ' -f2 | while read -r f; do
	mkdir -p "$out/$(dirname "$f")"
done
awk -v out="$out" '
	/^@@FILE / { f = $2; next }
	/^@@END/ { if (f != "") close(out "/" f ".b64"); f = ""; next }
	f != "" { print > (out "/" f ".b64") }
' serial.txt
find "$out" -name '*.b64' | while read -r b; do
	base64 -d "$b" > "${b%.b64}" && rm -f "$b"
done
echo "captured $(find "$out" -type f | wc -l) files from $pkg into $out"
