// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/kmsg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NEEDLE	": page allocation failure: order:"
#define MODE	", mode:"

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

/*
 * "PRIO,SEQ,USEC,...;": the sequence and the time, and where the message
 * starts.  PRIO is (facility << 3) | level; the kernel's own records have
 * facility 0, and a write to /dev/kmsg from user space never does (the
 * kernel makes it LOG_USER, printk.c devkmsg_write()): anything else is
 * refused.
 */
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
		if (field == 0 && v >> 3)
			return -EINVAL;		/* not the kernel's */
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
	size_t start, mlen, c, n;
	uint64_t order;
	long at;

	memset(out, 0, sizeof(*out));
	if (!rec || header(rec, len, out, &start))
		return -EINVAL;
	m = rec + start;
	mlen = len - start;
	if ((nl = memchr(m, '\n', mlen)))
		mlen = (size_t)(nl - m);	/* the message; continuation lines after */
	/*
	 * warn_alloc()'s own form only: the task's name (TASK_COMM_LEN less
	 * its NUL) first, then the phrase, the order and ", mode:".  A message
	 * that holds the phrase further in (a mount option a user chose,
	 * echoed by tmpfs) is not a failure, nor is a line cut before its mode.
	 */
	at = find(m,
		  mlen < FT_KMSG_COMM_MAX + strlen(NEEDLE) ? mlen : FT_KMSG_COMM_MAX +
		  strlen(NEEDLE), NEEDLE);
	/* a task's name holds no NUL */
	if (at < 1 || at > FT_KMSG_COMM_MAX || memchr(m, '\0', (size_t)at))
		return -EINVAL;
	memcpy(out->comm, m, (size_t)at);
	out->comm[at] = '\0';
	c = (size_t)at + strlen(NEEDLE);
	n = digits(m + c, mlen - c, &order);
	if (!n || order > 64)
		return -EINVAL;
	out->order = (int)order;
	c += n;
	if (mlen - c < strlen(MODE) || memcmp(m + c, MODE, strlen(MODE)))
		return -EINVAL;
	c += strlen(MODE);
	{
		const char *p = m + c, *end = m + mlen, *lp, *rp;
		char hex[9];
		size_t h = 0;

		if (end - p >= 2 && p[0] == '0' && p[1] == 'x')
			p += 2;		/* %#x: "0x..." (a mask of 0 prints "0") */
		while (p + h < end && h < 8 && p[h] && strchr("0123456789abcdefABCDEF", p[h]))
			h++;
		if (!h)
			return -EINVAL;
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
