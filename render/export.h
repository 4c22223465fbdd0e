/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `fragtop export`'s CSV and JSON, a tick at a time: begin with the first
 * tick (its zones and THP sizes are the columns), then every tick in
 * order, shown or only counted (before the window), then end.
 */
#ifndef FT_RENDER_EXPORT_H
#define FT_RENDER_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/json.h"
#include "model/session.h"
#include "model/thp.h"

#define FT_EXPORT_COLS	11	/* the tick's counters (render/export.c's cols[]) */
#define FT_EXPORT_ZONES	64
#define FT_EXPORT_CGROUPS	8	/* --cgroups: the most fragmenting, a column each */

/* A cgroup a row has a column for (export --cgroups): its tasks' fragmenting fallbacks in the tick. */
struct ft_export_cgroup {
	char path[128];			/* as the processes' cgroup */
	char name[FT_CG_PATH];		/* as people know it: the column's name */
	uint64_t prev;			/* the count at the tick before */
};

/* A zone a row has columns for: every populated zone of the first tick. */
struct ft_export_zone {
	int node;
	char name[FT_ZONE_NAME_LEN];
};

struct ft_export {
	bool csv;			/* else JSON */
	struct ft_json j;
	struct ft_export_zone zones[FT_EXPORT_ZONES];
	int nz;
	int thp_n;			/* THP sizes with anonymous fault counters at the first tick */
	uint32_t thp_kb[FT_THP_SIZES];
	int64_t prev[FT_EXPORT_COLS];	/* the counters at the tick before */
	int ncg;
	struct ft_export_cgroup cg[FT_EXPORT_CGROUPS];
};

/* @ncg cgroups @cg get a column each (export --cgroups; 0: none). */
void ft_render_export_begin(struct ft_export *x, bool csv, const char *file, const struct ft_session *first,
			    const struct ft_export_cgroup *cg, int ncg);
/* The tick at @t seconds: a row when @shown, else only its counts taken. */
void ft_render_export_tick(struct ft_export *x, const struct ft_session *s, double t, bool shown);
void ft_render_export_end(struct ft_export *x);

#endif
