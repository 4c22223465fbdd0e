/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doctor's verdict over a window, judged per interval of still knobs.
 * A rule that reads a knob (the boost factor, defrag, min_free_kbytes...)
 * is only true of the time that knob held: judged on the whole window it
 * reads the value at the window's last tick and the figures of every
 * value, and an operator who set the boost to 0 for 36 s of an 828 s
 * recording was told "nothing wrong found".  So the window is cut where
 * any knob changed (the report's intervals: analysis/report.h), every
 * rule is judged on each interval with that interval's figures alone
 * ("who" included: each interval is a report of its own over the same
 * recording, so the numbers are report's), and each finding names its
 * interval and the knobs in force.  The whole window's findings are kept
 * beside them, to be shown as such.  With no change in the window, the
 * one interval is the window and its findings are the whole's.
 */
#ifndef FT_ANALYSIS_VERDICT_H
#define FT_ANALYSIS_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/findings.h"
#include "analysis/report.h"

#define FT_VERDICT_MAX_IV	64	/* intervals judged apart; past it the rest as one, said */

struct ft_verdict_iv {
	double from_s, to_s;		/* seconds from the recording's first tick */
	char opened_by[160];		/* the change that opened it ("" for the first) */
	/* who made it: "fragtop set (pid 42, uid 0)", "outside fragtop"... */
	char by[96];
	struct ft_find_knobs knobs;	/* in force in it (as at its last tick) */
	/* the knobs held still in it (false: the rest past FT_VERDICT_MAX_IV) */
	bool still;
	struct ft_findings *fs;		/* judged on it alone; owned (the whole's when nr is 1) */
};

struct ft_verdict {
	double from_s, to_s;		/* the window */
	/* the rules over the whole window, to be shown as such; owned */
	struct ft_findings *whole;
	int nr;
	struct ft_verdict_iv iv[FT_VERDICT_MAX_IV];
	/* intervals past FT_VERDICT_MAX_IV judged together in the last */
	int folded;
};

/*
 * Judge @whole's window (a report built of @path, by process and cgroup
 * done) per interval of still knobs into @v, with @need as doctor's
 * --need.  0, or -errno (a report of an interval failed: said).
 */
int ft_verdict_build(struct ft_report *whole, const char *path, const struct ft_fit_need *need,
		     size_t nr_need,
		     struct ft_verdict *v);
void ft_verdict_release(struct ft_verdict *v);

/* Rule @r fired in interval @k: the finding, or NULL. */
const struct ft_finding *ft_verdict_finding(const struct ft_verdict *v, int k, int r);

#endif
