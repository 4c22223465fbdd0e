/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stall latency ring: the newest FT_LAT_RING ticks' stall histograms
 * (each the histogram of the tick's (from_ns, to_ns]), for "the last 10 s"
 * windows.  A tick keeps only its non-empty buckets: the whole histograms
 * were 898 KiB, written every tick, stalls or not.
 *
 * Pure.  Its plain values are `state` (a checkpoint writes them whole);
 * the buckets are owned arrays, one a tick and source.
 */
#ifndef FT_MODEL_LATRING_H
#define FT_MODEL_LATRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/events.h"
#include "model/hist.h"

#define FT_LAT_RING		60	/* ticks of stall histograms kept for windows */

/*
 * A bucket of a histogram (model/hist.h) that is not empty: a bucket's count past 2^32 takes two.
 */
struct ft_hist_cell {
	uint32_t bucket, n;
};

/* One tick's histogram of one stall source: its non-empty buckets. */
struct ft_lat_cells {
	struct ft_hist_cell *c;		/* owned */
	size_t nr, cap;
};

struct ft_lat_tick {
	uint64_t from_ns, to_ns;
	uint64_t count[FT_LAT_NR], sum_us[FT_LAT_NR], max_us[FT_LAT_NR];
};

struct ft_latring {
	struct ft_latring_state {
		struct ft_hist prev[FT_LAT_NR];	/* the totals at the last push */
		struct ft_lat_tick ring[FT_LAT_RING];
		uint64_t n;			/* ticks ever pushed */
	} state;
	struct ft_lat_cells cells[FT_LAT_RING][FT_LAT_NR];	/* ring's buckets, owned */
};

/* The tick (@from_ns, @to_ns]: what the totals @lat grew by since the last push. */
void ft_latring_push(struct ft_latring *r, const struct ft_hist lat[FT_LAT_NR], uint64_t from_ns,
		     uint64_t to_ns);

/*
 * @src over the ticks that started within @secs seconds before @newest_ns
 * (a tenth of a tick's slack) into @out.  Returns the seconds covered.
 */
double ft_latring_window(const struct ft_latring *r, enum ft_lat_source src, double secs,
			 uint64_t newest_ns, struct ft_hist *out);

/* The newest tick's @src into @out; false (and @out empty) before a push. */
bool ft_latring_last(const struct ft_latring *r, enum ft_lat_source src, struct ft_hist *out);

/* The newest tick's end, 0 before a push. */
uint64_t ft_latring_newest_ns(const struct ft_latring *r);

void ft_latring_release(struct ft_latring *r);

#endif
