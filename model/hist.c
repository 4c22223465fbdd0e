// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/hist.h"

#include <math.h>
#include <stdlib.h>

unsigned int ft_hist_bucket(uint64_t us)
{
	unsigned int e;

	if (us < FT_HIST_SUB)
		return (unsigned int)us;
	e = 63u - (unsigned int)__builtin_clzll(us);
	if (e >= FT_HIST_TOP_BITS)
		return FT_HIST_BUCKETS - 1;
	return (e - FT_HIST_SUB_BITS + 1) * FT_HIST_SUB +
	       (unsigned int)((us >> (e - FT_HIST_SUB_BITS)) & (FT_HIST_SUB - 1));
}

uint64_t ft_hist_bucket_lo(unsigned int b)
{
	unsigned int e;

	if (b < FT_HIST_SUB)
		return b;
	if (b >= FT_HIST_BUCKETS)
		b = FT_HIST_BUCKETS - 1;
	e = b / FT_HIST_SUB + FT_HIST_SUB_BITS - 1;
	return (uint64_t)(FT_HIST_SUB + b % FT_HIST_SUB) << (e - FT_HIST_SUB_BITS);
}

uint64_t ft_hist_bucket_hi(unsigned int b)
{
	if (b + 1 >= FT_HIST_BUCKETS)
		return 1ull << FT_HIST_TOP_BITS;
	return ft_hist_bucket_lo(b + 1);
}

void ft_hist_add(struct ft_hist *h, uint64_t us)
{
	h->bucket[ft_hist_bucket(us)]++;
	h->count++;
	h->sum_us += us;
	if (us > h->max_us)
		h->max_us = us;
}

void ft_hist_merge(struct ft_hist *dst, const struct ft_hist *src)
{
	unsigned int i;

	dst->count += src->count;
	dst->sum_us += src->sum_us;
	if (src->max_us > dst->max_us)
		dst->max_us = src->max_us;
	for (i = 0; i < FT_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

double ft_hist_mean(const struct ft_hist *h)
{
	return h->count ? (double)h->sum_us / (double)h->count : 0;
}

void ft_hist_sub(struct ft_hist *out, const struct ft_hist *a, const struct ft_hist *b)
{
	int i;

	out->count = a->count - b->count;
	out->sum_us = a->sum_us - b->sum_us;
	out->max_us = a->max_us;	/* an upper bound for the interval */
	for (i = 0; i < (int)FT_HIST_BUCKETS; i++)
		out->bucket[i] = a->bucket[i] - b->bucket[i];
	/* the interval's max: the top non-empty bucket's bound, capped by the overall max */
	for (i = FT_HIST_BUCKETS - 1; i >= 0 && !out->bucket[i]; i--)
		;
	if (i < 0)
		out->max_us = 0;
	else if (ft_hist_bucket_hi((unsigned int)i) - 1 < out->max_us)
		out->max_us = ft_hist_bucket_hi((unsigned int)i) - 1;
}

uint64_t ft_pct_rank(uint64_t n, double p)
{
	double r = ceil((double)n * p / 100.0 - 1e-9);

	if (r < 1)
		return 1;
	return r > (double)n ? n : (uint64_t)r;
}

uint64_t ft_hist_percentile(const struct ft_hist *h, double p)
{
	uint64_t want, seen = 0;
	unsigned int b;

	if (!h->count)
		return 0;
	want = ft_pct_rank(h->count, p);
	for (b = 0; b < FT_HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= want) {
			uint64_t hi = ft_hist_bucket_hi(b) - 1;

			return hi < h->max_us ? hi : h->max_us;
		}
	}
	return h->max_us;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void ft_pct_sort(uint32_t *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_u32);
}

uint64_t ft_pct_sorted(const uint32_t *v, size_t n, double p)
{
	return n ? v[ft_pct_rank(n, p) - 1] : 0;
}
