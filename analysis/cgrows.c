// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/cgrows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The row for @path, or without one for @why (made when new; past the table, the "other" row). */
static struct ft_cgrow *row_of(struct ft_cgrows *out, const char *path, enum ft_cg_unread why,
			       struct ft_cgrow *other)
{
	int i;

	for (i = 0; i < out->nr; i++)
		if (!out->r[i].other && out->r[i].unread == why && !strcmp(out->r[i].path, path))
			return &out->r[i];
	if (out->nr >= FT_CGROWS_MAX)
		return other;
	memset(&out->r[out->nr], 0, sizeof(out->r[0]));
	out->r[out->nr].cg = -1;
	out->r[out->nr].unread = why;
	snprintf(out->r[out->nr].path, sizeof(out->r[0].path), "%s", path);
	return &out->r[out->nr++];
}

const char *ft_cgrow_name(const struct ft_cgrow *r)
{
	if (r->other)
		return "other";
	return r->path[0] ? r->path : ft_cg_unread_names[r->unread];
}

static int by_fragmenting(const void *a, const void *b)
{
	const struct ft_cgrow *x = a, *y = b;

	if (x->other != y->other)
		return x->other ? 1 : -1;	/* "other" last */
	if (x->c[FT_PC_FRAGMENTING] != y->c[FT_PC_FRAGMENTING])
		return x->c[FT_PC_FRAGMENTING] > y->c[FT_PC_FRAGMENTING] ? -1 : 1;
	if (strcmp(x->path, y->path))
		return strcmp(x->path, y->path);
	return (int)x->unread - (int)y->unread;
}

void ft_cgrows_build(const struct ft_procs *t, struct ft_cgrows *out)
{
	struct ft_cgrow other = { .other = true, .cg = -1 };
	bool have_other = false;
	int i, k;

	out->nr = 0;
	out->untraced_left_out = 0;
	for (i = 0; i < t->nr; i++) {
		const struct ft_proc *p = &t->p[i];
		struct ft_cgrow *r = row_of(out, p->cgroup, ft_procs_cg_unread(t, p), &other);

		have_other |= r == &other;
		r->procs++;
		for (k = 0; k < FT_PC_NR; k++)
			r->c[k] += p->c[k];
	}
	for (k = 0; k < FT_PC_NR; k++) {
		other.c[k] += t->other[k];
		have_other |= t->other[k] != 0;
	}
	qsort(out->r, (size_t)out->nr, sizeof(out->r[0]), by_fragmenting);
	if (have_other)
		out->r[out->nr++] = other;
}

const struct ft_cgrow *ft_cgrows_find(const struct ft_cgrows *rows, const char *path)
{
	int i;

	for (i = 0; i < rows->nr; i++)
		if (!rows->r[i].other && rows->r[i].path[0] && !strcmp(rows->r[i].path, path))
			return &rows->r[i];
	return NULL;
}

void ft_cgrows_join(struct ft_cgrows *rows, const struct ft_cgroups *c)
{
	struct ft_cgrow other;
	bool have_other = rows->nr && rows->r[rows->nr - 1].other;
	bool *seen;
	int i;

	rows->untraced_left_out = 0;
	if (!c || !c->nr)
		return;
	seen = calloc((size_t)c->nr, sizeof(*seen));
	if (!seen)
		return;
	if (have_other)
		other = rows->r[--rows->nr];
	for (i = 0; i < rows->nr; i++) {
		const struct ft_cgroup *g = ft_cgroup_find(c, rows->r[i].path);

		rows->r[i].cg = g ? (int)(g - c->g) : -1;
		if (rows->r[i].cg >= 0)
			seen[rows->r[i].cg] = true;
	}
	for (i = 0; i < c->nr; i++) {
		struct ft_cgrow *r;

		if (seen[i] || !c->g[i].procs)
			continue;
		if (rows->nr >= FT_CGROWS_MAX) {
			rows->untraced_left_out++;
			continue;
		}
		r = &rows->r[rows->nr++];
		memset(r, 0, sizeof(*r));
		snprintf(r->path, sizeof(r->path), "%s", c->g[i].path);
		r->cg = i;
	}
	if (have_other)
		rows->r[rows->nr++] = other;
	free(seen);
}
