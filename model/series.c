// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/series.h"

#include <math.h>

void ft_series_push(struct ft_series *s, double v)
{
	s->v[s->n++ % FT_SERIES_LEN] = v;
}

double ft_series_get(const struct ft_series *s, unsigned long back)
{
	if (back >= s->n || back >= FT_SERIES_LEN)
		return NAN;
	return s->v[(s->n - 1 - back) % FT_SERIES_LEN];
}

double ft_series_max(const struct ft_series *s, unsigned long count)
{
	double m = 0;
	unsigned long i;

	for (i = 0; i < count; i++) {
		double v = ft_series_get(s, i);

		if (isnan(v))
			break;
		if (v > m)
			m = v;
	}
	return m;
}

double ft_series_mean(const struct ft_series *s, unsigned long count)
{
	double sum = 0;
	unsigned long i, n = 0;

	for (i = 0; i < count && i < s->n && i < FT_SERIES_LEN; i++) {
		double v = ft_series_get(s, i);

		if (isnan(v))
			continue;
		sum += v;
		n++;
	}
	return n ? sum / (double)n : NAN;
}
