/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `fragtop compare` computes, apart from how it prints: the metrics
 * of one run (a recording or a stretch of it), per group of runs their
 * mean, sd, min and max (model/stats.h), and per group after the first
 * its change against the first and Welch's p.  Rates are per second, so
 * runs of different lengths compare.
 */
#ifndef FT_ANALYSIS_COMPARE_H
#define FT_ANALYSIS_COMPARE_H

#include <stddef.h>

#include "analysis/findings.h"
#include "analysis/report.h"
#include "model/stats.h"

#define FT_CMP_MAX_GROUPS	8
#define FT_CMP_MAX_RUNS		64
#define FT_CMP_ALPHA		0.05	/* significant: Welch's p below this */

/* The metrics of a run, in table order. */
enum ft_cmp_row {
	FT_CMP_DURATION,
	FT_CMP_FRAG, FT_CMP_FRAG_S, FT_CMP_EXTFRAG, FT_CMP_EXTFRAG_S, FT_CMP_OWNERSHIP,
	FT_CMP_THP_OK, FT_CMP_COMPACT, FT_CMP_COMPACT_FAIL, FT_CMP_COMPACT_OK, FT_CMP_DIRECT_COMPACT, FT_CMP_BG_COMPACT,
	FT_CMP_RECLAIMS, FT_CMP_KSWAPD, FT_CMP_KCOMPACTD, FT_CMP_FRAG_STALLS, FT_CMP_FRAG_STALL_MS,
	FT_CMP_BOOST_PEAK, FT_CMP_BOOSTED, FT_CMP_BOOST_EPISODES, FT_CMP_IN_BLOCKS,
	FT_CMP_ALLOCSTALLS, FT_CMP_PGSCAN_KSWAPD, FT_CMP_MIGRATE_PER_STALL, FT_CMP_FREE_PER_STALL,
	FT_CMP_SCANNED_PER_SUCCESS,
	FT_CMP_AMPLIFICATION, FT_CMP_GIANT_NOW, FT_CMP_GIANT_AFTER,	/* the last map scan (model/contig.h) */
	/* futile compaction (model/events.h): direct and kcompactd, migrate scanned and free taken */
	FT_CMP_FUTILE_DIRECT_MIGRATE, FT_CMP_FUTILE_DIRECT_FREE, FT_CMP_FUTILE_KCD_MIGRATE, FT_CMP_FUTILE_KCD_FREE,
	FT_CMP_LAT0,		/* then p50, p99, max for each latency source */
	/* then per anonymous THP size (ft_cmp_thp_kb): alloc, fallback, success % */
	FT_CMP_THP0 = FT_CMP_LAT0 + 3 * FT_LAT_NR,
	/* then per size of ft_rep_fit_kb: the host's smallest now and after compaction in the run */
	FT_CMP_FIT0 = FT_CMP_THP0 + 3 * 8,
	FT_CMP_NR = FT_CMP_FIT0 + 2 * FT_REP_FIT_SIZES
};

/* The THP sizes compare has rows for (x86-64's anonymous ones), in row order. */
extern const unsigned int ft_cmp_thp_kb[8];

#define FT_CMP_RUN_STACKS	32	/* stack groups kept of a run */
#define FT_CMP_STACKS		8	/* stack rows a comparison shows */

/* A run's fragmenting fallbacks a second by kernel stack group (--stacks). */
struct ft_cmp_stack {
	char key[FT_STACK_KEY];
	double per_s;
};

struct ft_cmp_run {
	char *file;
	struct ft_rep_window w;
	double v[FT_CMP_NR];	/* NAN: not in this run (no tracepoints, no sampler) */
	bool have_stacks;	/* recorded with --stacks */
	int nr_stacks;
	struct ft_cmp_stack *stacks;	/* owned; its most fragmenting groups */
	bool have_cgroups;	/* traced: its processes by cgroup */
	int nr_cgroups;
	struct ft_cmp_stack *cgroups;	/* owned; its most fragmenting cgroups, keyed by name */
	/* fragtop doctor's rules over the run (analysis/findings.h): judged, fired */
	bool checked[FT_FIND_RULES], fired[FT_FIND_RULES];
};

struct ft_cmp_group {
	char name[128];
	int nr;
	struct ft_cmp_run run[FT_CMP_MAX_RUNS];
	struct ft_stats st[FT_CMP_NR];
};

/*
 * The stacks rows: the FT_CMP_STACKS stack groups with the most
 * fragmenting fallbacks a second over every run (by key, so runs of
 * different boots, whose addresses differ, still match), each group's
 * statistics of them ([group][row]; a run without --stacks is not a value,
 * one without the stack is 0).  nr 0: no run had stacks.
 */
struct ft_cmp_stacks {
	int nr;
	char key[FT_CMP_STACKS][FT_STACK_KEY];
	struct ft_stats st[FT_CMP_MAX_GROUPS][FT_CMP_STACKS];
	double v[FT_CMP_MAX_GROUPS][FT_CMP_STACKS][FT_CMP_MAX_RUNS];
};
void ft_cmp_stacks(const struct ft_cmp_group *g, int ng, struct ft_cmp_stacks *out);
/*
 * The same by cgroup, keyed by the name people know it by (a pod's
 * namespace/name, a systemd unit: the same across runs where a path's
 * container id is not): the FT_CMP_STACKS cgroups with the most
 * fragmenting fallbacks a second.  nr 0: no run was traced.
 */
void ft_cmp_cgroups(const struct ft_cmp_group *g, int ng, struct ft_cmp_stacks *out);
/*
 * The findings that differ between the groups: each rule whose share of
 * runs where it fired (of those where it was checked) is not the same in
 * every group, in the rule table's order.
 */
struct ft_cmp_findings {
	int nr;
	struct ft_cmp_finding {
		const struct ft_rule *rule;
		int fired[FT_CMP_MAX_GROUPS], checked[FT_CMP_MAX_GROUPS];
		struct ft_stats st[FT_CMP_MAX_GROUPS];	/* of each checked run's 1 (fired) or 0 */
	} f[FT_FIND_RULES];
};
void ft_cmp_findings(const struct ft_cmp_group *g, int ng, struct ft_cmp_findings *out);

/* Free what ft_cmp_measure() kept of the runs. */
void ft_cmp_release(struct ft_cmp_group *g, int ng);

/* Row @r's label for the text table ("  per second" under its count). */
void ft_cmp_row_name(int r, char *buf, size_t sz);
/* Row @r's key for JSON and CSV ("extfrag_fragmenting_per_s"). */
void ft_cmp_row_key(int r, char *buf, size_t sz);
/* The metrics of one report into @v (FT_CMP_NR values). */
void ft_cmp_measure_report(const struct ft_report *r, double *v);
/*
 * Build every run's report (one at a time: each is large, only its
 * metrics are kept) and each group's statistics.  0, or -1 after a
 * report said why on stderr.
 */
int ft_cmp_measure(struct ft_cmp_group *g, int ng);
/* The change of @g's mean against @base's, %; NAN when either has no run or the base is 0. */
double ft_cmp_change_pct(const struct ft_stats *base, const struct ft_stats *g);

/* Is row @r a percentage (a share: its change is told in points)? */
bool ft_cmp_row_is_pct(int r);

/* A share's change from @base to @g in percentage points (NAN: a side absent). */
double ft_cmp_change_points(const struct ft_stats *base, const struct ft_stats *g);
/* Welch's p of @g against @base; NAN when a group has fewer than 2 runs. */
double ft_cmp_p_value(const struct ft_stats *base, const struct ft_stats *g);

#endif
