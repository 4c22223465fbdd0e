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

#include "analysis/exportrow.h"
#include "base/json.h"
#include "model/session.h"
#include "kernel/thp.h"

#define FT_EXPORT_ZONES	64

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
	/* the figures' columns and the tick before (analysis/exportrow.h) */
	struct ft_exportrow_state rs;
};

/* @ncg cgroups @cg get a column each (export --cgroups; 0: none). */
void ft_render_export_begin(struct ft_export *x, bool csv, const char *file,
			    const struct ft_session *first,
			    const struct ft_export_cgroup *cg, int ncg);
/* The tick at @t seconds: a row when @shown, else only its counts taken. */
void ft_render_export_tick(struct ft_export *x, const struct ft_session *s, double t, bool shown);
void ft_render_export_end(struct ft_export *x);

#endif
