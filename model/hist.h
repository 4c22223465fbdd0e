/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency histograms with log-linear buckets, and exact percentiles.
 *
 * Values (microseconds) below 16 get a bucket each; above, every power of
 * two [2^e, 2^(e+1)) is cut into 16 equal buckets, so a value read back as
 * its bucket's upper bound is at most 1/16 (6.25%) above the true one.
 * Values from 2^32 us (71 minutes) up share the last bucket; max_us stays
 * exact.  A percentile is the nearest rank: the smallest value with at
 * least p% of the values at or below it, the same rule ft_pct_sorted()
 * applies to raw values, so the two agree to within a bucket.  Pure.
 */
#ifndef FT_MODEL_HIST_H
#define FT_MODEL_HIST_H

#include <stddef.h>
#include <stdint.h>

#define FT_HIST_SUB_BITS	4
#define FT_HIST_SUB		(1u << FT_HIST_SUB_BITS)	/* buckets per power of two */
#define FT_HIST_TOP_BITS	32				/* 2^32 us and up: last bucket */
#define FT_HIST_BUCKETS		((FT_HIST_TOP_BITS - FT_HIST_SUB_BITS + 1) * FT_HIST_SUB)

struct ft_hist {
	uint64_t count;
	uint64_t sum_us;
	uint64_t max_us;
	uint64_t bucket[FT_HIST_BUCKETS];
};

/* The bucket of @us, and a bucket's range [lo, hi) (the last one's hi is 2^32). */
unsigned int ft_hist_bucket(uint64_t us);
uint64_t ft_hist_bucket_lo(unsigned int b);
uint64_t ft_hist_bucket_hi(unsigned int b);

void ft_hist_add(struct ft_hist *h, uint64_t us);
/* Fold @src into @dst. */
void ft_hist_merge(struct ft_hist *dst, const struct ft_hist *src);
double ft_hist_mean(const struct ft_hist *h);
/*
 * @a minus @b (a later and an earlier state of one histogram): the
 * interval's counts; max_us is the top non-empty bucket's bound, capped
 * by @a's max.
 */
void ft_hist_sub(struct ft_hist *out, const struct ft_hist *a, const struct ft_hist *b);
/*
 * The p-th percentile (0 < p <= 100) as the upper bound of the bucket
 * holding it (hi - 1, capped by max_us): never below the true value, at
 * most 6.25% above it.  0 for an empty histogram.
 */
uint64_t ft_hist_percentile(const struct ft_hist *h, double p);

/* The nearest rank (1-based) of the p-th percentile among @n values. */
uint64_t ft_pct_rank(uint64_t n, double p);
/* Exact percentiles of raw values: sort them once, then read any p (0 if @n is 0). */
void ft_pct_sort(uint32_t *v, size_t n);
uint64_t ft_pct_sorted(const uint32_t *v, size_t n, double p);

#endif
