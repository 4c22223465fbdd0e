// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/kmsg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NEEDLE	": page allocation failure: order:"

/* @s's first @n bytes hold @needle at: its offset, or -1. */
static long find(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; i + k <= n; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, k))
			return (long)i;
	return -1;
}

/* A decimal at @p (at most @n bytes) into @v: the digits read, 0 if none. */
static size_t digits(const char *p, size_t n, uint64_t *v)
{
	size_t i = 0;

	*v = 0;
	while (i < n && i < 19 && p[i] >= '0' && p[i] <= '9')
		*v = *v * 10 + (uint64_t)(p[i++] - '0');
	return i;
}

/* "PRIO,SEQ,USEC,...;": the sequence and the time, and where the message starts. */
static int header(const char *rec, size_t len, struct ft_kmsg_fail *out, size_t *msg)
{
	const char *semi = memchr(rec, ';', len);
	uint64_t v;
	size_t i = 0, n;
	int field;

	if (!semi)
		return -EINVAL;
	for (field = 0; field < 3; field++) {
		n = digits(rec + i, (size_t)(semi - rec) - i, &v);
		if (!n)
			return -EINVAL;
		if (field == 1)
			out->seq = v;
		else if (field == 2)
			out->ts_us = v;
		i += n;
		if (rec + i >= semi || (rec[i] != ',' && field < 2))
			return -EINVAL;
		i++;
	}
	*msg = (size_t)(semi - rec) + 1;
	return 0;
}

int ft_kmsg_parse(const char *rec, size_t len, struct ft_kmsg_fail *out)
{
	const char *m, *nl;
	size_t start, mlen, c;
	uint64_t order;
	long at, mode;

	memset(out, 0, sizeof(*out));
	if (!rec || header(rec, len, out, &start))
		return -EINVAL;
	m = rec + start;
	mlen = len - start;
	if ((nl = memchr(m, '\n', mlen)))
		mlen = (size_t)(nl - m);	/* the message; continuation lines after */
	at = find(m, mlen, NEEDLE);
	if (at < 0)
		return -EINVAL;
	c = (size_t)at < sizeof(out->comm) - 1 ? (size_t)at : sizeof(out->comm) - 1;
	memcpy(out->comm, m, c);
	out->comm[c] = '\0';
	c = (size_t)at + strlen(NEEDLE);
	if (!digits(m + c, mlen - c, &order) || order > 64)
		return -EINVAL;
	out->order = (int)order;
	mode = find(m + c, mlen - c, "mode:0x");
	if (mode >= 0) {
		const char *p = m + c + mode + 7, *end = m + mlen, *lp, *rp;
		char hex[9];
		size_t h = 0;

		while (p + h < end && h < 8 && strchr("0123456789abcdefABCDEF", p[h]) && p[h])
			h++;
		memcpy(hex, p, h);
		hex[h] = '\0';
		out->mode = (uint32_t)strtoul(hex, NULL, 16);
		lp = p + h;
		if (lp < end && *lp == '(' && (rp = memchr(lp, ')', (size_t)(end - lp)))) {
			size_t g = (size_t)(rp - lp - 1);

			if (g > sizeof(out->gfp) - 1)
				g = sizeof(out->gfp) - 1;
			memcpy(out->gfp, lp + 1, g);
			out->gfp[g] = '\0';
		}
	}
	return 0;
}

void ft_kmsg_add(struct ft_kmsg *k, const struct ft_kmsg_fail *f)
{
	int o = f->order < FT_KMSG_ORDERS ? f->order : FT_KMSG_ORDERS - 1;

	k->failures++;
	k->by_order[o < 0 ? 0 : o]++;
	k->last[k->nlast++ % FT_KMSG_LAST] = *f;
}

int ft_kmsg_max_order(const uint64_t from[FT_KMSG_ORDERS], const uint64_t to[FT_KMSG_ORDERS])
{
	int o;

	for (o = FT_KMSG_ORDERS - 1; o >= 0; o--)
		if (to[o] > from[o])
			return o;
	return -1;
}
