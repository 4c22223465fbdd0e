/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pageblock map: every pageblock of every zone classified from the
 * flags the kernel exports per page (/proc/kpageflags, with
 * /proc/kpagecount for pages that carry no flag) and the RAM ranges of
 * /proc/iomem.  Pure: zone spans, ranges and flag words in, classes out.
 *
 * A page is free (BUDDY; or no flag and a zero count: a page on a per-CPU
 * free list), movable (LRU, ANON, MMAP, THP, HUGE, KSM, SWAPBACKED,
 * SWAPCACHE, UNEVICTABLE, MLOCKED, DIRTY, WRITEBACK, UPTODATE or
 * MAPPEDTODISK, and neither SLAB, PGTABLE nor RESERVED), unmovable (SLAB,
 * PGTABLE, RESERVED, or nothing user-like in RAM) or a hole (NOPAGE,
 * OFFLINE, outside System RAM, or outside the zone).  A pageblock is free
 * when all its RAM pages are free, movable or unmovable when it holds only
 * that kind besides free pages, mixed when it holds both, a hole without
 * RAM.  Nothing here assumes a huge page is a pageblock: a THP page of
 * any size (KPF_THP, 6.8+ mTHP from 16 KiB up) is movable like any other
 * user page, and each block counts its THP pages and folios apart.
 */
#ifndef FT_MODEL_PAGEBLOCK_H
#define FT_MODEL_PAGEBLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/mm.h"
#include "kernel/zoneinfo.h"

/* include/uapi/linux/kernel-page-flags.h, and the kernel-internal bits */
enum {
	FT_KPF_LOCKED = 0, FT_KPF_ERROR, FT_KPF_REFERENCED, FT_KPF_UPTODATE,
	FT_KPF_DIRTY, FT_KPF_LRU, FT_KPF_ACTIVE, FT_KPF_SLAB, FT_KPF_WRITEBACK,
	FT_KPF_RECLAIM, FT_KPF_BUDDY, FT_KPF_MMAP, FT_KPF_ANON, FT_KPF_SWAPCACHE,
	FT_KPF_SWAPBACKED, FT_KPF_COMPOUND_HEAD, FT_KPF_COMPOUND_TAIL, FT_KPF_HUGE,
	FT_KPF_UNEVICTABLE, FT_KPF_HWPOISON, FT_KPF_NOPAGE, FT_KPF_KSM, FT_KPF_THP,
	FT_KPF_OFFLINE, FT_KPF_ZERO_PAGE, FT_KPF_IDLE, FT_KPF_PGTABLE,
	FT_KPF_RESERVED = 32, FT_KPF_MLOCKED, FT_KPF_MAPPEDTODISK,
};

enum ft_pg { FT_PG_FREE, FT_PG_MOVABLE, FT_PG_UNMOVABLE, FT_PG_HOLE, FT_PG_NR };

enum ft_pb {
	FT_PB_UNSCANNED,	/* not read yet */
	FT_PB_FREE,
	FT_PB_MOVABLE,
	FT_PB_UNMOVABLE,
	FT_PB_MIXED,
	FT_PB_HOLE,
	FT_PB_NR
};

extern const char *const ft_pg_names[FT_PG_NR];	/* "free", ... */
extern const char *const ft_pb_names[FT_PB_NR];	/* "unscanned", "free", ... */
/* One letter per class, for the compact map encoding: "?fmuxh". */
extern const char ft_pb_letters[FT_PB_NR + 1];

/*
 * Class of one page in RAM.  @count is its /proc/kpagecount value, or
 * UINT64_MAX when unknown (then a page without flags counts as unmovable).
 */
enum ft_pg ft_page_class(uint64_t flags, uint64_t count);

struct ft_pb_block {
	uint32_t pages[FT_PG_NR];	/* composition at the last scan */
	/*
	 * Pages in transparent huge folios (KPF_THP), and those folios' heads.
	 * KPF_THP marks any large anonymous folio, a 64 KiB mTHP as well as a
	 * 2 MiB one: pages / folios is their mean size, not a PMD.
	 */
	uint32_t thp, thp_folios;
	uint8_t cls;			/* enum ft_pb, from the last whole read */
	/*
	 * enum ft_pb from a sample (ft_pbmap_sample()): a few pages read
	 * while the block has no whole read yet, so a first screen paints at
	 * once; UNSCANNED when none, and again once the block is read whole.
	 */
	uint8_t scls;
	uint32_t fallbacks;		/* extfrag events that named a page in it */
	uint32_t pid;			/* the task of the last one (0: none, or not known) */
	uint64_t mark_ns;		/* when the last one was seen; 0 never */
};

/* A zone's map but its blocks: plain values (a checkpoint saves them whole). */
struct ft_pbmap_zone_state {
	int node;
	char name[FT_ZONE_NAME_LEN];
	uint64_t start_pfn, end_pfn;	/* the zone's span [start, end) */
	uint64_t first_block;		/* start_pfn >> order */
	uint32_t nr_blocks;
	uint32_t count[FT_PB_NR];	/* blocks per class (whole reads; unread ones UNSCANNED) */
	uint32_t sampled;		/* of the UNSCANNED, blocks known from a sample */
	uint64_t epoch;			/* a new number each time the zone starts unscanned */
	uint64_t pollution;		/* unmovable pages in mixed blocks */
	uint64_t thp, thp_folios;	/* the blocks' THP pages and folios, summed */
	uint64_t scans;			/* complete passes over the zone */
};

struct ft_pbmap_zone {
	struct ft_pb_block *blocks;	/* owned: nr_blocks */
	union {
		struct ft_pbmap_zone_state;	/* its members by name (-fms-extensions) */
		/* the same, whole: what a checkpoint saves */
		struct ft_pbmap_zone_state state;
	};
};

/* System RAM as PFN ranges [start, end); known = false: assume all RAM. */
struct ft_ram {
	bool known;
	size_t nr;
	uint64_t start[256], end[256];
};

/*
 * Top-level "System RAM" lines of /proc/iomem.  A non-root reader sees
 * all addresses as zero: then @ram->known is false and 0 is returned.
 * -EINVAL on malformed text, -E2BIG past 256 ranges.
 */
int ft_iomem_parse(const char *buf, size_t len, long page_size, struct ft_ram *ram);
bool ft_ram_has(const struct ft_ram *ram, uint64_t pfn);

/* The map's plain values (a checkpoint saves them whole). */
struct ft_pbmap_state {
	int order;			/* pageblock order; -1 before layout */
	struct ft_ram ram;
	uint64_t epochs;		/* the last zone epoch given */
};

struct ft_pbmap {
	struct ft_pbmap_zone *zones;	/* populated zones, zoneinfo order */
	size_t nr, cap;
	union {
		struct ft_pbmap_state;	/* its members by name (-fms-extensions) */
		struct ft_pbmap_state state;	/* the same, whole: what a checkpoint saves */
	};
};

void ft_pbmap_init(struct ft_pbmap *m);
void ft_pbmap_release(struct ft_pbmap *m);

/*
 * The most pageblocks a map lays out, all zones together: 64 TiB of 2 MiB
 * blocks, x86-64's most physical memory under 4-level paging (1.5 GiB of
 * struct ft_pb_block).  A recording that says more is not a host: its
 * zoneinfo would have the map ask for anything (a 1 MB file, 40 GiB).
 */
#define FT_PBMAP_MAX_BLOCKS	(1u << 25)

/*
 * (Re)build the zones from zoneinfo (zones with start_pfn and spanned
 * pages).  A zone whose span and order did not change keeps its blocks;
 * others start unscanned.  0, -EINVAL (bad order), -ENOMEM, -E2BIG (the
 * zones past FT_PBMAP_MAX_BLOCKS, checked before anything is allocated:
 * *@blocks, may be NULL, says how many they span then).
 */
int ft_pbmap_layout(struct ft_pbmap *m, const struct ft_zoneinfo *zi, int order, uint64_t *blocks);

/*
 * Classify @nblocks whole pageblocks of zone @z from block index @block on.
 * @flags holds one word per PFN from the first PFN of that block
 * (nblocks << order words); @counts the matching kpagecount words, or NULL.
 * A feed that reaches the zone's last block completes a pass, unless
 * @rescan (a block read out of turn).
 */
void ft_pbmap_feed(struct ft_pbmap *m, size_t z, uint32_t block, uint32_t nblocks,
		   const uint64_t *flags, const uint64_t *counts, bool rescan);

/*
 * A sample: FT_PB_SAMPLE_SPOTS runs of @words / FT_PB_SAMPLE_SPOTS pages
 * spread over the block (ft_pb_sample_pfn() gives the first PFN of each),
 * @flags and @counts (or NULL) the runs' words one after the other.  It
 * classifies the pages read and sets the block's scls, unless the block
 * has a whole read.  @words must be a multiple of FT_PB_SAMPLE_SPOTS and
 * each run fit its quarter of the block; false when not (nothing changes).
 */
#define FT_PB_SAMPLE_SPOTS	2
#define FT_PB_SAMPLE_WORDS	32	/* pages a sample reads: 2 runs of 16 (~6 us here) */
uint64_t ft_pb_sample_pfn(int order, uint64_t block_pfn, size_t words, unsigned int spot);
bool ft_pbmap_sample(struct ft_pbmap *m, size_t z, uint32_t block, size_t words,
		     const uint64_t *flags,
		     const uint64_t *counts);

/* A fallback of task @pid named @pfn at @now_ns: mark its block.  false if no zone holds it. */
bool ft_pbmap_mark(struct ft_pbmap *m, uint64_t pfn, int pid, uint64_t now_ns);

/* Index of the zone holding @pfn, or -1. */
int ft_pbmap_zone_of(const struct ft_pbmap *m, uint64_t pfn);

/*
 * The block holding @pfn: in the zone whose span holds it, else in the
 * zone whose blocks hold it (a block-aligned PFN before its zone's first
 * page, e.g. PFN 0 of a DMA zone that starts at 1).  NULL before layout
 * or when no zone has it.
 */
struct ft_pb_block *ft_pbmap_block(const struct ft_pbmap *m, uint64_t pfn);

/* Index of the zone @name of node @node, or -1. */
int ft_pbmap_zone_named(const struct ft_pbmap *m, int node, const char *name);

/*
 * The compact map of a zone: runs of "<count><letter>" with the letters of
 * ft_pb_letters ("3f12m1x" = 3 free, 12 movable, 1 mixed).  Returns the
 * length it needs (like snprintf), writing at most @sz - 1 characters.
 */
size_t ft_pbmap_encode(const struct ft_pbmap_zone *z, char *buf, size_t sz);

#endif
