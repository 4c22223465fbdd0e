#!/bin/sh
# make bench's last word: today's figures beside the kept run's, with the
# ratio today / kept.  Both files hold "key value unit" lines (the benches
# write them to $FT_BENCH_OUT); '#' lines of the kept file say where and
# when it was measured.  `make bench-keep` makes today's the kept ones.
# usage: bench-compare.sh KEPT TODAY
set -u
kept=$1 today=$2
[ -s "$today" ] || { echo "bench-compare: no figures in $today"; exit 0; }
echo
if [ -s "$kept" ]; then
	echo "today beside the kept run ($kept):"
	grep '^#' "$kept" | sed 's/^# */  kept:  /'
	grep '^#' "$today" | sed 's/^# */  today: /'
else
	echo "no kept run ($kept): today's figures alone; make bench-keep keeps them"
fi
# the kept value, today's, the ratio; the keys in today's order, then the kept ones gone since
awk -v kept="$kept" '
BEGIN {
	while ((getline line < kept) > 0) {
		if (line ~ /^#/ || split(line, f, " ") < 2)
			continue
		k[f[1]] = f[2]; ku[f[1]] = f[3]; korder[++nk] = f[1]
	}
	printf "  %-44s %12s %12s %10s\n", "figure", "kept", "today", "today/kept"
}
/^#/ { next }
NF >= 2 {
	seen[$1] = 1
	if ($1 in k)
		printf "  %-44s %12s %12s %10s  %s\n", $1, k[$1], $2, k[$1] + 0 != 0 ? sprintf("%.2f", $2 / k[$1]) : "-", $3
	else
		printf "  %-44s %12s %12s %10s  %s\n", $1, "-", $2, "-", $3
}
END {
	for (i = 1; i <= nk; i++)
		if (!(korder[i] in seen))
			printf "  %-44s %12s %12s %10s  %s\n", korder[i], k[korder[i]], "-", "-", ku[korder[i]]
}' "$today"
