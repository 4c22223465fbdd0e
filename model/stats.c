// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/stats.h"

#include <math.h>

void ft_stats_of(const double *v, size_t n, struct ft_stats *out)
{
	double sum = 0, ss = 0;
	size_t i;

	out->n = 0;
	out->min = INFINITY;
	out->max = -INFINITY;
	for (i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		out->n++;
		sum += v[i];
		out->min = fmin(out->min, v[i]);
		out->max = fmax(out->max, v[i]);
	}
	if (!out->n) {
		out->mean = out->sd = out->min = out->max = NAN;
		return;
	}
	out->mean = sum / (double)out->n;
	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			ss += (v[i] - out->mean) * (v[i] - out->mean);
	out->sd = out->n > 1 ? sqrt(ss / (double)(out->n - 1)) : NAN;
}

/* The continued fraction of the incomplete beta function (Lentz's method). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

double ft_betai(double a, double b, double x)
{
	double front;

	if (!(x >= 0 && x <= 1) || !(a > 0) || !(b > 0))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* the fraction converges fast on one side of the mean; use the symmetry on the other */
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double ft_t_two_sided_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return ft_betai(df / 2, 0.5, df / (df + t * t));
}

bool ft_welch(const struct ft_stats *a, const struct ft_stats *b, struct ft_welch *out)
{
	double va, vb, se2;

	out->t = out->df = out->p = NAN;
	if (a->n < 2 || b->n < 2)
		return false;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	if (se2 == 0) {		/* no variance in either: the means differ or they do not */
		out->t = a->mean == b->mean ? 0 : INFINITY;
		out->p = a->mean == b->mean ? 1 : 0;
		return true;
	}
	out->t = (b->mean - a->mean) / sqrt(se2);
	out->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	out->p = ft_t_two_sided_p(out->t, out->df);
	return true;
}
