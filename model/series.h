/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fixed ring of the last values of a per-tick metric, for sparklines. */
#ifndef FT_MODEL_SERIES_H
#define FT_MODEL_SERIES_H

#include <stddef.h>

#define FT_SERIES_LEN 600	/* 10 minutes at 1 s */

struct ft_series {
	double v[FT_SERIES_LEN];
	unsigned long n;	/* values ever pushed */
};

void ft_series_push(struct ft_series *s, double v);
/* @back = 0 is the newest; NAN past what was pushed. */
double ft_series_get(const struct ft_series *s, unsigned long back);
/* Largest of the newest @count values (0 if none). */
double ft_series_max(const struct ft_series *s, unsigned long count);

/* Mean of the newest @count values, NaNs skipped; NAN if there is none. */
double ft_series_mean(const struct ft_series *s, unsigned long count);

#endif
