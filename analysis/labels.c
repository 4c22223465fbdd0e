// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/labels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pageowner.h"

/* The label of a look: the first entry's block type, or false when none parses. */
static bool look_label(const struct ft_session *s, const struct ft_owner_look *o, char *mt,
		       size_t sz)
{
	const char *text = ft_session_owner_text(s, o);
	struct ft_po_entry *e = malloc(sizeof(*e));	/* ~1 KiB: not on a view's stack */
	size_t off = 0;
	int r;
	bool ok = false;

	if (!e)
		return false;
	while (!ok && (r = ft_po_next(text, o->text_len, &off, e)) != 0)
		if (r > 0 && e->block_mt[0]) {
			snprintf(mt, sz, "%s", e->block_mt);
			ok = true;
		}
	free(e);
	return ok;
}

static int label_index(struct ft_labels *out, const char *mt)
{
	int i;

	for (i = 0; i < out->nr_mt; i++)
		if (!strcmp(out->mt[i], mt))
			return i;
	if (out->nr_mt == FT_LABELS_MT)
		return -1;
	snprintf(out->mt[out->nr_mt], sizeof(out->mt[0]), "%s", mt);
	return out->nr_mt++;
}

static void add_hidden(struct ft_labels *out, uint64_t pfn, const struct ft_pb_block *pb)
{
	int i, at;

	out->hidden++;
	/* most unmovable pages first; a full list drops its last */
	for (at = 0; at < out->nr_list && out->list[at].unmovable >= pb->pages[FT_PG_UNMOVABLE];
	     at++)
		;
	if (at == FT_LABELS_HIDDEN)
		return;
	if (out->nr_list < FT_LABELS_HIDDEN)
		out->nr_list++;
	for (i = out->nr_list - 1; i > at; i--)
		out->list[i] = out->list[i - 1];
	out->list[at] = (struct ft_label_hidden){ pfn, pb->pages[FT_PG_UNMOVABLE],
						  (enum ft_pb)pb->cls };
}

struct look_ref {
	uint64_t block;
	size_t i;
};

/* by block, the newest look first */
static int by_block(const void *a, const void *b)
{
	const struct look_ref *x = a, *y = b;

	if (x->block != y->block)
		return x->block < y->block ? -1 : 1;
	return x->i > y->i ? -1 : x->i < y->i;
}

void ft_labels_build(const struct ft_session *s, struct ft_labels *out)
{
	struct look_ref *refs;
	size_t i, n = s->owners.nr;

	memset(out, 0, sizeof(*out));
	if (s->map.order < 0 || !n || !(refs = malloc(n * sizeof(*refs))))
		return;
	for (i = 0; i < n; i++)
		refs[i] = (struct look_ref){ s->owners.looks[i].pfn >> s->map.order, i };
	qsort(refs, n, sizeof(*refs), by_block);
	for (i = 0; i < n; i++) {
		const struct ft_owner_look *o = &s->owners.looks[refs[i].i];
		const struct ft_pb_block *pb;
		char mt[16];
		int k;

		if (i && refs[i].block == refs[i - 1].block)
			continue;	/* an older look of the block */
		if (!o->text_len || !look_label(s, o, mt, sizeof(mt))) {
			out->no_label++;
			continue;
		}
		pb = ft_pbmap_block(&s->map, o->pfn);
		if (!pb || pb->cls == FT_PB_UNSCANNED) {
			out->unread++;
			continue;
		}
		k = label_index(out, mt);
		if (k < 0)
			continue;
		out->blocks++;
		out->n[k][pb->cls]++;
		if (!strcmp(mt, "Movable") && pb->pages[FT_PG_UNMOVABLE])
			add_hidden(out, refs[i].block << s->map.order, pb);
	}
	free(refs);
}
