/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fragtop plot`'s renderer: the loaded runs (analysis/plot.h) as an SVG. */
#ifndef FT_RENDER_PLOT_H
#define FT_RENDER_PLOT_H

#include <stdio.h>

#include "analysis/plot.h"

int ft_render_plot_svg(FILE *f, struct ft_plot_run *runs, int nr);

#endif
