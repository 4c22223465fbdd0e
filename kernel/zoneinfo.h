/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/zoneinfo: per-zone free pages, watermarks, boost and sizes. */
#ifndef FT_KERNEL_ZONEINFO_H
#define FT_KERNEL_ZONEINFO_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/mm.h"

enum {
	FT_ZI_FREE	= 1u << 0,
	FT_ZI_BOOST	= 1u << 1,	/* 5.0+ */
	FT_ZI_MIN	= 1u << 2,
	FT_ZI_LOW	= 1u << 3,
	FT_ZI_HIGH	= 1u << 4,
	FT_ZI_PROMO	= 1u << 5,	/* 6.x with memory tiering */
	FT_ZI_SPANNED	= 1u << 6,
	FT_ZI_PRESENT	= 1u << 7,
	FT_ZI_MANAGED	= 1u << 8,
	FT_ZI_CMA	= 1u << 9,
	FT_ZI_START_PFN	= 1u << 10,	/* absent for empty zones */
	FT_ZI_FREE_BLOCKS = 1u << 11,	/* nr_free_pages_blocks, 6.15+ */
	FT_ZI_REQUIRED	= FT_ZI_FREE | FT_ZI_MIN | FT_ZI_LOW | FT_ZI_HIGH |
			  FT_ZI_SPANNED | FT_ZI_PRESENT | FT_ZI_MANAGED,
};

/*
 * One "Node N, zone NAME" block.  min/low/high/promo are printed by the
 * kernel with the boost already added (wmark_pages()); the base watermark
 * is the printed value minus boost.
 */
struct ft_zi_zone {
	int node;
	char name[FT_ZONE_NAME_LEN];
	unsigned int has;		/* FT_ZI_* */
	uint64_t free, boost, min, low, high, promo;
	uint64_t spanned, present, managed, cma, start_pfn;
	/* free pages in whole free pageblocks (nr_free_pages_blocks, 6.15+) */
	uint64_t free_blocks;
	int nr_protection;
	uint64_t protection[FT_MAX_PROTECTION];
};

struct ft_zoneinfo {
	struct ft_zi_zone *zones;	/* owned; reused across parses */
	size_t nr, cap;
};

/*
 * Parse @len bytes of zoneinfo text into @out (previous content dropped,
 * storage reused).  0, -EINVAL on malformed or truncated text, -ENODATA
 * if no zone was found, -E2BIG/-ENOMEM past the bounds.
 */
int ft_zoneinfo_parse(const char *buf, size_t len, struct ft_zoneinfo *out);
void ft_zoneinfo_release(struct ft_zoneinfo *zi);

/* The kernel's populated_zone(): present pages. */
static inline int ft_zi_populated(const struct ft_zi_zone *z)
{
	return z->present != 0;
}

#endif
