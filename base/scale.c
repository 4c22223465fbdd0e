// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/scale.h"

#include <math.h>

double ft_scale_px(const struct ft_scale *s, double v)
{
	double f;

	if (s->d1 == s->d0 || isnan(v))
		return s->p0;
	f = (v - s->d0) / (s->d1 - s->d0);
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return s->p0 + f * (s->p1 - s->p0);
}

/* The smallest of 1, 2, 5 times a power of ten that is >= @x. */
static double nice_step(double x)
{
	double p = pow(10, floor(log10(x))), m = x / p;

	if (m <= 1 + 1e-9)
		return p;
	if (m <= 2 + 1e-9)
		return 2 * p;
	if (m <= 5 + 1e-9)
		return 5 * p;
	return 10 * p;
}

size_t ft_nice_ticks(double lo, double hi, size_t max, double *out, size_t cap, double *step)
{
	double s, first, v;
	size_t n = 0;

	if (isnan(lo) || isnan(hi) || max < 2)
		return 0;
	if (hi < lo) {
		double t = lo;

		lo = hi;
		hi = t;
	}
	if (hi == lo) {
		if (lo == 0)
			hi = 1;
		else
			hi = lo + fabs(lo);
		if (lo > 0)
			lo = 0;
	}
	s = nice_step((hi - lo) / (double)(max - 1));
	/* widen until the ticks from below lo to above hi fit in max */
	while (ceil(hi / s - 1e-9) - floor(lo / s + 1e-9) + 1 > (double)max)
		s = nice_step(s * 1.0001);
	first = floor(lo / s + 1e-9) * s;
	for (v = first; n < cap && v <= hi + s * (1 - 1e-9) && n < max; v += s) {
		out[n++] = fabs(v) < s * 1e-9 ? 0 : v;
		if (v >= hi - s * 1e-9)
			break;
	}
	if (step)
		*step = s;
	return n;
}
