// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/pagetypeinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

enum section { SEC_NONE, SEC_FREE, SEC_BLOCKS, SEC_MIXED };

struct parser {
	struct ft_pagetypeinfo *out;
	enum section sec;
	int nr_cols;
	int col_type[FT_MAX_MTYPES];	/* table column -> type index */
	uint32_t free_types;		/* types seen in free rows */
};

static int type_index(struct ft_pagetypeinfo *pti, const struct ft_span *name)
{
	int i;

	for (i = 0; i < pti->nr_types; i++)
		if (ft_span_eq(name, pti->types[i]))
			return i;
	if (pti->nr_types == FT_MAX_MTYPES)
		return -E2BIG;
	if (ft_span_copy(name, pti->types[i], sizeof(pti->types[i])))
		return -EINVAL;
	pti->nr_types++;
	return i;
}

static int zone_get(struct ft_pagetypeinfo *pti, int node, const char *name,
		    struct ft_pti_zone **zp)
{
	struct ft_pti_zone *z;
	size_t i;
	int err;

	for (i = pti->nr; i-- > 0;) {
		if (pti->zones[i].node == node && !strcmp(pti->zones[i].name, name)) {
			*zp = &pti->zones[i];
			return 0;
		}
	}
	err = ft_grow((void **)&pti->zones, &pti->cap, pti->nr + 1,
		      sizeof(*pti->zones), FT_MAX_ZONES);
	if (err)
		return err;
	z = &pti->zones[pti->nr++];
	memset(z, 0, sizeof(*z));
	z->node = node;
	strcpy(z->name, name);
	*zp = z;
	return 0;
}

/* "Page block order: 9" and "Pages per block:  512" */
static int parse_header_value(struct ft_span line, int skip, uint64_t *v)
{
	struct ft_span tok;

	while (skip--)
		if (!ft_tok_next(&line, &tok))
			return -EINVAL;
	if (!ft_tok_next(&line, &tok) || ft_span_u64(&tok, v))
		return -EINVAL;
	return ft_tok_next(&line, &tok) ? -EINVAL : 0;
}

static int parse_order_header(struct parser *ps, struct ft_span line)
{
	struct ft_span tok;
	int n = 0;

	/* "Free pages count per migrate type at order   0   1 ..." */
	while (ft_tok_next(&line, &tok) && !ft_span_eq(&tok, "order"))
		;
	while (ft_tok_next(&line, &tok)) {
		uint64_t v;

		if (ft_span_u64(&tok, &v) || v != (uint64_t)n)
			return -EINVAL;
		if (++n > FT_MAX_ORDERS)
			return -E2BIG;
	}
	if (!n || (ps->out->nr_orders && ps->out->nr_orders != n))
		return -EINVAL;
	ps->out->nr_orders = n;
	ps->sec = SEC_FREE;
	return 0;
}

static int parse_columns(struct parser *ps, struct ft_span line, int words,
			 enum section sec)
{
	struct ft_span tok;
	int n = 0;

	while (words--)
		if (!ft_tok_next(&line, &tok))
			return -EINVAL;
	while (ft_tok_next(&line, &tok)) {
		int t;

		if (n == FT_MAX_MTYPES)
			return -E2BIG;
		t = type_index(ps->out, &tok);
		if (t < 0)
			return t;
		ps->col_type[n++] = t;
	}
	if (!n)
		return -EINVAL;
	ps->nr_cols = n;
	ps->sec = sec;
	return 0;
}

static int parse_count(const struct ft_span *tok, uint64_t *v, bool *capped)
{
	struct ft_span s = *tok;

	*capped = false;
	if (s.len && s.p[0] == '>') {
		*capped = true;
		s.p++;
		s.len--;
	}
	return ft_span_u64(&s, v) ? -EINVAL : 0;
}

static int parse_free_row(struct parser *ps, struct ft_span line)
{
	struct ft_pagetypeinfo *pti = ps->out;
	char name[FT_ZONE_NAME_LEN];
	struct ft_pti_zone *z;
	struct ft_span tok;
	int node, t, n = 0, err;

	err = ft_parse_node_zone(&line, &node, name, sizeof(name));
	if (err)
		return err;
	if (!ft_tok_next(&line, &tok) || !ft_span_eq(&tok, "type"))
		return -EINVAL;
	if (!ft_tok_next(&line, &tok))
		return -EINVAL;
	t = type_index(pti, &tok);
	if (t < 0)
		return t;
	err = zone_get(pti, node, name, &z);
	if (err)
		return err;
	while (ft_tok_next(&line, &tok)) {
		bool capped;

		if (n == pti->nr_orders)
			return -EINVAL;
		if (parse_count(&tok, &z->free[t][n], &capped))
			return -EINVAL;
		if (capped)
			z->capped[t] |= 1u << n;
		n++;
	}
	if (n != pti->nr_orders)
		return -EINVAL;
	z->free_seen |= 1u << t;
	ps->free_types |= 1u << t;
	return 0;
}

static int parse_block_row(struct parser *ps, struct ft_span line)
{
	char name[FT_ZONE_NAME_LEN];
	struct ft_pti_zone *z;
	struct ft_span tok;
	uint64_t *dst;
	int node, n = 0, err;

	err = ft_parse_node_zone(&line, &node, name, sizeof(name));
	if (err)
		return err;
	err = zone_get(ps->out, node, name, &z);
	if (err)
		return err;
	dst = ps->sec == SEC_BLOCKS ? z->blocks : z->mixed;
	while (ft_tok_next(&line, &tok)) {
		if (n == ps->nr_cols || ft_span_u64(&tok, &dst[ps->col_type[n]]))
			return -EINVAL;
		n++;
	}
	if (n != ps->nr_cols)
		return -EINVAL;
	if (ps->sec == SEC_BLOCKS)
		z->has_blocks = true;
	else
		z->has_mixed = true;
	return 0;
}

static int parse_line(struct parser *ps, struct ft_span line)
{
	struct ft_pagetypeinfo *pti = ps->out;
	uint64_t v;
	int err;

	if (ft_span_starts(&line, "Page block order:")) {
		err = parse_header_value(line, 3, &v);
		if (err || v >= FT_MAX_ORDERS ||
		    (pti->pageblock_order >= 0 && (uint64_t)pti->pageblock_order != v))
			return -EINVAL;
		pti->pageblock_order = (int)v;
		ps->sec = SEC_NONE;
		return 0;
	}
	if (ft_span_starts(&line, "Pages per block:")) {
		err = parse_header_value(line, 3, &v);
		if (err || (pti->pages_per_block && pti->pages_per_block != v))
			return -EINVAL;
		pti->pages_per_block = v;
		ps->sec = SEC_NONE;
		return 0;
	}
	if (ft_span_starts(&line, "Free pages count per migrate type"))
		return parse_order_header(ps, line);
	if (ft_span_starts(&line, "Number of blocks type"))
		return parse_columns(ps, line, 4, SEC_BLOCKS);
	if (ft_span_starts(&line, "Number of mixed blocks"))
		return parse_columns(ps, line, 4, SEC_MIXED);
	if (ft_span_starts(&line, "Node ")) {
		switch (ps->sec) {
		case SEC_FREE:
			return parse_free_row(ps, line);
		case SEC_BLOCKS:
		case SEC_MIXED:
			return parse_block_row(ps, line);
		default:
			return -EINVAL;
		}
	}
	return -EINVAL;
}

int ft_pagetypeinfo_parse(const char *buf, size_t len, struct ft_pagetypeinfo *out)
{
	struct parser ps = { .out = out, .sec = SEC_NONE };
	struct ft_cursor c;
	struct ft_span line;
	size_t i;
	int err;

	out->nr = 0;
	out->nr_types = 0;
	out->nr_orders = 0;
	out->pageblock_order = -1;
	out->pages_per_block = 0;
	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		if (!ft_span_trim(line).len)
			continue;
		err = parse_line(&ps, line);
		if (err)
			return err;
	}
	if (!out->nr)
		return -ENODATA;
	if (out->pageblock_order < 0 || !out->pages_per_block ||
	    out->pages_per_block != 1ull << out->pageblock_order)
		return -EINVAL;
	/* A cut-off file leaves zones without all their rows. */
	for (i = 0; i < out->nr; i++) {
		const struct ft_pti_zone *z = &out->zones[i];

		if (z->free_seen != ps.free_types || !z->has_blocks)
			return -EINVAL;
	}
	return 0;
}

void ft_pagetypeinfo_release(struct ft_pagetypeinfo *pti)
{
	free(pti->zones);
	pti->zones = NULL;
	pti->nr = pti->cap = 0;
}

const struct ft_pti_zone *ft_pagetypeinfo_find(const struct ft_pagetypeinfo *pti,
					       int node, const char *zone)
{
	size_t i;

	for (i = 0; i < pti->nr; i++)
		if (pti->zones[i].node == node && !strcmp(pti->zones[i].name, zone))
			return &pti->zones[i];
	return NULL;
}

int ft_pagetypeinfo_type(const struct ft_pagetypeinfo *pti, const char *name)
{
	int i;

	for (i = 0; i < pti->nr_types; i++)
		if (!strcmp(pti->types[i], name))
			return i;
	return -1;
}
