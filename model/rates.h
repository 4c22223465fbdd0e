/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-second rates of vmstat counters between two samples. */
#ifndef FT_MODEL_RATES_H
#define FT_MODEL_RATES_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/vmstat.h"

enum ft_rate_id {
	FT_RATE_COMPACT_STALL,
	FT_RATE_COMPACT_SUCCESS,
	FT_RATE_COMPACT_FAIL,
	FT_RATE_COMPACT_DAEMON_WAKE,
	FT_RATE_THP_FAULT_ALLOC,
	FT_RATE_THP_FAULT_FALLBACK,
	FT_RATE_PGSCAN_KSWAPD,
	FT_RATE_PGSTEAL_KSWAPD,
	FT_RATE_PGSCAN_DIRECT,
	FT_RATE_PGSTEAL_DIRECT,
	FT_RATE_ALLOCSTALL,
	FT_RATE_PGALLOC,
	FT_RATE_NR
};

struct ft_rate_def {
	const char *name;	/* label, also the JSON key */
	const char *counter;	/* vmstat name, or prefix when .prefix */
	size_t len;		/* strlen(counter) */
	bool prefix;		/* sum every counter starting with .counter */
};

extern const struct ft_rate_def ft_rate_defs[FT_RATE_NR];

struct ft_rates {
	bool valid;			/* two samples, dt > 0 */
	double dt;			/* seconds */
	double v[FT_RATE_NR];		/* per second; NaN if absent or reset */
	double delta[FT_RATE_NR];	/* raw delta; NaN likewise */
	/* thp_fault_alloc / (alloc + fallback) over the interval, 0..1; NaN if no fault */
	double thp_success;
	/* compact_success / compact_stall over the interval; NaN if no stall */
	double compact_success;
};

void ft_rates_compute(const struct ft_vmstat *prev, const struct ft_vmstat *cur,
		      double dt, struct ft_rates *out);

/* Rate of one counter (exact name); NaN if absent, reset, or dt <= 0. */
double ft_rates_vmstat(const struct ft_vmstat *prev, const struct ft_vmstat *cur,
		      const char *name, double dt);

#endif
