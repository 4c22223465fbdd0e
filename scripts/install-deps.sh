#!/bin/sh
# Installs, on Debian 12 (or a derivative), the packages of the sets named
# (default: runtime build), only those missing; needs root when some are.
#   runtime  the shared libraries fragtop runs with
#   build    make, a compiler and the -dev packages (pkg-config names in the
#            Makefile): a bare Debian 12 (debootstrap minbase) has none
#   test     what `make check`, `make check-host`, fuzzing and `make bench` use
#   lab      what `make lab` needs to build a kernel and boot it under qemu
# As a user it runs itself again through sudo when something is missing.
# usage: install-deps.sh [runtime] [build] [test] [lab]
set -eu
RUNTIME="libncursesw6 libtracefs1 libtraceevent1 libzstd1 libssl3 libcrypt1 zlib1g"
BUILD="make build-essential pkg-config libncurses-dev libtracefs-dev libtraceevent-dev libzstd-dev
libssl-dev libcrypt-dev zlib1g-dev"
TEST="libcmocka-dev clang libclang-rt-dev tmux jq strace util-linux procps iproute2 perl fio htop libxml2-utils librsvg2-bin curl
prometheus prometheus-node-exporter openssl mandoc bash-completion
debhelper dpkg-dev fakeroot lintian debootstrap git stress-ng gdb"
LAB="linux-source-6.1 linux-source-6.12 flex bison bc libelf-dev libssl-dev cpio qemu-system-x86 busybox-static file e2fsprogs libc6-dev jq"
[ $# -eq 0 ] && set -- runtime build
PKGS=""
for set in "$@"; do
	case $set in
	runtime) PKGS="$PKGS $RUNTIME" ;;
	build) PKGS="$PKGS $BUILD" ;;
	test) PKGS="$PKGS $TEST" ;;
	lab) PKGS="$PKGS $LAB" ;;
	*) echo "install-deps: unknown set '$set' (runtime, build, test, lab)" >&2; exit 2 ;;
	esac
done
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	# a user installs through sudo when there is one; otherwise say what
	if command -v sudo >/dev/null 2>&1; then
		echo "install-deps: missing:$missing; installing with sudo" >&2
		exec sudo sh "$0" "$@"
	fi
	echo "install-deps: missing:$missing; run this as root (there is no sudo)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# prometheus and node_exporter are for the tests and the bench, which run
# their own instances: their packages must not start system services
# (policy-rc.d, as in container images), and the file goes away after
policy=
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
	chmod 755 /usr/sbin/policy-rc.d
	policy=1
fi
# shellcheck disable=SC2086
if ! apt-get install -y -q --no-install-recommends $missing; then
	[ -n "$policy" ] && rm -f /usr/sbin/policy-rc.d
	exit 1
fi
[ -n "$policy" ] && rm -f /usr/sbin/policy-rc.d
exit 0
