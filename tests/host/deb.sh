#!/bin/bash
# The Debian package: `make deb` builds fragtop_<version>_<arch>.deb with
# debhelper, lintian reports no error, its Depends come from the shared
# libraries (no fio, cmocka or compiler), and installed with dpkg -i it
# gives a working fragtop, its man page, the completion and the
# fragtop-record and fragtop-exporter units (not enabled, sound, rated 5.0
# or lower by systemd-analyze security); prerm stops them and an upgrade
# restarts them; each unit's command line runs sandboxed as its unit
# says (no capability) and works: the exporter is scraped, the recorder
# records; it reads the sample recording; then it is purged.  Changes the host (installs a package, removes it after,
# even on failure); skipped when fragtop is already installed as a
# package or the tools are missing.
# usage: deb.sh FRAGTOP_BINARY
# host: beside (a package installed and purged: no vm knob, no workload)
set -u
. "$(dirname "$0")/../lib.sh"
if [ "$(id -u)" != 0 ] || ! command -v dpkg-buildpackage > /dev/null || ! command -v dh > /dev/null; then
	skip_all "needs root, dpkg-dev and debhelper"
fi
if dpkg-query -W -f='${Status}' fragtop 2>/dev/null | grep -q "install ok installed"; then
	skip_all "a fragtop package is installed already; not touching it"
fi
installed= upid=
tmp=$(mktemp -d)
FTBIN=/usr/bin/fragtop
trap '[ -n "$upid" ] && kill "$upid" 2>/dev/null; wait; [ -n "$installed" ] && dpkg --purge fragtop > /dev/null 2>&1; rm -rf "$tmp"' EXIT
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
check "Depends from the shared libraries (libtracefs, ncurses) and the exporter's dlopen()ed ones (libssl3, libcrypt1, zlib1g)" \
	test -n "$(echo "$deps" | grep libtracefs1)" -a -n "$(echo "$deps" | grep libncursesw6)" -a \
	-n "$(echo "$deps" | grep libssl3)" -a -n "$(echo "$deps" | grep libcrypt1)" -a -n "$(echo "$deps" | grep zlib1g)"
check "... and no test or build tool (fio, cmocka, clang, gcc)" test -z "$(echo "$deps" | grep -E 'fio|cmocka|clang|gcc')"
dpkg -i "$DEB" > "$tmp/install.log" 2>&1; rc=$?
installed=1
check "dpkg -i: installed" test $rc = 0
check "fragtop --version from /usr/bin" test "$(/usr/bin/fragtop --version)" = "fragtop $(dpkg-deb -f "$DEB" Version)"
check "man -w fragtop finds the page" test "$(man -w fragtop 2>/dev/null)" = /usr/share/man/man1/fragtop.1.gz
check "the completion is installed" test -s /usr/share/bash-completion/completions/fragtop
for u in fragtop-record fragtop-exporter; do
	check "$u.service is installed, not enabled" test -s /lib/systemd/system/$u.service -a \
		! -e /etc/systemd/system/multi-user.target.wants/$u.service
done
check "fragtop-restore.service is installed and enabled (an interrupted experiment's knob back at boot)" \
	test -s /lib/systemd/system/fragtop-restore.service -a \
	-e /etc/systemd/system/multi-user.target.wants/fragtop-restore.service
check "/etc/default/fragtop-exporter is a conffile" test -s /etc/default/fragtop-exporter -a \
	-n "$(dpkg-query --showformat='${Conffiles}' -W fragtop | grep /etc/default/fragtop-exporter)"
if command -v systemd-analyze > /dev/null; then
	systemd-analyze verify /lib/systemd/system/fragtop-restore.service > "$tmp/verify" 2>&1; rc=$?
	check "systemd-analyze verify fragtop-restore.service: sound" test $rc = 0
	[ $rc = 0 ] || cat "$tmp/verify"
	for u in fragtop-record fragtop-exporter; do
		systemd-analyze verify /lib/systemd/system/$u.service > "$tmp/verify" 2>&1; rc=$?
		check "systemd-analyze verify $u.service: sound" test $rc = 0
		[ $rc = 0 ] || cat "$tmp/verify"
		x=$(systemd-analyze security --offline=yes /lib/systemd/system/$u.service 2>&1 |
			sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
		echo "$u.service: systemd-analyze security exposure ${x:-?}"
		check "... exposure 5.0 or lower" awk -v x="${x:-99}" 'BEGIN { exit !(x <= 5.0) }'
	done
fi
# the maintainer scripts: remove stops the units, an upgrade restarts them (not stops them first)
check "prerm stops both units on remove" grep -q "deb-systemd-invoke stop 'fragtop-exporter.service' 'fragtop-record.service'" \
	/var/lib/dpkg/info/fragtop.prerm
check "postinst restarts them on upgrade (enabled ones: deb-systemd-invoke)" \
	grep -qE '_dh_action=restart' /var/lib/dpkg/info/fragtop.postinst
check "... and no preinst stops them before it" test -z "$(grep -s 'deb-systemd-invoke stop' /var/lib/dpkg/info/fragtop.preinst)"

# A unit's command line as systemd would run it: ExecStart with its
# EnvironmentFile's variables, as root with the unit's capability bounding
# set (empty: none at all), no new privileges, umask 0077, /sys and
# /proc/sys read-only but /sys/kernel/tracing, in a mount namespace of its
# own.  This host has no systemd as PID 1, so the rest of the sandbox is
# systemd's own and not tried here.
sandboxed() {	# UNIT [SED]: start it in the background (pid in $upid); SED edits the command line
	local u=/lib/systemd/system/$1.service envf cmd caps
	envf=$(sed -n 's/^EnvironmentFile=-\{0,1\}//p' "$u")
	cmd=$(set -a; [ -n "$envf" ] && [ -f "$envf" ] && . "$envf"; eval "echo $(sed -n 's/^ExecStart=//p' "$u")")
	[ -n "${2:-}" ] && cmd=$(sed "$2" <<< "$cmd")
	caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$u" | tr 'A-Z' 'a-z' | sed 's/cap_//g; s/\([a-z_]\{1,\}\)/+\1/g; s/ /,/g')
	echo "$1: $cmd (capabilities: ${caps:-none})"
	# shellcheck disable=SC2086
	unshare -m --propagation private sh -c 'mount --rbind /sys /sys && mount -o remount,bind,ro /sys &&
		mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys && umask 0077 &&
		exec setpriv --no-new-privs --bounding-set="-all${0:+,$0}" --inh-caps=-all -- "$@"' "$caps" $cmd \
		> "$tmp/$1.log" 2>&1 &
	upid=$!
}
if command -v unshare > /dev/null && command -v setpriv > /dev/null && command -v curl > /dev/null &&
	! (ss -ltn 2>/dev/null | grep -q '127.0.0.1:9947 '); then
	sandboxed fragtop-exporter
	until_ok 30 curl -sf --max-time 2 -o "$tmp/scrape" http://127.0.0.1:9947/metrics
	check "the exporter unit's command line serves /metrics on 127.0.0.1:9947" grep -q '^fragtop_zone_free_bytes{' "$tmp/scrape"
	check "... with every source up, tracepoints too, and no capability" test \
		"$(grep -c '^fragtop_up{.*} 1$' "$tmp/scrape")" -ge 5 -a -z "$(grep '^fragtop_up{.*} 0$' "$tmp/scrape")" -a \
		"$(sed -n 's/^CapEff:\t//p' /proc/$upid/status)" = 0000000000000000
	kill "$upid"; wait "$upid"; rc=$?
	check "... and stops cleanly on SIGTERM" test $rc = 0
	mkdir -m 0700 "$tmp/rec"
	sandboxed fragtop-record "s|--dir /var/log/fragtop|--dir $tmp/rec|"
	until_ok 30 sh -c "'$FTBIN' report --json '$tmp'/rec/*.ftr 2>/dev/null | jq -e '.samples >= 3' > /dev/null"
	kill "$upid"; wait "$upid"; rc=$?
	/usr/bin/fragtop report "$tmp"/rec/*.ftr > "$tmp/rec.txt" 2>&1
	check "the record unit's command line (--dir in a temp dir) records with tracepoints, closes cleanly" \
		test $rc = 0 -a -n "$(grep 'closed cleanly' "$tmp/rec.txt")" -a -n "$(grep 'with tracepoints' "$tmp/fragtop-record.log")"
	check "... its file mode 0600 (UMask=0077)" test "$(stat -c %a "$tmp"/rec/*.ftr)" = 600
else
	skip "the units' command lines: needs unshare, setpriv, curl and port 9947 free"
fi
if command -v systemctl > /dev/null && systemctl cat fragtop-record > /dev/null 2>&1; then
	check "systemctl cat fragtop-record" test -n "$(systemctl cat fragtop-record | grep 'ExecStart=/usr/bin/fragtop record --dir /var/log/fragtop')"
fi
check "the installed binary reads the sample recording" test -n "$(/usr/bin/fragtop report tests/recordings/thpfioscale-boost-0-to-15000.ftr | grep 'closed cleanly')"
dpkg --purge fragtop > "$tmp/purge.log" 2>&1; rc=$?
installed=
check "dpkg --purge: removed, nothing left" test $rc = 0 -a ! -e /usr/bin/fragtop -a ! -e /usr/share/man/man1/fragtop.1.gz -a \
	! -e /etc/default/fragtop-exporter -a ! -e /lib/systemd/system/fragtop-exporter.service
echo "deb.sh: $fails failure(s)"
[ $fails -eq 0 ]
