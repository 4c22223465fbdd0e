/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Will it fit: how many aligned blocks of 2^order pages a zone can give,
 * now and after compaction, for any order from 0 up.  Pure: a zone's free
 * lists, watermarks and (when read) pageblock map in, counts out.
 *
 * Now.  Up to the buddy allocator's largest order, the blocks of the free
 * lists (a larger block counts as its multiple) that the allocation may
 * take, and no more than the watermark lets through: the kernel's slow
 * path asks __zone_watermark_ok() at the min watermark (boost included),
 * with the zone's lowmem_reserve for a movable allocation, before any
 * compaction (docs/design/fit.md has the source lines).  Each
 * block taken lowers the free pages, so the count is
 * (free - unusable - min - reserve) >> order.  Above the largest order
 * (alloc_contig_pages(), no watermark), the aligned runs wholly inside
 * the zone whose every page is free, from the map.
 *
 * After compaction.  The aligned blocks that hold only free and movable
 * pages (the map), and no more than the free memory above the watermark
 * can hold: compaction moves pages and makes no free memory, so k blocks
 * of S pages need k * S free pages in all.  Compaction migrates within
 * the zone, so up to the buddy's largest order it is the zone's free
 * memory; alloc_contig_range() migrates to any node's (its migration
 * target has no __GFP_THISNODE: 6.1 never sets it, 6.12 strips it), so
 * above it is the host's, and the sums over a node or the host are held
 * to it again (analysis/fits.c).  Never less than now.
 *
 * Where the map has only sampled a block, or not read it, the figures are
 * an interval [lo, hi]: such a block may be anything.  Without the map,
 * "now" of the buddy's orders is exact and nothing else is known.
 *
 * Memory the kernel has not initialised yet (deferred struct page init):
 * it reads as free in the map but not in the zone's free count.  The
 * buddy allocator initialises it on demand (_deferred_grow_zone() when a
 * watermark check fails), so up to the largest order it counts in the
 * upper figures (how much the kernel will initialise is not known: on
 * this project's VM it gave 152 blocks of 2 MiB fewer than all of it);
 * alloc_contig_pages() refuses it (page_zone() of its struct page is not
 * the zone), so above that it counts for nothing.
 */
#ifndef FT_MODEL_FIT_H
#define FT_MODEL_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/mm.h"
#include "model/pageblock.h"

/* Largest order a size may have (2^40 pages: 4 PiB of 4 KiB pages). */
#define FT_FIT_MAX_ORDER	40
/* Tainting blocks named per figure. */
#define FT_FIT_NAMED		8
/*
 * Map-free pages past the zone's free count that are taken for drift (the
 * per-CPU lists' pages, frees while the scan ran), not for uninitialised
 * memory: what struct ft_fit_zin's drift is set to.
 */
#define FT_FIT_DRIFT_PAGES	8192

/* One zone as the figures need it. */
struct ft_fit_zin {
	int node;
	const char *zone;
	/* the free lists: blocks an allocation may take per order (HighAtomic
	 * and Isolate lists left out), or NULL when unknown */
	const uint64_t *blocks;
	int nr_orders;			/* the buddy's orders (largest + 1); 0 unknown */
	uint64_t free_pages;		/* the zone's free count (zoneinfo) */
	uint64_t wmark;			/* min (boost included) + lowmem_reserve[movable] */
	uint64_t unusable;		/* free pages the allocation may not use (highatomic) */
	/* map-free pages past free_pages that are drift, not uninitialised memory */
	uint64_t drift;
	/*
	 * Above the buddy's largest order: the free pages alloc_contig_range()
	 * may migrate a block's movable pages to, every node's (the host's
	 * usable free memory: ft_fit_usable() of each zone, and with the
	 * upper ends of ft_fit_uninit() for the upper figure).
	 */
	uint64_t contig_free_lo, contig_free_hi;
	/*
	 * with the map: its pages read free that the zone does not count, ft_fit_uninit()'s, at
	 * least and at most
	 */
	uint64_t uninit_lo, uninit_hi;
	/* the map (NULL: not read) and this zone's part of it */
	const struct ft_pbmap *m;
	const struct ft_pbmap_zone *mz;
};

/* The figures of one size in one zone, or summed over a node's or the host's zones. */
struct ft_fit {
	int node;			/* -1: the host */
	char zone[FT_ZONE_NAME_LEN];	/* "": a node's or the host's sum */
	int order;
	uint32_t zones;			/* zones summed (ft_fit_add) */
	bool buddy;			/* order within the buddy allocator's (every zone's) */
	/* the map's figures are in (some blocks read; every zone's) */
	bool map;
	uint64_t free_pages, wmark, unusable;
	uint64_t uninit_lo, uninit_hi;	/* pages not initialised yet (map) */
	uint64_t free_lists;		/* blocks of the order on the free lists (buddy orders) */
	uint64_t wmark_cap;		/* blocks the watermark lets through (buddy orders) */
	/* blocks the free memory above it can hold after compaction */
	uint64_t free_cap;
	/* the map's aligned blocks wholly inside the zone */
	uint64_t units;
	uint64_t free_lo, free_hi;	/* every page free */
	uint64_t empt_lo, empt_hi;	/* only free and movable pages: compaction can empty them */
	uint64_t tainted;		/* known to hold an unmovable page or a hole */
	uint64_t unread;		/* holding a block not read whole (sampled or not at all) */
	/* the figures */
	uint64_t now_lo, now_hi, after_lo, after_hi;
	/* what stands in the way: the tainting blocks of the units closest to free
	 * (fewest tainting blocks first), and how many units one block alone holds */
	uint64_t taint_pfn[FT_FIT_NAMED];
	uint32_t named;
	uint64_t one_block;		/* tainted units held by a single block */
};

/* Free pages of @in an allocation may take: above the watermark and what it may not use. */
uint64_t ft_fit_usable(const struct ft_fit_zin *in);

/*
 * Pages of @in the map reads free that the zone does not count (uninitialised): at least, at most.
 */
void ft_fit_uninit(const struct ft_fit_zin *in, uint64_t *lo, uint64_t *hi);

/* Figures of one zone at @order (0..FT_FIT_MAX_ORDER). */
void ft_fit_zone(const struct ft_fit_zin *in, int order, struct ft_fit *out);

/* Add @z's figures to @sum (a node's or the host's: zero it, set its node and order first). */
void ft_fit_add(struct ft_fit *sum, const struct ft_fit *z);

/* Whether the figure is exact (no interval). */
static inline bool ft_fit_exact(const struct ft_fit *f)
{
	return f->now_lo == f->now_hi && f->after_lo == f->after_hi;
}

/*
 * Sizes.  A size is written as a count of bytes with an optional K, M, G,
 * T or P suffix (binary: 2M = 2 MiB, "kB" and "MiB" spellings too).  It
 * must be a power of two and at least @page_size.  Returns the order
 * (log2 pages), or -EINVAL (malformed), -EDOM (not a power of two, or
 * below a page), -ERANGE (above FT_FIT_MAX_ORDER).
 */
int ft_fit_size_parse(const char *s, long page_size);

/* "4K", "2M", "1G" ... for @order pages of @page_size. */
const char *ft_fit_size_name(int order, long page_size, char *buf, size_t sz);

/*
 * The CPU a hugetlb size depends on, from /proc/cpuinfo's first
 * processor: the architecture (a "flags" line: x86; "CPU architecture: 8":
 * arm64) and, on x86, whether it has 1 GiB pages (the pdpe1gb flag).
 */
enum ft_fit_arch { FT_ARCH_UNKNOWN, FT_ARCH_X86, FT_ARCH_ARM64 };
struct ft_fit_cpu {
	enum ft_fit_arch arch;
	int pdpe1gb;			/* x86: 1 has it, 0 not; -1 unknown */
};
void ft_fit_cpuinfo(const char *text, size_t len, struct ft_fit_cpu *out);

/*
 * Is @order pages of @page_size a hugetlb page size on @arch (x86: 2M and
 * 1G; arm64 by its page size, Documentation/arch/arm64/hugetlbpage.rst:
 * 4K pages 64K, 2M, 32M, 1G; 16K pages 2M, 32M, 1G; 64K pages 2M, 512M,
 * 16G)?  An unknown arch has none known.
 */
bool ft_fit_hugetlb_arch(enum ft_fit_arch arch, long page_size, int order);

/*
 * Needs: "COUNTxSIZE[,COUNTxSIZE...]" (e.g. "4x1G,512x2M"); COUNT >= 1.
 * 0, or -EINVAL with @err (at least 128 bytes) saying what is wrong.
 */
#define FT_FIT_NEEDS_MAX	16
struct ft_fit_need {
	uint64_t count;
	int order;
};
int ft_fit_needs_parse(const char *s, long page_size, struct ft_fit_need *out, size_t *nr,
		       char *err,
		       size_t errsz);

/*
 * Sizes of interest with an optional need each: "2M,1G,512x2M" (the
 * overview's line, fragtoprc's sizes=); count 0 for a bare size.  As
 * ft_fit_needs_parse() otherwise.
 */
int ft_fit_interest_parse(const char *s, long page_size, struct ft_fit_need *out, size_t *nr,
			  char *err,
			  size_t errsz);

/*
 * A list of sizes, "4M,32M": at most @max orders into @orders, as ft_fit_needs_parse() otherwise.
 */
int ft_fit_sizes_parse(const char *s, long page_size, int *orders, size_t max, size_t *nr,
		       char *err,
		       size_t errsz);

/* A verdict, and preflight's exit code. */
enum ft_fit_verdict {
	FT_FIT_NOW = 0,			/* fits now */
	FT_FIT_AFTER = 1,		/* fits after compaction only */
	FT_FIT_NO = 2,			/* does not fit */
	FT_FIT_UNKNOWN = 3,		/* cannot tell */
};
/* "now", "after_compaction", "no", "unknown" */
extern const char *const ft_fit_verdict_names[4];

/* The verdict for @count blocks against figure @f. */
enum ft_fit_verdict ft_fit_judge(const struct ft_fit *f, uint64_t count);

/*
 * Several needs at once, largest size first: each need takes its blocks
 * zone by zone (now first, then after compaction) and the blocks it takes
 * are gone for the needs after it (a taken 1 GiB block holds 512 blocks of
 * 2 MiB, and its pages leave the free memory).  @z: every zone's figures
 * at every need's order, @nz zones by @nn needs (z[zone * nn + need], in
 * the needs' order as given); the zones a need may use are those with
 * use[zone] true.  @free_lo, @free_hi: the host's free memory
 * alloc_contig_range() may migrate to (struct ft_fit_zin's contig_free),
 * which holds a need above the buddy's orders after the taking before it.
 * @left gets, per need, what is left for it when its turn comes, summed
 * over those zones (the figure its verdict is judged on).  Returns the
 * worst verdict: NO before UNKNOWN before AFTER before NOW.
 */
enum ft_fit_verdict ft_fit_needs_judge(const struct ft_fit *z, size_t nz, const bool *use,
				       const struct ft_fit_need *needs, size_t nn, uint64_t free_lo,
				       uint64_t free_hi, struct ft_fit *left,
				       enum ft_fit_verdict *each);

#endif
