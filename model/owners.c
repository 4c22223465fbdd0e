// SPDX-License-Identifier: GPL-2.0-or-later
/* The page_owner store (model/owners.h). */
#include "model/owners.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "model/recfmt.h"

/* Drop the oldest half of the looks and pack the texts of the rest. */
static void trim(struct ft_owners *o)
{
	size_t drop = (o->nr + 1) / 2, i, at = 0;

	memmove(o->looks, o->looks + drop, (o->nr - drop) * sizeof(*o->looks));
	o->nr -= drop;
	for (i = 0; i < o->nr; i++) {	/* offsets ascend: packing moves text down */
		struct ft_owner_look *l = &o->looks[i];

		memmove(o->text + at, o->text + l->text_off, l->text_len + 1);
		l->text_off = at;
		at += l->text_len + 1;
	}
	o->text_len = at;
}

int ft_owners_add(struct ft_owners *o, const struct ft_owner_look *look, const char *text,
		  size_t len)
{
	struct ft_owner_look l = *look;
	size_t i, need;

	/* the newest look of a block replaces the one before */
	for (i = 0; i < o->nr && o->looks[i].pfn != l.pfn; i++)
		;
	if (i < o->nr) {
		memmove(o->looks + i, o->looks + i + 1, (o->nr - i - 1) * sizeof(*o->looks));
		o->nr--;
	}
	if (o->nr == FT_OWNERS_LOOKS || o->text_len + len + 1 > FT_OWNERS_TEXT)
		trim(o);
	if (o->text_len + len + 1 > FT_OWNERS_TEXT)
		trim(o);	/* packs what the look before left */
	if (ft_grow((void **)&o->looks, &o->cap, o->nr + 1, sizeof(*o->looks), FT_OWNERS_LOOKS))
		return -ENOMEM;
	need = o->text_len + len + 1;
	if (ft_grow_from((void **)&o->text, &o->text_cap, need, 1, 65536, FT_OWNERS_TEXT))
		return -ENOMEM;
	memcpy(o->text + o->text_len, text, len);
	o->text[o->text_len + len] = '\0';
	l.text_off = o->text_len;
	l.text_len = (uint32_t)len;
	o->text_len = need;
	o->looks[o->nr++] = l;
	return 0;
}

int ft_owners_set_stacks(struct ft_owners *o, const char *text, size_t len)
{
	if (ft_grow_from((void **)&o->stacks, &o->stacks_cap, len + 1, 1, 65536,
			 FT_REC_OWNER_STACKS_TEXT + 1))
		return -ENOMEM;
	memcpy(o->stacks, text, len);
	o->stacks[len] = '\0';
	o->stacks_len = len + 1;	/* with its NUL, which a checkpoint then carries */
	return 0;
}

const struct ft_owner_look *ft_owners_find(const struct ft_owners *o, uint64_t pfn)
{
	size_t i;

	for (i = o->nr; i-- > 0;)
		if (o->looks[i].pfn == pfn)
			return &o->looks[i];
	return NULL;
}

void ft_owners_release(struct ft_owners *o)
{
	free(o->looks);
	free(o->text);
	free(o->stacks);
	memset(o, 0, sizeof(*o));
}
