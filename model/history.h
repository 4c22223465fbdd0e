/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The history rings: the newest FT_HISTORY_LEN ticks, per zone (zoneinfo
 * order) the ft_zh_metric values, system-wide compaction stalls per
 * second, each tick's time, and the knob a tick changed (index + 1 in
 * ft_knobs[], 0 for none) so a chart marks control changes.  NAN where a
 * value was not known.
 *
 * Pure and plain (no pointer): the session keeps it in its state, which
 * a checkpoint writes whole.
 */
#ifndef FT_MODEL_HISTORY_H
#define FT_MODEL_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "model/boost.h"

#define FT_HISTORY_LEN		600	/* ticks of per-zone history (10 minutes at 1 s) */

/* What the per-zone history follows, tick by tick. */
enum ft_zh_metric {
	FT_ZH_FREE,		/* free pages */
	FT_ZH_UNUSABLE,		/* unusable free index at pageblock order, 0..1 */
	FT_ZH_BOOST_PEAK,	/* the sampler's peak (pages), else the boost read at the tick */
	FT_ZH_BOOSTED,		/* share of the tick boosted, 0..1 (the sampler's) */
	FT_ZH_FRAG_RATE,	/* fragmenting fallbacks per second */
	/* share of free pages in whole free pageblocks, 0..1 (6.15+; else NAN) */
	FT_ZH_IN_BLOCKS,
	FT_ZH_NR
};

extern const char *const ft_zh_names[FT_ZH_NR];

struct ft_history {
	float zone[FT_BOOST_ZONES][FT_ZH_NR][FT_HISTORY_LEN];
	float stall[FT_HISTORY_LEN];
	uint64_t t_ns[FT_HISTORY_LEN];
	uint8_t mark[FT_HISTORY_LEN];
	uint64_t n;		/* ticks pushed */
	size_t zones;		/* zones the rings hold (the most a tick had); past them: NAN */
};

/*
 * One tick at @now: @nz zones' values (@v[i][m], NAN: not known), the
 * compaction stalls per second, and the knob mark.
 */
void ft_history_push(struct ft_history *h, const float (*v)[FT_ZH_NR], size_t nz, float stall,
		     uint64_t now, uint8_t mark);

/*
 * @n values (zone @zi's @m, or with @zi -1 compaction stalls per second)
 * ending @back ticks before the newest, oldest first, into @out; NAN
 * before the history starts.  @marks and @t_ns (may be NULL) get the
 * ticks' knob marks and times (0 before the start).
 */
void ft_history_get(const struct ft_history *h, int zi, enum ft_zh_metric m, unsigned long back,
		    int n,
		    double *out, uint8_t *marks, uint64_t *t_ns);

#endif
