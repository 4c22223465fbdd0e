// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/procrates.h"

#include <math.h>
#include <string.h>

void ft_procrates_update(struct ft_procrates *r, const struct ft_session *s,
			 const struct ft_procs *t,
			  bool threads)
{
	double dt;
	int i;

	if (s->ticks == r->tick && r->threads == threads)
		return;
	if (s->ticks != r->tick + 1 || s->tick_t_ns <= r->tick_t || r->threads != threads) {
		/* a seek, or the first look: no rate until the next tick */
		memset(r->cur, 0, sizeof(r->cur));
		r->tick_t = 0;
	}
	memcpy(r->prev, r->cur, sizeof(r->prev));
	r->prev_t = r->tick_t;
	for (i = 0; i < t->nr; i++) {
		r->cur[i].born = t->p[i].born + 1;	/* 0: no row */
		r->cur[i].frag = t->p[i].c[FT_PC_FRAGMENTING];
	}
	for (; i < FT_PROCS_MAX; i++)
		r->cur[i].born = 0;
	r->tick_t = s->tick_t_ns;
	r->tick = s->ticks;
	r->threads = threads;
	dt = r->prev_t ? (double)(r->tick_t - r->prev_t) / 1e9 : 0;
	for (i = 0; i < FT_PROCS_MAX; i++)
		r->rate[i] = dt > 0 && i < t->nr && r->prev[i].born == r->cur[i].born ?
			(double)(r->cur[i].frag - r->prev[i].frag) / dt : NAN;
}

double ft_procrates_get(const struct ft_procrates *r, int row)
{
	return row >= 0 && row < FT_PROCS_MAX ? r->rate[row] : NAN;
}
