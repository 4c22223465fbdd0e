// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/zoneinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

static int parse_zone_header(struct ft_span line, struct ft_zi_zone *z)
{
	struct ft_span tok;
	int err;

	err = ft_parse_node_zone(&line, &z->node, z->name, sizeof(z->name));
	if (err)
		return err;
	return ft_tok_next(&line, &tok) ? -EINVAL : 0;
}

static const struct {
	const char *key;
	unsigned int bit;
	size_t off;
} zi_keys[] = {
	{ "boost",   FT_ZI_BOOST,   offsetof(struct ft_zi_zone, boost) },
	{ "min",     FT_ZI_MIN,     offsetof(struct ft_zi_zone, min) },
	{ "low",     FT_ZI_LOW,     offsetof(struct ft_zi_zone, low) },
	{ "high",    FT_ZI_HIGH,    offsetof(struct ft_zi_zone, high) },
	{ "promo",   FT_ZI_PROMO,   offsetof(struct ft_zi_zone, promo) },
	{ "spanned", FT_ZI_SPANNED, offsetof(struct ft_zi_zone, spanned) },
	{ "present", FT_ZI_PRESENT, offsetof(struct ft_zi_zone, present) },
	{ "managed", FT_ZI_MANAGED, offsetof(struct ft_zi_zone, managed) },
	{ "cma",     FT_ZI_CMA,     offsetof(struct ft_zi_zone, cma) },
};

static int parse_protection(struct ft_span rest, struct ft_zi_zone *z)
{
	struct ft_span tok;

	/* "(0, 3018, 4938)" */
	z->nr_protection = 0;
	while (ft_tok_next(&rest, &tok)) {
		uint64_t v;

		if (tok.len && tok.p[0] == '(') {
			tok.p++;
			tok.len--;
		}
		tok = ft_span_chop(tok, ',');
		tok = ft_span_chop(tok, ')');
		if (!tok.len)
			continue;
		if (ft_span_u64(&tok, &v))
			return -EINVAL;
		if (z->nr_protection < FT_MAX_PROTECTION)
			z->protection[z->nr_protection++] = v;
	}
	return 0;
}

static int parse_zone_line(struct ft_span line, struct ft_zi_zone *z)
{
	struct ft_span key, val;
	size_t i;

	if (!ft_tok_next(&line, &key))
		return 0;
	/* Most lines are counters (nr_*, numa_*, workingset_*, pgpromote_*...). */
	if (key.p[0] == 'n' && ft_span_eq(&key, "nr_free_pages_blocks")) {
		if (!ft_tok_next(&line, &val) || ft_span_u64(&val, &z->free_blocks))
			return -EINVAL;
		z->has |= FT_ZI_FREE_BLOCKS;
		return 0;
	}
	switch (key.p[0]) {
	case 'p': case 'b': case 'm': case 'l': case 'h': case 's': case 'c':
		break;
	default:
		return 0;
	}
	if (ft_span_eq(&key, "pages")) {
		/* "pages free N" */
		if (!ft_tok_next(&line, &key) || !ft_span_eq(&key, "free"))
			return -EINVAL;
		if (!ft_tok_next(&line, &val) || ft_span_u64(&val, &z->free))
			return -EINVAL;
		z->has |= FT_ZI_FREE;
		return 0;
	}
	if (ft_span_eq(&key, "protection:"))
		return parse_protection(line, z);
	if (ft_span_eq(&key, "start_pfn:")) {
		if (!ft_tok_next(&line, &val) || ft_span_u64(&val, &z->start_pfn))
			return -EINVAL;
		z->has |= FT_ZI_START_PFN;
		return 0;
	}
	for (i = 0; i < sizeof(zi_keys) / sizeof(zi_keys[0]); i++) {
		uint64_t *field;

		if (!ft_span_eq(&key, zi_keys[i].key))
			continue;
		field = (uint64_t *)((char *)z + zi_keys[i].off);
		if (!ft_tok_next(&line, &val) || ft_span_u64(&val, field))
			return -EINVAL;
		z->has |= zi_keys[i].bit;
		return 0;
	}
	/* Zone and node counters, pagesets, node_unreclaimable: not ours. */
	return 0;
}

int ft_zoneinfo_parse(const char *buf, size_t len, struct ft_zoneinfo *out)
{
	struct ft_cursor c;
	struct ft_span line;
	struct ft_zi_zone *cur = NULL;
	int err;

	out->nr = 0;
	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		if (ft_span_starts(&line, "Node ")) {
			if (cur && (cur->has & FT_ZI_REQUIRED) != FT_ZI_REQUIRED)
				return -EINVAL;
			err = ft_grow((void **)&out->zones, &out->cap, out->nr + 1,
				      sizeof(*out->zones), FT_MAX_ZONES);
			if (err)
				return err;
			cur = &out->zones[out->nr];
			memset(cur, 0, sizeof(*cur));
			err = parse_zone_header(line, cur);
			if (err)
				return err;
			out->nr++;
			continue;
		}
		if (!cur) {
			if (ft_span_trim(line).len)
				return -EINVAL;
			continue;
		}
		err = parse_zone_line(line, cur);
		if (err)
			return err;
	}
	if (!cur)
		return -ENODATA;
	if ((cur->has & FT_ZI_REQUIRED) != FT_ZI_REQUIRED)
		return -EINVAL;
	return 0;
}

void ft_zoneinfo_release(struct ft_zoneinfo *zi)
{
	free(zi->zones);
	zi->zones = NULL;
	zi->nr = zi->cap = 0;
}
