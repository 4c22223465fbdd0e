// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Log-linear latency buckets: every value lands in a bucket that holds it,
 * a percentile read from the buckets is never below the true one and at
 * most 1/16 above it over the whole range, and exact percentiles follow
 * the nearest-rank rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/hist.h"

static void check_value(uint64_t v)
{
	unsigned int b = ft_hist_bucket(v);
	uint64_t lo = ft_hist_bucket_lo(b), hi = ft_hist_bucket_hi(b);

	assert_true(b < FT_HIST_BUCKETS);
	if (v >= 1ull << FT_HIST_TOP_BITS) {
		assert_int_equal(b, FT_HIST_BUCKETS - 1);
		return;
	}
	assert_true(lo <= v && v < hi);
	/* the bucket's top as the estimate: at most 1/16 of the value above it */
	assert_true((double)(hi - 1 - v) <= (double)v / FT_HIST_SUB);
}

static void test_buckets_whole_range(void **state)
{
	uint64_t v, seed = 12345;
	unsigned int b;
	int i;

	(void)state;
	for (v = 0; v < (1u << 20); v++)
		check_value(v);
	/* every power of two and its neighbours up to 2^40 */
	for (i = 1; i < 40; i++) {
		check_value((1ull << i) - 1);
		check_value(1ull << i);
		check_value((1ull << i) + 1);
	}
	for (i = 0; i < 200000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		check_value(seed >> (24 + (seed & 15)));
	}
	check_value(UINT64_MAX);
	/* buckets tile the range: each ends where the next starts */
	for (b = 0; b + 1 < FT_HIST_BUCKETS; b++) {
		assert_int_equal(ft_hist_bucket_hi(b), ft_hist_bucket_lo(b + 1));
		assert_int_equal(ft_hist_bucket(ft_hist_bucket_lo(b)), b);
	}
	/* at least 8 buckets per power of two */
	assert_true(ft_hist_bucket(1ull << 20) - ft_hist_bucket(1ull << 19) >= 8);
}

/* Percentiles from buckets against exact ones, over skewed random data. */
static void test_percentile_bound(void **state)
{
	static uint32_t v[100000];
	static const double ps[] = { 1, 50, 90, 99, 99.9, 100 };
	struct ft_hist h;
	uint64_t seed = 7;
	size_t i, k;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (i = 0; i < 100000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = (uint32_t)((seed >> 33) >> (seed & 31));	/* log-spread */
		ft_hist_add(&h, v[i]);
	}
	ft_pct_sort(v, 100000);
	for (k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		uint64_t exact = ft_pct_sorted(v, 100000, ps[k]);
		uint64_t est = ft_hist_percentile(&h, ps[k]);

		assert_true(est >= exact);
		assert_true((double)(est - exact) <= (double)exact / FT_HIST_SUB);
	}
	assert_int_equal(ft_hist_percentile(&h, 100), v[99999]);
	assert_int_equal(h.max_us, v[99999]);
}

/* Nearest rank: 1..100 gives p50 50, p90 90, p99 99, p99.9 100. */
static void test_exact(void **state)
{
	uint32_t v[100];
	int i;

	(void)state;
	for (i = 0; i < 100; i++)
		v[i] = (uint32_t)(100 - i);
	ft_pct_sort(v, 100);
	assert_int_equal(v[0], 1);
	assert_int_equal(ft_pct_sorted(v, 100, 50), 50);
	assert_int_equal(ft_pct_sorted(v, 100, 90), 90);
	assert_int_equal(ft_pct_sorted(v, 100, 99), 99);
	assert_int_equal(ft_pct_sorted(v, 100, 99.9), 100);
	assert_int_equal(ft_pct_sorted(v, 100, 100), 100);
	assert_int_equal(ft_pct_sorted(v, 1, 50), 1);
	assert_int_equal(ft_pct_sorted(v, 0, 50), 0);
	assert_int_equal(ft_pct_rank(1000, 99.9), 999);
	assert_int_equal(ft_pct_rank(3, 0.1), 1);
}

/* An interval: later minus earlier; its max is capped by its top bucket. */
static void test_sub_merge(void **state)
{
	struct ft_hist a, b, d, m;
	int i;

	(void)state;
	memset(&a, 0, sizeof(a));
	for (i = 0; i < 99; i++)
		ft_hist_add(&a, 1);
	ft_hist_add(&a, 1000000);
	b = a;
	for (i = 0; i < 10; i++)
		ft_hist_add(&a, 200);
	ft_hist_sub(&d, &a, &b);
	assert_int_equal(d.count, 10);
	assert_int_equal(d.sum_us, 2000);
	assert_true(d.max_us >= 200 && d.max_us <= 200 + 200 / FT_HIST_SUB);
	assert_int_equal(ft_hist_percentile(&d, 50), d.max_us);
	memset(&m, 0, sizeof(m));
	ft_hist_merge(&m, &b);
	ft_hist_merge(&m, &d);
	assert_int_equal(m.count, a.count);
	assert_int_equal(m.sum_us, a.sum_us);
	assert_int_equal(m.max_us, 1000000);
	assert_memory_equal(m.bucket, a.bucket, sizeof(a.bucket));
	ft_hist_sub(&d, &a, &a);
	assert_int_equal(d.count, 0);
	assert_int_equal(d.max_us, 0);
	assert_int_equal(ft_hist_percentile(&d, 50), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_whole_range),
		cmocka_unit_test(test_percentile_bound),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_sub_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
