/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `fragtop plot` draws, apart from how: a recording's window as
 * series over time (per zone, or per THP size), a stall latency heatmap
 * and the control changes as marks (render/plot.h draws them).
 */
#ifndef FT_ANALYSIS_PLOT_H
#define FT_ANALYSIS_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/report.h"

#define FT_PLOT_FILES	6	/* recordings overlaid */
#define FT_PLOT_ZONES	6
#define FT_PLOT_THP_SLOTS	9	/* THP sizes 8 kB << slot: 8 kB to 2 MiB */
#define FT_PLOT_LINES	9	/* a panel's lines: zones, or THP sizes */
#define FT_PLOT_OCTAVES		22	/* latency rows: [2^k, 2^(k+1)) us, the last open */

/* FT_PLOT_THP_OK's lines are THP sizes (slots), every other panel's are zones */
enum ft_plot_series { FT_PLOT_FRAG, FT_PLOT_PEAK, FT_PLOT_BOOSTED, FT_PLOT_UNUSABLE, FT_PLOT_FREE,
		      FT_PLOT_IN_BLOCKS, FT_PLOT_THP_OK, FT_PLOT_NR };

/* A control change: a labelled vertical line. */
struct ft_plot_mark {
	double t;
	char text[200];
};

/* One recording's window, tick by tick. */
struct ft_plot_run {
	const char *file;
	size_t n, cap;			/* ticks */
	double *t;			/* seconds into the recording */
	double *v[FT_PLOT_NR][FT_PLOT_LINES];
	/* faults seen per size: a line only where some were */
	double thp_faults[FT_PLOT_THP_SLOTS];
	uint64_t thp_t_ns;		/* the THP input used last */
	double (*heat)[FT_PLOT_OCTAVES];	/* stalls per tick and octave */
	int nz;
	char zone[FT_PLOT_ZONES][40];
	int zi[FT_PLOT_ZONES];		/* zoneinfo index */
	struct ft_plot_mark *marks;
	size_t nr_marks;
	bool boost, tracing, thp;	/* thp: the recording has per-size THP input */
};

/* Replay @path over @w into @r (zeroed first).  0, or 1 after saying why (base/diag.h). */
int ft_plot_load(struct ft_plot_run *r, const char *path, const struct ft_rep_window *w);
void ft_plot_release(struct ft_plot_run *r);

#endif
