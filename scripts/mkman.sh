#!/bin/sh
# fragtop.1 from docs/fragtop.1.in and the binary's own tables, so the man
# page and --help cannot disagree.
# usage: mkman.sh FRAGTOP_BINARY VERSION > fragtop.1
set -eu
FT=$1 VERSION=$2
IN=$(dirname "$0")/../docs/fragtop.1.in
DATE=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(git -C "$(dirname "$0")" log -1 --format=%ct 2>/dev/null || date +%s)}" +%Y-%m-%d)
"$FT" help --roff > "${TMPDIR:-/tmp}/fragtop-man-cmds.$$"
"$FT" help --roff-keys > "${TMPDIR:-/tmp}/fragtop-man-keys.$$"
trap 'rm -f "${TMPDIR:-/tmp}/fragtop-man-cmds.$$" "${TMPDIR:-/tmp}/fragtop-man-keys.$$"' EXIT
sed -e "s/@DATE@/$DATE/" -e "s/@VERSION@/$VERSION/" \
    -e "/^@COMMANDS@\$/{r ${TMPDIR:-/tmp}/fragtop-man-cmds.$$" -e 'd}' \
    -e "/^@KEYS@\$/{r ${TMPDIR:-/tmp}/fragtop-man-keys.$$" -e 'd}' "$IN"
