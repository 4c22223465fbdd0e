// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/frag.h"

#include <stdio.h>


void ft_frag_info(const uint64_t *blocks, int nr_orders, int order, struct ft_frag_info *info)
{
	int i;

	info->free_pages = 0;
	info->free_blocks_total = 0;
	info->free_blocks_suitable = 0;
	for (i = 0; i < nr_orders; i++) {
		info->free_blocks_total += blocks[i];
		info->free_pages += blocks[i] << i;
		if (i >= order)
			info->free_blocks_suitable += blocks[i] << (i - order);
	}
}

int ft_unusable_index(int order, const struct ft_frag_info *info)
{
	if (info->free_pages == 0)
		return 1000;
	uint64_t q = (info->free_pages - (info->free_blocks_suitable << order)) * 1000ull /
		     info->free_pages;

	/* Real counts give 0..1000; wrapped garbage must not overflow an int. */
	return q > 1000000 ? 1000000 : (int)q;
}

int ft_fragmentation_index(int order, const struct ft_frag_info *info)
{
	uint64_t requested = 1ull << order, q;

	if (!info->free_blocks_total)
		return 0;
	if (info->free_blocks_suitable)
		return -1000;
	q = (1000 + info->free_pages * 1000ull / requested) / info->free_blocks_total;
	return 1000 - (q > 1000000 ? 1000000 : (int)q);
}

void ft_frag_indices(const uint64_t *blocks, int nr_orders, int *unusable, int *fragidx)
{
	struct ft_frag_info info;
	int order;

	for (order = 0; order < nr_orders; order++) {
		ft_frag_info(blocks, nr_orders, order, &info);
		if (unusable)
			unusable[order] = ft_unusable_index(order, &info);
		if (fragidx)
			fragidx[order] = ft_fragmentation_index(order, &info);
	}
}

int ft_thousandths_format(int v, char *buf, size_t sz)
{
	/* C division truncates like the kernel's: -1000 -> "-1.000". */
	int whole = v / 1000, frac = v % 1000;

	if (frac < 0)
		frac = -frac;
	if (v < 0 && whole == 0)
		return snprintf(buf, sz, "-0.%03d", frac);
	return snprintf(buf, sz, "%d.%03d", whole, frac);
}
