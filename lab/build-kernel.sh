#!/bin/bash
# A lab kernel: Debian's linux-source-6.1 or linux-source-6.12 with the
# seeds' stall ported to it (lab/fragment-stall.patch,
# lab/fragment-stall-6.12.patch), configured from lab/kernel.config (what
# fragtop needs, built in: NUMA, compaction, THP, tracing, kpageflags,
# debugfs), built into $LAB_CACHE (default build/lab, outside git).
# Prints the bzImage's path.  A build takes ~5 min here; a second call
# with nothing changed returns at once.  The release says which it is:
# 6.1.N-fragtop-stall (patched) or 6.1.N-fragtop-stock, and the same for
# 6.12.
# usage: build-kernel.sh [--stock] [6.1|6.12]   (--stock: without the patch; 6.1 by default)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${LAB_CACHE:-$HERE/../build/lab}
flavour=patched
ver=6.1
for a in "$@"; do
	case $a in
	--stock) flavour=stock ;;
	6.1|6.12) ver=$a ;;
	*) echo "usage: build-kernel.sh [--stock] [6.1|6.12]" >&2; exit 2 ;;
	esac
done
TAR=/usr/src/linux-source-$ver.tar.xz
PATCH=$HERE/fragment-stall.patch
[ "$ver" = 6.1 ] || PATCH=$HERE/fragment-stall-$ver.patch
SRC=$CACHE/linux-$ver-$flavour
if [ ! -r "$TAR" ]; then
	echo "build-kernel: $TAR missing: apt-get install linux-source-$ver" >&2
	exit 1
fi
mkdir -p "$CACHE"
if [ ! -d "$SRC" ]; then
	echo "build-kernel: unpacking $TAR into $SRC" >&2
	rm -rf "$SRC.tmp"	# an unpack cut short before
	mkdir -p "$SRC.tmp"
	tar xJf "$TAR" -C "$SRC.tmp" --strip-components=1
	if [ $flavour = patched ]; then
		patch -d "$SRC.tmp" -p1 --quiet < "$PATCH"
	fi
	mv "$SRC.tmp" "$SRC"
fi
stamp=$(cat "$0" "$HERE/kernel.config" "$PATCH" | sha256sum | cut -c1-16)
if [ -f "$SRC/arch/x86/boot/bzImage" ] && [ "$(cat "$SRC/.lab-stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$SRC/arch/x86/boot/bzImage"
	exit 0
fi
(
	cd "$SRC"
	make -s tinyconfig > /dev/null
	scripts/kconfig/merge_config.sh -m .config "$HERE/kernel.config" > /dev/null
	# the release names the build (uname -r, and so every recording's
	# kernel string): 6.1.N-fragtop-stall or 6.1.N-fragtop-stock (6.12 alike)
	scripts/config --set-str LOCALVERSION "-fragtop-$([ $flavour = patched ] && echo stall || echo stock)"
	scripts/config --disable LOCALVERSION_AUTO
	make -s olddefconfig > /dev/null
	echo "build-kernel: building $flavour $ver (make -j$(nproc) bzImage)" >&2
	make -s -j"$(nproc)" bzImage > "$CACHE/build-$ver-$flavour.log" 2>&1 ||
		{ tail -30 "$CACHE/build-$ver-$flavour.log" >&2; exit 1; }
)
echo "$stamp" > "$SRC/.lab-stamp"
echo "$SRC/arch/x86/boot/bzImage"
