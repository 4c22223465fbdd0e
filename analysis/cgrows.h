/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who fragments and who pays, by cgroup: the per-process traced counts
 * (model/procs.h) summed by each process's cgroup path.  Every process
 * row goes to exactly one cgroup row ("" when no cgroup was taken for
 * it: one row per reason, model/procs.h's ft_cg_unread, named by
 * ft_cgrow_name()), and the table's folded counts ("other", the processes folded away
 * when it was full) to a row of their own, so the rows always add up to
 * the totals.  Past FT_CGROWS_MAX paths the rest are summed into the
 * last row, marked "other" too.
 */
#ifndef FT_ANALYSIS_CGROWS_H
#define FT_ANALYSIS_CGROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/cgroup.h"
#include "model/procs.h"

#define FT_CGROWS_MAX	256

struct ft_cgrow {
	char path[FT_CG_PATH];		/* the processes' cgroup; "" none taken */
	enum ft_cg_unread unread;	/* with path "": why (one row per reason) */
	bool other;			/* folded processes, and the paths past FT_CGROWS_MAX */
	int procs;			/* process rows summed */
	uint64_t c[FT_PC_NR];
	/* ft_cgrows_join(): its cgroup in the ft_cgroups, -1 none */
	int cg;
};

struct ft_cgrows {
	int nr;
	int untraced_left_out;		/* ft_cgrows_join(): cgroups with tasks past the table */
	struct ft_cgrow r[FT_CGROWS_MAX + 1];	/* + the "other" row */
};

/* @t's rows by cgroup into @out, the most fragmenting first. */
void ft_cgrows_build(const struct ft_procs *t, struct ft_cgrows *out);

/*
 * Joins @rows with the memory cgroups @c (kernel/cgroup.h; NULL: none
 * read): each row's cg, and a row of zero counts for each cgroup with
 * tasks that has none, after the traced rows and before "other", so the
 * rows still add up to the totals.  Those past the table are counted in
 * untraced_left_out.
 */
void ft_cgrows_join(struct ft_cgrows *rows, const struct ft_cgroups *c);

/*
 * The row's name, the same in every output: the cgroup's path, an
 * unattributed bucket's name ("(exited unread)"), or "other".
 */
const char *ft_cgrow_name(const struct ft_cgrow *r);

/* The row of cgroup @path, or NULL. */
const struct ft_cgrow *ft_cgrows_find(const struct ft_cgrows *rows, const char *path);

#endif
