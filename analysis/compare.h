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
#include "analysis/measure.h"
#include "analysis/report.h"
#include "model/stats.h"

#define FT_CMP_MAX_GROUPS	8
#define FT_CMP_MAX_RUNS		64
#define FT_CMP_ALPHA		0.05	/* significant: Welch's p below this */

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

/*
 * Build every run's report (one at a time: each is large, only its
 * metrics are kept) and each group's statistics.  0, or -1 after a
 * report said why on stderr.
 */
int ft_cmp_measure(struct ft_cmp_group *g, int ng);
/* The change of @g's mean against @base's, %; NAN when either has no run or the base is 0. */
double ft_cmp_change_pct(const struct ft_stats *base, const struct ft_stats *g);


/* A share's change from @base to @g in percentage points (NAN: a side absent). */
double ft_cmp_change_points(const struct ft_stats *base, const struct ft_stats *g);
/* Welch's p of @g against @base; NAN when a group has fewer than 2 runs. */
double ft_cmp_p_value(const struct ft_stats *base, const struct ft_stats *g);

#endif
