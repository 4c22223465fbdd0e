// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/rates.h"

#include <math.h>
#include <string.h>

#define RATE(n, c, p) { .name = n, .counter = c, .len = sizeof(c) - 1, .prefix = p }

const struct ft_rate_def ft_rate_defs[FT_RATE_NR] = {
	[FT_RATE_COMPACT_STALL]		= RATE("compact_stall", "compact_stall", false),
	[FT_RATE_COMPACT_SUCCESS]	= RATE("compact_success", "compact_success", false),
	[FT_RATE_COMPACT_FAIL]		= RATE("compact_fail", "compact_fail", false),
	[FT_RATE_COMPACT_DAEMON_WAKE]	= RATE("compact_daemon_wake", "compact_daemon_wake", false),
	[FT_RATE_THP_FAULT_ALLOC]	= RATE("thp_fault_alloc", "thp_fault_alloc", false),
	[FT_RATE_THP_FAULT_FALLBACK]	= RATE("thp_fault_fallback", "thp_fault_fallback", false),
	/* per-zone variants on old kernels, one counter on new ones */
	[FT_RATE_PGSCAN_KSWAPD]		= RATE("pgscan_kswapd", "pgscan_kswapd", true),
	[FT_RATE_PGSTEAL_KSWAPD]	= RATE("pgsteal_kswapd", "pgsteal_kswapd", true),
	[FT_RATE_PGSCAN_DIRECT]		= RATE("pgscan_direct", "pgscan_direct", true),
	[FT_RATE_PGSTEAL_DIRECT]	= RATE("pgsteal_direct", "pgsteal_direct", true),
	[FT_RATE_ALLOCSTALL]		= RATE("allocstall", "allocstall", true),
	[FT_RATE_PGALLOC]		= RATE("pgalloc", "pgalloc_", true),
};

/*
 * Every rate's counter (or family sum) in one pass over vmstat: ~200 names
 * against a dozen definitions, most rejected on their first character.
 */
static void counter_values(const struct ft_vmstat *vs, int64_t *sum, bool *found)
{
	size_t i;
	int d;

	for (d = 0; d < FT_RATE_NR; d++) {
		sum[d] = 0;
		found[d] = false;
	}
	for (i = 0; i < vs->nr; i++) {
		const char *name = vs->items[i].name;

		for (d = 0; d < FT_RATE_NR; d++) {
			const struct ft_rate_def *def = &ft_rate_defs[d];

			/* most names differ from the counter in their first two characters */
			if (name[0] != def->counter[0] || name[1] != def->counter[1])
				continue;
			if (def->prefix ? strncmp(name, def->counter, def->len)
					: strcmp(name, def->counter))
				continue;
			/* each within FT_VMSTAT_VALUE_MAX: no overflow */
			sum[d] += vs->items[i].value;
			found[d] = true;
		}
	}
}

static double delta_of(int64_t a, int64_t b)
{
	/* A counter that went backwards was reset (or wrapped): unknown. */
	return b < a ? NAN : (double)b - (double)a;
}

void ft_rates_compute(const struct ft_vmstat *prev, const struct ft_vmstat *cur,
		      double dt, struct ft_rates *out)
{
	int64_t a[FT_RATE_NR], b[FT_RATE_NR];
	bool fa[FT_RATE_NR], fb_[FT_RATE_NR];
	double alloc, fb, stall, ok;
	int i;

	out->valid = prev && cur && dt > 0;
	out->dt = dt;
	if (out->valid) {
		counter_values(prev, a, fa);
		counter_values(cur, b, fb_);
	}
	for (i = 0; i < FT_RATE_NR; i++) {
		out->v[i] = out->delta[i] = NAN;
		if (!out->valid || !fa[i] || !fb_[i])
			continue;
		out->delta[i] = delta_of(a[i], b[i]);
		out->v[i] = out->delta[i] / dt;
	}
	alloc = out->delta[FT_RATE_THP_FAULT_ALLOC];
	fb = out->delta[FT_RATE_THP_FAULT_FALLBACK];
	out->thp_success = alloc + fb > 0 ? alloc / (alloc + fb) : NAN;
	stall = out->delta[FT_RATE_COMPACT_STALL];
	ok = out->delta[FT_RATE_COMPACT_SUCCESS];
	out->compact_success = stall > 0 ? ok / stall : NAN;
}

double ft_rates_vmstat(const struct ft_vmstat *prev, const struct ft_vmstat *cur,
		      const char *name, double dt)
{
	int64_t a, b;

	if (!prev || !cur || dt <= 0)
		return NAN;
	if (!ft_vmstat_get(prev, name, &a, NULL) || !ft_vmstat_get(cur, name, &b, NULL))
		return NAN;
	return delta_of(a, b) / dt;
}
