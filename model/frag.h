/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's fragmentation indices (mm/vmstat.c, debugfs extfrag/),
 * in the kernel's integer thousandths so that results match it exactly.
 */
#ifndef FT_MODEL_FRAG_H
#define FT_MODEL_FRAG_H

#include <stddef.h>
#include <stdint.h>

/* fill_contig_page_info() */
struct ft_frag_info {
	uint64_t free_pages;
	uint64_t free_blocks_total;
	uint64_t free_blocks_suitable;
};

void ft_frag_info(const uint64_t *blocks, int nr_orders, int order, struct ft_frag_info *info);

/*
 * unusable_free_index(): share of free memory unusable for an allocation
 * of 2^order pages, 0..1000; 1000 when there is no free memory at all.
 */
int ft_unusable_index(int order, const struct ft_frag_info *info);

/*
 * __fragmentation_index(): -1000 when a suitable block exists, else
 * towards 1000 as failure is due to fragmentation rather than lack of
 * memory; 0 with no free blocks.
 */
int ft_fragmentation_index(int order, const struct ft_frag_info *info);

/* Both, for every order; out arrays hold @nr_orders entries. */
void ft_frag_indices(const uint64_t *blocks, int nr_orders, int *unusable, int *fragidx);

/* The kernel's "%d.%03d" rendering of a thousandths value (e.g. "-1.000"). */
int ft_thousandths_format(int v, char *buf, size_t sz);

#endif
