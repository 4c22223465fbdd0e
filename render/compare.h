/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `fragtop compare`'s renderers: each walks the groups ft_cmp_measure()
 * filled and the stacks ft_cmp_stacks() gathered (analysis/compare.h),
 * and prints them on stdout.
 */
#ifndef FT_RENDER_COMPARE_H
#define FT_RENDER_COMPARE_H

#include "analysis/compare.h"

void ft_render_compare_text(const struct ft_cmp_group *g, int ng, const struct ft_cmp_stacks *stacks,
			    const struct ft_cmp_stacks *cgroups);
void ft_render_compare_json(const struct ft_cmp_group *g, int ng, const struct ft_cmp_stacks *stacks,
			    const struct ft_cmp_stacks *cgroups);
void ft_render_compare_csv(const struct ft_cmp_group *g, int ng, const struct ft_cmp_stacks *stacks,
			   const struct ft_cmp_stacks *cgroups);

#endif
