// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Will it fit, on a small hand-made zone: pageblocks of 4 pages (order 2),
 * the buddy's largest order 3 (2 blocks), 16 blocks in [0, 64), so every
 * page is planted and every figure can be worked out by hand:
 *   blocks 0-5 free, 6-7 movable      region [0, 16) free, [16, 32) movable
 *   block 8: a slab page at PFN 33    region [32, 48) tainted by one block
 *   block 15: a hole at PFN 60        region [48, 64) tainted by a hole
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/fit.h"
#include "model/pageblock.h"
#include "kernel/zoneinfo.h"

#define F(bit) (1ull << FT_KPF_##bit)
#define MOV (F(LRU) | F(ANON))
#define UNKNOWN UINT64_MAX

struct zone {
	struct ft_pbmap m;
	struct ft_zoneinfo zi;
	struct ft_zi_zone zone;
	uint64_t flags[64], counts[64];
	uint64_t blocks[4];
	struct ft_fit_zin in;
};

static void plant(struct zone *t, bool hole)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->zone.node = 0;
	strcpy(t->zone.name, "Normal");
	t->zone.has = FT_ZI_START_PFN;
	t->zone.start_pfn = 0;
	t->zone.spanned = 64;
	t->zi.zones = &t->zone;
	t->zi.nr = t->zi.cap = 1;
	ft_pbmap_init(&t->m);
	assert_int_equal(ft_pbmap_layout(&t->m, &t->zi, 2, NULL), 0);
	for (i = 24; i < 32; i++) {
		t->flags[i] = MOV;
		t->counts[i] = 1;
	}
	t->flags[33] = F(SLAB);
	t->counts[33] = 1;
	if (hole)
		t->flags[60] = F(NOPAGE);
	/* the free lists: 2 pages at order 0, one order-1 block, six of order 3: 54 pages */
	t->blocks[0] = 2;
	t->blocks[1] = 1;
	t->blocks[2] = 0;
	t->blocks[3] = 6;
	t->in = (struct ft_fit_zin){
		.node = 0, .zone = "Normal", .blocks = t->blocks, .nr_orders = 4,
		.free_pages = hole ? 54 : 55, .wmark = 4, .unusable = 0, .drift = 1,
		/* one zone: the host's free memory is the zone's */
		.contig_free_lo = hole ? 50 : 51, .contig_free_hi = hole ? 50 : 51,
		.m = &t->m, .mz = &t->m.zones[0],
	};
}

/* ft_fit_zone() with the zone's uninitialised pages as analysis/fits.c gives them */
static void fit(struct zone *t, int order, struct ft_fit *f)
{
	ft_fit_uninit(&t->in, &t->in.uninit_lo, &t->in.uninit_hi);
	ft_fit_zone(&t->in, order, f);
}

static void feed(struct zone *t, uint32_t b0, uint32_t nb)
{
	ft_pbmap_feed(&t->m, 0, b0, nb, t->flags + (b0 << 2), t->counts + (b0 << 2), false);
}

static void test_buddy_and_regions(void **state)
{
	struct zone t;
	struct ft_fit f;

	(void)state;
	plant(&t, true);
	feed(&t, 0, 16);

	/* order 3, the largest: 6 on the free lists; (54 - 4) >> 3 = 6 let through */
	fit(&t, 3, &f);
	assert_true(f.buddy);
	assert_true(f.map);
	assert_int_equal(f.free_lists, 6);
	assert_int_equal(f.wmark_cap, 6);
	assert_int_equal(f.now_lo, 6);
	assert_int_equal(f.now_hi, 6);
	/* 8 units of 8 pages: 6 hold only free and movable pages, 2 are tainted */
	assert_int_equal(f.units, 8);
	assert_int_equal(f.empt_lo, 6);
	assert_int_equal(f.empt_hi, 6);
	assert_int_equal(f.tainted, 2);
	assert_int_equal(f.after_lo, 6);
	assert_int_equal(f.after_hi, 6);
	assert_true(ft_fit_exact(&f));

	/* order 4, above the buddy's: one region all free, one emptiable */
	fit(&t, 4, &f);
	assert_false(f.buddy);
	assert_int_equal(f.units, 4);
	assert_int_equal(f.now_lo, 1);
	assert_int_equal(f.now_hi, 1);
	assert_int_equal(f.after_lo, 2);
	assert_int_equal(f.after_hi, 2);
	assert_int_equal(f.tainted, 2);
	assert_int_equal(f.one_block, 1);
	/* the slab page's block is named; the hole's region is never free, so not */
	assert_int_equal(f.named, 1);
	assert_int_equal(f.taint_pfn[0], 32);

	/* order 1, below the block: 25 on the lists, and the watermark lets 25 through */
	fit(&t, 1, &f);
	assert_int_equal(f.free_lists, 25);
	assert_int_equal(f.now_lo, 25);
	/* per block 2 units; blocks 8 and 15 lose one each: 30 emptiable, capped at 25 */
	assert_int_equal(f.empt_lo, 30);
	assert_int_equal(f.empt_hi, 30);
	assert_int_equal(f.after_lo, 25);
	assert_int_equal(f.after_hi, 25);
	assert_int_equal(f.taint_pfn[0], 32);
	ft_pbmap_release(&t.m);
}

/*
 * Compaction makes no free memory: two emptiable regions, memory for one.
 * Up to the buddy's orders the zone's own (compaction migrates within
 * it), above them the host's (alloc_contig_range() migrates anywhere).
 */
static void test_free_memory_caps_compaction(void **state)
{
	struct zone t;
	struct ft_fit f;

	(void)state;
	plant(&t, true);
	feed(&t, 0, 16);
	t.in.drift = 1000;	/* the map's free pages past 30 are not uninitialised memory here */
	t.in.free_pages = 30;
	t.in.contig_free_lo = t.in.contig_free_hi = 26;	/* (30 - 4) >> 4 = 1 */
	fit(&t, 4, &f);
	assert_int_equal(f.empt_lo, 2);
	assert_int_equal(f.free_cap, 1);
	assert_int_equal(f.after_lo, 1);
	assert_int_equal(f.after_hi, 1);
	/* another node's free memory takes the movable pages: both regions */
	t.in.contig_free_lo = t.in.contig_free_hi = 26 + 40;
	fit(&t, 4, &f);
	assert_int_equal(f.free_cap, 4);
	assert_int_equal(f.after_lo, 2);
	/* the buddy's orders keep to the zone's: (30 - 4) >> 3 = 3 of 6 emptiable */
	fit(&t, 3, &f);
	assert_int_equal(f.empt_lo, 6);
	assert_int_equal(f.after_lo, 3);
	/* never below now: the free region needs no migration */
	t.in.free_pages = 10;
	t.in.contig_free_lo = t.in.contig_free_hi = 6;
	fit(&t, 4, &f);
	assert_int_equal(f.now_lo, 1);
	assert_int_equal(f.after_lo, 1);
	ft_pbmap_release(&t.m);
}

/* A block not read whole makes the figures an interval. */
static void test_unread_interval(void **state)
{
	struct zone t;
	struct ft_fit f;

	(void)state;
	plant(&t, true);
	feed(&t, 0, 5);
	feed(&t, 6, 10);	/* block 5 (PFN 20..23), in region [16, 32), not read */
	fit(&t, 4, &f);
	assert_int_equal(f.unread, 1);
	assert_int_equal(f.now_lo, 1);
	assert_int_equal(f.now_hi, 1);	/* movable pages seen: never free now */
	assert_int_equal(f.after_lo, 1);
	assert_int_equal(f.after_hi, 2);
	assert_false(ft_fit_exact(&f));
	/* below the block: the unread block's two units may be anything */
	fit(&t, 1, &f);
	assert_int_equal(f.empt_lo, 28);
	assert_int_equal(f.empt_hi, 30);
	/* a sampled block is no whole read either */
	assert_true(ft_pbmap_sample(&t.m, 0, 5, 2, t.flags + 20, t.counts + 20));
	fit(&t, 4, &f);
	assert_int_equal(f.after_lo, 1);
	assert_int_equal(f.after_hi, 2);
	ft_pbmap_release(&t.m);
}

/*
 * Uninitialised memory (deferred struct page init) reads free in the map,
 * not in the zone's count: the buddy takes it on demand, alloc_contig_pages()
 * never.  Here the last 16 pages are such.
 */
static void test_uninitialised(void **state)
{
	struct zone t;
	struct ft_fit f;

	(void)state;
	plant(&t, false);
	feed(&t, 0, 16);
	t.in.free_pages = 55 - 16;
	t.blocks[3] = 4;	/* the free lists lack the 16 pages */
	fit(&t, 3, &f);
	assert_int_equal(f.uninit_lo, 16);
	assert_int_equal(f.uninit_hi, 16);
	/*
	 * 4 on the lists, and maybe 2 more to initialise: (39 - 4) >> 3 = 4, (39 + 16 - 4) >> 3 = 6
	 */
	assert_int_equal(f.now_lo, 4);
	assert_int_equal(f.now_hi, 6);
	/* the two units in it count in the upper figure only */
	assert_int_equal(f.empt_lo, 5);
	assert_int_equal(f.empt_hi, 7);
	assert_int_equal(f.after_lo, 4);
	assert_int_equal(f.after_hi, 6);
	fit(&t, 1, &f);
	/* block 8 loses one; blocks 12-15 are in it */
	assert_int_equal(f.empt_lo, 32 - 1 - 8);
	assert_int_equal(f.empt_hi, 31);
	fit(&t, 4, &f);
	/* [48, 64) is uninitialised: neither now nor after compaction */
	assert_int_equal(f.now_lo, 1);
	assert_int_equal(f.now_hi, 1);
	assert_int_equal(f.after_lo, 2);
	assert_int_equal(f.after_hi, 2);
	ft_pbmap_release(&t.m);
}

/* Without the map: the free lists' figure is exact, the rest unknown. */
static void test_no_map(void **state)
{
	struct zone t;
	struct ft_fit f;

	(void)state;
	plant(&t, true);
	t.in.m = NULL;
	t.in.mz = NULL;
	fit(&t, 3, &f);
	assert_false(f.map);
	assert_int_equal(f.now_lo, 6);
	assert_int_equal(f.now_hi, 6);
	assert_int_equal(f.after_lo, 6);
	assert_true(f.after_hi == UNKNOWN);
	assert_int_equal(ft_fit_judge(&f, 6), FT_FIT_NOW);
	assert_int_equal(ft_fit_judge(&f, 7), FT_FIT_UNKNOWN);
	fit(&t, 4, &f);
	assert_int_equal(f.now_lo, 0);
	assert_true(f.now_hi == UNKNOWN);
	assert_int_equal(ft_fit_judge(&f, 1), FT_FIT_UNKNOWN);
	ft_pbmap_release(&t.m);
}

static void test_judge(void **state)
{
	struct ft_fit f = { .now_lo = 2, .now_hi = 3, .after_lo = 5, .after_hi = 7 };

	(void)state;
	assert_int_equal(ft_fit_judge(&f, 1), FT_FIT_NOW);
	assert_int_equal(ft_fit_judge(&f, 2), FT_FIT_NOW);
	assert_int_equal(ft_fit_judge(&f, 3), FT_FIT_AFTER);	/* maybe now, surely after */
	assert_int_equal(ft_fit_judge(&f, 5), FT_FIT_AFTER);
	assert_int_equal(ft_fit_judge(&f, 6), FT_FIT_UNKNOWN);
	assert_int_equal(ft_fit_judge(&f, 7), FT_FIT_UNKNOWN);
	assert_int_equal(ft_fit_judge(&f, 8), FT_FIT_NO);
}

/* Needs share the memory: a 16-page block taken holds 8 of 2 pages. */
static void test_needs(void **state)
{
	struct zone t;
	struct ft_fit z[2], left[2];
	struct ft_fit_need needs[2] = { { .count = 20, .order = 1 }, { .count = 1, .order = 4 } };
	enum ft_fit_verdict each[2];
	bool use = true;

	(void)state;
	plant(&t, true);
	feed(&t, 0, 16);
	fit(&t, 1, &z[0]);
	fit(&t, 4, &z[1]);
	/* the 16-page need goes first (largest), takes the free region: 25 - 8 left of order 1 */
	assert_int_equal(ft_fit_needs_judge(z, 1, &use, needs, 2, 50, 50, left, each), FT_FIT_NO);
	assert_int_equal(each[1], FT_FIT_NOW);
	assert_int_equal(left[1].now_lo, 1);
	assert_int_equal(left[0].now_lo, 17);
	assert_int_equal(left[0].after_hi, 17);
	assert_int_equal(each[0], FT_FIT_NO);
	needs[0].count = 17;
	assert_int_equal(ft_fit_needs_judge(z, 1, &use, needs, 2, 50, 50, left, each), FT_FIT_NOW);
	/* two regions: the second only after compaction, and nothing left of order 1 */
	needs[1].count = 2;
	needs[0].count = 9;
	assert_int_equal(ft_fit_needs_judge(z, 1, &use, needs, 2, 50, 50, left, each),
			 FT_FIT_AFTER);
	assert_int_equal(each[1], FT_FIT_AFTER);
	assert_int_equal(left[0].now_lo, 9);
	assert_int_equal(each[0], FT_FIT_NOW);
	/*
	 * the host's free memory holds the regions: 24 pages left after the 2M need's 0, one region
	 */
	needs[1].count = 2;
	needs[0].count = 1;
	assert_int_equal(ft_fit_needs_judge(z, 1, &use, needs, 2, 24, 24, left, each), FT_FIT_NO);
	assert_int_equal(left[1].after_lo, 1);
	assert_int_equal(each[1], FT_FIT_NO);
	/* a zone not used gives nothing */
	use = false;
	assert_int_equal(ft_fit_needs_judge(z, 1, &use, needs, 2, 50, 50, left, each), FT_FIT_NO);
	ft_pbmap_release(&t.m);
}

static void test_sizes(void **state)
{
	char b[16];

	(void)state;
	assert_int_equal(ft_fit_size_parse("4K", 4096), 0);
	assert_int_equal(ft_fit_size_parse("4k", 4096), 0);
	assert_int_equal(ft_fit_size_parse("4096", 4096), 0);
	assert_int_equal(ft_fit_size_parse("2M", 4096), 9);
	assert_int_equal(ft_fit_size_parse("2MiB", 4096), 9);
	assert_int_equal(ft_fit_size_parse("2MB", 4096), 9);
	assert_int_equal(ft_fit_size_parse("32M", 4096), 13);
	assert_int_equal(ft_fit_size_parse("1G", 4096), 18);
	assert_int_equal(ft_fit_size_parse("1G", 65536), 14);
	assert_int_equal(ft_fit_size_parse("2P", 4096), 39);
	assert_int_equal(ft_fit_size_parse("8P", 4096), -ERANGE);
	assert_int_equal(ft_fit_size_parse("3M", 4096), -EDOM);
	assert_int_equal(ft_fit_size_parse("2K", 4096), -EDOM);
	assert_int_equal(ft_fit_size_parse("0", 4096), -EDOM);
	assert_int_equal(ft_fit_size_parse("", 4096), -EINVAL);
	assert_int_equal(ft_fit_size_parse("-2M", 4096), -EINVAL);
	assert_int_equal(ft_fit_size_parse("2Q", 4096), -EINVAL);
	assert_int_equal(ft_fit_size_parse("2Mx", 4096), -EINVAL);
	assert_int_equal(ft_fit_size_parse("M", 4096), -EINVAL);
	assert_int_equal(ft_fit_size_parse("99999999999999999999999G", 4096), -ERANGE);
	assert_string_equal(ft_fit_size_name(0, 4096, b, sizeof(b)), "4K");
	assert_string_equal(ft_fit_size_name(9, 4096, b, sizeof(b)), "2M");
	assert_string_equal(ft_fit_size_name(13, 4096, b, sizeof(b)), "32M");
	assert_string_equal(ft_fit_size_name(18, 4096, b, sizeof(b)), "1G");
	assert_string_equal(ft_fit_size_name(4, 4096, b, sizeof(b)), "64K");
}

static void test_needs_parse(void **state)
{
	struct ft_fit_need n[FT_FIT_NEEDS_MAX];
	char err[128], many[1024] = "";
	size_t nr, i;

	(void)state;
	assert_int_equal(ft_fit_needs_parse("4x1G,512x2M", 4096, n, &nr, err, sizeof(err)), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(n[0].count, 4);
	assert_int_equal(n[0].order, 18);
	assert_int_equal(n[1].count, 512);
	assert_int_equal(n[1].order, 9);
	assert_int_equal(ft_fit_needs_parse("200X32M", 4096, n, &nr, err, sizeof(err)), 0);
	assert_int_equal(n[0].order, 13);
	assert_int_equal(ft_fit_needs_parse("0x2M", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "count"));
	assert_int_equal(ft_fit_needs_parse("x2M", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_int_equal(ft_fit_needs_parse("4x", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_int_equal(ft_fit_needs_parse("4x3M", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "power of two"));
	assert_int_equal(ft_fit_needs_parse("4x1G,", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_int_equal(ft_fit_needs_parse(",4x1G", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_int_equal(ft_fit_needs_parse("-4x1G", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_int_equal(ft_fit_needs_parse("4", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_int_equal(ft_fit_needs_parse("", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	for (i = 0; i <= FT_FIT_NEEDS_MAX; i++)
		strcat(many, i ? ",1x2M" : "1x2M");
	assert_int_equal(ft_fit_needs_parse(many, 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "more than"));
	assert_int_equal(ft_fit_interest_parse("2M,1G,512x2M", 4096, n, &nr, err, sizeof(err)), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(n[0].count, 0);
	assert_int_equal(n[0].order, 9);
	assert_int_equal(n[2].count, 512);
	assert_int_equal(ft_fit_interest_parse("2M,x1G", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	assert_int_equal(ft_fit_interest_parse("3M", 4096, n, &nr, err, sizeof(err)), -EINVAL);
	{
		int o[4];

		assert_int_equal(ft_fit_sizes_parse("4M,32M", 4096, o, 4, &nr, err, sizeof(err)),
				 0);
		assert_int_equal(nr, 2);
		assert_int_equal(o[0], 10);
		assert_int_equal(o[1], 13);
		assert_int_equal(ft_fit_sizes_parse("4x4M", 4096, o, 4, &nr, err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "a size, not COUNTxSIZE"));
		assert_int_equal(ft_fit_sizes_parse("4M,8M,16M,32M,64M", 4096, o, 4, &nr, err,
						    sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "more than 4 sizes"));
		assert_int_equal(ft_fit_sizes_parse("3M", 4096, o, 4, &nr, err, sizeof(err)),
				 -EINVAL);
	}
}

/*
 * The CPU from /proc/cpuinfo's first processor, and the hugetlb sizes of each architecture and page
 * size.
 */
static void test_hugetlb_arch(void **state)
{
	static const char x86[] =
		"processor\t: 0\nflags\t\t: fpu pse pdpe1gb rdtscp lm\n\nprocessor\t: 1\n";
	static const char x86_no1g[] = "processor\t: 0\nflags\t\t: fpu pse rdtscp lm xpdpe1gbx\n";
	static const char arm[] = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n"
				  "CPU architecture: 8\nCPU variant\t: 0x0\n";
	struct ft_fit_cpu c;

	(void)state;
	ft_fit_cpuinfo(x86, sizeof(x86) - 1, &c);
	assert_int_equal(c.arch, FT_ARCH_X86);
	assert_int_equal(c.pdpe1gb, 1);
	/* a longer word holding it is not the flag */
	ft_fit_cpuinfo(x86_no1g, sizeof(x86_no1g) - 1, &c);
	assert_int_equal(c.pdpe1gb, 0);
	ft_fit_cpuinfo(arm, sizeof(arm) - 1, &c);
	assert_int_equal(c.arch, FT_ARCH_ARM64);
	assert_int_equal(c.pdpe1gb, -1);
	ft_fit_cpuinfo("", 0, &c);
	assert_int_equal(c.arch, FT_ARCH_UNKNOWN);
	/* x86: 2M and 1G only */
	assert_true(ft_fit_hugetlb_arch(FT_ARCH_X86, 4096, 9));
	assert_true(ft_fit_hugetlb_arch(FT_ARCH_X86, 4096, 18));
	assert_false(ft_fit_hugetlb_arch(FT_ARCH_X86, 4096, 10));
	/* arm64: 64K, 2M, 32M, 1G with 4K pages; 2M, 32M, 1G with 16K; 2M, 512M, 16G with 64K */
	assert_true(ft_fit_hugetlb_arch(FT_ARCH_ARM64, 4096, 4));
	assert_true(ft_fit_hugetlb_arch(FT_ARCH_ARM64, 4096, 13));
	assert_true(ft_fit_hugetlb_arch(FT_ARCH_ARM64, 16384, 11));
	assert_false(ft_fit_hugetlb_arch(FT_ARCH_ARM64, 16384, 2));
	assert_true(ft_fit_hugetlb_arch(FT_ARCH_ARM64, 65536, 13));
	assert_true(ft_fit_hugetlb_arch(FT_ARCH_ARM64, 65536, 18));
	assert_false(ft_fit_hugetlb_arch(FT_ARCH_ARM64, 65536, 14));
	assert_false(ft_fit_hugetlb_arch(FT_ARCH_UNKNOWN, 4096, 9));
	assert_false(ft_fit_hugetlb_arch(FT_ARCH_X86, 4096, -1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hugetlb_arch),
		cmocka_unit_test(test_buddy_and_regions),
		cmocka_unit_test(test_free_memory_caps_compaction),
		cmocka_unit_test(test_unread_interval),
		cmocka_unit_test(test_uninitialised),
		cmocka_unit_test(test_no_map),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_needs),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_needs_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
