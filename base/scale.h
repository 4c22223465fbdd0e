/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Axis scales for charts (the SVG plots): a linear map from data to
 * pixels, and "nice" tick values (1, 2 or 5 times a power of ten) that
 * cover a range in a handful of steps.
 */
#ifndef FT_BASE_SCALE_H
#define FT_BASE_SCALE_H

#include <stddef.h>

struct ft_scale {
	double d0, d1;		/* data range */
	double p0, p1;		/* pixel range (p1 < p0 for a y axis growing up) */
};

/* The pixel of @v (clamped to the range). */
double ft_scale_px(const struct ft_scale *s, double v);

/*
 * Ticks for [lo, hi]: the nice step giving at most @max ticks, the first
 * tick at or below @lo and the last at or above @hi (so the axis can be
 * widened to them); writes at most @cap values to @out and returns how
 * many; *@step gets the step.  A degenerate range [v, v] gets [v, v + 1]'s
 * (or [0, 1] for 0).
 */
size_t ft_nice_ticks(double lo, double hi, size_t max, double *out, size_t cap, double *step);

#endif
