/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report's own interface between its two files: analysis/report.c
 * replays the window and keeps its ends, analysis/report_model.c turns
 * them into the figures every renderer prints.  Nothing else includes
 * this.
 */
#ifndef FT_ANALYSIS_REPORT_INT_H
#define FT_ANALYSIS_REPORT_INT_H

#include "analysis/report.h"

/* The figures of the window built (ft_report_build() calls it).  0 or -ENOMEM. */
int ft_report_figures(struct ft_report *rep);

#endif
