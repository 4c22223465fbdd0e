// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gigantic regions and pollution amplification on a small hand-made map:
 * pageblocks of 4 pages (order 2), regions of 16 (order 4, 4 blocks), so
 * every page is planted and every count known.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/contig.h"
#include "model/pageblock.h"
#include "kernel/zoneinfo.h"

#define F(bit) (1ull << FT_KPF_##bit)
#define MOV (F(LRU) | F(ANON))

/*
 * One zone [8, 8 + 16 * 5 + 4): a partial region [8, 16) before the first
 * whole one, five whole regions, a partial one [96, 100) after.
 */
struct map {
	struct ft_pbmap m;
	struct ft_zoneinfo zi;
	struct ft_zi_zone zone;
};

static void setup_map(struct map *t, uint64_t start, uint64_t spanned)
{
	memset(t, 0, sizeof(*t));
	t->zone.node = 0;
	strcpy(t->zone.name, "Normal");
	t->zone.has = FT_ZI_START_PFN;
	t->zone.start_pfn = start;
	t->zone.spanned = spanned;
	t->zi.zones = &t->zone;
	t->zi.nr = t->zi.cap = 1;
	ft_pbmap_init(&t->m);
	assert_int_equal(ft_pbmap_layout(&t->m, &t->zi, 2, NULL), 0);
}

/* Feed the zone's blocks from one word per PFN of [first_block << 2, end of its last block). */
static void feed_all(struct map *t, const uint64_t *flags, const uint64_t *counts)
{
	struct ft_pbmap_zone *z = &t->m.zones[0];

	ft_pbmap_feed(&t->m, 0, 0, z->nr_blocks, flags, counts, false);
}

static void test_order(void **state)
{
	const uint64_t x86[] = { 2048, 1048576 }, pmd_only[] = { 2048 }, odd[] = { 3072 };
	const uint64_t arm64k[] = { 2048, 524288, 16777216 };

	(void)state;
	assert_int_equal(ft_contig_order(4096, x86, 2, 9), 18);
	assert_int_equal(ft_contig_order(4096, pmd_only, 1, 9), -1);	/* not above the block */
	assert_int_equal(ft_contig_order(4096, odd, 1, 9), -1);
	assert_int_equal(ft_contig_order(4096, x86, 0, 9), -1);
	assert_int_equal(ft_contig_order(4096, x86, 2, -1), -1);
	assert_int_equal(ft_contig_order(65536, arm64k, 3, 13), 18);	/* 16 GiB of 64 KiB pages */
	assert_int_equal(ft_contig_order(3000, x86, 2, 9), -1);
}

static void test_classes(void **state)
{
	struct map t;
	uint64_t flags[96], counts[96];
	struct ft_contig_region r[8];
	struct ft_contig_zone c;
	struct ft_amp a = { 0 };
	size_t i;

	(void)state;
	setup_map(&t, 8, 92);	/* [8, 100): blocks 2..24 */
	assert_int_equal(t.m.zones[0].nr_blocks, 23);
	/* words from PFN 8; all free (no flag, count 0) */
	memset(flags, 0, sizeof(flags));
	memset(counts, 0, sizeof(counts));
#define AT(pfn) ((pfn) - 8)
	/* region 1 [16, 32): free.  region 2 [32, 48): movable pages and free ones */
	for (i = 32; i < 40; i++) {
		flags[AT(i)] = MOV;
		counts[AT(i)] = 1;
	}
	/* region 3 [48, 64): one slab page in block 13 (PFN 52), another in block 15 */
	flags[AT(53)] = F(SLAB);
	counts[AT(53)] = 1;
	flags[AT(61)] = F(SLAB);
	counts[AT(61)] = 1;
	/* region 4 [64, 80): a whole unmovable block (PFN 68..71) */
	for (i = 68; i < 72; i++) {
		flags[AT(i)] = F(PGTABLE);
		counts[AT(i)] = 1;
	}
	/* region 5 [80, 96): a hole page */
	flags[AT(90)] = F(NOPAGE);
	/* the partial regions hold slab: they are not regions, so count nowhere */
	flags[AT(9)] = F(SLAB);
	counts[AT(9)] = 1;
	flags[AT(97)] = F(SLAB);
	counts[AT(97)] = 1;
	feed_all(&t, flags, counts);

	assert_int_equal(ft_contig_zone(&t.m, &t.m.zones[0], 4, UINT64_MAX, &c, r, 8), 5);
	assert_int_equal(c.order, 4);
	assert_int_equal(c.regions, 5);
	assert_int_equal(c.count[FT_GR_FREE], 1);
	assert_int_equal(c.count[FT_GR_MOVABLE], 1);
	assert_int_equal(c.count[FT_GR_TAINTED], 3);
	assert_int_equal(c.count[FT_GR_UNKNOWN], 0);
	assert_int_equal(c.now, 1);
	assert_int_equal(c.after, 2);
	assert_int_equal(r[0].pfn, 16);
	assert_int_equal(r[0].cls, FT_GR_FREE);
	assert_int_equal(r[1].cls, FT_GR_MOVABLE);
	assert_int_equal(r[2].cls, FT_GR_TAINTED);
	assert_int_equal(r[2].unmovable_blocks, 2);
	assert_int_equal(r[2].unmovable_pages, 2);
	assert_int_equal(r[2].named, 2);
	assert_int_equal(r[2].taint_pfn[0], 52);
	assert_int_equal(r[2].taint_pfn[1], 60);
	assert_int_equal(r[3].unmovable_blocks, 1);
	assert_int_equal(r[3].unmovable_pages, 4);
	assert_int_equal(r[3].taint_pfn[0], 68);
	assert_int_equal(r[4].cls, FT_GR_TAINTED);
	assert_int_equal(r[4].hole_blocks, 1);
	assert_int_equal(r[4].unmovable_blocks, 0);
	assert_int_equal(r[4].taint_pfn[0], 88);
	assert_int_equal(ft_contig_region_of(&t.m.zones[0], 4, 16), 0);
	assert_int_equal(ft_contig_region_of(&t.m.zones[0], 4, 95), 4);
	assert_int_equal(ft_contig_region_of(&t.m.zones[0], 4, 9), -1);
	assert_int_equal(ft_contig_region_of(&t.m.zones[0], 4, 97), -1);

	/*
	 * Amplification over the whole zone's blocks, partial ones too: 23
	 * blocks, 22 holding RAM pages... all 23 do (the hole is one page).
	 * Polluted: blocks 2 (PFN 9), 13, 15, 17, 24 (PFN 97) = 5 of 23;
	 * unmovable pages 1 + 1 + 1 + 4 + 1 = 8 of 92 - 1 hole = 91.
	 */
	ft_amp_add(&a, &t.m.zones[0]);
	assert_int_equal(a.blocks, 23);
	assert_int_equal(a.polluted, 5);
	assert_int_equal(a.pages, 91);
	assert_int_equal(a.unmovable, 8);
	assert_true(fabs(ft_amp_ratio(&a) - (5.0 / 23) / (8.0 / 91)) < 1e-12);
	ft_pbmap_release(&t.m);
#undef AT
}

static void test_packed_is_one(void **state)
{
	struct map t;
	uint64_t flags[64], counts[64];
	struct ft_amp a = { 0 }, none = { 0 };
	size_t i;

	(void)state;
	setup_map(&t, 0, 64);
	memset(flags, 0, sizeof(flags));
	memset(counts, 0, sizeof(counts));
	for (i = 0; i < 8; i++) {	/* two whole slab blocks */
		flags[i] = F(SLAB);
		counts[i] = 1;
	}
	/* the first 8 blocks read, the other 8 not yet: a ratio, partial */
	ft_pbmap_feed(&t.m, 0, 0, 8, flags, counts, false);
	ft_amp_add(&a, &t.m.zones[0]);
	assert_int_equal(a.unread, 8);
	assert_true(ft_amp_partial(&a));
	assert_true(fabs(ft_amp_ratio(&a) - 1.0) < 1e-12);
	memset(&a, 0, sizeof(a));
	feed_all(&t, flags, counts);
	ft_amp_add(&a, &t.m.zones[0]);
	assert_int_equal(a.polluted, 2);
	assert_int_equal(a.unread, 0);
	assert_false(ft_amp_partial(&a));
	assert_true(fabs(ft_amp_ratio(&a) - 1.0) < 1e-12);
	assert_true(isnan(ft_amp_ratio(&none)));
	/* no unmovable page: no ratio */
	memset(flags, 0, sizeof(flags));
	memset(counts, 0, sizeof(counts));
	feed_all(&t, flags, counts);
	memset(&a, 0, sizeof(a));
	ft_amp_add(&a, &t.m.zones[0]);
	assert_true(isnan(ft_amp_ratio(&a)));
	ft_pbmap_release(&t.m);
}

static void test_unread_and_uninit(void **state)
{
	struct map t;
	uint64_t flags[128], counts[128];
	struct ft_contig_region r[8];
	struct ft_contig_zone c;

	(void)state;
	setup_map(&t, 0, 128);	/* 8 regions of 16 */
	/* nothing read: every region unknown, nothing available */
	ft_contig_zone(&t.m, &t.m.zones[0], 4, UINT64_MAX, &c, r, 8);
	assert_int_equal(c.count[FT_GR_UNKNOWN], 8);
	assert_int_equal(c.now + c.after, 0);
	/* all read free; the kernel counts 128 - 40 free: the last 40 PFNs are not its yet */
	memset(flags, 0, sizeof(flags));
	memset(counts, 0, sizeof(counts));
	flags[3] = F(SLAB);	/* region 0 tainted: stays tainted */
	counts[3] = 1;
	feed_all(&t, flags, counts);
	ft_contig_zone(&t.m, &t.m.zones[0], 4, 127 - 40, &c, r, 8);
	assert_int_equal(c.uninit_pages, 40);
	/* [88, 128): regions 5, 6 and 7 */
	assert_int_equal(c.count[FT_GR_UNINIT], 3);
	assert_int_equal(c.count[FT_GR_TAINTED], 1);
	assert_int_equal(c.count[FT_GR_FREE], 4);
	assert_int_equal(r[5].cls, FT_GR_UNINIT);
	assert_int_equal(r[4].cls, FT_GR_FREE);
	assert_int_equal(c.now, 4);
	/* drift under a sixteenth of a region is no region */
	ft_contig_zone(&t.m, &t.m.zones[0], 4, 127, &c, r, 8);
	assert_int_equal(c.uninit_pages, 0);
	assert_int_equal(c.count[FT_GR_FREE], 7);
	/* an order at or below the block's: nothing */
	assert_int_equal(ft_contig_zone(&t.m, &t.m.zones[0], 2, UINT64_MAX, &c, r, 8), 0);
	assert_int_equal(c.order, -1);
	/* fewer slots than regions: counts whole, slots filled */
	assert_int_equal(ft_contig_zone(&t.m, &t.m.zones[0], 4, UINT64_MAX, &c, r, 2), 8);
	assert_int_equal(c.count[FT_GR_FREE], 7);
	ft_pbmap_release(&t.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_packed_is_one),
		cmocka_unit_test(test_unread_and_uninit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
