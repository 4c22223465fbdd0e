/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A report: a recording replayed to its end (lean: zone texts once a
 * minute) and summed up like the tables of the kernel patches that
 * motivate fragtop, overall and per interval between control changes.
 * Used by `report`, `compare` and the benches; printed by tui/report.c.
 */
#ifndef FT_COLLECTORS_REPORT_H
#define FT_COLLECTORS_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/replay.h"

/* Counters whose difference over an interval is reported. */
enum ft_rep_counter {
	FT_RC_EXTFRAG, FT_RC_FRAGMENTING, FT_RC_OWNERSHIP,
	FT_RC_THP_ALLOC, FT_RC_THP_FALLBACK,
	FT_RC_COMPACT_STALL, FT_RC_COMPACT_SUCCESS, FT_RC_COMPACT_FAIL,
	FT_RC_RECLAIMS, FT_RC_KSWAPD_WAKES, FT_RC_FRAG_STALLS,
	FT_RC_NR
};

extern const char *const ft_rep_counter_names[FT_RC_NR];

struct ft_rep_point {			/* the counters at one tick */
	uint64_t t_ns;
	int64_t c[FT_RC_NR];
	struct ft_hist lat[FT_LAT_NR];
};

struct ft_rep_interval {
	struct ft_rep_point from, to;
	int64_t boost;			/* watermark_boost_factor in it; -1 unknown */
	char opened_by[160];		/* the change that started it; "" for the first */
	struct ft_boost_tick boost_zone[FT_BOOST_ZONES];	/* the sampler's, summed */
};

#define FT_REP_MAX_INTERVALS 256

struct ft_report {
	struct ft_replay rp;		/* at the end of the recording */
	struct ft_rep_point first, last;
	bool have_first;
	int64_t boost_first;
	struct ft_rep_interval iv[FT_REP_MAX_INTERVALS];
	int nr_iv;
	bool lat_present[FT_LAT_NR];
	/* the boost sampler over the whole recording (after the first tick), by zoneinfo zone */
	int boost_nr;			/* 0: no sampler in the recording */
	struct ft_boost_tick boost_zone[FT_BOOST_ZONES];
	size_t vm_hint[8];		/* ft_vmstat_get() position caches */
};

/* Replay @path to its end.  0 or -errno (with a message on stderr). */
int ft_report_build(struct ft_report *rep, const char *path);
void ft_report_release(struct ft_report *rep);

#endif
