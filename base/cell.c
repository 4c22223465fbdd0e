// SPDX-License-Identifier: GPL-2.0-or-later
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/cell.h"

/* "1e+308" as "1e308", "1.5e-07" as "1.5e-7": the exponent's padding dropped. */
static void tight_exponent(char *s)
{
	char *e = strchr(s, 'e'), *d;

	if (!e)
		return;
	d = e + 1;
	if (*d == '+')
		memmove(d, d + 1, strlen(d + 1) + 1);
	else if (*d == '-')
		d++;
	while (d[0] == '0' && d[1])
		memmove(d, d + 1, strlen(d + 1) + 1);
}

const char *ft_cell(char *buf, size_t sz, double v, int width, int prec)
{
	char s[400];	/* "%.3f" of the largest double */
	int n, p;

	if (!sz)
		return buf;
	if (width < 1 || (size_t)width >= sz)
		width = (int)sz - 1;
	if (prec < 0)
		prec = 0;
	if (prec > 9)
		prec = 9;
	if (isnan(v))
		n = snprintf(s, sizeof(s), "-");
	else if (isinf(v))
		n = snprintf(s, sizeof(s), "%s", v > 0 ? "inf" : "-inf");
	else
		n = snprintf(s, sizeof(s), "%.*f", prec, v);
	for (p = prec - 1; n > width && p >= 0 && isfinite(v); p--)
		n = snprintf(s, sizeof(s), "%.*f", p, v);
	for (p = 3; n > width && p >= 1 && isfinite(v); p--) {
		snprintf(s, sizeof(s), "%.*g", p, v);
		tight_exponent(s);
		n = (int)strlen(s);
	}
	if (n > width) {
		memset(buf, '#', (size_t)width);
		buf[width] = '\0';
	} else {
		memcpy(buf, s, (size_t)n + 1);
	}
	return buf;
}

const char *ft_cell_pct(char *buf, size_t sz, double v, int width, int prec)
{
	size_t n;

	if (sz < 2 || width < 2) {
		if (sz)
			buf[0] = '\0';
		return buf;
	}
	ft_cell(buf, sz - 1, v, width - 1, prec);
	n = strlen(buf);
	if (!isnan(v) && n && buf[0] != '#') {
		buf[n] = '%';
		buf[n + 1] = '\0';
	}
	return buf;
}

int ft_cell_index(double v, int lo, int hi)
{
	if (isnan(v) || v < lo)
		return lo;
	if (v >= (double)hi)
		return hi;
	return (int)floor(v);
}

void ft_fmt_count(char *buf, size_t sz, double v, int width)
{
	static const char units[] = " kMGTPE";
	double s = v;
	int u = 0;

	if (!isfinite(v) || v < 0) {
		ft_cell(buf, sz, v, width, 0);
		return;
	}
	if (v < 10 && v != floor(v)) {
		snprintf(buf, sz, "%.1f", v);
		return;
	}
	if (snprintf(buf, sz, "%.0f", v) <= width)
		return;
	while (s >= 1000 && u < 6) {
		s /= 1000;
		u++;
	}
	if (s >= 999.5) {	/* past 999E: a double's range, not a counter's */
		ft_cell(buf, sz, v, width, 0);
		return;
	}
	/* "9.99k", "99.9k", "999k": at most 5 columns */
	snprintf(buf, sz, "%.*f%c", s < 10 ? 2 : s < 100 ? 1 : 0, s, units[u]);
}

void ft_fmt_rate(char *buf, size_t sz, double v, int width)
{
	ft_fmt_count(buf, sz, v, width);
}

void ft_fmt_pages(char *buf, size_t sz, uint64_t pages, long page_size)
{
	static const char units[] = "KMGTPEZ";
	double v = (double)pages * (double)(page_size > 0 ? page_size : 4096) / 1024;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (v < 10 && u)
		snprintf(buf, sz, "%.2f%c", v, units[u]);
	else if (v < 100 && u)
		snprintf(buf, sz, "%.1f%c", v, units[u]);
	else
		snprintf(buf, sz, "%.0f%c", v, units[u]);
}

void ft_fmt_pct(char *buf, size_t sz, double v)
{
	if (isnan(v))
		snprintf(buf, sz, "-");
	else if (!isfinite(v) || v < -9.99 || v >= 99999.5)
		ft_cell(buf, sz, v, 5, 0);
	else if (v >= 100)
		snprintf(buf, sz, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, sz, "%.1f", floor(v * 10) / 10);
	else
		snprintf(buf, sz, "%.2f", floor(v * 100) / 100);
}
