#!/bin/sh
# Installs, on Debian 12 (or a derivative), the packages fragtop needs to
# build, test, fuzz and benchmark.  Installs only what is missing; needs root.
set -eu
PKGS="build-essential pkg-config libncurses-dev libtracefs-dev libtraceevent-dev
libproc2-dev libzstd-dev libcmocka-dev clang tmux jq util-linux procps fio htop
libxml2-utils librsvg2-bin"
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
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
