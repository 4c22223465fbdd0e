#!/bin/bash
# The table of docs/lab-fit.md from lab/fit-score.sh's rows (FILE...): per
# kernel and size, the states, the mean the kernel gave, and for fragtop
# and the two baselines how often the kernel's answer lay in the method's
# figure (fragtop: [now, after compaction's upper end]; a baseline: the one
# number) and the mean absolute error of its figure for "after compaction"
# (fragtop's lower "after compaction"), with how often it promised more than
# the kernel gave (the error that starts a job that then fails).
# usage: fit-table.sh FIT-VER.tsv...
set -euo pipefail
echo "| kernel | size | states | kernel gave, mean | fragtop: in [now, after] | fragtop after: mean error, over-promised | MemAvailable / size: exact | mean error, over-promised | buddyinfo: exact | mean error, over-promised |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
awk -F'\t' 'FNR == 1 { next }
	{
		k = $1 SUBSEP $3; if (!(k in n)) order[++nk] = k; n[k]++
		g = $10 + 0; gave[k] += g
		hi = $7 == "-" ? 1e18 : $7 + 0
		if (g >= $4 + 0 && g <= hi) inside[k]++
		a = ($6 == "-" ? $4 : $6) + 0
		err[k] += (a > g ? a - g : g - a); over[k] += a > g
		m = $8 + 0; mexact[k] += m == g; merr[k] += (m > g ? m - g : g - m); mover[k] += m > g
		b = $9 + 0; bexact[k] += b == g; berr[k] += (b > g ? b - g : g - b); bover[k] += b > g
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]; split(k, p, SUBSEP); c = n[k]
			printf "| %s | %s | %d | %.1f | %d of %d | %.1f, %d | %d of %d | %.1f, %d | %d of %d | %.1f, %d |\n",
				p[1], p[2], c, gave[k] / c, inside[k], c, err[k] / c, over[k], mexact[k], c,
				merr[k] / c, mover[k], bexact[k], c, berr[k] / c, bover[k]
		}
	}' "$@"
