/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-process rates: each row's fragmenting fallbacks per second over the
 * last tick, from its counts at the tick before.  Rows are matched by
 * when they were made (a reused pid is a new row); a seek, or a switch
 * between the thread and the process tables, starts the rates again.
 * The processes view keeps one; report and export can too.
 */
#ifndef FT_ANALYSIS_PROCRATES_H
#define FT_ANALYSIS_PROCRATES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/session.h"

struct ft_procrates {
	uint64_t tick, tick_t, prev_t;	/* the tick the rates are of, its time, the one before's */
	bool threads;			/* of the thread table (else the process table) */
	struct { uint64_t born, frag; } prev[FT_PROCS_MAX], cur[FT_PROCS_MAX];
	double rate[FT_PROCS_MAX];
};

/*
 * At the session's tick: the rates of table @t's rows (@threads: @t is per thread). Again at the
 * same tick: nothing.
 */
void ft_procrates_update(struct ft_procrates *r, const struct ft_session *s,
			 const struct ft_procs *t,
			  bool threads);
/* Row @row's fragmenting fallbacks per second, or NAN before two ticks of it. */
double ft_procrates_get(const struct ft_procrates *r, int row);

#endif
