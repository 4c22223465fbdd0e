// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pageblock map: page classes, /proc/iomem, and a synthetic root tree
 * (zoneinfo, iomem, a hand-made kpageflags and kpagecount) whose every
 * pageblock has a known class, read through the real collector.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "collectors/kpageflags.h"
#include "model/pageblock.h"
#include "kernel/zoneinfo.h"

#define F(bit) (1ull << FT_KPF_##bit)
#define PB 512			/* pages per pageblock (order 9) */

static void test_page_class(void **state)
{
	(void)state;
	assert_int_equal(ft_page_class(F(BUDDY), 0), FT_PG_FREE);
	assert_int_equal(ft_page_class(F(BUDDY) | F(UPTODATE), 0), FT_PG_FREE);
	assert_int_equal(ft_page_class(F(LRU) | F(UPTODATE), 1), FT_PG_MOVABLE);
	assert_int_equal(ft_page_class(F(ANON) | F(MMAP) | F(SWAPBACKED), 1), FT_PG_MOVABLE);
	assert_int_equal(ft_page_class(F(THP) | F(COMPOUND_TAIL), 0), FT_PG_MOVABLE);
	assert_int_equal(ft_page_class(F(HUGE) | F(COMPOUND_TAIL), 0), FT_PG_MOVABLE);
	assert_int_equal(ft_page_class(F(SLAB), 1), FT_PG_UNMOVABLE);
	assert_int_equal(ft_page_class(F(SLAB) | F(COMPOUND_TAIL), 0), FT_PG_UNMOVABLE);
	assert_int_equal(ft_page_class(F(SLAB) | F(ANON), 1), FT_PG_UNMOVABLE);	/* slab wins */
	assert_int_equal(ft_page_class(F(PGTABLE), 1), FT_PG_UNMOVABLE);
	assert_int_equal(ft_page_class(F(RESERVED), 1), FT_PG_UNMOVABLE);
	/* kernel compound */
	assert_int_equal(ft_page_class(F(COMPOUND_TAIL), 0), FT_PG_UNMOVABLE);
	assert_int_equal(ft_page_class(0, 1), FT_PG_UNMOVABLE);
	assert_int_equal(ft_page_class(0, UINT64_MAX), FT_PG_UNMOVABLE);	/* count unknown */
	assert_int_equal(ft_page_class(0, 0), FT_PG_FREE);	/* per-CPU list */
	assert_int_equal(ft_page_class(F(NOPAGE), 0), FT_PG_HOLE);
	assert_int_equal(ft_page_class(F(OFFLINE), 0), FT_PG_HOLE);
}

static const char iomem[] =
	"00000000-00000fff : Reserved\n"
	"00001000-00dfffff : System RAM\n"
	"00e00000-00ffffff : Reserved\n"
	"01000000-02ffffff : System RAM\n"
	"  01000000-01ffffff : Kernel code\n"
	"fee00000-fee00fff : Local APIC\n";

static void test_iomem(void **state)
{
	static const char zeros[] =
		"00000000-00000000 : Reserved\n"
		"00000000-00000000 : System RAM\n";
	struct ft_ram ram;

	(void)state;
	assert_int_equal(ft_iomem_parse(iomem, strlen(iomem), 4096, &ram), 0);
	assert_true(ram.known);
	assert_int_equal(ram.nr, 2);
	assert_int_equal(ram.start[0], 1);
	assert_int_equal(ram.end[0], 0xe00);
	assert_int_equal(ram.start[1], 0x1000);
	assert_int_equal(ram.end[1], 0x3000);
	assert_true(ft_ram_has(&ram, 1));
	assert_false(ft_ram_has(&ram, 0));
	assert_false(ft_ram_has(&ram, 0xe00));
	assert_true(ft_ram_has(&ram, 0x2fff));
	/* what a non-root reader sees: unknown, so everything counts as RAM */
	assert_int_equal(ft_iomem_parse(zeros, strlen(zeros), 4096, &ram), 0);
	assert_false(ram.known);
	assert_true(ft_ram_has(&ram, 12345));
	assert_int_equal(ft_iomem_parse("zz-1 : System RAM\n", 18, 4096, &ram), -EINVAL);
	assert_int_equal(ft_iomem_parse("0001000-0000fff : System RAM\n", 29, 4096, &ram), -EINVAL);
	assert_int_equal(ft_iomem_parse(iomem, strlen(iomem), 1000, &ram), -EINVAL);
	/* found by fuzz_pageblock: a RAM range inside one page has no page */
	assert_int_equal(ft_iomem_parse("00001000-00001fff : System RAM\n100-22f : System RAM\n",
					52, 4096, &ram), 0);
	assert_int_equal(ram.nr, 1);
	assert_int_equal(ram.start[0], 1);
	assert_int_equal(ram.end[0], 2);
}

/*
 * Node 0 DMA spans PFNs 1..4095 (blocks 0-7), Normal 4096..12287 (blocks
 * 8-23).  RAM per iomem: PFNs 1..3583 and 4096..12287.  kpageflags ends at
 * PFN 12200 (the rest reads as NOPAGE).
 */
static const char zoneinfo[] =
	"Node 0, zone      DMA\n"
	"  pages free     3000\n"
	"        boost    0\n"
	"        min      1\n"
	"        low      2\n"
	"        high     3\n"
	"        spanned  4095\n"
	"        present  3583\n"
	"        managed  3583\n"
	"        cma      0\n"
	"        protection: (0, 0)\n"
	"  start_pfn:           1\n"
	"Node 0, zone   Normal\n"
	"  pages free     600\n"
	"        boost    0\n"
	"        min      10\n"
	"        low      20\n"
	"        high     30\n"
	"        spanned  8192\n"
	"        present  8192\n"
	"        managed  8192\n"
	"        cma      0\n"
	"        protection: (0, 0)\n"
	"  start_pfn:           4096\n";

#define NPFN 12200
static uint64_t flags[NPFN], counts[NPFN];

static void fill(uint64_t block, uint64_t first, uint64_t n, uint64_t f, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		flags[block * PB + first + i] = f;
		counts[block * PB + first + i] = count;
	}
}

static void build_pages(void)
{
	uint64_t b;

	memset(flags, 0, sizeof(flags));
	memset(counts, 0, sizeof(counts));
	/* DMA */
	fill(0, 0, 16, F(RESERVED), 1);			/* unmovable (+ free) */
	fill(0, 16, PB - 16, F(BUDDY), 0);
	fill(1, 0, PB, F(BUDDY), 0);			/* free */
	fill(2, 0, PB, F(LRU) | F(UPTODATE), 1);	/* movable */
	fill(3, 0, PB, F(LRU) | F(MMAP), 1);		/* mixed: 1 slab page */
	fill(3, 100, 1, F(SLAB), 1);
	fill(4, 0, PB, 0, 0);				/* free: per-CPU lists */
	fill(5, 0, PB, 0, 1);				/* unmovable: flagless, held */
	fill(6, 0, PB, F(NOPAGE), 0);			/* hole */
	fill(7, 0, PB, F(LRU), 1);			/* hole: not RAM per iomem */
	/* Normal: blocks 8..23 */
	for (b = 8; b < 18; b++)
		fill(b, 0, PB, F(ANON) | F(LRU) | F(MMAP), 1);	/* movable */
	/* 64 KiB mTHP: 16-page folios, a head and 15 tails each (as 6.18 shows them) */
	for (b = 0; b < PB; b += 16) {				/* block 10: all of it */
		fill(10, b, 1, F(THP) | F(COMPOUND_HEAD) | F(ANON) | F(LRU) | F(MMAP), 1);
		fill(10, b + 1, 15, F(THP) | F(COMPOUND_TAIL) | F(ANON) | F(LRU) | F(MMAP), 0);
	}
	for (b = 0; b < PB / 2; b += 16) {			/* block 11: half, half free */
		fill(11, b, 1, F(THP) | F(COMPOUND_HEAD) | F(ANON) | F(LRU), 1);
		fill(11, b + 1, 15, F(THP) | F(COMPOUND_TAIL) | F(ANON) | F(LRU), 0);
	}
	fill(11, PB / 2, PB / 2, F(BUDDY), 0);
	fill(18, 0, PB, F(THP) | F(COMPOUND_TAIL), 0);	/* mixed: 3 page tables */
	fill(18, 0, 3, F(PGTABLE), 1);
	fill(19, 0, PB, F(BUDDY), 0);			/* free */
	fill(20, 0, 1, F(SLAB) | F(COMPOUND_HEAD), 1);	/* unmovable */
	fill(20, 1, PB - 1, F(SLAB) | F(COMPOUND_TAIL), 0);
	fill(21, 0, PB, F(HUGE) | F(COMPOUND_TAIL), 0);	/* mixed: 2 reserved */
	fill(21, 7, 2, F(RESERVED), 1);
	fill(22, 0, PB, F(KSM) | F(ANON), 1);		/* movable */
	fill(23, 0, NPFN - 23 * PB, F(LRU), 1);		/* movable + past the end */
}

static void put(const char *dir, const char *rel, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

struct tree {
	char dir[64];
	int rootfd;
	struct ft_zoneinfo zi;
	struct ft_pbmap map;
	struct ft_kpf kpf;
};

/*
 * The scanner hands every batch over (as the live source makes it an input); here it feeds the
 * tree's map.
 */
static void feed(void *ctx, size_t zone, uint64_t pfn, size_t words, const uint64_t *fl,
		 const uint64_t *cn)
{
	struct tree *t = ctx;
	uint32_t block = (uint32_t)((pfn >> t->map.order) - t->map.zones[zone].first_block);

	if (t->kpf.sampling)
		assert_true(ft_pbmap_sample(&t->map, zone, block, words, fl, cn));
	else
		ft_pbmap_feed(&t->map, zone, block, (uint32_t)(words >> t->map.order), fl, cn,
			      t->kpf.rescan);
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char proc[128];

	assert_non_null(t);
	snprintf(t->dir, sizeof(t->dir), "/tmp/fragtop-pb-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(proc, sizeof(proc), "%s/proc", t->dir);
	assert_int_equal(mkdir(proc, 0755), 0);
	build_pages();
	put(t->dir, "proc/zoneinfo", zoneinfo, strlen(zoneinfo));
	put(t->dir, "proc/iomem", iomem, strlen(iomem));
	put(t->dir, "proc/kpageflags", flags, sizeof(flags));
	put(t->dir, "proc/kpagecount", counts, sizeof(counts));
	t->rootfd = open(t->dir, O_RDONLY | O_DIRECTORY);
	assert_true(t->rootfd >= 0);
	assert_int_equal(ft_zoneinfo_parse(zoneinfo, strlen(zoneinfo), &t->zi), 0);
	ft_pbmap_init(&t->map);
	assert_int_equal(ft_iomem_parse(iomem, strlen(iomem), 4096, &t->map.ram), 0);
	assert_int_equal(ft_pbmap_layout(&t->map, &t->zi, 9, NULL), 0);
	assert_int_equal(ft_kpf_open(&t->kpf, t->rootfd), 0);
	t->kpf.emit = feed;
	t->kpf.emit_ctx = t;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	ft_kpf_close(&t->kpf);
	ft_pbmap_release(&t->map);
	ft_zoneinfo_release(&t->zi);
	close(t->rootfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", t->dir);
	free(t);
	return 0;
}

static void expect(const struct ft_pbmap_zone *z, unsigned fr, unsigned mov, unsigned unm,
		   unsigned mix, unsigned hole, uint64_t pollution)
{
	assert_int_equal(z->count[FT_PB_UNSCANNED], 0);
	assert_int_equal(z->count[FT_PB_FREE], fr);
	assert_int_equal(z->count[FT_PB_MOVABLE], mov);
	assert_int_equal(z->count[FT_PB_UNMOVABLE], unm);
	assert_int_equal(z->count[FT_PB_MIXED], mix);
	assert_int_equal(z->count[FT_PB_HOLE], hole);
	assert_int_equal(fr + mov + unm + mix + hole, z->nr_blocks);
	assert_int_equal(z->pollution, pollution);
}

static void test_synthetic_tree_exact(void **state)
{
	struct tree *t = *state;
	const struct ft_pbmap_zone *dma, *normal;
	char enc[64];

	assert_int_equal(t->map.nr, 2);
	dma = &t->map.zones[0];
	normal = &t->map.zones[1];
	assert_int_equal(dma->nr_blocks, 8);
	assert_int_equal(normal->nr_blocks, 16);
	assert_int_equal(normal->first_block, 8);
	assert_int_equal(dma->count[FT_PB_UNSCANNED], 8);
	assert_int_equal(ft_kpf_scan_all(&t->kpf, &t->map), 0);
	expect(dma, 2, 1, 2, 1, 2, 1);
	expect(normal, 1, 12, 1, 2, 0, 5);
	assert_int_equal(ft_pbmap_encode(dma, enc, sizeof(enc)), strlen("1u1f1m1x1f1u2h"));
	assert_string_equal(enc, "1u1f1m1x1f1u2h");
	ft_pbmap_encode(normal, enc, sizeof(enc));
	assert_string_equal(enc, "10m1x1f1u1x2m");
	/* page composition of single blocks */
	assert_int_equal(dma->blocks[0].pages[FT_PG_HOLE], 1);		/* PFN 0 */
	assert_int_equal(dma->blocks[0].pages[FT_PG_UNMOVABLE], 15);
	assert_int_equal(dma->blocks[0].pages[FT_PG_FREE], PB - 16);
	assert_int_equal(normal->blocks[15].pages[FT_PG_MOVABLE], NPFN - 23 * PB);
	assert_int_equal(normal->blocks[15].pages[FT_PG_HOLE], 24 * PB - NPFN);
	/* mTHP-backed blocks: movable, their THP pages and 64 KiB folios counted */
	assert_int_equal(normal->blocks[2].cls, FT_PB_MOVABLE);
	assert_int_equal(normal->blocks[2].pages[FT_PG_MOVABLE], PB);
	assert_int_equal(normal->blocks[2].thp, PB);
	assert_int_equal(normal->blocks[2].thp_folios, PB / 16);
	assert_int_equal(normal->blocks[3].cls, FT_PB_MOVABLE);
	assert_int_equal(normal->blocks[3].pages[FT_PG_FREE], PB / 2);
	assert_int_equal(normal->blocks[3].thp, PB / 2);
	assert_int_equal(normal->blocks[3].thp_folios, PB / 32);
	assert_int_equal(normal->blocks[0].thp, 0);
	/* a PMD THP's tails (and its 3 page tables): the tails are THP pages */
	assert_int_equal(normal->blocks[10].thp, PB - 3);
	assert_int_equal(normal->thp, PB + PB / 2 + PB - 3);
	assert_int_equal(normal->thp_folios, PB / 16 + PB / 32);
	assert_true(t->kpf.count_reads > 0);
	/* a cut encoding still ends with its NUL */
	assert_int_equal(ft_pbmap_encode(normal, enc, 6), strlen("10m1x1f1u1x2m"));
	assert_string_equal(enc, "10m1x");
}

/* Without kpagecount, flagless pages count as unmovable. */
static void test_without_kpagecount(void **state)
{
	struct tree *t = *state;

	close(t->kpf.count_fd);
	t->kpf.count_fd = -1;
	assert_int_equal(ft_kpf_scan_all(&t->kpf, &t->map), 0);
	expect(&t->map.zones[0], 1, 1, 3, 1, 2, 1);
}

static void test_incremental_and_relayout(void **state)
{
	struct tree *t = *state;
	long n;

	/* the coarse look first (every 8th block: DMA's 0, Normal's 0 and 8), then whole batches */
	n = ft_kpf_scan(&t->kpf, &t->map, 1);
	assert_int_equal(n, 3 * FT_PB_SAMPLE_WORDS);
	assert_int_equal(t->map.zones[0].sampled, 1);
	assert_int_equal(t->map.zones[1].sampled, 2);
	/* one batch per call: DMA first, then Normal, then around again */
	n = ft_kpf_scan(&t->kpf, &t->map, 1);
	assert_int_equal(n, 8 * PB);
	assert_int_equal(t->map.zones[0].sampled, 0);
	assert_int_equal(t->map.zones[0].count[FT_PB_UNSCANNED], 0);
	assert_int_equal(t->map.zones[1].count[FT_PB_UNSCANNED], 16);
	assert_int_equal(t->map.zones[0].scans, 1);
	n = ft_kpf_scan(&t->kpf, &t->map, 1);
	assert_int_equal(n, 16 * PB);
	expect(&t->map.zones[1], 1, 12, 1, 2, 0, 5);
	/* the same layout keeps the scanned blocks */
	assert_int_equal(ft_pbmap_layout(&t->map, &t->zi, 9, NULL), 0);
	expect(&t->map.zones[1], 1, 12, 1, 2, 0, 5);
	/* a different order starts over */
	assert_int_equal(ft_pbmap_layout(&t->map, &t->zi, 10, NULL), 0);
	assert_int_equal(t->map.zones[1].count[FT_PB_UNSCANNED], t->map.zones[1].nr_blocks);
	assert_int_equal(ft_pbmap_layout(&t->map, &t->zi, 99, NULL), -EINVAL);
	/*
	 * a zone no host has (2^39 pages, 2^30 blocks: 48 GiB of map): refused before any
	 * allocation, the old kept
	 */
	{
		struct ft_zoneinfo big = t->zi;
		uint64_t blocks = 0;
		struct ft_pb_block *kept = t->map.zones[1].blocks;

		/* the zones are the fixture's: a copy */
		big.zones = malloc(t->zi.nr * sizeof(*big.zones));
		assert_non_null(big.zones);
		memcpy(big.zones, t->zi.zones, t->zi.nr * sizeof(*big.zones));
		big.zones[1].spanned = 1ull << 39;
		assert_int_equal(ft_pbmap_layout(&t->map, &big, 9, &blocks), -E2BIG);
		assert_true(blocks > FT_PBMAP_MAX_BLOCKS);
		assert_true(blocks >= 1ull << 30);
		assert_ptr_equal(t->map.zones[1].blocks, kept);
		big.zones[1].spanned = UINT64_MAX - 3;	/* past the PFNs' end */
		assert_int_equal(ft_pbmap_layout(&t->map, &big, 9, &blocks), -E2BIG);
		assert_true(blocks == UINT64_MAX);
		free(big.zones);
	}
	/* rescanning after the pages changed moves the counts */
	assert_int_equal(ft_pbmap_layout(&t->map, &t->zi, 9, NULL), 0);
	fill(19, 0, 1, F(SLAB), 1);	/* the free block gets a slab page */
	put(t->dir, "proc/kpageflags", flags, sizeof(flags));
	assert_int_equal(ft_kpf_scan_all(&t->kpf, &t->map), 0);
	expect(&t->map.zones[1], 0, 12, 2, 2, 0, 5);
}

/*
 * One block read out of turn (a fallback named it): its counts move, the pass count and cursor do
 * not.
 */
static void test_rescan_block(void **state)
{
	struct tree *t = *state;
	uint64_t scans;
	size_t zone;
	uint32_t block;

	assert_int_equal(ft_kpf_scan_all(&t->kpf, &t->map), 0);
	expect(&t->map.zones[1], 1, 12, 1, 2, 0, 5);
	scans = t->map.zones[1].scans;
	zone = t->kpf.zone;
	block = t->kpf.block;
	/* Normal's block 11 (PFN 4096 is block 8) gets a slab page */
	fill(19, 0, 1, F(SLAB), 1);
	put(t->dir, "proc/kpageflags", flags, sizeof(flags));
	assert_int_equal(ft_kpf_scan_block(&t->kpf, &t->map, 1, 11), PB);
	expect(&t->map.zones[1], 0, 12, 2, 2, 0, 5);
	assert_int_equal(t->map.zones[1].scans, scans);
	assert_int_equal(t->kpf.zone, zone);
	assert_int_equal(t->kpf.block, block);
	/* the zone's last block alone is no pass either */
	assert_int_equal(ft_kpf_scan_block(&t->kpf, &t->map, 1, t->map.zones[1].nr_blocks - 1), PB);
	assert_int_equal(t->map.zones[1].scans, scans);
	assert_int_equal(ft_kpf_scan_block(&t->kpf, &t->map, 1, t->map.zones[1].nr_blocks),
			 -EINVAL);
	assert_int_equal(ft_kpf_scan_block(&t->kpf, &t->map, 2, 0), -EINVAL);
}

/*
 * Coarse to fine: a view's zone gets a sample in each of its cells first,
 * then every 8th block of every zone (that zone first), then whole passes,
 * which replace the samples.
 */
static void test_coarse_first(void **state)
{
	struct tree *t = *state;
	const struct ft_pbmap_zone *normal = &t->map.zones[1], *dma = &t->map.zones[0];
	long n;

	assert_false(ft_kpf_first_look(&t->kpf, &t->map));	/* no view said what it shows */
	ft_kpf_focus(&t->kpf, 1, 4);	/* Normal at 4 blocks per cell: 4 cells */
	assert_true(ft_kpf_first_look(&t->kpf, &t->map));
	n = ft_kpf_scan(&t->kpf, &t->map, 1);
	assert_int_equal(n, 4 * FT_PB_SAMPLE_WORDS);
	assert_false(ft_kpf_first_look(&t->kpf, &t->map));	/* every cell has its sample */
	assert_int_equal(t->kpf.samples, 4);
	assert_int_equal(normal->sampled, 4);
	assert_int_equal(normal->count[FT_PB_UNSCANNED], 16);	/* samples are no whole read */
	assert_int_equal(normal->scans, 0);
	/* the middle block of each cell: 2, 6, 10, 14 (PFN blocks 10, 14, 18, 22) */
	assert_int_equal(normal->blocks[2].scls, FT_PB_MOVABLE);
	assert_int_equal(normal->blocks[6].scls, FT_PB_MOVABLE);
	/*
	 * block 18's three page tables sit at its start, where no sample looks: a sample can miss
	 */
	assert_int_equal(normal->blocks[10].scls, FT_PB_MOVABLE);
	assert_int_equal(normal->blocks[14].scls, FT_PB_MOVABLE);
	assert_int_equal(normal->blocks[0].scls, FT_PB_UNSCANNED);
	/* then every 8th block, the focus zone first: Normal's 0 and 8, DMA's 0 */
	n = ft_kpf_scan(&t->kpf, &t->map, 1);
	assert_int_equal(n, 3 * FT_PB_SAMPLE_WORDS);
	assert_int_equal(normal->sampled, 6);
	assert_int_equal(dma->sampled, 1);
	/* its 16 reserved pages are not in a run */
	assert_int_equal(dma->blocks[0].scls, FT_PB_FREE);
	assert_int_equal(normal->blocks[8].scls, FT_PB_MOVABLE);
	/* then whole batches, which replace the samples */
	n = ft_kpf_scan(&t->kpf, &t->map, 1);
	assert_int_equal(n, 8 * PB);
	assert_int_equal(dma->sampled, 0);
	assert_int_equal(dma->blocks[0].scls, FT_PB_UNSCANNED);
	assert_int_equal(dma->blocks[0].cls, FT_PB_UNMOVABLE);
	n = ft_kpf_scan(&t->kpf, &t->map, 1);
	assert_int_equal(n, 16 * PB);
	assert_int_equal(normal->sampled, 0);
	expect(normal, 1, 12, 1, 2, 0, 5);
	assert_int_equal(t->kpf.samples, 7);
	/* a sample of a block read whole changes nothing */
	assert_true(ft_pbmap_sample(&t->map, 1, 10, FT_PB_SAMPLE_WORDS, flags, counts));
	assert_int_equal(normal->blocks[10].cls, FT_PB_MIXED);
	assert_int_equal(normal->sampled, 0);
	/* a zone laid out anew is looked at coarsely again */
	assert_int_equal(ft_pbmap_layout(&t->map, &t->zi, 10, NULL), 0);
	assert_int_equal(ft_pbmap_layout(&t->map, &t->zi, 9, NULL), 0);
	normal = &t->map.zones[1];
	assert_true(ft_kpf_first_look(&t->kpf, &t->map));
	n = ft_kpf_scan(&t->kpf, &t->map, 1);
	assert_int_equal(n, 4 * FT_PB_SAMPLE_WORDS);
	assert_int_equal(t->map.zones[1].sampled, 4);
	assert_false(ft_kpf_first_look(&t->kpf, &t->map));
	/* a finer grid on screen: a look of its own */
	ft_kpf_focus(&t->kpf, 1, 2);
	assert_true(ft_kpf_first_look(&t->kpf, &t->map));
}

/*
 * Samples the model refuses: a bad length, a run longer than its part of the block, no such block.
 */
static void test_sample_bounds(void **state)
{
	struct tree *t = *state;

	assert_false(ft_pbmap_sample(&t->map, 1, 0, FT_PB_SAMPLE_WORDS - 1, flags, NULL));
	assert_false(ft_pbmap_sample(&t->map, 1, 0, 0, flags, NULL));
	assert_false(ft_pbmap_sample(&t->map, 1, 0, PB + FT_PB_SAMPLE_SPOTS, flags, NULL));
	assert_false(ft_pbmap_sample(&t->map, 1, 16, FT_PB_SAMPLE_WORDS, flags, NULL));
	assert_false(ft_pbmap_sample(&t->map, 2, 0, FT_PB_SAMPLE_WORDS, flags, NULL));
	assert_int_equal(t->map.zones[1].sampled, 0);
	/* a whole block as one sample is allowed: runs of a half block each */
	assert_true(ft_pbmap_sample(&t->map, 1, 0, PB, flags + 8 * PB, NULL));
	assert_int_equal(t->map.zones[1].blocks[0].scls, FT_PB_MOVABLE);
	/* the runs sit in the middle of their part of the block */
	assert_int_equal(ft_pb_sample_pfn(9, 4096, FT_PB_SAMPLE_WORDS, 0),
			 4096 +
				 (PB / FT_PB_SAMPLE_SPOTS - FT_PB_SAMPLE_WORDS /
				  FT_PB_SAMPLE_SPOTS) / 2);
	assert_int_equal(ft_pb_sample_pfn(9, 4096, FT_PB_SAMPLE_WORDS, 1) -
			 ft_pb_sample_pfn(9, 4096, FT_PB_SAMPLE_WORDS, 0), PB / FT_PB_SAMPLE_SPOTS);
}

static void test_mark(void **state)
{
	struct tree *t = *state;

	assert_true(ft_pbmap_mark(&t->map, 4096 + 3 * PB + 7, 42, 1000));
	assert_true(ft_pbmap_mark(&t->map, 4096 + 3 * PB + 400, 43, 2000));
	assert_int_equal(t->map.zones[1].blocks[3].fallbacks, 2);
	assert_int_equal(t->map.zones[1].blocks[3].mark_ns, 2000);
	assert_int_equal(t->map.zones[1].blocks[3].pid, 43);	/* the last one's task */
	assert_false(ft_pbmap_mark(&t->map, 999999, 1, 1));
	assert_int_equal(ft_pbmap_zone_of(&t->map, 0), -1);
	assert_int_equal(ft_pbmap_zone_of(&t->map, 1), 0);
	assert_int_equal(ft_pbmap_zone_of(&t->map, 12287), 1);
}

static void test_block_and_zone_named(void **state)
{
	struct tree *t = *state;
	struct ft_pbmap fresh;

	assert_ptr_equal(ft_pbmap_block(&t->map, 4096 + 3 * PB + 7), &t->map.zones[1].blocks[3]);
	assert_ptr_equal(ft_pbmap_block(&t->map, 12287), &t->map.zones[1].blocks[15]);
	/* PFN 0 is before DMA's first page (1) but in its block 0: page_owner's block start */
	assert_int_equal(ft_pbmap_zone_of(&t->map, 0), -1);
	assert_ptr_equal(ft_pbmap_block(&t->map, 0), &t->map.zones[0].blocks[0]);
	assert_null(ft_pbmap_block(&t->map, 12288));
	assert_null(ft_pbmap_block(&t->map, UINT64_MAX));
	ft_pbmap_init(&fresh);
	assert_null(ft_pbmap_block(&fresh, 4096));	/* before layout */
	assert_int_equal(ft_pbmap_zone_named(&fresh, 0, "Normal"), -1);
	assert_int_equal(ft_pbmap_zone_named(&t->map, 0, "DMA"), 0);
	assert_int_equal(ft_pbmap_zone_named(&t->map, 0, "Normal"), 1);
	assert_int_equal(ft_pbmap_zone_named(&t->map, 1, "Normal"), -1);
	assert_int_equal(ft_pbmap_zone_named(&t->map, 0, "Movable"), -1);
	ft_pbmap_release(&fresh);
}

static void test_no_kpageflags(void **state)
{
	struct ft_kpf k;
	int fd = open("/tmp", O_RDONLY | O_DIRECTORY);

	(void)state;
	assert_int_equal(ft_kpf_open(&k, fd), -ENOENT);
	assert_int_equal(ft_kpf_scan(&k, NULL, 100), -ENOENT);
	ft_kpf_close(&k);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_class),
		cmocka_unit_test(test_iomem),
		cmocka_unit_test_setup_teardown(test_synthetic_tree_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_without_kpagecount, setup, teardown),
		cmocka_unit_test_setup_teardown(test_incremental_and_relayout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rescan_block, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coarse_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sample_bounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mark, setup, teardown),
		cmocka_unit_test_setup_teardown(test_block_and_zone_named, setup, teardown),
		cmocka_unit_test(test_no_kpageflags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
