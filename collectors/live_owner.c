// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source's page_owner looks: the blocks under the map's cursor and the mixed blocks
 * fallbacks named.
 */
#include "collectors/live_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/file.h"
#include "base/cost.h"
#include "base/grow.h"
#include "base/zero.h"
#include "model/cost.h"

/* show_stacks (6.9+), as an OWNER input of its own; nothing before 6.9. */
static void owner_stacks(struct ft_live *l)
{
	char *rec = malloc(4 + FT_REC_OWNER_STACKS_TEXT + 1);
	uint32_t flags;
	bool cut;
	long n;

	if (!rec)
		return;
	n = ft_pown_stacks(l->procfs.rootfd, rec + 4, FT_REC_OWNER_STACKS_TEXT + 1, &cut);
	if (n >= 0) {
		flags = cut ? FT_OWNER_STACKS_CUT : 0;
		memcpy(rec, &flags, 4);
		ft_live_emit(l, FT_RR_OWNER, FT_OWNER_STACKS, ft_now_ns(), rec, 4 + (size_t)n);
	}
	free(rec);
}

/* page_owner opened on first use; its state said as a SOURCE input. */
static int owner_open(struct ft_live *l)
{
	int32_t e;

	if (l->owner.state)
		return l->owner.state < 0 ? l->owner.state : 0;
	e = ft_pown_open(&l->owner.pown, l->procfs.rootfd);
	l->owner.state = e ? e : 1;
	ft_live_emit(l, FT_RR_SOURCE, FT_RS_OWNER, ft_now_ns(), &e, 4);
	if (e)
		ft_diag(FT_DIAG_INFO, "page owners: %s", ft_pown_strerror(e));
	else
		/* once when it opens; record's scans read it again each time */
		owner_stacks(l);
	return e;
}

/* Read one block's page_owner and hand it to the session as an OWNER input. */
static int owner_look(struct ft_live *l, uint64_t pfn, uint32_t pages)
{
	struct ft_pown_look *k = &l->owner.look;
	uint8_t *rec;
	uint32_t flags = 0;
	int err = ft_pown_block(&l->owner.pown, pfn, pages, k);

	if (err)
		return err;
	rec = malloc(FT_REC_OWNER_HDR + k->len);
	if (!rec)
		return -ENOMEM;
	memcpy(rec, &pfn, 8);
	memcpy(rec + 8, &pages, 4);
	memcpy(rec + 12, &k->entries, 4);
	memcpy(rec + 16, &k->other_pages, 8);
	memcpy(rec + 24, &k->cut, 4);
	memcpy(rec + 28, &flags, 4);
	if (k->len)
		memcpy(rec + FT_REC_OWNER_HDR, k->text, k->len);
	ft_live_emit(l, FT_RR_OWNER, 0, ft_now_ns(), rec, FT_REC_OWNER_HDR + k->len);
	free(rec);
	return 0;
}

/* Looked at within FT_LIVE_OWNER_AGAIN: not worth another read yet. */
static bool owner_fresh(const struct ft_live *l, uint64_t pfn)
{
	const struct ft_owner_look *o = ft_session_owner(&l->session, pfn);

	return o && ft_now_ns() - o->t_ns < FT_LIVE_OWNER_AGAIN;
}

int ft_live_owner_want(struct ft_live *l, uint64_t pfn, uint32_t pages, bool cursor)
{
	size_t i;
	int err = owner_open(l);

	if (err)
		return err;
	if (owner_fresh(l, pfn))
		return 0;
	for (i = 0; i < l->owner.qn; i++)
		if (l->owner.q[i].pfn == pfn) {
			l->owner.q[i].cursor |= cursor;
			return 0;
		}
	if (l->owner.qn == FT_LIVE_OWNER_Q) {
		if (!cursor)
			return 0;	/* full: a fallback's block waits for another fallback */
		l->owner.qn--;		/* the cursor's goes in, the newest other one out */
	}
	if (cursor) {	/* first in line */
		memmove(l->owner.q + 1, l->owner.q, l->owner.qn * sizeof(*l->owner.q));
		i = 0;
	} else {
		i = l->owner.qn;
	}
	l->owner.q[i] = (struct ft_live_owner_q){ .pfn = pfn, .pages = pages, .cursor = cursor };
	l->owner.qn++;
	return 0;
}

int ft_live_owner_scan_mixed(struct ft_live *l, unsigned int max)
{
	const struct ft_pbmap *m = &l->session.map;
	unsigned int done = 0;
	uint64_t looked = 0, total = 0;
	bool opened = l->owner.state > 0;
	int err = owner_open(l);

	if (err)
		return err;
	if (opened)	/* else owner_open() just read it */
		owner_stacks(l);
	if (m->order < 0 || !m->nr)
		return 0;
	/* the blocks fallbacks named (the fragmenting ones among them): where pollution starts */
	{
		const struct ft_events *ev = &l->session.events;
		uint64_t h = l->owner.fb_seen;

		if (ev->fb_head - h > FT_EV_FB_RING)
			h = ev->fb_head - FT_EV_FB_RING;
		for (; h < ev->fb_head && done < max; h++) {
			uint64_t pfn = ev->fb_ring[h % FT_EV_FB_RING].pfn >> m->order << m->order;

			if (ft_pbmap_zone_of(m, pfn) < 0 || owner_fresh(l, pfn))
				continue;
			err = owner_look(l, pfn, 1u << m->order);
			if (err)
				return err;
			done++;
		}
		l->owner.fb_seen = h;
	}
	for (size_t z = 0; z < m->nr; z++)
		total += m->zones[z].nr_blocks;
	while (done < max && looked < total) {
		const struct ft_pbmap_zone *z;

		if (l->owner.zone >= m->nr) {
			l->owner.zone = 0;
			l->owner.block = 0;
		}
		z = &m->zones[l->owner.zone];
		if (l->owner.block >= z->nr_blocks) {
			l->owner.zone++;
			l->owner.block = 0;
			continue;
		}
		looked++;
		if (z->blocks[l->owner.block].cls == FT_PB_MIXED) {
			err = owner_look(l, (z->first_block + l->owner.block) << m->order,
					 1u << m->order);
			if (err)
				return err;
			done++;
		}
		l->owner.block++;
	}
	return (int)done;
}

/*
 * The queued page_owner looks, within the map's budget (the cursor's may borrow); @c0 the poll's
 * start.
 */
void ft_live_owner_poll(struct ft_live *l, uint64_t c0, double borrow)
{
	while (l->owner.qn && l->owner.state > 0) {
		struct ft_live_owner_q q = l->owner.q[0];
		double left = ft_live_map_budget_left(l, c0);
		int err;

		if (left <= (q.cursor ? -borrow : 0))
			break;
		memmove(l->owner.q, l->owner.q + 1, (l->owner.qn - 1) * sizeof(*l->owner.q));
		l->owner.qn--;
		if (owner_fresh(l, q.pfn))
			continue;
		err = owner_look(l, q.pfn, q.pages);
		if (err) {
			ft_diag(FT_DIAG_WARN, "page owners: %s", ft_pown_strerror(err));
			ft_pown_close(&l->owner.pown);
			l->owner.state = err;
			ft_live_emit(l, FT_RR_SOURCE, FT_RS_OWNER, ft_now_ns(), &(int32_t){ err },
				     4);
			l->owner.qn = 0;
		}
	}
}

bool ft_live_owner_cursor_waiting(const struct ft_live *l)
{
	return l->owner.qn && l->owner.q[0].cursor;
}

bool ft_live_owner_open(const struct ft_live *l)
{
	return l->owner.state > 0;
}

void ft_live_owner_emit_status(struct ft_live *l, uint64_t t_ns)
{
	int32_t e = l->owner.state < 0 ? l->owner.state : 0;

	if (l->owner.state)	/* page_owner's state in every file of a series */
		ft_live_emit(l, FT_RR_SOURCE, FT_RS_OWNER, t_ns, &e, 4);
}

void ft_live_owner_free(struct ft_live *l)
{
	ft_pown_close(&l->owner.pown);
	free(l->owner.look.text);
	l->owner.look = (struct ft_pown_look){ 0 };
	l->owner.state = 0;
}
