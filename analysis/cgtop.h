/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroups a scrape exports, bounded: at most K rows (the exporter's
 * --collector.cgroups.top), and one "other" row that sums the counts of
 * every row left out, so the exported counters still add up to the
 * host's and a node with 300 pods cannot blow up a TSDB.
 *
 * The K are chosen again at every scrape, by the figures: the most
 * fragmenting cgroups first, then (ties, and cgroups no task of which was
 * traced) the largest anonymous memory, then the path.  A choice that
 * stuck (it did, once) let whoever came first keep the places: 400 small
 * cgroups at the first scrape kept 40 MB ones made later out for good.
 * A cgroup that leaves the K is simply absent from the next scrape, which
 * Prometheus marks stale itself (its staleness handling).  "other" is
 * a counter of what the rows not chosen grew by at each scrape (their
 * counts at the last pick kept in the choice), so it never goes back
 * when a cgroup leaves it: sum(rate()) over the family is the host's,
 * though the values at one scrape need not add up.  The unattributed buckets
 * (model/procs.h's ft_cg_unread) are rows of their own, under their
 * names, never in "other": they are not cgroups past the top K.
 */
#ifndef FT_ANALYSIS_CGTOP_H
#define FT_ANALYSIS_CGTOP_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/cgrows.h"
#include "kernel/cgroup.h"

#define FT_CGTOP_MAX	1000	/* --collector.cgroups.top's largest */

/* The chosen paths of the last scrape, and what "other" is made of, kept from scrape to scrape. */
struct ft_cgsel {
	int k;				/* places: 1..FT_CGTOP_MAX */
	int nr;
	char path[FT_CGTOP_MAX][FT_CG_PATH];
	/* each row's counts at the last pick (the folded row: other set), for "other"'s growth */
	int nr_prev;
	struct ft_cgsel_prev {
		char path[FT_CG_PATH];
		bool other;
		uint64_t c[FT_PC_NR];
	/* next: the pick's own, becomes prev */
	} prev[FT_CGROWS_MAX + 1], next[FT_CGROWS_MAX + 1];
	uint64_t other[FT_PC_NR];	/* "other" so far: never less than at the last scrape */
};

struct ft_cgtop_row {
	char path[FT_CG_PATH];
	uint64_t c[FT_PC_NR];		/* the traced counts (0: none of its tasks traced) */
	const struct ft_cgroup *g;	/* its memory cgroup, or NULL (not read, or gone) */
};

struct ft_cgtop {
	int nr;
	struct ft_cgtop_row r[FT_CGTOP_MAX];
	uint64_t other[FT_PC_NR];	/* the rows not chosen and the folded "other" */
	/* the unattributed buckets, by reason (not chosen, not other) */
	uint64_t unread[FT_CGU_NR][FT_PC_NR];
};

/* An empty choice of @k places. */
void ft_cgsel_init(struct ft_cgsel *sel, int k);

/*
 * Update @sel from the rows by cgroup @rows (joined or not) and the
 * memory cgroups @c (NULL: none read), and write the chosen rows and
 * "other" into @out, the chosen in @sel's order.
 */
void ft_cgtop_pick(struct ft_cgsel *sel, const struct ft_cgrows *rows, const struct ft_cgroups *c,
		   struct ft_cgtop *out);

#endif
