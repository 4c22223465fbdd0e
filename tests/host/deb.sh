#!/bin/bash
# The Debian package: `make deb` builds fragtop_<version>_<arch>.deb with
# debhelper, lintian reports no error, its Depends come from the shared
# libraries (no fio, cmocka or compiler), and installed with dpkg -i it
# gives a working fragtop, its man page, the completion and the
# fragtop-record unit (not enabled); it reads the sample recording; then
# it is purged.  Changes the host (installs a package, removes it after,
# even on failure); skipped when fragtop is already installed as a
# package or the tools are missing.
# usage: deb.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
if [ "$(id -u)" != 0 ] || ! command -v dpkg-buildpackage > /dev/null || ! command -v dh > /dev/null; then
	skip_all "needs root, dpkg-dev and debhelper"
fi
if dpkg-query -W -f='${Status}' fragtop 2>/dev/null | grep -q "install ok installed"; then
	skip_all "a fragtop package is installed already; not touching it"
fi
installed=
tmp=$(mktemp -d)
trap '[ -n "$installed" ] && dpkg --purge fragtop > /dev/null 2>&1; rm -rf "$tmp"' EXIT
make -s deb > "$tmp/build.log" 2>&1; rc=$?
DEB=$(ls fragtop_*_*.deb 2>/dev/null | head -1)
check "make deb: builds $DEB" test $rc = 0 -a -n "$DEB"
[ -n "$DEB" ] || { tail -20 "$tmp/build.log"; echo "deb.sh: $fails failure(s)"; exit 1; }
if command -v lintian > /dev/null; then
	lintian --fail-on error "$DEB" > "$tmp/lintian" 2>&1; rc=$?
	check "lintian: no error" test $rc = 0
	grep -v "running with root" "$tmp/lintian" | head
fi
deps=$(dpkg-deb -f "$DEB" Depends)
echo "Depends: $deps"
check "Depends from the shared libraries (libtracefs, libproc2, ncurses)" test -n "$(echo "$deps" | grep libtracefs1)" -a \
	-n "$(echo "$deps" | grep libproc2)" -a -n "$(echo "$deps" | grep libncursesw6)"
check "... and no test or build tool (fio, cmocka, clang, gcc)" test -z "$(echo "$deps" | grep -E 'fio|cmocka|clang|gcc')"
dpkg -i "$DEB" > "$tmp/install.log" 2>&1; rc=$?
installed=1
check "dpkg -i: installed" test $rc = 0
check "fragtop --version from /usr/bin" test "$(/usr/bin/fragtop --version)" = "fragtop $(dpkg-deb -f "$DEB" Version)"
check "man -w fragtop finds the page" test "$(man -w fragtop 2>/dev/null)" = /usr/share/man/man1/fragtop.1.gz
check "the completion is installed" test -s /usr/share/bash-completion/completions/fragtop
check "the unit is installed, not enabled" test -s /lib/systemd/system/fragtop-record.service -a \
	! -e /etc/systemd/system/multi-user.target.wants/fragtop-record.service
if command -v systemd-analyze > /dev/null; then
	systemd-analyze verify /lib/systemd/system/fragtop-record.service > "$tmp/verify" 2>&1; rc=$?
	check "systemd-analyze verify: the unit is sound" test $rc = 0
	[ $rc = 0 ] || cat "$tmp/verify"
fi
if command -v systemctl > /dev/null && systemctl cat fragtop-record > /dev/null 2>&1; then
	check "systemctl cat fragtop-record" test -n "$(systemctl cat fragtop-record | grep 'ExecStart=/usr/bin/fragtop record --dir /var/log/fragtop')"
fi
check "the installed binary reads the sample recording" test -n "$(/usr/bin/fragtop report tests/recordings/thpfioscale-boost-0-to-15000.ftr | grep 'closed cleanly')"
dpkg --purge fragtop > "$tmp/purge.log" 2>&1; rc=$?
installed=
check "dpkg --purge: removed, nothing left" test $rc = 0 -a ! -e /usr/bin/fragtop -a ! -e /usr/share/man/man1/fragtop.1.gz
echo "deb.sh: $fails failure(s)"
[ $fails -eq 0 ]
