/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One history chart row, shared by the overview and the history view: a
 * label, a sparkline of a session history (model/session.h) with control
 * changes marked, and the value at the cursor (or the newest).
 */
#ifndef FT_TUI_CHART_H
#define FT_TUI_CHART_H

#include "model/session.h"

#define FT_CHART_STALLS	(-1)	/* @zi for the system's compaction stalls/s */
#define FT_CHART_LABEL	12	/* columns of the label */
#define FT_CHART_VALUE	8	/* columns of the value */

/*
 * Draw zone @zi's metric @m (or, with FT_CHART_STALLS, compaction
 * stalls/s) in @width columns from (@y, @x), the sparkline ending @back
 * ticks before the newest; @cursor is a column of the sparkline (-1:
 * none, the value shown is the newest).  Returns the sparkline's width.
 */
int ft_chart_row(const struct ft_session *s, int y, int x, int width, int zi,
		 enum ft_zh_metric m, unsigned long back, int cursor);

/* The value of @m as the charts print it ("1.2G", "0.512", "5%", "369"). */
void ft_chart_fmt(const struct ft_session *s, enum ft_zh_metric m, int zi, double v,
		  char *buf, size_t sz);

#endif
