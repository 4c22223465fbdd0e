/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `fragtop report`'s renderers: each walks the one built report
 * (analysis/report.h) and prints it on stdout, so text and JSON show the
 * same figures.
 */
#ifndef FT_RENDER_REPORT_H
#define FT_RENDER_REPORT_H

#include <stdbool.h>

#include "analysis/report.h"

/* What the text says beyond the model. */
struct ft_report_style {
	bool by_thread;		/* --threads: the process rows are threads */
	bool verbose;		/* -v: every skipped input named */
	bool by_cgroup;		/* --by cgroup: the top table is cgroups, not processes */
};

void ft_render_report_text(const struct ft_report *rep, const struct ft_report_style *st);
void ft_render_report_json(const struct ft_report *rep);

#endif
