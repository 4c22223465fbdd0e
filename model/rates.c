// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/rates.h"

#include <math.h>
#include <string.h>

const struct ft_rate_def ft_rate_defs[FT_RATE_NR] = {
	[FT_RATE_COMPACT_STALL]		= { "compact_stall", "compact_stall", false },
	[FT_RATE_COMPACT_SUCCESS]	= { "compact_success", "compact_success", false },
	[FT_RATE_COMPACT_FAIL]		= { "compact_fail", "compact_fail", false },
	[FT_RATE_COMPACT_DAEMON_WAKE]	= { "compact_daemon_wake", "compact_daemon_wake", false },
	[FT_RATE_THP_FAULT_ALLOC]	= { "thp_fault_alloc", "thp_fault_alloc", false },
	[FT_RATE_THP_FAULT_FALLBACK]	= { "thp_fault_fallback", "thp_fault_fallback", false },
	/* per-zone variants on old kernels, one counter on new ones */
	[FT_RATE_PGSCAN_KSWAPD]		= { "pgscan_kswapd", "pgscan_kswapd", true },
	[FT_RATE_PGSTEAL_KSWAPD]	= { "pgsteal_kswapd", "pgsteal_kswapd", true },
	[FT_RATE_PGSCAN_DIRECT]		= { "pgscan_direct", "pgscan_direct", true },
	[FT_RATE_PGSTEAL_DIRECT]	= { "pgsteal_direct", "pgsteal_direct", true },
	[FT_RATE_ALLOCSTALL]		= { "allocstall", "allocstall", true },
	[FT_RATE_PGALLOC]		= { "pgalloc", "pgalloc_", true },
};

/* Sum of a counter or a counter family; false if none exists. */
static bool counter_value(const struct ft_vmstat *vs, const struct ft_rate_def *d,
			  int64_t *sum)
{
	size_t i, n = strlen(d->counter);
	bool found = false;

	if (!d->prefix)
		return ft_vmstat_get(vs, d->counter, sum, NULL);
	*sum = 0;
	for (i = 0; i < vs->nr; i++) {
		if (strncmp(vs->items[i].name, d->counter, n))
			continue;
		*sum += vs->items[i].value;
		found = true;
	}
	return found;
}

static double delta_of(int64_t a, int64_t b)
{
	/* A counter that went backwards was reset (or wrapped): unknown. */
	return b < a ? NAN : (double)(b - a);
}

void ft_rates_compute(const struct ft_vmstat *prev, const struct ft_vmstat *cur,
		      double dt, struct ft_rates *out)
{
	double alloc, fb, stall, ok;
	int i;

	out->valid = prev && cur && dt > 0;
	out->dt = dt;
	for (i = 0; i < FT_RATE_NR; i++) {
		int64_t a, b;

		out->v[i] = out->delta[i] = NAN;
		if (!out->valid)
			continue;
		if (!counter_value(prev, &ft_rate_defs[i], &a) ||
		    !counter_value(cur, &ft_rate_defs[i], &b))
			continue;
		out->delta[i] = delta_of(a, b);
		out->v[i] = out->delta[i] / dt;
	}
	alloc = out->delta[FT_RATE_THP_FAULT_ALLOC];
	fb = out->delta[FT_RATE_THP_FAULT_FALLBACK];
	out->thp_success = alloc + fb > 0 ? alloc / (alloc + fb) : NAN;
	stall = out->delta[FT_RATE_COMPACT_STALL];
	ok = out->delta[FT_RATE_COMPACT_SUCCESS];
	out->compact_success = stall > 0 ? ok / stall : NAN;
}

double ft_vmstat_rate(const struct ft_vmstat *prev, const struct ft_vmstat *cur,
		      const char *name, double dt)
{
	int64_t a, b;

	if (!prev || !cur || dt <= 0)
		return NAN;
	if (!ft_vmstat_get(prev, name, &a, NULL) || !ft_vmstat_get(cur, name, &b, NULL))
		return NAN;
	return delta_of(a, b) / dt;
}
