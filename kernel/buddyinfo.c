// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/buddyinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

int ft_buddyinfo_parse(const char *buf, size_t len, struct ft_buddyinfo *out)
{
	struct ft_cursor c;
	struct ft_span line, tok;
	int err;

	out->nr = 0;
	out->nr_orders = 0;
	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		struct ft_buddy_zone *z;
		int n = 0;

		if (!ft_span_trim(line).len)
			continue;
		err = ft_grow((void **)&out->zones, &out->cap, out->nr + 1,
			      sizeof(*out->zones), FT_MAX_ZONES);
		if (err)
			return err;
		z = &out->zones[out->nr];
		memset(z, 0, sizeof(*z));
		err = ft_parse_node_zone(&line, &z->node, z->name, sizeof(z->name));
		if (err)
			return err;
		while (ft_tok_next(&line, &tok)) {
			if (n == FT_MAX_ORDERS)
				return -E2BIG;
			if (ft_span_u64(&tok, &z->blocks[n]))
				return -EINVAL;
			n++;
		}
		if (!n || (out->nr && n != out->nr_orders))
			return -EINVAL;
		out->nr_orders = n;
		out->nr++;
	}
	return out->nr ? 0 : -ENODATA;
}

void ft_buddyinfo_release(struct ft_buddyinfo *bi)
{
	free(bi->zones);
	bi->zones = NULL;
	bi->nr = bi->cap = 0;
}

const struct ft_buddy_zone *ft_buddyinfo_find(const struct ft_buddyinfo *bi,
					      int node, const char *zone)
{
	size_t i;

	for (i = 0; i < bi->nr; i++)
		if (bi->zones[i].node == node && !strcmp(bi->zones[i].name, zone))
			return &bi->zones[i];
	return NULL;
}
