#!/bin/bash
# The lab kernel: Debian's linux-source-6.1 with lab/fragment-stall.patch
# (the seeds' stall, ported), configured from lab/kernel.config (what
# fragtop needs, built in: NUMA, compaction, THP, tracing, kpageflags,
# debugfs), built into $LAB_CACHE (default build/lab, outside git).
# Prints the bzImage's path.  A build takes ~5 min here; a second call
# with nothing changed returns at once.  The release says which it is:
# 6.1.N-fragtop-stall (patched) or 6.1.N-fragtop-stock.
# usage: build-kernel.sh [--stock]   (--stock: without the patch)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${LAB_CACHE:-$HERE/../build/lab}
TAR=/usr/src/linux-source-6.1.tar.xz
flavour=patched; [ "${1:-}" = --stock ] && flavour=stock
SRC=$CACHE/linux-6.1-$flavour
if [ ! -r "$TAR" ]; then
	echo "build-kernel: $TAR missing: apt-get install linux-source-6.1" >&2
	exit 1
fi
mkdir -p "$CACHE"
if [ ! -d "$SRC" ]; then
	echo "build-kernel: unpacking $TAR into $SRC" >&2
	rm -rf "$SRC.tmp"	# an unpack cut short before
	mkdir -p "$SRC.tmp"
	tar xJf "$TAR" -C "$SRC.tmp" --strip-components=1
	if [ $flavour = patched ]; then
		patch -d "$SRC.tmp" -p1 --quiet < "$HERE/fragment-stall.patch"
	fi
	mv "$SRC.tmp" "$SRC"
fi
stamp=$(cat "$0" "$HERE/kernel.config" "$HERE/fragment-stall.patch" | sha256sum | cut -c1-16)
if [ -f "$SRC/arch/x86/boot/bzImage" ] && [ "$(cat "$SRC/.lab-stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$SRC/arch/x86/boot/bzImage"
	exit 0
fi
(
	cd "$SRC"
	make -s tinyconfig > /dev/null
	scripts/kconfig/merge_config.sh -m .config "$HERE/kernel.config" > /dev/null
	# the release names the build (uname -r, and so every recording's
	# kernel string): 6.1.N-fragtop-stall or 6.1.N-fragtop-stock
	scripts/config --set-str LOCALVERSION "-fragtop-$([ $flavour = patched ] && echo stall || echo stock)"
	scripts/config --disable LOCALVERSION_AUTO
	make -s olddefconfig > /dev/null
	echo "build-kernel: building $flavour 6.1 (make -j$(nproc) bzImage)" >&2
	make -s -j"$(nproc)" bzImage > "$CACHE/build-$flavour.log" 2>&1 ||
		{ tail -30 "$CACHE/build-$flavour.log" >&2; exit 1; }
)
echo "$stamp" > "$SRC/.lab-stamp"
echo "$SRC/arch/x86/boot/bzImage"
