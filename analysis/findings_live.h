/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The findings over a sliding window of a live (or replayed) session: the
 * TUI's findings view and header marker, and the exporter's
 * fragtop_finding_active.  A reader calls ft_find_live_tick() after every
 * tick; it keeps a few points (the counters, the direct compaction
 * histogram, the pressure and kernel log totals, the boost sampler's sums)
 * spread over the window, so the window's figures are the newest tick's
 * less the oldest point's, as a report's are its ends'.  Who fragmented
 * is not judged here (the per-process table is the session's since its
 * start, not the window's): the processes view shows it.
 */
#ifndef FT_ANALYSIS_FINDINGS_LIVE_H
#define FT_ANALYSIS_FINDINGS_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/findings.h"
#include "model/counterfield.h"
#include "model/session.h"

#define FT_FIND_LIVE_POINTS	7	/* points over the window: a new one every window / 6 */
#define FT_FIND_LIVE_WINDOW	60.0	/* seconds, by default */

struct ft_find_point {
	uint64_t t_ns;
	int64_t c[FT_CF_NR];
	uint32_t have;			/* ft_counters_read()'s mask */
	struct ft_hist direct;		/* direct compaction's latencies so far */
	bool psi, kmsg;
	uint64_t psi_some_us;
	uint64_t kmsg_fail[FT_KMSG_ORDERS];
	struct ft_futile futile;
	uint64_t boosted, samples;	/* the boost sampler's reads, every zone summed */
	/* each zone's boost peak from the point before to this one */
	uint64_t peak[FT_BOOST_ZONES];
};

struct ft_find_live {
	double window_s;
	struct ft_find_point p[FT_FIND_LIVE_POINTS];
	unsigned int head, n;		/* p[head] the oldest */
	uint64_t peak[FT_BOOST_ZONES];	/* since the newest point */
};

/* An empty window of @window_s seconds (0: FT_FIND_LIVE_WINDOW). */
void ft_find_live_init(struct ft_find_live *fl, double window_s);

/*
 * After a tick of @s.  A time before the newest point (a replay's seek
 * back) or more than two windows after it (a seek on, a long pause)
 * starts the window again.
 */
void ft_find_live_tick(struct ft_find_live *fl, const struct ft_session *s);

/*
 * The input over the window: from the oldest point kept to @s's newest
 * tick, and what that tick gives alone (ft_find_in_end()).  False before
 * two ticks.
 */
bool ft_find_in_live(const struct ft_find_live *fl, const struct ft_session *s,
		     struct ft_find_in *in);

#endif
