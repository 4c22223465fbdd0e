// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/cgtop.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ft_cgsel_init(struct ft_cgsel *sel, int k)
{
	memset(sel, 0, sizeof(*sel));
	sel->k = k < 1 ? 1 : k > FT_CGTOP_MAX ? FT_CGTOP_MAX : k;
}

/* @rows' row of cgroup @path (not "other", not the no-cgroup row), or NULL. */
static const struct ft_cgrow *row_at(const struct ft_cgrows *rows, const char *path)
{
	return path[0] ? ft_cgrows_find(rows, path) : NULL;
}

static bool chosen(const struct ft_cgsel *sel, const char *path)
{
	int i;

	for (i = 0; i < sel->nr; i++)
		if (!strcmp(sel->path[i], path))
			return true;
	return false;
}

struct cand {
	const char *path;
	uint64_t frag, anon;
};

static int by_weight(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->frag != y->frag)
		return x->frag > y->frag ? -1 : 1;
	if (x->anon != y->anon)
		return x->anon > y->anon ? -1 : 1;
	return strcmp(x->path, y->path);
}

static uint64_t anon_of(const struct ft_cgroup *g)
{
	return g && (g->mem.have & (1u << FT_CGM_ANON)) ? g->mem.v[FT_CGM_ANON] : 0;
}

/* The places left go to the heaviest cgroups seen and not chosen yet. */
static void fill(struct ft_cgsel *sel, const struct ft_cgrows *rows, const struct ft_cgroups *c)
{
	size_t n = 0, cap = (size_t)rows->nr + (size_t)(c ? c->nr : 0), i;
	struct cand *cd;
	int k;

	if (sel->nr >= sel->k || !cap || !(cd = calloc(cap, sizeof(*cd))))
		return;
	for (k = 0; k < rows->nr; k++) {
		const struct ft_cgrow *r = &rows->r[k];

		if (!r->other && r->path[0] && !chosen(sel, r->path))
			cd[n++] = (struct cand){ r->path, r->c[FT_PC_FRAGMENTING],
						 anon_of(ft_cgroup_find(c, r->path)) };
	}
	for (k = 0; c && k < c->nr; k++)
		if (!row_at(rows, c->g[k].path) && !chosen(sel, c->g[k].path))
			cd[n++] = (struct cand){ c->g[k].path, 0, anon_of(&c->g[k]) };
	qsort(cd, n, sizeof(*cd), by_weight);
	for (i = 0; i < n && sel->nr < sel->k; i++)
		snprintf(sel->path[sel->nr++], sizeof(sel->path[0]), "%s", cd[i].path);
	free(cd);
}

/* What row @r counted at the last pick (NULL: it was not there). */
static const struct ft_cgsel_prev *prev_of(const struct ft_cgsel *sel, const struct ft_cgrow *r)
{
	int i;

	for (i = 0; i < sel->nr_prev; i++)
		if (sel->prev[i].other == r->other &&
		    (r->other || !strcmp(sel->prev[i].path, r->path)))
			return &sel->prev[i];
	return NULL;
}

/*
 * "other" grows by what each row not chosen now (and the folded row)
 * counted since the last pick; then every row's counts are kept for
 * the next.  A row new since then brings all it counted.
 */
static void other_grows(struct ft_cgsel *sel, const struct ft_cgrows *rows)
{
	struct ft_cgsel_prev *next = sel->next;
	int i, k, n = 0;

	for (i = 0; i < rows->nr; i++) {
		const struct ft_cgrow *r = &rows->r[i];
		const struct ft_cgsel_prev *p;

		if (!r->other && !r->path[0])
			continue;	/* an unattributed bucket: a row of its own */
		p = prev_of(sel, r);
		if (r->other || !chosen(sel, r->path))
			for (k = 0; k < FT_PC_NR; k++)
				sel->other[k] += p &&
				p->c[k] <= r->c[k] ? r->c[k] - p->c[k] : p ? 0 : r->c[k];
		if (n < FT_CGROWS_MAX + 1) {
			snprintf(next[n].path, sizeof(next[n].path), "%s", r->path);
			next[n].other = r->other;
			memcpy(next[n].c, r->c, sizeof(next[n].c));
			n++;
		}
	}
	memcpy(sel->prev, next, (size_t)n * sizeof(next[0]));
	sel->nr_prev = n;
}

void ft_cgtop_pick(struct ft_cgsel *sel, const struct ft_cgrows *rows, const struct ft_cgroups *c,
		   struct ft_cgtop *out)
{
	int i, k;

	sel->nr = 0;		/* chosen again, by the figures */
	fill(sel, rows, c);
	other_grows(sel, rows);
	out->nr = 0;
	memcpy(out->other, sel->other, sizeof(out->other));
	memset(out->unread, 0, sizeof(out->unread));
	for (i = 0; i < sel->nr; i++) {
		struct ft_cgtop_row *o = &out->r[out->nr++];
		const struct ft_cgrow *r = row_at(rows, sel->path[i]);

		snprintf(o->path, sizeof(o->path), "%s", sel->path[i]);
		for (k = 0; k < FT_PC_NR; k++)
			o->c[k] = r ? r->c[k] : 0;
		o->g = ft_cgroup_find(c, sel->path[i]);
	}
	for (i = 0; i < rows->nr; i++) {
		const struct ft_cgrow *r = &rows->r[i];

		if (!r->other && !r->path[0])
			for (k = 0; k < FT_PC_NR; k++)
				out->unread[r->unread][k] += r->c[k];
	}
}
