#!/bin/bash
# Every headless output on the kept recordings and the fixture trees,
# byte for byte against tests/cli/golden/: report (text, JSON, threads),
# export (CSV, JSON), compare (text, JSON, CSV), plot's SVG, snapshot
# (text, JSON, OpenMetrics, Prometheus text) and the exporter's /metrics
# on a fixture root.  The front end is being moved into layers of its own
# (cmd/, render/, analysis/): these files were made before the move, and a
# refactoring that changes a byte fails here.
# usage: golden.sh FRAGTOP_BINARY [--update]   (--update rewrites the files)
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
update=${2:-}
G=tests/cli/golden/out
tmp=$(mktemp -d)
xpid=
trap '[ -z "$xpid" ] || kill "$xpid" 2> /dev/null; rm -rf "$tmp"' EXIT
export TZ=UTC LC_ALL=C.UTF-8

# name command...: runs it with stdout to $tmp/name; the exit code is kept too
out() {
	local name=$1; shift
	"$@" > "$tmp/$name" 2> "$tmp/$name.err"
	echo "exit $?" >> "$tmp/$name"
}

S=tests/recordings/thpfioscale-boost-0-to-15000.ftr
for r in tests/recordings/*.ftr; do
	n=$(basename "$r" .ftr)
	out "report-$n.txt" "$FT" report "$r"
	out "report-$n.json" "$FT" report --json "$r"
	out "report-threads-$n.txt" "$FT" report --threads "$r"
	out "export-$n.csv" "$FT" export --csv "$r"
	out "export-$n.json" "$FT" export --json "$r"
	out "plot-$n.svg" "$FT" plot "$r" -o -
done
out report-window.json "$FT" report --json "$S" --from 2 --to 32
out export-window.csv "$FT" export --csv "$S" --from 2 --to 32
for f in "" --json --csv; do
	out "compare-sample${f:-.txt}" "$FT" compare $f "before=$S@2..32" "after=$S@33.."
	out "compare-groups${f:-.txt}" "$FT" compare $f "a=$S@2..12,$S@12..22,$S@22..32" \
		"b=$S@40..60,$S@60..80,$S@80..100"
done
out fields.txt "$FT" fields
out fields.json "$FT" fields --json
L=tests/recordings
out compare-lab.txt "$FT" compare "stock=$L/lab-6.1-stock.ftr" "off=$L/lab-6.1-stall-off.ftr" \
	"stall=$L/lab-6.1-stall.ftr"
for d in tests/fixtures/*/; do
	n=$(basename "$d")
	[ -d "$d/proc" ] || continue
	out "snapshot-$n.txt" "$FT" snapshot --root "$d"
	out "snapshot-$n.json" "$FT" snapshot --json --root "$d"
	# the wall clock of the read and the heap fragtop holds are the fields that move
	sed -i -E -e 's/^  "time": [0-9]+,$/  "time": 0,/' -e 's/^    "heap_bytes": [0-9]+,$/    "heap_bytes": 0,/' \
		"$tmp/snapshot-$n.json"
	out "snapshot-$n.om" "$FT" snapshot --openmetrics --root "$d"
	out "snapshot-$n.prom" "$FT" snapshot --prometheus --root "$d"
done

# the exporter on a fixture root: its metrics, less its own (connections,
# scrapes) and the process's, which change from run to run
port=$(test_port)
"$FT" exporter --root tests/fixtures/6.18-frag --listen "127.0.0.1:$port" > "$tmp/x.log" 2>&1 &
xpid=$!
if until_ok 20 curl -sf -o "$tmp/x.raw" "http://127.0.0.1:$port/metrics"; then
	grep -vE '^(# (HELP|TYPE|UNIT) )?(fragtop_exporter_|process_|fragtop_scrape_)' "$tmp/x.raw" \
		> "$tmp/exporter-6.18-frag.om"
else
	echo "the exporter did not answer" > "$tmp/exporter-6.18-frag.om"
fi
kill "$xpid" 2> /dev/null; wait "$xpid" 2> /dev/null; xpid=

if [ "$update" = --update ]; then
	rm -rf "$G"; mkdir -p "$G"
	for f in "$tmp"/*; do case $f in *.err|*/x.*) continue;; esac; cp "$f" "$G/"; done
	echo "golden: wrote $(ls "$G" | wc -l) files to $G"
	exit 0
fi
[ -d "$G" ] || { bad "golden files missing ($G)"; exit 1; }
for g in "$G"/*; do
	n=$(basename "$g")
	if cmp -s "$g" "$tmp/$n"; then
		ok "golden: $n"
	else
		bad "golden: $n differs"
		diff -u "$g" "$tmp/$n" | head -20
	fi
done
[ $fails -eq 0 ]
