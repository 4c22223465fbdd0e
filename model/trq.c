// SPDX-License-Identifier: GPL-2.0-or-later
/* The trace reorder queue (model/trq.h). */
#include "model/trq.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/grow.h"

/* A waiting record's place in time: its stamp, its CPU, then its arrival (a stable order). */
struct trq_key {
	uint64_t ts;
	int cpu;
	uint32_t i;
};

/*
 * Sort @n keys by (ts, cpu, i): least significant byte first, each pass
 * stable (counting), so arrival breaks the ties.  A pass whose byte is the
 * same in every key is skipped (a tick's stamps share their high bytes).
 * @tmp holds @n keys.  Returns the sorted array (@k or @tmp).
 */
static struct trq_key *radix_sort(struct trq_key *k, struct trq_key *tmp, size_t n)
{
	int pass;

	for (pass = 0; pass < 12; pass++) {	/* 4 bytes of cpu, then 8 of ts */
		size_t count[256] = { 0 }, at = 0, i;
		unsigned int shift = (unsigned int)(pass < 4 ? pass : pass - 4) * 8;
		struct trq_key *t;

#define BYTE(key)	(pass < 4 ? ((uint32_t)(key).cpu >> shift) & 0xff : \
				    ((key).ts >> shift) & 0xff)
		for (i = 0; i < n; i++)
			count[BYTE(k[i])]++;
		if (count[BYTE(k[0])] == n)
			continue;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = at;
			at += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[BYTE(k[i])]++] = k[i];
#undef BYTE
		t = k;
		k = tmp;
		tmp = t;
	}
	return k;
}

static bool in_order(const struct ft_trq *q)
{
	size_t i;

	for (i = 1; i < q->nr; i++) {
		const struct ft_trace_rec *x = &q->r[i - 1], *y = &q->r[i];

		if (x->ts > y->ts || (x->ts == y->ts && x->cpu > y->cpu))
			return false;
	}
	return true;
}

/*
 * The waiting records in time order into the aggregation (a CPU's own
 * are in order already).  Keys are sorted, not the records: a record is
 * 56 bytes, and moving them was most of a trace storm's replay.
 */
void ft_trq_flush(struct ft_trq *q, struct ft_events *ev)
{
	struct trq_key *k;
	size_t i;

	if (!q->nr)
		return;
	k = in_order(q) ? NULL : malloc(2 * q->nr * sizeof(*k));
	if (k) {
		const struct trq_key *sorted;

		for (i = 0; i < q->nr; i++)
			k[i] = (struct trq_key){ .ts = q->r[i].ts, .cpu = q->r[i].cpu,
						 .i = (uint32_t)i };
		sorted = radix_sort(k, k + q->nr, q->nr);
		for (i = 0; i < q->nr; i++)
			ft_events_add(ev, &q->r[sorted[i].i]);
		free(k);
	} else {
		/* in order already; or no memory for the keys: as they came */
		for (i = 0; i < q->nr; i++)
			ft_events_add(ev, &q->r[i]);
	}
	q->nr = 0;
}

/*
 * After a tick's flush: a burst's queue (16k records are 900 kB) is not
 * held through the quiet that follows.  The capacity stays while the
 * ticks use a quarter of it; below that it goes back to the heap, and the
 * next burst grows it again.
 */
void ft_trq_trim(struct ft_trq *q, size_t used)
{
	if (q->cap > FT_TRQ_KEEP && used < q->cap / 4) {
		free(q->r);
		q->r = NULL;
		q->cap = 0;
	}
}

void ft_trq_push(struct ft_trq *q, struct ft_events *ev, const struct ft_trace_rec *r)
{
	if (ft_grow_from((void **)&q->r, &q->cap, q->nr + 1, sizeof(*q->r), FT_TRQ_KEEP,
			 FT_TRQ_MAX)) {
		ft_trq_flush(q, ev);	/* no room: what waits is counted now */
		ft_events_add(ev, r);
		return;
	}
	q->r[q->nr++] = *r;
}

void ft_trq_release(struct ft_trq *q)
{
	free(q->r);
	q->r = NULL;
	q->nr = q->cap = 0;
}
