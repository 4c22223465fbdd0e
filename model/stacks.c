// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/stacks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ft_stack_base_take(struct ft_stack_base *b, const struct ft_events *ev)
{
	int i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < ev->nr_stacks && i < FT_EV_STACKS; i++) {
		b->frag[i] = ev->stacks[i].fb.fragmenting;
		b->own[i] = ev->stacks[i].fb.change_ownership;
	}
	b->frag[FT_EV_STACKS] = ev->stack_other.fragmenting;
	b->own[FT_EV_STACKS] = ev->stack_other.change_ownership;
	b->fragmenting = ev->extfrag.fragmenting;
}

/* Row @st's functions past the allocator's frames, " < " apart, into @key. */
static int row_key(const struct ft_ev_stack *st, const struct ft_symnames *syms, char *key,
		   size_t sz)
{
	size_t len = 0;
	int i, n = 0;
	bool past = false;

	key[0] = '\0';
	for (i = 0; i < st->n; i++) {
		const char *name = ft_symnames_get(syms, st->ip[i]);
		char fn[FT_SYMNAME_LEN + 24];
		int w;

		if (name)
			ft_sym_function(name, fn, sizeof(fn));
		else
			snprintf(fn, sizeof(fn), "0x%llx", (unsigned long long)st->ip[i]);
		/* the allocator's own frames first, then who called it */
		if (!past && name && ft_sym_is_allocator(fn))
			continue;
		past = true;
		if (n == FT_STACK_GROUP_FRAMES)
			break;
		w = snprintf(key + len, sz - len, "%s%s", n ? " < " : "", fn);
		if (w < 0 || (size_t)w >= sz - len) {
			key[len] = '\0';
			break;
		}
		len += (size_t)w;
		n++;
	}
	if (!n)		/* every frame the allocator's: keep them as they are */
		snprintf(key, sz, "(allocator only)");
	return n;
}

static int by_count(const void *a, const void *b)
{
	const struct ft_stack_group *x = a, *y = b;

	if (x->fragmenting != y->fragmenting)
		return x->fragmenting > y->fragmenting ? -1 : 1;
	return strcmp(x->key, y->key);
}

size_t ft_stack_groups(const struct ft_events *ev, const struct ft_stack_base *from,
		       const struct ft_stack_base *to, const struct ft_symnames *syms,
		       struct ft_stack_group *out, size_t max, uint64_t *other, uint64_t *unstacked)
{
	struct ft_stack_group *g = calloc(FT_EV_STACKS, sizeof(*g));
	struct ft_stack_base *now = NULL;
	uint64_t stacked, frag;
	size_t ng = 0, i, k;

	if (!to) {
		now = malloc(sizeof(*now));
		if (now)
			ft_stack_base_take(now, ev);
		to = now;
	}
	*other = *unstacked = 0;
	if (!g || !to) {
		free(g);
		free(now);
		return 0;
	}
	frag = to->fragmenting - (from ? from->fragmenting : 0);
	*other = to->frag[FT_EV_STACKS] - (from ? from->frag[FT_EV_STACKS] : 0);
	stacked = *other;
	for (i = 0; i < (size_t)ev->nr_stacks && i < FT_EV_STACKS; i++) {
		uint64_t f = to->frag[i] - (from ? from->frag[i] : 0);
		uint64_t o = to->own[i] - (from ? from->own[i] : 0);
		char key[FT_STACK_KEY];
		int n;

		stacked += f;
		if (!f)
			continue;
		n = row_key(&ev->stacks[i], syms, key, sizeof(key));
		for (k = 0; k < ng && strcmp(g[k].key, key); k++)
			;
		if (k == ng) {
			snprintf(g[ng].key, sizeof(g[ng].key), "%s", key);
			g[ng].frames = n;
			ng++;
		}
		g[k].fragmenting += f;
		g[k].change_ownership += o;
		g[k].rows++;
	}
	qsort(g, ng, sizeof(*g), by_count);
	memcpy(out, g, (ng < max ? ng : max) * sizeof(*g));
	free(g);
	free(now);
	/* the rest of the fragmenting fallbacks came without a stack */
	if (frag >= stacked)
		*unstacked = frag - stacked;
	return ng;
}

const char *ft_stack_head(const struct ft_stack_group *g, int n, char *buf, size_t sz)
{
	const char *p = g->key;
	int i;

	for (i = 0; i < n && p; i++) {
		p = strstr(p, " < ");
		if (p && i + 1 < n)
			p += 3;
	}
	snprintf(buf, sz, "%.*s", p ? (int)(p - g->key) : (int)strlen(g->key), g->key);
	return buf;
}
