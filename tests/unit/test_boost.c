// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boost sampler's arithmetic: the scan of zoneinfo text, peaks and
 * episodes over reads (an episode spans ticks), the per-tick record's
 * round trip and its checks, the kernel's ceiling.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/boost.h"

static void test_scan(void **state)
{
	static const char zi[] =
		"Node 0, zone      DMA\n  pages free     3840\n        boost    0\n        min     "
		" 51\nNode 0, zone    DMA32\n  pages free     772808\n        boost    512\n"
		"Node 0, zone   Normal\n  pages free     10000\n        boost    16384\n"
		"Node 0, zone  Movable\n  pages free     0\n";
	uint64_t b[8];

	(void)state;
	assert_int_equal(ft_boost_scan(zi, sizeof(zi) - 1, b, 8), 4);
	assert_int_equal(b[0], 0);
	assert_int_equal(b[1], 512);
	assert_int_equal(b[2], 16384);
	assert_int_equal(b[3], 0);	/* no boost line (an old kernel, or an empty zone) */
	assert_int_equal(ft_boost_scan(zi, sizeof(zi) - 1, b, 2), 2);	/* bounded */
	assert_int_equal(ft_boost_scan("garbage\n", 8, b, 8), -EINVAL);
}

static void test_episodes(void **state)
{
	struct ft_boost_acc a;
	static const uint64_t reads[][2] = {
		{ 0, 0 }, { 512, 0 }, { 1024, 0 }, { 0, 0 }, { 0, 512 }, { 2048, 512 },
	};
	struct ft_boost_tick t[4];
	uint8_t rec[128];
	size_t len, i;

	(void)state;
	memset(&a, 0, sizeof(a));
	for (i = 0; i < 6; i++)
		ft_boost_acc_add(&a, reads[i], 2, 1);
	assert_int_equal(a.z[0].samples, 6);
	assert_int_equal(a.z[0].boosted, 3);
	assert_int_equal(a.z[0].episodes, 2);	/* 0 -> 512, and 0 -> 2048 */
	assert_int_equal(a.z[0].peak, 2048);
	assert_int_equal(a.z[1].episodes, 1);
	len = ft_boost_encode(&a, rec, sizeof(rec));
	assert_int_equal(len, 2 + 2 * 20);
	assert_int_equal(ft_boost_decode(rec, len, t, 4), 2);
	assert_int_equal(t[0].samples, 6);
	assert_int_equal(t[0].boosted, 3);
	assert_int_equal(t[0].episodes, 2);
	assert_int_equal(t[0].peak, 2048);
	assert_int_equal(t[1].peak, 512);
	/* the next tick starts from zero counts, but a boost still on is no new episode */
	assert_int_equal(a.z[0].samples, 0);
	ft_boost_acc_add(&a, (const uint64_t[]){ 4096, 0 }, 2, 1);
	assert_int_equal(a.z[0].episodes, 0);
	assert_int_equal(a.z[0].peak, 4096);
	ft_boost_acc_add(&a, (const uint64_t[]){ 0, 0 }, 2, 1);
	ft_boost_acc_add(&a, (const uint64_t[]){ 1, 0 }, 2, 1);
	assert_int_equal(a.z[0].episodes, 1);
	/* lower than at the last read while boosted: kswapd reset it between reads */
	ft_boost_acc_add(&a, (const uint64_t[]){ 4096, 0 }, 2, 1);
	ft_boost_acc_add(&a, (const uint64_t[]){ 512, 0 }, 2, 1);
	assert_int_equal(a.z[0].episodes, 2);
	ft_boost_acc_add(&a, (const uint64_t[]){ 1024, 0 }, 2, 1);	/* growing: the same one */
	assert_int_equal(a.z[0].episodes, 2);
	/* a slowed sampler's read stands for the reads it skipped */
	ft_boost_acc_add(&a, (const uint64_t[]){ 0, 0 }, 2, 10);
	/* six reads since the encode, then one for ten */
	assert_int_equal(a.z[1].samples, 6 + 10);
	ft_boost_acc_add(&a, (const uint64_t[]){ 0, 8 }, 2, 10);
	assert_int_equal(a.z[1].boosted, 10);
	assert_int_equal(a.z[1].episodes, 1);	/* episodes and peaks are not weighted */
	/* zones come and go: afresh */
	ft_boost_acc_add(&a, (const uint64_t[]){ 7, 0, 0 }, 3, 1);
	assert_int_equal(a.nr, 3);
	assert_int_equal(a.z[0].samples, 1);
	assert_int_equal(a.z[0].episodes, 1);
}

static void test_decode_checks(void **state)
{
	struct ft_boost_tick t[2], sum = { 0 };
	uint8_t rec[64] = { 0 };
	uint16_t n = 1;
	uint32_t v;

	(void)state;
	memcpy(rec, &n, 2);
	assert_int_equal(ft_boost_decode(rec, 22, t, 2), 1);
	assert_int_equal(ft_boost_decode(rec, 21, t, 2), -EINVAL);	/* short */
	assert_int_equal(ft_boost_decode(rec, 1, t, 2), -EINVAL);
	n = 3;
	memcpy(rec, &n, 2);
	assert_int_equal(ft_boost_decode(rec, 62, t, 2), -EINVAL);	/* more zones than room */
	n = 1;
	memcpy(rec, &n, 2);
	v = 5;
	memcpy(rec + 2 + 4, &v, 4);	/* boosted 5 of 0 reads */
	assert_int_equal(ft_boost_decode(rec, 22, t, 2), -EINVAL);
	t[0] = (struct ft_boost_tick){ 10, 2, 1, 512 };
	t[1] = (struct ft_boost_tick){ 10, 5, 2, 256 };
	ft_boost_sum(&sum, &t[0]);
	ft_boost_sum(&sum, &t[1]);
	assert_int_equal(sum.samples, 20);
	assert_int_equal(sum.boosted, 7);
	assert_int_equal(sum.episodes, 3);
	assert_int_equal(sum.peak, 512);
}

static void test_ceiling(void **state)
{
	(void)state;
	/* high 36060 printed with a 4096 boost: base 31964; factor 15000 -> 47946 */
	assert_int_equal(ft_boost_ceiling(36060, 4096, 15000, 9), 31964ull * 15000 / 10000);
	assert_int_equal(ft_boost_ceiling(1000, 0, 0, 9), 0);		/* boosting off */
	assert_int_equal(ft_boost_ceiling(100, 0, 1, 9), 0);		/* rounds to 0: off */
	assert_int_equal(ft_boost_ceiling(100, 0, 5000, 9), 512);	/* at least a pageblock */
	assert_int_equal(ft_boost_ceiling(10, 50, 15000, 9), 512);	/* boost > high: no wrap */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_episodes),
		cmocka_unit_test(test_decode_checks),
		cmocka_unit_test(test_ceiling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
