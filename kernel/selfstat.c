// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/selfstat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Field @n (1-based, as proc(5) numbers them) of a stat line whose fields from 3 start at @p. */
static bool field(const char *p, const char *end, int n, unsigned long long *v)
{
	int i;
	char *e;

	for (i = 3; i < n && p < end; i++) {
		while (p < end && *p != ' ')
			p++;
		while (p < end && *p == ' ')
			p++;
	}
	if (p >= end || *p < '0' || *p > '9')
		return false;
	errno = 0;
	*v = strtoull(p, &e, 10);
	return !errno && e <= end && e > p;
}

int ft_selfstat_parse(const char *buf, size_t len, long hz, long page_size, uint64_t btime,
		      struct ft_selfstat *out)
{
	char line[1024];
	const char *close, *p, *end;
	unsigned long long ut, st, start, vsize, rss;

	if (!len || len >= sizeof(line) || hz <= 0 || page_size <= 0)
		return -EINVAL;
	memcpy(line, buf, len);
	line[len] = '\0';
	close = strrchr(line, ')');
	if (!close || close[1] != ' ')
		return -EINVAL;
	p = close + 2;		/* field 3, the state */
	end = line + len;
	if (!field(p, end, 14, &ut) || !field(p, end, 15, &st) || !field(p, end, 22, &start) ||
	    !field(p, end, 23, &vsize) || !field(p, end, 24, &rss))
		return -EINVAL;
	out->known = true;
	out->cpu_seconds = (double)(ut + st) / (double)hz;
	out->resident_bytes = (uint64_t)rss * (uint64_t)page_size;
	out->virtual_bytes = vsize;
	out->start_time_seconds = (double)btime + (double)start / (double)hz;
	return 0;
}

int ft_btime_parse(const char *buf, size_t len, uint64_t *btime)
{
	size_t i = 0;

	while (i < len) {
		const char *l = buf + i, *nl = memchr(l, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - l) : len - i;

		if (ll > 6 && ll < 32 && !memcmp(l, "btime ", 6) && l[6] >= '0' && l[6] <= '9') {
			char num[32];

			memcpy(num, l + 6, ll - 6);	/* the buffer need not end in a NUL */
			num[ll - 6] = '\0';
			*btime = strtoull(num, NULL, 10);
			return 0;
		}
		i += ll + 1;
	}
	return -ENOENT;
}
