/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `fragtop export`'s rows as figures: what each tick adds to the
 * counters export writes, to the chosen cgroups' fragmenting fallbacks
 * and to each THP size's anonymous faults.  render/export.c formats them
 * (CSV or JSON) and computes nothing.
 */
#ifndef FT_ANALYSIS_EXPORTROW_H
#define FT_ANALYSIS_EXPORTROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/counterfield.h"
#include "model/session.h"
#include "kernel/thp.h"

#define FT_EXPORT_COLS	11	/* the tick's counters (ft_exportrow_cols[]) */
#define FT_EXPORT_CGROUPS	8	/* --cgroups: the most fragmenting, a column each */

/* The counters export writes, in column order (model/counterfield.h); a name of its own or NULL. */
struct ft_exportrow_col {
	enum ft_cf c;
	const char *name;
};
extern const struct ft_exportrow_col ft_exportrow_cols[FT_EXPORT_COLS];

/* Column @i's name. */
const char *ft_exportrow_col_name(size_t i);

/*
 * A cgroup a row has a column for (export --cgroups): its tasks' fragmenting fallbacks in the tick.
 */
struct ft_export_cgroup {
	char path[FT_CG_PATH];			/* as the processes' cgroup */
	char name[FT_CG_PATH];		/* as people know it: the column's name */
	uint64_t prev;			/* the count at the tick before */
};

/* What a row is counted from: the tick before, and the columns fixed at the first. */
struct ft_exportrow_state {
	int64_t prev[FT_EXPORT_COLS];	/* the counters at the tick before */
	int ncg;
	struct ft_export_cgroup cg[FT_EXPORT_CGROUPS];
	/* THP sizes with anonymous fault counters at the first tick */
	int thp_n;
	uint32_t thp_kb[FT_THP_SIZES];
};

/* One tick's figures. */
struct ft_exportrow {
	int64_t d[FT_EXPORT_COLS];	/* each counter's growth in the tick */
	/* each chosen cgroup's fragmenting fallbacks in it (0 when folded away) */
	uint64_t cg[FT_EXPORT_CGROUPS];
	/* the size's alloc and fallback counts are known for the tick */
	bool thp_have[FT_THP_SIZES][2];
	uint64_t thp[FT_THP_SIZES][2];	/* ... anon_fault_alloc, anon_fault_fallback */
};

/*
 * The columns from the first tick @first; @cg: the chosen cgroups (@ncg, at most
 * FT_EXPORT_CGROUPS).
 */
void ft_exportrow_begin(struct ft_exportrow_state *st, const struct ft_session *first,
			const struct ft_export_cgroup *cg, int ncg);

/* Tick @s's figures into @row (NULL: counted only, before the window). */
void ft_exportrow_tick(struct ft_exportrow_state *st, const struct ft_session *s,
		       struct ft_exportrow *row);

#endif
