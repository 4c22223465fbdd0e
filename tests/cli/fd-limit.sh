#!/bin/bash
# Out of file descriptors is said as such: under `ulimit -n 48` the
# exporter (which holds descriptors for its slots) cannot start tracing,
# and says it ran out of descriptors, not that tracefs is not mounted
# (libtracefs finds tracefs in /proc/self/mounts and says only "none"
# when it could not open that).  It still serves.  Root with tracefs
# mounted only: elsewhere tracing fails for its own reason first.
# usage: fd-limit.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
[ "$(id -u)" = 0 ] || skip_all "tracing needs root"
grep -q ' tracefs ' /proc/mounts || skip_all "tracefs is not mounted"
tmp=$(mktemp -d)
PORT=$(test_port)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
(ulimit -n 48; exec "$FT" exporter --listen "127.0.0.1:$PORT" 2> "$tmp/err") & pid=$!
until_ok 30 grep -q 'exporter on' "$tmp/err" || { cat "$tmp/err"; bad "the exporter did not start"; }
check "ulimit -n 48: out of descriptors is said" grep -q 'no tracepoints: out of file descriptors' "$tmp/err"
check "... not 'not mounted'" eval '! grep -q "not mounted" "$tmp/err"'
check "... and it serves" up
[ $fails = 0 ]
