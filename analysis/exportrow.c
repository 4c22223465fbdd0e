// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop export`'s rows as figures (analysis/exportrow.h). */
#include "analysis/exportrow.h"

#include <string.h>

const struct ft_exportrow_col ft_exportrow_cols[FT_EXPORT_COLS] = {
	{ FT_CF_EXTFRAG, NULL },
	{ FT_CF_FRAGMENTING, NULL },
	{ FT_CF_DIRECT_COMPACT, "compactions" },	/* direct: stalls (model/events.h) */
	{ FT_CF_BG_COMPACT, NULL },
	{ FT_CF_RECLAIMS, NULL },
	{ FT_CF_KSWAPD_WAKES, NULL },
	{ FT_CF_FRAG_STALLS, NULL },
	{ FT_CF_COMPACT_STALL, NULL },
	{ FT_CF_COMPACT_SUCCESS, NULL },
	{ FT_CF_THP_ALLOC, NULL },
	{ FT_CF_THP_FALLBACK, NULL },
};

const char *ft_exportrow_col_name(size_t i)
{
	return ft_exportrow_cols[i].name ?
		ft_exportrow_cols[i].name : ft_counter_fields[ft_exportrow_cols[i].c].key;
}

static void values(const struct ft_session *s, int64_t *v)
{
	int64_t all[FT_CF_NR];
	size_t i;

	ft_counters_read(s, all);
	for (i = 0; i < FT_EXPORT_COLS; i++)
		v[i] = all[ft_exportrow_cols[i].c];
}

/* The fragmenting fallbacks of cgroup @path's processes so far (the thread table's rows). */
static uint64_t cgroup_count(const struct ft_session *s, const char *path)
{
	const struct ft_procs *t = &s->events.procs;
	uint64_t n = 0;
	int i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->p[i].cgroup, path))
			n += t->p[i].c[FT_PC_FRAGMENTING];
	return n;
}

void ft_exportrow_begin(struct ft_exportrow_state *st, const struct ft_session *first,
			const struct ft_export_cgroup *cg, int ncg)
{
	uint64_t v;
	int k;

	memset(st, 0, sizeof(*st));
	for (k = 0; k < ncg && k < FT_EXPORT_CGROUPS; k++) {
		st->cg[st->ncg] = cg[k];
		st->cg[st->ncg++].prev = cgroup_count(first, cg[k].path);
	}
	values(first, st->prev);
	/*
	 * THP sizes with anonymous fault counters (none in a recording made before fragtop read
	 * them)
	 */
	for (k = 0; first->thp_ticks && k < first->thp.nr && st->thp_n < FT_THP_SIZES; k++)
		if (ft_thp_stat(&first->thp.s[k], "anon_fault_alloc", &v))
			st->thp_kb[st->thp_n++] = first->thp.s[k].kb;
}

void ft_exportrow_tick(struct ft_exportrow_state *st, const struct ft_session *s,
		       struct ft_exportrow *row)
{
	static const char *const names[2] = { "anon_fault_alloc", "anon_fault_fallback" };
	int64_t now[FT_EXPORT_COLS];
	size_t i;
	int k, c;

	values(s, now);
	if (row)
		memset(row, 0, sizeof(*row));
	for (i = 0; row && i < FT_EXPORT_COLS; i++)
		row->d[i] = now[i] - st->prev[i];
	memcpy(st->prev, now, sizeof(now));
	/* 0 when the cgroup's rows were folded away, the table full: the count went back */
	for (k = 0; k < st->ncg; k++) {
		uint64_t n = cgroup_count(s, st->cg[k].path);

		if (row)
			row->cg[k] = n >= st->cg[k].prev ? n - st->cg[k].prev : 0;
		st->cg[k].prev = n;
	}
	for (k = 0; row && k < st->thp_n; k++)
		for (c = 0; c < 2; c++)
			row->thp_have[k][c] = ft_thp_growth(&s->thp_prev, &s->thp, st->thp_kb[k],
							    names[c],
							    &row->thp[k][c]);
}
