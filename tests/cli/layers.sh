#!/bin/bash
# scripts/check-layers.sh on a copy of the tree: clean, it passes; each
# planted breach of a layer's rule fails it, naming the file (the session
# written outside model/ and a view reading its source among them).  Then
# scripts/fn-length.sh: a planted function over 100 lines fails it.
# usage: layers.sh [FRAGTOP_BINARY] (unused: the check reads the sources)
# asan: no (it runs no fragtop)
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fresh() {
	rm -rf "$tmp/t"; mkdir -p "$tmp/t"
	cp -r scripts base kernel net model collectors controls analysis render tui cmd "$tmp/t/"
}
# plant WHAT FILE LINE PATTERN: the check fails and its message matches PATTERN
plant() {
	local what=$1 file=$2 line=$3 pat=$4
	[ -n "${plant_more:-}" ] || fresh	# plant_more=1: on the tree as planted so far
	printf '%s\n' "$line" >> "$tmp/t/$file"
	if sh "$tmp/t/scripts/check-layers.sh" > "$tmp/o" 2>&1; then
		bad "$what: the check passed"
	else
		check "$what: fails, naming $file" grep -q "$pat" "$tmp/o"
	fi
}
fresh
check "the tree as it is passes" sh "$tmp/t/scripts/check-layers.sh"
plant "tui/ including cmd/" tui/view_map.c '#include "cmd/cli.h"' "tui/view_map.c.*includes cmd/"
plant "render/ including a source" render/metrics.c '#include "collectors/live.h"' "render/metrics.c.*includes collectors/"
# through a header of a layer that may include it: analysis/report.h may name the replay, render/ may not reach it
plant "render/ reaching a source through analysis/" analysis/report.h '#include "collectors/replay.h"' \
	"render/report_json.c: render/ reaches collectors/ through render/report_json.c -> render/report.h -> analysis/report.h -> collectors/replay.h"
plant "model/ including analysis/" model/frag.c '#include "analysis/report.h"' "model/frag.c.*includes analysis/"
plant "collectors/ including analysis/" collectors/live.c '#include "analysis/report.h"' "collectors/live.c.*includes analysis/"
plant "analysis/ including render/" analysis/report.c '#include "render/csv.h"' "analysis/report.c.*includes render/"
plant "a view's state at file scope" tui/view_thp.c 'static int scroll_pos;' \
	"tui/view_thp.c.*mutable state at file scope"
plant "a view's state in a function's static" tui/view_thp.c $'static int w(void)\n{\n\tstatic int calls;\n\n\treturn ++calls;\n}' \
	"tui/view_thp.c.*mutable state in a function's static"
plant "a prefix in two layers" render/csv.c 'int ft_tracefs_csv(void) { return 0; }' \
	"render/csv.c: exports ft_tracefs_"
plant "a headless file under tui/" tui/headless.c 'int ft_headless(void);' "tui/headless.c: under tui/ but draws nothing"
plant "curses under analysis/" analysis/report.c '#include <curses.h>' "analysis/report.c: includes curses outside tui/"
plant "collectors/ building a report" collectors/replay.c 'static int x(void) { return ft_report_build(0, 0, 0); }' \
	"collectors/replay.c.*builds a report"
plant "a knob written outside controls/" cmd/knobcmd.c 'static int y(int fd) { return ft_open_under(fd, "proc/sys/vm/x", O_WRONLY); }' \
	"cmd/knobcmd.c.*writes under the root"
plant "a file made under the root outside controls/" cmd/experiment.c \
	'static int y(int d) { return ft_open_beneath(d, "lock", O_RDONLY | O_CREAT, 0600); }' "cmd/experiment.c.*writes under the root"
plant "a directory made under the root outside controls/" collectors/live_changes.c \
	'static int y(int d) { return ft_run_dir(d, true); }' "collectors/live_changes.c.*writes under the root"
plant "a file read in kernel/" kernel/vmstat.c 'static int y(void) { return open("/proc/vmstat", 0); }' \
	"kernel/vmstat.c.*reads a file in kernel/"
plant "kernel/ including model/" kernel/zoneinfo.c '#include "model/session.h"' "kernel/zoneinfo.c.*includes model/"
plant "a socket outside net/" cmd/fleet.c 'static int y(void) { return socket(2, 1, 0); }' "cmd/fleet.c.*opens a socket outside net/"
plant "libssl loaded outside net/" cmd/exporter.c 'static void *y(void) { return dlopen("libssl.so.3", 2); }' \
	"cmd/exporter.c.*loads libssl outside net/"
plant "net/ including model/" net/httpd.c '#include "model/session.h"' "net/httpd.c.*includes model/"
plant "JSON written in cmd/" cmd/doctor.c 'static void y(struct ft_json *j) { ft_json_str(j, "a", "b"); }' \
	"cmd/doctor.c.*writes JSON in cmd/"
plant "a table printed in cmd/" cmd/knobcmd.c 'static void y(const char *k) { printf("%-20s %8llu\\n", k, 1ull); }' \
	"cmd/knobcmd.c.*prints a table in cmd/"
# a cycle: compare.c calls plot.c, plant.c's call back closes it
fresh
printf '%s\n' 'static void y(void) { ft_plot_release(0); }' >> "$tmp/t/analysis/compare.c"
plant_more=1 plant "a cycle between two files of one layer" analysis/plot.c 'static void y(void) { ft_cmp_release(0, 0); }' \
	"analysis/compare.c: calls ft_plot_release() of analysis/plot.c, which calls ft_cmp_release() back: a cycle"
plant "tracefs written outside collectors/tracefs.c" collectors/live.c 'static void z(void) { tracefs_event_enable(0, "kmem", 0); }' \
	"collectors/live.c.*writes tracefs"
plant "live.c writing a session field" collectors/live.c 'static void w(struct ft_live *l) { l->session.map_err = 0; }' \
	"collectors/live.c.*assigns a session field"
plant "a report bumping a session counter" analysis/report.c 'static void w(struct ft_report *r) { r->rp.session.lost++; }' \
	"analysis/report.c.*assigns a session field"
plant "a writable pointer into the session" collectors/live.c 'static void w(struct ft_live *l) { struct ft_pbmap *m = &l->session.map; (void)m; }' \
	"collectors/live.c.*writable pointer into the session"
plant "live_map.c reading the owner's queue" collectors/live_map.c 'static int w(struct ft_live *l) { return (int)l->owner.qn; }' \
	"collectors/live_map.c:[0-9]*: reads l->owner"
plant "the hub packing the map's figures" collectors/live.c 'static double w(struct ft_live *l) { return l->map.cpu; }' \
	"collectors/live.c:[0-9]*: reads l->map"
plant "a renderer's own window arithmetic" render/report_text.c \
	'static long long w(const struct ft_report *rep) { return rep->last.c[0] - rep->first.c[0]; }' \
	"render/report_text.c:[0-9]*: computes a window's figure in render/"
plant "a renderer subtracting the tick before" render/export.c 'static long w(const long *now, const long *prev) { return now[0] - prev[0]; }' \
	"render/export.c:[0-9]*: computes a window's figure in render/"
plant "a view reading the live source" tui/view_map.c 'static double w(struct ft_ui *ui) { return ui->live->map_cpu; }' \
	"tui/view_map.c.*a view reads the source"

# scripts/fn-length.sh: a planted 101-line function in tui/ fails it, a 100-line one does not
fresh
check "fn-length: the tree as it is passes" sh "$tmp/t/scripts/fn-length.sh"
longfn() {	# FILE LINES: a function of LINES lines, name to closing brace
	{ echo "int ft_planted(void);"; echo "int ft_planted(void)"; echo "{"; echo "	int x = 0;"
	  for i in $(seq $(($2 - 5))); do echo "	x++;"; done; echo "	return x;"; echo "}"; } >> "$1"
}
longfn "$tmp/t/tui/view_help.c" 100
check "fn-length: a function of 100 lines passes" sh "$tmp/t/scripts/fn-length.sh"
fresh
longfn "$tmp/t/tui/view_help.c" 101
if sh "$tmp/t/scripts/fn-length.sh" > "$tmp/o" 2>&1; then
	bad "fn-length: a function of 101 lines passed"
else
	check "fn-length: a function of 101 lines fails, named with its length" \
		grep -q "101  tui/view_help.c:[0-9]*  ft_planted" "$tmp/o"
fi
[ $fails -eq 0 ]
