/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Beyond the pageblock, from the pageblock map's compositions: gigantic
 * regions and pollution amplification.  Pure: the map (and the zone's free
 * page count) in, counts out.
 *
 * A gigantic region is an aligned run of 2^order PFNs wholly inside one
 * zone, order the largest huge page size the host offers
 * (/sys/kernel/mm/hugepages/hugepages-<kB>kB) when it is above the
 * pageblock: 1 GiB on x86-64.  That is what alloc_contig_pages() tries
 * for a gigantic hugetlb page: aligned ranges inside one zone, each page
 * online, of that zone, not reserved, then migrated away.  A region is
 *  - free: every page free;
 *  - movable: free or movable pages only, so compaction or
 *    alloc_contig_range() can empty it;
 *  - tainted: it holds an unmovable or reclaimable page (slab, page
 *    tables, reserved, kernel pages), or a hole: never a gigantic page;
 *  - unknown: a block of it not read whole yet (and none tainted);
 *  - uninitialised: free-looking pages the kernel has not initialised yet
 *    (deferred struct page init): an uninitialised struct page reads like
 *    a free one (no flag, count 0), but it does not belong to the zone,
 *    so the kernel cannot give it.  The map's free pages past the zone's
 *    own free count are such pages; the kernel initialises a zone from its
 *    start, so the last regions hold them (ft_contig_zone()).
 * Available now: the free regions; after compaction: free and movable.
 *
 * Pollution amplification (Weiner, 2023): the share of pageblocks that
 * hold any unmovable or reclaimable page over the share of pages that
 * are such.  1 when the pollution is packed into whole blocks; large when
 * it is spread a few pages to a block.
 */
#ifndef FT_MODEL_CONTIG_H
#define FT_MODEL_CONTIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/pageblock.h"

enum ft_gr { FT_GR_UNKNOWN, FT_GR_FREE, FT_GR_MOVABLE, FT_GR_TAINTED, FT_GR_UNINIT, FT_GR_NR };

extern const char *const ft_gr_names[FT_GR_NR];	/* "unknown", "free", ... */

/*
 * The gigantic order: log2 of the largest of @n huge page sizes (KiB)
 * over @page_size, when it is above @pageblock_order; -1 when none is,
 * or a size is not a power of two pages.
 */
int ft_contig_order(long page_size, const uint64_t *sizes_kb, size_t n, int pageblock_order);

/* One region of a zone, and the blocks that taint it. */
struct ft_contig_region {
	uint64_t pfn;			/* first PFN */
	enum ft_gr cls;
	uint32_t unmovable_blocks;	/* blocks holding an unmovable page */
	uint32_t hole_blocks;		/* blocks holding a hole */
	uint32_t unread_blocks;		/* blocks not read whole */
	uint64_t unmovable_pages;
	/* the first tainting blocks' PFNs (an unmovable page first, then holes) */
#define FT_CONTIG_NAMED 8
	uint64_t taint_pfn[FT_CONTIG_NAMED];
	uint32_t named;
};

struct ft_contig_zone {
	int order;			/* the gigantic order; -1: none (all else 0) */
	uint32_t regions;		/* wholly inside the zone */
	uint32_t count[FT_GR_NR];
	uint64_t uninit_pages;		/* the map's free pages past the zone's free count */
	uint32_t now, after;		/* gigantic pages available now, after compaction */
};

/*
 * Classify the gigantic regions of map zone @z at order @gorder.
 * @kernel_free is the zone's own free page count (zoneinfo), or
 * UINT64_MAX when unknown (then no region is taken as uninitialised).
 * Writes up to @cap regions, in PFN order, to @out (may be NULL); returns
 * the number of regions (as in @c->regions).
 */
uint32_t ft_contig_zone(const struct ft_pbmap *m, const struct ft_pbmap_zone *z, int gorder,
			uint64_t kernel_free, struct ft_contig_zone *c,
			struct ft_contig_region *out,
			size_t cap);

/* The gigantic region of @pfn in zone @z: its index, or -1 if none holds it. */
long ft_contig_region_of(const struct ft_pbmap_zone *z, int gorder, uint64_t pfn);

/* Pollution amplification of whole-read blocks. */
struct ft_amp {
	uint64_t blocks;		/* blocks read whole that hold RAM */
	uint64_t polluted;		/* of them, holding an unmovable page */
	uint64_t pages;			/* their RAM pages */
	uint64_t unmovable;		/* of them, unmovable */
	/* blocks not read whole yet: while any, the ratio is partial */
	uint64_t unread;
};

/* The ratio is of some of the blocks only: others are not read whole yet (a first pass). */
static inline bool ft_amp_partial(const struct ft_amp *a)
{
	return a->unread > 0;
}

/* Add zone @z's blocks to @a (zero it first; add several zones for a node). */
void ft_amp_add(struct ft_amp *a, const struct ft_pbmap_zone *z);

/* (polluted / blocks) / (unmovable / pages); NAN when either share is 0. */
double ft_amp_ratio(const struct ft_amp *a);

/*
 * Every zone of map @m into @a (zeroed first): the host's amplification
 * as of the map's last scan; false without a map (none, or @err its
 * reason: the session's map_err).
 */
bool ft_amp_of_map(const struct ft_pbmap *m, int err, struct ft_amp *a);

#endif
