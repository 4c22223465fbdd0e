#!/bin/sh
# Installs, on Debian 12 (or a derivative), the packages fragtop needs to
# build, test, fuzz and benchmark.  Installs only what is missing; needs root.
set -eu
PKGS="build-essential pkg-config libncurses-dev libtracefs-dev libtraceevent-dev
libproc2-dev libzstd-dev libcmocka-dev clang tmux jq util-linux procps fio htop
libxml2-utils librsvg2-bin curl prometheus prometheus-node-exporter"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing:$missing; run as root (sudo make deps)" >&2
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
apt-get install -y -q --no-install-recommends $missing || { [ -n "$policy" ] && rm -f /usr/sbin/policy-rc.d; exit 1; }
[ -n "$policy" ] && rm -f /usr/sbin/policy-rc.d
exit 0
