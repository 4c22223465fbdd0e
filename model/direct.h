/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What direct compaction scanned, summed tick by tick from the first tick
 * with /proc/vmstat.  vmstat's scanners count direct compaction,
 * kcompactd's (its own counters too) and compaction asked through
 * compact_memory alike: a tick counts the whole less kcompactd's, and the
 * tick where a traced background compaction by a task other than
 * kcompactd ended (events.bg_foreign), and the one after, are left out
 * with their stalls.  Readers take differences: report over its window,
 * the stalls view since its base.  Without tracing (or without
 * try_to_compact_pages traced) nothing is left out, and such compaction
 * may be in it.
 *
 * Pure and plain: the session keeps it in its state.
 */
#ifndef FT_MODEL_DIRECT_H
#define FT_MODEL_DIRECT_H

#include <stdbool.h>
#include <stdint.h>


struct ft_direct_cost {
	int64_t migrate, free;		/* pages the two scanners looked at */
	int64_t stalls, success;	/* compact_stall, compact_success over the same ticks */
	uint64_t ticks, ticks_out;	/* ticks counted, ticks left out */
	int64_t stalls_out;		/* compact_stall in the ticks left out */
};

struct ft_direct {
	struct ft_direct_cost cost;	/* what readers take */
	int64_t prev[6];		/* the counters it takes, at the last tick */
	uint64_t foreign_prev;		/* events.bg_foreign at the last tick */
	bool have_prev, taint;
};

/*
 * A tick: the counters @v (by enum ft_cf, as ft_counters_read() gives
 * them, rows @have) and the traced count of foreign background
 * compactions so far.
 */
void ft_direct_tick(struct ft_direct *d, const int64_t *v, uint32_t have, uint64_t bg_foreign);

/*
 * Pages each compaction scanner looked at since the first tick, by who
 * ran it: direct compaction (the account above), kcompactd (vmstat's
 * daemon counters), and the rest (compaction asked through
 * compact_memory, proactive compaction: the ticks the account left
 * out).  [0] the migrate scanner, [1] the free one.
 */
struct ft_scan_kinds {
	int64_t direct[2], kcompactd[2], other[2];
};

/*
 * The kinds from the account @d and the counters at the first tick
 * @first and now @now (by enum ft_cf, as ft_counters_read() gives them).
 */
void ft_direct_kinds(const struct ft_direct *d, const int64_t *first, const int64_t *now,
		     struct ft_scan_kinds *out);

#endif
