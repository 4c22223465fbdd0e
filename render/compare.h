/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `fragtop compare`'s renderers: each walks the groups ft_cmp_measure()
 * filled and the stacks ft_cmp_stacks() gathered (analysis/compare.h),
 * and prints them on stdout.
 */
#ifndef FT_RENDER_COMPARE_H
#define FT_RENDER_COMPARE_H

#include "analysis/compare.h"

/* What a comparison shows besides the metrics' rows: gathered by analysis/compare.c. */
struct ft_cmp_extra {
	const struct ft_cmp_stacks *stacks, *cgroups;	/* ft_cmp_stacks(), ft_cmp_cgroups() */
	const struct ft_cmp_findings *findings;		/* ft_cmp_findings() */
};

void ft_render_compare_text(const struct ft_cmp_group *g, int ng, const struct ft_cmp_extra *x);
void ft_render_compare_json(const struct ft_cmp_group *g, int ng, const struct ft_cmp_extra *x);
void ft_render_compare_csv(const struct ft_cmp_group *g, int ng, const struct ft_cmp_extra *x);

/*
 * A change against the first group as compare's text shows it: "+12.3%",
 * "+0.0%" for one that rounds to zero (never "-0.0%"), "-" when there is
 * none (NAN); "*" after it when @significant.
 */
const char *ft_render_compare_change(char *buf, size_t sz, double change_pct, bool significant);

/* A share's change in points ("-33.6 pt*"), the same way. */
const char *ft_render_compare_points(char *buf, size_t sz, double points, bool significant);

#endif
