/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics for comparing groups of runs, as a kernel developer's bench
 * does (mmtests): mean, sample standard deviation, min/max, and Welch's
 * unequal-variances t-test with its two-sided p-value (Student's t
 * distribution through the regularized incomplete beta function).  Pure.
 */
#ifndef FT_MODEL_STATS_H
#define FT_MODEL_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct ft_stats {
	size_t n;		/* values that are numbers (NaN skipped) */
	double mean, sd;	/* sd: sample (n - 1); NAN below 2 values */
	double min, max;
};

void ft_stats_of(const double *v, size_t n, struct ft_stats *out);

struct ft_welch {
	double t, df;		/* the statistic and Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided; NAN when the test cannot be made */
};

/*
 * Welch's t-test of two groups' means.  Needs at least 2 values in each;
 * two groups with no variance at all give p 0 if the means differ, 1 if
 * not.  Returns false (p NAN) when it cannot be made.
 */
bool ft_welch(const struct ft_stats *a, const struct ft_stats *b, struct ft_welch *out);

/* P(|T| >= |t|) for Student's t with @df degrees of freedom. */
double ft_t_two_sided_p(double t, double df);

/* The regularized incomplete beta function I_x(a, b). */
double ft_betai(double a, double b, double x);

#endif
