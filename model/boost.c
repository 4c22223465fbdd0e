// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/boost.h"

#include <errno.h>
#include <string.h>

/* "Node 0, zone   Normal" starts a zone; "  boost    4096" gives its boost. */
int ft_boost_scan(const char *buf, size_t len, uint64_t *out, int max)
{
	const char *p = buf, *end = buf + len;
	int nr = -1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (ll >= 5 && !memcmp(p, "Node ", 5)) {
			if (++nr < max)
				out[nr] = 0;
		} else if (nr >= 0 && nr < max) {
			const char *q = p;

			while (q < p + ll && *q == ' ')
				q++;
			if ((size_t)(p + ll - q) > 6 && !memcmp(q, "boost ", 6)) {
				uint64_t v = 0;

				for (q += 6; q < p + ll && *q == ' '; q++)
					;
				for (; q < p + ll && *q >= '0' && *q <= '9'; q++)
					v = v * 10 + (uint64_t)(*q - '0');
				out[nr] = v;
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (nr < 0)
		return -EINVAL;
	return nr + 1 < max ? nr + 1 : max;
}

void ft_boost_acc_add(struct ft_boost_acc *a, const uint64_t *boost, int nr, uint32_t weight)
{
	int i;

	if (nr > FT_BOOST_ZONES)
		nr = FT_BOOST_ZONES;
	if (nr != a->nr) {	/* zones came or went: start afresh */
		memset(a, 0, sizeof(*a));
		a->nr = nr;
	}
	for (i = 0; i < nr; i++) {
		struct ft_boost_tick *z = &a->z[i];
		bool on = boost[i] > 0;

		z->samples += weight;
		if (on) {
			z->boosted += weight;
			/*
			 * A new episode: the boost was 0, or it is lower than at
			 * the last read.  While boosted the kernel only adds to it
			 * (a pageblock per fallback, up to the ceiling); kswapd,
			 * when done, takes off the boost it started with, so a
			 * lower value means that episode ended and the rest is a
			 * newer one's.
			 */
			if (!a->was_boosted[i] || boost[i] < a->last[i])
				z->episodes++;
			if (boost[i] > z->peak)
				z->peak = boost[i];
		}
		a->was_boosted[i] = on;
		a->last[i] = boost[i];
	}
}

void ft_boost_sum(struct ft_boost_tick *sum, const struct ft_boost_tick *src)
{
	sum->samples += src->samples;
	sum->boosted += src->boosted;
	sum->episodes += src->episodes;
	if (src->peak > sum->peak)
		sum->peak = src->peak;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

size_t ft_boost_encode(struct ft_boost_acc *a, uint8_t *out, size_t sz)
{
	uint16_t n = (uint16_t)a->nr;
	size_t len = 2 + (size_t)n * 20;
	int i;

	if (len > sz)
		return 0;
	memcpy(out, &n, 2);
	for (i = 0; i < n; i++) {
		uint8_t *z = out + 2 + (size_t)i * 20;

		put32(z, a->z[i].samples);
		put32(z + 4, a->z[i].boosted);
		put32(z + 8, a->z[i].episodes);
		memcpy(z + 12, &a->z[i].peak, 8);
		memset(&a->z[i], 0, sizeof(a->z[i]));
	}
	return len;
}

int ft_boost_decode(const uint8_t *p, size_t len, struct ft_boost_tick *out, int max)
{
	uint16_t n;
	int i;

	if (len < 2)
		return -EINVAL;
	memcpy(&n, p, 2);
	if (len != 2 + (size_t)n * 20 || n > max)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		const uint8_t *z = p + 2 + (size_t)i * 20;

		memcpy(&out[i].samples, z, 4);
		memcpy(&out[i].boosted, z + 4, 4);
		memcpy(&out[i].episodes, z + 8, 4);
		memcpy(&out[i].peak, z + 12, 8);
		if (out[i].boosted > out[i].samples || out[i].episodes > out[i].boosted)
			return -EINVAL;
	}
	return n;
}

uint64_t ft_boost_ceiling(uint64_t high_printed, uint64_t boost_now, int64_t factor,
			  int pageblock_order)
{
	uint64_t high = high_printed - (boost_now <= high_printed ? boost_now : 0);
	uint64_t pb = pageblock_order >= 0 && pageblock_order < 40 ? 1ull << pageblock_order : 0;
	uint64_t max;

	if (factor <= 0)
		return 0;
	/* mult_frac(high, factor, 10000) as the kernel computes it */
	max = high / 10000 * (uint64_t)factor + high % 10000 * (uint64_t)factor / 10000;
	if (!max)
		return 0;
	return max > pb ? max : pb;
}

double ft_boost_share(const struct ft_boost_tick *t)
{
	return t->samples ? (double)t->boosted / t->samples : 0;
}
