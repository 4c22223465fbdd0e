// SPDX-License-Identifier: GPL-2.0-or-later
/* The stall latency ring (model/latring.h). */
#include "model/latring.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

/* @h's non-empty buckets into @lc (kept as they were when memory runs out: counted short). */
static void cells_set(struct ft_lat_cells *lc, const struct ft_hist *h)
{
	size_t need = 0;
	unsigned int b;

	lc->nr = 0;
	for (b = 0; b < FT_HIST_BUCKETS; b++)
		need += (size_t)(h->bucket[b] / UINT32_MAX) + (h->bucket[b] % UINT32_MAX != 0);
	if (need > lc->cap &&
	    ft_grow((void **)&lc->c, &lc->cap, need, sizeof(*lc->c), SIZE_MAX / 16))
		return;
	for (b = 0; b < FT_HIST_BUCKETS; b++) {
		uint64_t n = h->bucket[b];

		for (; n; n -= n > UINT32_MAX ? UINT32_MAX : n)
			lc->c[lc->nr++] = (struct ft_hist_cell){ b,
								 (uint32_t)(n > UINT32_MAX ?
									    UINT32_MAX : n) };
	}
}

/* Ring tick @slot's histogram of @src added to @out. */
static void merge(const struct ft_latring *r, size_t slot, int src, struct ft_hist *out)
{
	const struct ft_lat_tick *t = &r->state.ring[slot];
	const struct ft_lat_cells *lc = &r->cells[slot][src];
	size_t k;

	out->count += t->count[src];
	out->sum_us += t->sum_us[src];
	if (t->max_us[src] > out->max_us)
		out->max_us = t->max_us[src];
	for (k = 0; k < lc->nr; k++)
		if (lc->c[k].bucket < FT_HIST_BUCKETS)
			out->bucket[lc->c[k].bucket] += lc->c[k].n;
}

void ft_latring_push(struct ft_latring *r, const struct ft_hist lat[FT_LAT_NR], uint64_t from_ns,
		     uint64_t to_ns)
{
	struct ft_latring_state *st = &r->state;
	size_t slot = st->n++ % FT_LAT_RING;
	struct ft_lat_tick *t = &st->ring[slot];
	struct ft_hist d;
	int i;

	t->from_ns = from_ns;
	t->to_ns = to_ns;
	for (i = 0; i < FT_LAT_NR; i++) {
		/* a source without stalls this tick writes nothing but its zeros */
		if (lat[i].count == st->prev[i].count) {
			t->count[i] = t->sum_us[i] = t->max_us[i] = 0;
			r->cells[slot][i].nr = 0;
			continue;
		}
		ft_hist_sub(&d, &lat[i], &st->prev[i]);
		t->count[i] = d.count;
		t->sum_us[i] = d.sum_us;
		t->max_us[i] = d.max_us;
		cells_set(&r->cells[slot][i], &d);
		st->prev[i] = lat[i];
	}
}

double ft_latring_window(const struct ft_latring *r, enum ft_lat_source src, double secs,
			 uint64_t newest_ns, struct ft_hist *out)
{
	const struct ft_latring_state *st = &r->state;
	uint64_t have = st->n < FT_LAT_RING ? st->n : FT_LAT_RING, i, from = newest_ns;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < have; i++) {
		size_t slot = (size_t)((st->n - 1 - i) % FT_LAT_RING);
		const struct ft_lat_tick *t = &st->ring[slot];

		/* a tick counts when it started within the window (a tenth of a tick's slack) */
		if ((double)(newest_ns - t->from_ns) > secs * 1e9 +
		    (double)(t->to_ns - t->from_ns) / 10)
			break;
		merge(r, slot, src, out);
		from = t->from_ns;
	}
	return (double)(newest_ns - from) / 1e9;
}

bool ft_latring_last(const struct ft_latring *r, enum ft_lat_source src, struct ft_hist *out)
{
	memset(out, 0, sizeof(*out));
	if (!r->state.n)
		return false;
	merge(r, (size_t)((r->state.n - 1) % FT_LAT_RING), src, out);
	return true;
}

uint64_t ft_latring_newest_ns(const struct ft_latring *r)
{
	return r->state.n ? r->state.ring[(r->state.n - 1) % FT_LAT_RING].to_ns : 0;
}

void ft_latring_release(struct ft_latring *r)
{
	size_t i;

	for (i = 0; i < FT_LAT_RING * FT_LAT_NR; i++)
		free(r->cells[i / FT_LAT_NR][i % FT_LAT_NR].c);
	memset(r, 0, sizeof(*r));
}
