#!/bin/sh
# Fails when a file includes a layer above or beside its own (docs/DESIGN.md,
# "Layers"):
#   base/        nothing of ours but base/
#   kernel/      base/, kernel/            (kernel text in, structs out; reads no file)
#   net/         base/, net/               (HTTP, TLS, the Prometheus client)
#   model/       base/, kernel/, model/    (pure: the session and what derives from it)
#   collectors/  base/, kernel/, model/, collectors/
#   controls/    base/, kernel/, model/, controls/
#   analysis/    base/, kernel/, net/, model/, collectors/, analysis/
#   render/      base/, kernel/, net/, model/, analysis/, render/ (renderers: no source, no curses)
#   tui/         base/, kernel/, net/, model/, collectors/, controls/, analysis/, tui/ (curses only)
#   cmd/         everything
# directly or through the headers it includes, and when a file breaks what
# its layer is for:
#   - kernel/ opens and reads no file: its callers hand it the bytes;
#   - only net/ opens a socket (socket, connect, accept, bind) or loads
#     libssl;
#   - every .c under tui/ draws with curses (it includes <curses.h> or a
#     tui/ header that does), but for its input's parsers (tui/termin.c,
#     tui/rcfile.c): headless code belongs in cmd/ or render/;
#   - nothing outside tui/ and cmd/ includes <curses.h>;
#   - nothing under collectors/ builds a report (analysis/ does);
#   - only controls/ opens a file under the root for writing (a knob, the
#     experiment's state, the change journal) or makes a directory there,
#     and only collectors/tracefs.c writes tracefs (its own instance);
#   - no session field is assigned, and no writable pointer into a session
#     is taken, outside model/ (inputs change it); a view (tui/view_*.c)
#     never reads the live or replay source, only the session;
#   - no tui/ file keeps mutable state at file scope, nor in a function's
#     static: a view's is its state struct (struct ft_view's state_size),
#     the loop's struct ft_ui;
#   - no two layers export functions of one prefix (the word after ft_);
#   - render/ computes no window's figure (a difference of two ends):
#     analysis/ does, once;
#   - cmd/ writes no JSON and prints no table (render/ does), but the
#     usage of its option tables;
#   - a part of the live source (collectors/live_*.c) owns its member of
#     struct ft_live: no other file of it reads or writes that member;
#   - no two files of one layer call each other (a cycle), unless they are
#     parts of one object (they share a *_int.h).
# `make check-layers`; `make check` runs it.
set -u
cd "$(dirname "$0")/.." || exit 2
mkdir -p build
LAYERS="base kernel net model collectors controls analysis render tui cmd"
allowed() {	# layer -> the layers it may include
	case $1 in
	base) echo "base" ;;
	kernel) echo "base kernel" ;;
	net) echo "base net" ;;
	model) echo "base kernel model" ;;
	collectors) echo "base kernel model collectors" ;;
	controls) echo "base kernel model controls" ;;
	analysis) echo "base kernel net model collectors analysis" ;;
	render) echo "base kernel net model analysis render" ;;
	tui) echo "base kernel net model collectors controls analysis tui" ;;
	cmd) echo "$LAYERS" ;;
	esac
}
{
# every include of every layer in one pass (a process a line took seconds)
files=
for layer in $LAYERS; do
	for f in "$layer"/*.c "$layer"/*.h; do
		[ -f "$f" ] && files="$files $f"
	done
done
# shellcheck disable=SC2086
awk -v rules="$(for layer in $LAYERS; do printf '%s=%s;' "$layer" "$(allowed "$layer")"; done)" '
BEGIN {
	n = split(rules, r, ";")
	for (i = 1; i <= n; i++)
		if (split(r[i], kv, "=") == 2)
			ok[kv[1]] = " " kv[2] " "
}
/^#include "[a-z_]*\// {
	layer = FILENAME; sub(/\/.*/, "", layer)
	hdr = $2; gsub(/"/, "", hdr)
	dep = hdr; sub(/\/.*/, "", dep)
	inc[FILENAME] = inc[FILENAME] " " hdr
	if (index(ok[layer], " " dep " ") == 0) {
		print FILENAME ":" FNR ": " layer "/ includes " dep "/ (a layer above or beside it)"
		print "x"
		direct[FILENAME, dep] = 1
	}
}
# and through the headers it includes: a file reaches no layer its own may
# not include, however many headers lie between (render/ -> analysis/report.h
# -> collectors/replay.h was such a way)
function reach(f, path,    n, k, a, h, d) {
	n = split(inc[f], a, " ")
	for (k = 1; k <= n; k++) {
		h = a[k]
		if (h in seen)
			continue
		seen[h] = 1
		d = h; sub(/\/.*/, "", d)
		if (index(ok[top], " " d " ") == 0 && !((start, d) in direct) && !((start, d) in said)) {
			said[start, d] = 1
			print start ": " top "/ reaches " d "/ through " path " -> " h " (a layer above or beside it)"
			print "x"
		}
		reach(h, path " -> " h)
	}
}
END {
	for (f in inc) {
		top = f; sub(/\/.*/, "", top)
		start = f
		delete seen
		reach(f, f)
	}
}' $files
for f in tui/*.c; do
	[ -f "$f" ] || continue
	case $f in tui/termin.c|tui/rcfile.c) continue ;; esac
	grep -qE '^#include (<curses\.h>|"tui/(draw|view)\.h")' "$f" ||
		{ echo "$f: under tui/ but draws nothing with curses (headless code goes to cmd/ or render/)"; echo x; }
done
for layer in base kernel net model collectors controls analysis render; do
	grep -ln '^#include <n\{0,1\}curses' "$layer"/*.[ch] 2> /dev/null | while IFS= read -r f; do
		echo "$f: includes curses outside tui/"; echo x
	done
done
grep -nE '\bft_report_(build|open|add|begin)\w*\(' collectors/*.[ch] 2> /dev/null | while IFS= read -r line; do
	echo "$line: collectors/ builds a report (that is analysis/)"; echo x
done
# kernel writes: a knob (a file under the root opened for writing) only in
# controls/; tracefs (an instance, its events, its files) only in
# collectors/tracefs.c
# each check a grep over every file: "file:line: why", then x
found() {	# WHY: grep -Hn's lines on stdin
	awk -F: -v why="$1" '{ print $1 ":" $2 ": " why; print "x" }'
}
OUTSIDE_CONTROLS="base/*.c kernel/*.c net/*.c model/*.c collectors/*.c analysis/*.c render/*.c tui/*.c cmd/*.c"
# shellcheck disable=SC2086
grep -HnE 'ft_open_(under|beneath)\([^;]*O_(WRONLY|RDWR|CREAT)|\bmkdirat\(|ft_run_dir\([^;]*, *true\)' \
	$OUTSIDE_CONTROLS | grep -v '^base/beneath\.c:' |
	found "writes under the root (only controls/ does: knobs, the experiment's state, the change journal)"
# kernel/ is handed bytes: it opens and reads nothing
grep -HnE '\b(open|openat|fopen|fdopen|read|pread|opendir|readlink|ft_read_file|ft_open_under|ft_open_beneath)\(' \
	kernel/*.c 2> /dev/null | found "reads a file in kernel/ (its callers hand it the bytes)"
# only net/ talks to the network, and loads libssl
# shellcheck disable=SC2086
NOT_NET="base/*.c kernel/*.c model/*.c collectors/*.c controls/*.c analysis/*.c render/*.c tui/*.c cmd/*.c"
# shellcheck disable=SC2086
grep -HnE '\b(socket|connect|accept4?|bind)\(' $NOT_NET |
	grep -vE ':[0-9]+:([[:space:]]*(/?\*|//)|[^"]*"[^"]*\b(socket|connect|accept4?|bind)\()' |
	found "opens a socket outside net/"
# shellcheck disable=SC2086
grep -HnE '"libssl|FT_TLSLIB_' $NOT_NET | found "loads libssl outside net/ (net/tlslib.c does)"
grep -HnE '\btracefs_(instance_create|instance_file_write|event_enable|event_disable|trace_on|trace_off)\(' \
	base/*.c kernel/*.c net/*.c model/*.c collectors/*.c controls/*.c analysis/*.c render/*.c tui/*.c cmd/*.c |
	grep -v '^collectors/tracefs\.c:' |
	found "writes tracefs (only collectors/tracefs.c does, in its own instance)"
# cmd/ parses options, opens sources and calls analysis/ and render/: it
# writes no JSON and prints no table (a field width) but the usage of its
# option tables (cmd/cli.c, cmd/main.c)
grep -Hn '\bft_json_[a-z_]*(' cmd/*.c | found "writes JSON in cmd/ (a renderer's job: render/)"
grep -HnE '(^|[^n])printf\([^;]*%-?[0-9*]+(\.[0-9*]+)?(s|c|d|i|u|ll[du]|l[du]|zu|f|g|e|x)' cmd/*.c |
	grep -vE '^cmd/(cli|main)\.c:' | found "prints a table in cmd/ (a renderer's job: render/)"
# the session changes only through ft_session_apply() (docs/design/session.md, Data
# flow): no field of it is assigned outside model/, no non-const pointer
# into it is taken there; and a view reads the session only, never its source
grep -HnE 'session\.[A-Za-z_][A-Za-z0-9_.]*(\[[^]]*\])?[A-Za-z0-9_.]*[[:space:]]*(([-+*/|&^]|<<|>>)?=[^=]|\+\+|--)' \
	collectors/*.c analysis/*.c render/*.c tui/*.c cmd/*.c |
	found "assigns a session field (only inputs change the session)"
grep -HnE '(^|[{;(,])[[:space:]]*struct ft_[a-z_]+ \*[a-z_]+ = &[a-z_>.-]*session\b' \
	collectors/*.c analysis/*.c render/*.c tui/*.c cmd/*.c |
	found "a writable pointer into the session (make it const)"
grep -HnE 'ui->(live|rp)->' tui/view_*.c | found "a view reads the source (views read ui->s, the session)"
# renderers format the figures analysis/ made: no difference of a window's
# (or a tick's) two ends in render/, and no reading of the ends themselves
grep -HnE -e ' - \(?(prev|first|from|base|a|old|start)(\.|->|\[)' -e '->(first|last)\.' \
	-e '(from|to)(\.|->)(c|lat|bg)\[' render/*.c |
	found "computes a window's figure in render/ (analysis/ does, once: analysis/report_model.c)"
# a view's state is one struct the loop owns (struct ft_view's state_size);
# no file of tui/ keeps mutable state at file scope
grep -HnE '^static[[:space:]]+(volatile[[:space:]]+)?[A-Za-z_][^(]*[;=]' tui/*.c |
	grep -v '^[^:]*:[0-9]*:static const ' |
	found "mutable state at file scope in tui/ (a view's goes in its state struct, the loop's in struct ft_ui)"
# nor in a function's static (indented: inside a function)
grep -HnE '^[[:space:]]+static[[:space:]]+' tui/*.c | grep -vE ':[0-9]+:[[:space:]]+static[[:space:]]+const[[:space:]]' |
	found "mutable state in a function's static in tui/ (a view's goes in its state struct, the loop's in struct ft_ui)"
# the live source's parts own their members (collectors/live.h): l->map is
# live_map.c's, l->boost live_boost.c's, ...; the hub (live.c) and the
# other parts call the part's functions
for f in collectors/live*.c; do
	own=$(basename "$f" .c)
	own=${own#live}
	own=${own#_}
	grep -HnoE 'l->(trace|names|boost|map|owner|stacks|smaps)\b' "$f" |
		awk -F: -v own="$own" '{ split($3, a, "->"); if (a[2] != own) print $1 ":" $2 ": reads l->" a[2] \
			" (the live source'"'"'s parts own their members: call collectors/live_" a[2] ".c'"'"'s functions)"; \
			if (a[2] != own) print "x" }'
done
# no cycle of calls between two files of one layer (each calls a function
# the other defines), unless both include one *_int.h: parts of one object
# shellcheck disable=SC2086
cfiles=$(for layer in $LAYERS; do ls "$layer"/*.c 2> /dev/null; done)
# shellcheck disable=SC2086
awk '
FNR == 1 { pass += FILENAME == first_file; if (!first_file) { first_file = FILENAME; pass = 1 } }
pass == 1 && /^[a-z][^;(]*[ *]ft_[A-Za-z0-9_]+\(/ && !/^static/ && !/;[[:space:]]*$/ {
	name = $0; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
	def[name] = FILENAME
}
pass == 1 && /^#include "[a-z]+\/[a-z_]+_int\.h"/ { ints[FILENAME] = ints[FILENAME] " " $2 }
pass == 2 {
	line = $0
	while (match(line, /ft_[A-Za-z0-9_]+\(/)) {
		name = substr(line, RSTART, RLENGTH - 1)
		line = substr(line, RSTART + RLENGTH)
		if ((name in def) && def[name] != FILENAME && !((FILENAME, def[name]) in edge))
			edge[FILENAME, def[name]] = name
	}
}
function dir(f) { sub(/\/.*/, "", f); return f }
function share_int(a, b,    n, k, x) {
	n = split(ints[a], x, " ")
	for (k = 1; k <= n; k++)
		if (index(ints[b] " ", " " x[k] " "))
			return 1
	return 0
}
END {
	for (key in edge) {
		split(key, ab, SUBSEP)
		a = ab[1]; b = ab[2]
		if (a < b && dir(a) == dir(b) && ((b, a) in edge) && !share_int(a, b)) {
			print a ": calls " edge[a, b] "() of " b ", which calls " edge[b, a] "() back: a cycle (one module, or an *_int.h)"
			print "x"
		}
	}
}' $cfiles $cfiles
# one prefix per module: the word after ft_ of a function a layer exports
# (ft_json_, ft_tracefs_, ft_render_) is that layer's alone
for layer in $LAYERS; do
	for f in "$layer"/*.c; do
		[ -f "$f" ] || continue
		grep -E '^[a-z][^;(]*[ *]ft_[a-z0-9]+_[A-Za-z0-9_]*\(' "$f" | grep -v '^static' |
			sed -E 's/^[^(]*[ *](ft_[a-z0-9]+)_[A-Za-z0-9_]*\(.*/\1/' | sort -u | sed "s#^#$layer $f #"
	done
done | awk '{ if (!($3 in first)) { first[$3] = $1; file[$3] = $2 }
	else if (first[$3] != $1 && !(($3, $1) in said)) {
		said[$3, $1] = 1
		print $2 ": exports " $3 "_, which " file[$3] " (" first[$3] "/) exports too: one prefix per module"
		print "x"
	} }'
} > build/.layers 2>&1
if grep -q '^x$' build/.layers 2>/dev/null; then
	grep -v '^x$' build/.layers >&2
	echo "check-layers: the layering is broken; see docs/DESIGN.md" >&2
	exit 1
fi
echo "check-layers: every include goes down; tui/ is curses, collectors/ builds no report"
