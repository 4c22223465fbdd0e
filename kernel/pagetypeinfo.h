/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/pagetypeinfo: free blocks per (migratetype, order), pageblocks per
 * migratetype and, with page_owner, mixed pageblocks per migratetype.
 *
 * The header ("Page block order", "Pages per block", the order columns) is
 * printed once per node; the migratetype set is whatever the kernel prints
 * (Unmovable, Movable, Reclaimable, HighAtomic, CMA, Isolate, or Reserve on
 * old kernels) and is kept by name in order of first appearance.
 */
#ifndef FT_KERNEL_PAGETYPEINFO_H
#define FT_KERNEL_PAGETYPEINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/mm.h"

/* The kernel stops counting a free list at this many entries. */
#define FT_PTI_CAP	100000

struct ft_pti_zone {
	int node;
	char name[FT_ZONE_NAME_LEN];
	uint64_t free[FT_MAX_MTYPES][FT_MAX_ORDERS];
	/* bit i of capped[t]: printed as ">100000" (count is a lower bound) */
	uint32_t capped[FT_MAX_MTYPES];
	uint32_t free_seen;		/* bit t: a free row for type t */
	bool has_blocks;
	uint64_t blocks[FT_MAX_MTYPES];
	bool has_mixed;
	uint64_t mixed[FT_MAX_MTYPES];
};

struct ft_pagetypeinfo_state {
	int pageblock_order;
	uint64_t pages_per_block;
	int nr_orders;
	int nr_types;
	char types[FT_MAX_MTYPES][FT_MTYPE_NAME_LEN];
};

struct ft_pagetypeinfo {
	struct ft_pti_zone *zones;	/* owned; reused across parses */
	size_t nr, cap;
	union {
		struct ft_pagetypeinfo_state;	/* its members by name (-fms-extensions) */
		/* the same, whole: what a checkpoint saves */
		struct ft_pagetypeinfo_state state;
	};
};

/* 0, -EINVAL (malformed or truncated), -ENODATA, -E2BIG, -ENOMEM. */
int ft_pagetypeinfo_parse(const char *buf, size_t len, struct ft_pagetypeinfo *out);
void ft_pagetypeinfo_release(struct ft_pagetypeinfo *pti);

const struct ft_pti_zone *ft_pagetypeinfo_find(const struct ft_pagetypeinfo *pti,
					       int node, const char *zone);
/* Index of migratetype @name, or -1. */
int ft_pagetypeinfo_type(const struct ft_pagetypeinfo *pti, const char *name);

#endif
