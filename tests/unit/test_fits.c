// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Will it fit for a session (analysis/fits.c): the sizes of interest from
 * the host facts, the figures of a real 6.18 sample worked by hand from
 * its buddyinfo and zoneinfo, and the trend.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/fits.h"
#include "tests/session_fixture.h"

static void host(struct ft_session *s, const char *text)
{
	fixture_apply(s, FT_RR_HOST, 0, 1, text, strlen(text));
}

/* One tick of tests/fixtures/6.18-idle. */
static void tick(struct ft_session *s, uint64_t t)
{
	assert_true(fixture_tick(s, "6.18-idle", t));
}

static void test_sizes(void **state)
{
	static struct ft_session s;
	struct ft_fits_sizes z;
	int asked[2] = { 13, 9 };	/* 32M, and 2M again */

	(void)state;
	ft_session_init(&s);
	host(&s, "page_size=4096\npageblock_order=9\nhugepage_kb=2048,1048576\n"
		 "mthp_kb=16,32,64,128,256,512,1024,2048\n");
	tick(&s, 1000000000);
	assert_int_equal(ft_fits_sizes(&s, FT_FITS_SRC_HOST, NULL, 0, &z), 9);
	assert_int_equal(z.order[0], 2);	/* 16K */
	assert_int_equal(z.order[7], 9);
	assert_int_equal(z.src[7], FT_FITS_SRC_HUGETLB | FT_FITS_SRC_MTHP | FT_FITS_SRC_PAGEBLOCK);
	assert_int_equal(z.order[8], 18);
	assert_int_equal(z.src[8], FT_FITS_SRC_HUGETLB);
	/* asked sizes join them, each once */
	assert_int_equal(ft_fits_sizes(&s, FT_FITS_SRC_HUGETLB | FT_FITS_SRC_PAGEBLOCK, asked, 2,
				       &z), 3);
	assert_int_equal(z.order[0], 9);
	assert_int_equal(z.src[0], FT_FITS_SRC_ASKED | FT_FITS_SRC_HUGETLB | FT_FITS_SRC_PAGEBLOCK);
	assert_int_equal(z.order[1], 13);
	assert_int_equal(z.src[1], FT_FITS_SRC_ASKED);
	ft_session_release(&s);
}

/*
 * The 6.18-idle sample at 2M and 4M, from its files by hand: a zone's free
 * blocks of the order and above, no more than
 * (free - min - protection[Movable]) >> order.
 *   DMA    free 3840, min 51 + 4938: nothing above the watermark
 *   DMA32  2M: 2 + 2 x 752 = 1506 on the lists, (772808 - 10296 - 1920) >> 9 = 1485
 *          4M: 752, >> 10 = 742
 *   Normal 2M: 57 + 2 x 331 = 719, (434186 - 6548) >> 9 = 835; 4M: 331, 417
 */
static void test_figures(void **state)
{
	static struct ft_session s;
	struct ft_fits_sizes z;
	struct ft_fits t;
	int asked[2] = { 9, 10 };

	(void)state;
	ft_session_init(&s);
	host(&s, "page_size=4096\npageblock_order=9\n");
	tick(&s, 1000000000);
	ft_fits_sizes(&s, 0, asked, 2, &z);
	ft_fits_init(&t);
	assert_int_equal(ft_fits_build(&t, &s, &z, true), 0);
	assert_int_equal(t.nr_zones, 3);
	assert_int_equal(t.nr_nodes, 1);
	assert_false(t.map);
	assert_int_equal(ft_fits_at(&t, 0, 0)->now_lo, 0);
	assert_int_equal(ft_fits_at(&t, 0, 0)->wmark, 51 + 4938);
	assert_int_equal(ft_fits_at(&t, 1, 0)->free_lists, 1506);
	assert_int_equal(ft_fits_at(&t, 1, 0)->now_lo, 1485);
	assert_int_equal(ft_fits_at(&t, 1, 1)->now_lo, 742);
	assert_int_equal(ft_fits_at(&t, 2, 0)->now_lo, 719);
	assert_int_equal(ft_fits_at(&t, 2, 1)->now_lo, 331);
	assert_int_equal(t.host[0].now_lo, 1485 + 719);
	assert_int_equal(t.host[0].now_hi, 1485 + 719);
	assert_true(t.host[0].after_hi == UINT64_MAX);	/* no map: not known */
	assert_int_equal(ft_fits_node_at(&t, 0, 1)->now_lo, 742 + 331);
	ft_fits_release(&t);
	ft_session_release(&s);
}

static void test_trend(void **state)
{
	static struct ft_fits_trend tr;
	struct ft_fits t = { .sizes = { .nr = 1, .order = { 9 } } };
	double rate, window;
	int i;

	(void)state;
	memset(&tr, 0, sizeof(tr));
	/* 2 blocks a second lost, every second */
	for (i = 0; i < 9; i++) {
		t.host[0].now_lo = (uint64_t)(1000 - 2 * i);
		ft_fits_trend_add(&tr, &t, (uint64_t)(i + 1) * 1000000000);
	}
	assert_false(ft_fits_trend_rate(&tr, 0, &rate, &window));	/* 9 ticks: not enough */
	for (; i < 60; i++) {
		t.host[0].now_lo = (uint64_t)(1000 - 2 * i);
		ft_fits_trend_add(&tr, &t, (uint64_t)(i + 1) * 1000000000);
	}
	assert_true(ft_fits_trend_rate(&tr, 0, &rate, &window));
	assert_true(fabs(rate + 2) < 1e-9);
	assert_true(fabs(window - 59) < 1e-9);
	/*
	 * at 882 now and -2/s, a need of 400 is 241 s off; one already short now; a rising one
	 * never
	 */
	assert_true(fabs(ft_fits_trend_eta(882, 400, rate) - 241) < 1e-9);
	assert_true(ft_fits_trend_eta(300, 400, rate) == 0);
	assert_true(isinf(ft_fits_trend_eta(882, 400, 0.5)));
	assert_false(ft_fits_trend_rate(&tr, 1, &rate, &window));	/* no such size */
	/* the ring keeps the last FT_FITS_TREND_LEN */
	for (; i < 60 + FT_FITS_TREND_LEN; i++) {
		t.host[0].now_lo = 5000;
		ft_fits_trend_add(&tr, &t, (uint64_t)(i + 1) * 1000000000);
	}
	assert_int_equal(tr.n, FT_FITS_TREND_LEN);
	assert_true(ft_fits_trend_rate(&tr, 0, &rate, &window));
	assert_true(fabs(rate) < 1e-9);
	/* a time going back (a seek) or other sizes start again */
	ft_fits_trend_add(&tr, &t, 5000000000);
	assert_int_equal(tr.n, 1);
	t.sizes.order[0] = 10;
	ft_fits_trend_add(&tr, &t, 6000000000);
	assert_int_equal(tr.n, 1);
	/* 20 ticks in 10 s: enough ticks, too short a window */
	for (i = 0; i < 20; i++)
		ft_fits_trend_add(&tr, &t, 7000000000 + (uint64_t)i * 500000000);
	assert_false(ft_fits_trend_rate(&tr, 0, &rate, &window));
}

/*
 * Who put a block's pages there: its last fallback's task, named and in a cgroup, from the
 * session's tables.
 */
static void test_who(void **state)
{
	static struct ft_session s;
	struct ft_fits_who w;
	uint64_t pfn;

	(void)state;
	ft_session_init(&s);
	host(&s, "page_size=4096\npageblock_order=9\n");
	tick(&s, 1000000000);
	assert_true(s.map.nr > 0);
	pfn = s.map.zones[s.map.nr - 1].start_pfn + 4096;
	ft_fits_who(&s, pfn, &w);
	assert_int_equal(w.fallbacks, 0);
	assert_int_equal(w.pid, 0);
	assert_string_equal(w.comm, "");
	assert_true(ft_pbmap_mark(&s.map, pfn, 4242, 2000000000));
	assert_non_null(ft_procs_row(&s.events.procs, 4242, 2000000000));
	ft_procs_name(&s.events.procs, 4242, "fio", 2000000000);
	ft_procs_cgroup(&s.events.procs, 4242, "/work.slice");
	ft_fits_who(&s, pfn + 100, &w);	/* any page of the block */
	assert_int_equal(w.fallbacks, 1);
	assert_int_equal(w.pid, 4242);
	assert_string_equal(w.comm, "fio");
	assert_string_equal(w.cgroup, "/work.slice");
	assert_string_equal(w.owner, "");	/* no page_owner look */
	ft_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_trend),
		cmocka_unit_test(test_who),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
