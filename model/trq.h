/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace reorder queue: a tick's decoded records, put in time order
 * before they are counted.  Every CPU has its own ring buffer, so a task
 * that moved between CPUs has its events in several sub-buffers, read one
 * after another, and a direct compaction attempt (model/events.h) is only
 * seen right in time order.  The session counts the queue at each tick,
 * or when FT_TRQ_MAX records are waiting.
 *
 * Pure; owns its records.  Empty at a tick, so a checkpoint keeps the
 * restoring session's queue (model/checkpoint.c).
 */
#ifndef FT_MODEL_TRQ_H
#define FT_MODEL_TRQ_H

#include <stddef.h>

#include "model/events.h"
#include "kernel/tracedec.h"

#define FT_TRQ_MAX	(1u << 20)	/* records waiting for the tick, at most */
#define FT_TRQ_KEEP	1024u		/* ... and the room kept for them between bursts */

struct ft_trq {
	struct ft_trace_rec *r;
	size_t nr, cap;
};

/*
 * Queue @r; when the queue cannot grow (FT_TRQ_MAX, or no memory) what
 * waits is counted into @ev now, then @r.
 */
void ft_trq_push(struct ft_trq *q, struct ft_events *ev, const struct ft_trace_rec *r);

/* The waiting records into @ev in (ts, cpu, arrival) order; the queue is then empty. */
void ft_trq_flush(struct ft_trq *q, struct ft_events *ev);

/*
 * After a tick's flush that had @used records: a burst's queue is not
 * held through the quiet that follows (its room goes back to the heap
 * when the ticks use less than a quarter of it).
 */
void ft_trq_trim(struct ft_trq *q, size_t used);

/* The newest record waiting, or NULL. */
static inline struct ft_trace_rec *ft_trq_last(struct ft_trq *q)
{
	return q->nr ? &q->r[q->nr - 1] : NULL;
}

void ft_trq_release(struct ft_trq *q);

#endif
