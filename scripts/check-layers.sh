#!/bin/sh
# Fails when a file includes a layer above its own (docs/DESIGN.md, "Layers"):
#   base/        nothing of ours but base/
#   model/       base/, model/             (pure: bytes in, structs out)
#   collectors/  base/, model/, collectors/
#   controls/    base/, model/, controls/
#   tui/         everything below
# `make check-layers`; `make check` runs it.
set -u
cd "$(dirname "$0")/.." || exit 2
bad=0
allowed() {	# layer -> the layers it may include
	case $1 in
	base) echo "base" ;;
	model) echo "base model" ;;
	collectors) echo "base model collectors" ;;
	controls) echo "base model controls" ;;
	tui) echo "base model collectors controls tui" ;;
	esac
}
for layer in base model collectors controls tui; do
	ok=$(allowed "$layer")
	for f in "$layer"/*.c "$layer"/*.h; do
		[ -f "$f" ] || continue
		grep -n '^#include "[a-z_]*/' "$f" | while IFS= read -r line; do
			dep=$(printf '%s\n' "$line" | sed 's/.*#include "\([a-z_]*\)\/.*/\1/')
			case " $ok " in
			*" $dep "*) ;;
			*) echo "$f:${line%%:*}: $layer/ includes $dep/ (a layer above or beside it)"; echo x ;;
			esac
		done
	done
done > build/.layers 2>&1 || true
if grep -q '^x$' build/.layers 2>/dev/null; then
	grep -v '^x$' build/.layers >&2
	echo "check-layers: includes run up or sideways; see docs/DESIGN.md" >&2
	exit 1
fi
echo "check-layers: every include goes down"
