/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bench's figure for scripts/bench-compare.sh: "key value unit" appended
 * to $FT_BENCH_OUT (make bench sets it), beside the text it prints.
 */
#ifndef FT_TESTS_BENCH_FIGURE_H
#define FT_TESTS_BENCH_FIGURE_H

#include <stdio.h>
#include <stdlib.h>

static inline void bench_figure(const char *key, double v, const char *unit)
{
	const char *path = getenv("FT_BENCH_OUT");
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%s %.6g %s\n", key, v, unit);
	fclose(f);
}

#endif
