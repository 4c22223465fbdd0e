/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The metrics of one run (a report over a recording or a stretch of it),
 * by row: what `fragtop compare` tabulates and doctor's rules read
 * (analysis/findings_report.c), measured in one place so that both say
 * the same.  Rates are per second, so runs of different lengths compare.
 */
#ifndef FT_ANALYSIS_MEASURE_H
#define FT_ANALYSIS_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/report.h"

/* The metrics of a run, in table order. */
enum ft_cmp_row {
	FT_CMP_DURATION,
	FT_CMP_FRAG, FT_CMP_FRAG_S, FT_CMP_EXTFRAG, FT_CMP_EXTFRAG_S, FT_CMP_OWNERSHIP,
	FT_CMP_THP_OK, FT_CMP_COMPACT, FT_CMP_COMPACT_FAIL, FT_CMP_COMPACT_OK,
	FT_CMP_DIRECT_COMPACT, FT_CMP_BG_COMPACT,
	FT_CMP_RECLAIMS, FT_CMP_KSWAPD, FT_CMP_KCOMPACTD, FT_CMP_FRAG_STALLS, FT_CMP_FRAG_STALL_MS,
	FT_CMP_BOOST_PEAK, FT_CMP_BOOSTED, FT_CMP_BOOST_EPISODES, FT_CMP_IN_BLOCKS,
	FT_CMP_ALLOCSTALLS, FT_CMP_PGSCAN_KSWAPD, FT_CMP_MIGRATE_PER_STALL, FT_CMP_FREE_PER_STALL,
	FT_CMP_SCANNED_PER_SUCCESS,
	/* the last map scan (model/contig.h) */
	FT_CMP_AMPLIFICATION, FT_CMP_GIANT_NOW, FT_CMP_GIANT_AFTER,
	/*
	 * futile compaction (model/events.h): direct and kcompactd, migrate scanned and free taken
	 */
	FT_CMP_FUTILE_DIRECT_MIGRATE, FT_CMP_FUTILE_DIRECT_FREE, FT_CMP_FUTILE_KCD_MIGRATE,
	FT_CMP_FUTILE_KCD_FREE,
	FT_CMP_LAT0,		/* then p50, p99, max for each latency source */
	/* then per anonymous THP size (ft_cmp_thp_kb): alloc, fallback, success % */
	FT_CMP_THP0 = FT_CMP_LAT0 + 3 * FT_LAT_NR,
	/*
	 * then per size of ft_rep_fit_kb: the host's smallest now and after compaction in the run
	 */
	FT_CMP_FIT0 = FT_CMP_THP0 + 3 * 8,
	FT_CMP_NR = FT_CMP_FIT0 + 2 * FT_REP_FIT_SIZES
};

/* The THP sizes compare has rows for (x86-64's anonymous ones), in row order. */
extern const unsigned int ft_cmp_thp_kb[8];

/* Row @r's label for the text table ("  per second" under its count). */
void ft_cmp_row_name(int r, char *buf, size_t sz);
/* Row @r's key for JSON and CSV ("extfrag_fragmenting_per_s"). */
void ft_cmp_row_key(int r, char *buf, size_t sz);
/* The run's length in seconds: its first tick to its last. */
double ft_measure_secs(const struct ft_report *r);
/* The metrics of one report into @v (FT_CMP_NR values). */
void ft_measure_report(const struct ft_report *r, double *v);
/* Is row @r a percentage (a share: its change is told in points)? */
bool ft_cmp_row_is_pct(int r);

#endif
