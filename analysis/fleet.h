/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fleet's table (`fragtop fleet`): one row per host that Prometheus
 * scrapes, its columns read from the fleet's recording rules
 * (dist/fragtop-rules.yml, group fragtop-fleet), so the console and the
 * dashboard rank by the same precomputed series.
 *
 * A refresh is three queries whatever the number of hosts (the
 * aggregation is Prometheus's): up{SELECTOR} for the hosts, their
 * labels and whether each exporter answers; every fleet series at once,
 * joined to those hosts on instance; and a range query of the sort
 * column for the sparklines.  A host's drill-down is three more
 * (ft_fleet_host_queries).  This module builds the queries and the
 * tables from the answers; it never talks to the network.
 */
#ifndef FT_ANALYSIS_FLEET_H
#define FT_ANALYSIS_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/promresp.h"

#define FT_FLEET_SIZES		4	/* contiguity columns: sizes of interest */
#define FT_FLEET_SPARK		30	/* points of a sparkline over the window */
#define FT_FLEET_MAX_HOSTS	100000
#define FT_FLEET_INSTANCE	256
#define FT_FLEET_LABELS		256
#define FT_FLEET_LABEL_SEP	"\x1f"	/* between a host's labels */

/*
 * The sizes of interest: bytes, and names as every fit table writes them (ft_fit_size_name: "2M").
 */
struct ft_fleet_sizes {
	uint64_t bytes[FT_FLEET_SIZES];
	char name[FT_FLEET_SIZES][16];
	int n;
};

/* @n sizes (at most FT_FLEET_SIZES) of @orders pages of @page_size bytes. */
void ft_fleet_sizes_of(struct ft_fleet_sizes *s, const int *orders, int n, long page_size);

/* The figures, each one recording rule's series (by instance). */
enum ft_fleet_fig {
	FT_FLEET_FIG_FALLBACKS,		/* fragmenting fallbacks a second */
	FT_FLEET_FIG_AMPLIFICATION,	/* the worst zone's pollution amplification */
	/* blocks of a size: size_bytes, when (now, after_compaction) */
	FT_FLEET_FIG_CONTIG,
	FT_FLEET_FIG_THP_FALLBACK,	/* share of anonymous THP faults that fell back */
	FT_FLEET_FIG_STALL_P99,		/* direct compaction stall p99, seconds */
	FT_FLEET_FIG_PRESSURE,		/* share of time some task waited on memory (PSI some) */
	FT_FLEET_FIG_FINDINGS,		/* doctor's rules firing */
	FT_FLEET_FIG_NR
};

/* The record name of each figure's rule. */
extern const char *const ft_fleet_record[FT_FLEET_FIG_NR];

/* A column of the table: the header is the name --sort takes. */
enum ft_fleet_kind { FT_FLEET_COL_INSTANCE, FT_FLEET_COL_UP, FT_FLEET_COL_FIG };

struct ft_fleet_col {
	char head[32];
	enum ft_fleet_kind kind;
	enum ft_fleet_fig fig;
	uint64_t size_bytes;		/* FT_FLEET_FIG_CONTIG */
	bool after;			/* ... after compaction */
	bool low_worst;			/* fewer is worse (blocks that fit) */
	int width;
	const char *meaning;		/* the help's and the legend's sentence */
	/* its key in --json ("contiguous_blocks" holds the sizes) */
	const char *json;
};

#define FT_FLEET_COLS_MAX	(2 + FT_FLEET_FIG_NR - 1 + 2 * FT_FLEET_SIZES)

struct ft_fleet_host {
	char instance[FT_FLEET_INSTANCE];
	/* the target's other labels, "k=v" joined by FT_FLEET_LABEL_SEP */
	char labels[FT_FLEET_LABELS];
	int up;				/* Prometheus's up: 1, 0 */
	double v[FT_FLEET_COLS_MAX];	/* NaN: no series */
	double spark[FT_FLEET_SPARK];	/* the sort column over the window; NaN: no point */
};

struct ft_fleet {
	struct ft_fleet_col cols[FT_FLEET_COLS_MAX];
	int ncols;
	struct ft_fleet_host *hosts;	/* by instance */
	size_t nhosts, cap;
	size_t *order;			/* the rows shown: filtered and sorted */
	size_t nshown, order_cap;
	int sort;			/* a column */
	bool inverted;			/* best first */
	char filter[128];		/* "label=value", or part of an instance; "" all */
	/* what the last refresh read */
	size_t series_read;
	/* hosts answer, no fleet series: the rules are not loaded */
	bool no_rules;
};

/* What a refresh was: the header of the text, the JSON and the TUI. */
struct ft_fleet_meta {
	const char *url, *selector;
	double at;			/* the evaluation time, seconds since the epoch */
	double window;			/* the sparklines' window, seconds */
	unsigned long queries;		/* requests of the refresh */
	unsigned long long bytes;	/* bytes they read */
	double seconds;			/* the refresh's wall time, its queries and the build */
};

/*
 * Lay out the columns for the sizes of interest.  The sort starts on
 * fragmenting fallbacks, worst first.
 */
void ft_fleet_init(struct ft_fleet *f, const struct ft_fleet_sizes *sizes);
void ft_fleet_release(struct ft_fleet *f);

/*
 * Row @h's cell of column @c as the table shows it, right-aligned to
 * nothing ("-": no series): one formatting for the text and the TUI.
 */
const char *ft_fleet_cell(const struct ft_fleet *f, const struct ft_fleet_host *h, int c, char *buf,
			  size_t sz);

/* A host's labels as one line, "k=v k=v" (not yet made safe to print); @buf returned. */
const char *ft_fleet_labels_line(const char *labels, char *buf, size_t sz);

/* The column whose header is @name (case does not matter), or -1. */
int ft_fleet_col_find(const struct ft_fleet *f, const char *name);

/*
 * The refresh's queries for @selector ('{job="fragtop"}').  Each writes
 * PromQL into @buf; false when it does not fit.
 */
bool ft_fleet_query_up(const char *selector, char *buf, size_t sz);
bool ft_fleet_query_figures(const char *selector, char *buf, size_t sz);
/*
 * The sort column's series over the window (a range query); false: the column has none (INSTANCE,
 * UP).
 */
bool ft_fleet_query_spark(const struct ft_fleet *f, const char *selector, char *buf, size_t sz);

/*
 * Build the table from the answers of the first two queries (@figs may be
 * NULL: hosts only).  0, or -1 with why (too many hosts, out of memory).
 * The filter and the sort are applied.
 */
int ft_fleet_build(struct ft_fleet *f, const struct ft_prom_resp *up,
		   const struct ft_prom_resp *figs,
		   char *why, size_t sz);
/*
 * The sparkline point of a sample at time @t, points @step apart from
 * @start: the nearest, half a step either side; -1 outside the window.
 * Always within 0 .. FT_FLEET_SPARK - 1 (a float's rounding never
 * indexes out of the array).
 */
int ft_fleet_slot(double t, double start, double step);

/* The sparklines from the range query's answer, @n points from @start every @step seconds. */
void ft_fleet_sparks(struct ft_fleet *f, const struct ft_prom_resp *range, double start,
		     double step);
/* Filter and sort again (after the sort column, the order or the filter changed). */
void ft_fleet_arrange(struct ft_fleet *f);

/* A host's drill-down: its zones and cgroups as Prometheus holds them. */
#define FT_FLEET_ORDERS		11	/* orders 0..10 shown (x86-64's MAX_PAGE_ORDER is 10) */
#define FT_FLEET_ZONES		64
#define FT_FLEET_CGROUPS	10

struct ft_fleet_zone {
	char node[8], zone[16];
	/* [FT_FLEET_ORDERS]: the orders above, summed */
	double free_blocks[FT_FLEET_ORDERS + 1];
	/* the highest order with a series, -1 none */
	int max_order;
	double free_bytes, managed_bytes;
	/* the sizes of interest, now and after compaction */
	double contig[FT_FLEET_SIZES][2];
	double free_spark[FT_FLEET_SPARK];		/* free bytes over the window */
	/* fragmenting fallbacks/s over the window */
	double fallback_spark[FT_FLEET_SPARK];
	double fallbacks;				/* ... now */
};

struct ft_fleet_cgroup {
	char cgroup[256], name[128];
	double fallbacks;				/* fragmenting fallbacks/s */
};

struct ft_fleet_detail {
	char instance[FT_FLEET_INSTANCE];
	struct ft_fleet_zone zones[FT_FLEET_ZONES];
	int nzones;
	struct ft_fleet_cgroup cgroups[FT_FLEET_CGROUPS];
	int ncgroups;
	struct ft_fleet_sizes sizes;
};

#define FT_FLEET_DETAIL_QUERIES	3
/*
 * The drill-down's queries for @instance (quoted here): [0] instant, the
 * zones' free blocks, sizes and contiguity; [1] range, free bytes and
 * fragmenting fallbacks/s per zone; [2] instant, the ten cgroups with the
 * most fragmenting fallbacks/s.  False when one does not fit.
 */
bool ft_fleet_detail_queries(const char *instance, char bufs[FT_FLEET_DETAIL_QUERIES][1024]);
/* Build @d from the three answers (the range one from @start every @step). */
void ft_fleet_detail_build(struct ft_fleet_detail *d, const char *instance,
			   const struct ft_fleet_sizes *sizes,
			   const struct ft_prom_resp *r[FT_FLEET_DETAIL_QUERIES], double start,
			   double step);

#endif
