#!/bin/bash
# The README's two commands on a bare Debian 12, as a newcomer meets them:
# debootstrap --variant=minbase bookworm (no make, no compiler, no sudo, no
# -dev package) under build/, /proc, /sys, /dev and tracefs given to it,
# this repository cloned in (its committed HEAD); then, as root in that
# root, the README's first command must end in the live TUI showing this
# host's zones (run in tmux, quit with q), and its second (make check) must
# install its packages and pass a smoke run of its fastest part (make check
# SMOKE=1: the plain build's unit tests): the whole suite ran here already,
# on this host.  Everything
# it made (mounts, processes, the root) is removed at exit, even on
# failure; it caches nothing outside build/.
# usage: first-contact.sh FRAGTOP_BINARY (unused: the test builds its own)
# host: beside (a bare Debian root of its own under build/: no vm knob, no workload)
set -u
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(id -u)" != 0 ] || ! command -v debootstrap > /dev/null || ! command -v git > /dev/null ||
	! command -v tmux > /dev/null; then
	skip_all "needs root, debootstrap, git and tmux"
fi
git -C "$top" rev-parse HEAD > /dev/null 2>&1 || skip_all "needs a git checkout to clone from"
WORK=$top/build/first-contact
ROOT=$WORK/root
SOCK=$WORK/tmux.sock
T() { tmux -S "$SOCK" "$@"; }
MIRROR=${FT_DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

# every process whose root is the bare root, every mount under it, then it
cleanup() {
	local p m i
	T kill-server 2> /dev/null
	for i in 1 2 3; do
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ] && kill -9 "${p#/proc/}" 2>/dev/null
		done
		sleep 0.2
	done
	for m in $(findmnt -rn -o TARGET | grep "^$ROOT" | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	if findmnt -rn -o TARGET | grep -q "^$ROOT"; then
		echo "FAIL still mounted under $ROOT; not removing it"
		return
	fi
	rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT
cleanup	# what a killed earlier run may have left
mkdir -p "$WORK"

# the README's two commands: the first two lines of its first sh block
mapfile -t CMDS < <(awk '/^```sh$/ { n++; next } /^```$/ { if (n == 1) exit } n == 1' "$top/README.md" |
	sed 's/[[:space:]]*#.*$//' | head -n 2)
check "the README opens with two commands" test ${#CMDS[@]} = 2 -a -n "${CMDS[0]:-}" -a -n "${CMDS[1]:-}"
echo "first: ${CMDS[0]:-}"; echo "second: ${CMDS[1]:-}"

if ! debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" > "$WORK/debootstrap.log" 2>&1; then
	tail -n 20 "$WORK/debootstrap.log"
	bad "debootstrap --variant=minbase bookworm from $MIRROR"
	exit 1
fi
ok "debootstrap --variant=minbase bookworm: a bare Debian 12"
check "bare indeed: no make, no cc, no sudo, no libtracefs-dev" test ! -e "$ROOT/usr/bin/make" -a \
	! -e "$ROOT/usr/bin/cc" -a ! -e "$ROOT/usr/bin/sudo" -a ! -e "$ROOT/usr/include/tracefs"
mount -t proc proc "$ROOT/proc"
mount -t sysfs sysfs "$ROOT/sys"
[ -d "$ROOT/sys/kernel/tracing" ] && mount -t tracefs nodev "$ROOT/sys/kernel/tracing" 2>/dev/null
[ -d "$ROOT/sys/kernel/debug" ] && mount -t debugfs nodev "$ROOT/sys/kernel/debug" 2>/dev/null
mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev"
mount -t tmpfs tmpfs "$ROOT/tmp"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null
git clone -q "$top" "$ROOT/root/fragtop"
check "the repository cloned in, at $(git -C "$top" rev-parse --short HEAD)" test -f "$ROOT/root/fragtop/Makefile"

# a clean environment, as a root login on that box has
IN="chroot $ROOT /usr/bin/env -i HOME=/root TERM=xterm-256color LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# 1. the first command, in a terminal, up to the live TUI
T new-session -d -s ft -x 200 -y 60 "$IN /bin/sh -c 'cd /root/fragtop && ${CMDS[0]}'; echo rc=\$? > $WORK/run.rc"
# the pane scrolls through apt-get and the build first; then fragtop's title
zones=$(awk '/^Node/ { node = $2; sub(",", "", node); z = $4 } /^ *present/ && $2 > 0 { print "N" node " " z }' /proc/zoneinfo)
rel=$(uname -r)
if WAIT_TENTHS=9000 wait_for "^fragtop .* kernel $rel|^fragtop .*  $rel  " > /dev/null; then
	ok "make run: the live TUI, this host's kernel $rel in its title"
	WAIT_TENTHS=100 wait_for "zoneinfo" > /dev/null
	screen > "$WORK/screen.txt"
	miss=
	while read -r z; do
		grep -qE "^$z( |$)" "$WORK/screen.txt" || miss="$miss [$z]"
	done <<< "$zones"
	check "the first screen shows this host's zones ($(echo $zones | tr '\n' ' '))" test -z "$miss"
	[ -z "$miss" ] || { echo "missing:$miss"; cat "$WORK/screen.txt"; }
	T send-keys -t ft q
	check "q quits, make run exits 0" until_ok 30 grep -qs '^rc=0$' "$WORK/run.rc"
else
	bad "make run never reached the TUI"
	cat "$WORK/run.rc" 2>/dev/null
	screen | tail -n 30
fi
T kill-server 2> /dev/null

# 2. the second command, its smoke run: installs the test tools, builds the
# unit tests, runs them
$IN /bin/sh -c "cd /root/fragtop && ${CMDS[1]} SMOKE=1" < /dev/null > "$WORK/check.log" 2>&1; rc=$?
line=$(grep -E '^check: [0-9]+ passed, [0-9]+ failed' "$WORK/check.log" | tail -n 1)
npass=$(echo "$line" | sed -n 's/^check: \([0-9]*\) passed.*/\1/p')
check "${CMDS[1]} SMOKE=1 in the bare root: exit 0, the unit tests pass ($line)" test $rc = 0 -a "${npass:-0}" -ge 20
check "... the test tools installed (cmocka, clang, tmux, jq)" \
	test -e "$ROOT/usr/include/cmocka.h" -a -x "$ROOT/usr/bin/clang" -a -x "$ROOT/usr/bin/tmux" -a -x "$ROOT/usr/bin/jq"
if [ $rc != 0 ]; then
	grep -E '^(FAIL|FAILED)' "$WORK/check.log" | head -n 40
	tail -n 40 "$WORK/check.log"
fi
nskip=$(sed -n 's/^skipped here (\([0-9]*\) parts):$/\1/p' "$WORK/check.log")
echo "skipped in the bare root: ${nskip:-0} parts"
sed -n '/^skipped here/,/^check:/p' "$WORK/check.log" | grep '^  ' || true
echo "first-contact.sh: $fails failure(s)"
[ $fails -eq 0 ]
