// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's figures (analysis/report.h, "The report's figures"): every
 * difference over the window and its intervals, and every ratio made of
 * them, computed here once.  render/report_text.c and report_json.c
 * format these and compute nothing (tests/cli/layers.sh greps them for
 * window arithmetic).
 */
#include "analysis/report.h"
#include "analysis/report_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* @n per @d; NAN when @d is not above 0. */
static double per(int64_t n, int64_t d)
{
	return d > 0 ? (double)n / (double)d : NAN;
}

/* The recording's kernel counts @c (a vmstat row it has; fragmentation stalls traced). */
static bool counter_have(const struct ft_report *rep, int c)
{
	if ((c == FT_CF_VM_FRAG_STALL || c >= FT_CF_MIGRATE_SCANNED) && !(rep->vm_seen & (1u << c)))
		return false;
	return c != FT_CF_FRAG_STALLS || rep->lat_present[FT_LAT_FRAG_STALL];
}

int ft_report_stretch(const struct ft_report *rep, const struct ft_rep_point *a,
		      const struct ft_rep_point *b,
		      struct ft_rep_stretch *s)
{
	const int64_t *d = s->d;
	int c, n, err = 0;

	memset(s, 0, sizeof(*s));
	s->from_s = ft_report_secs(rep, a->t_ns);
	s->to_s = ft_report_secs(rep, b->t_ns);
	s->secs = (double)(b->t_ns - a->t_ns) / 1e9;
	for (c = 0; c < FT_CF_NR; c++) {
		s->d[c] = b->c[c] - a->c[c];
		s->rate[c] = s->secs > 0 ? (double)s->d[c] / s->secs : NAN;
		s->have[c] = counter_have(rep, c);
	}
	/* as fractions of the percentages report_pct gives (the JSON's figures since they were) */
	s->thp_success = ft_report_pct(d[FT_CF_THP_ALLOC],
				       d[FT_CF_THP_ALLOC] + d[FT_CF_THP_FALLBACK]) / 100;
	s->compact_success = ft_report_pct(d[FT_CF_COMPACT_SUCCESS], d[FT_CF_COMPACT_STALL]) / 100;
	s->direct_zone_runs = b->lat[FT_LAT_COMPACTION].count - a->lat[FT_LAT_COMPACTION].count;
	for (n = 0; n <= FT_EV_NODES; n++) {
		s->bg[n].count = b->bg[n].count - a->bg[n].count;
		s->bg[n].us = b->bg[n].us - a->bg[n].us;
		s->bg[n].wakes = b->bg[n].wakes - a->bg[n].wakes;
	}
	s->mem_known = !ft_report_memstall(rep, a, b, &s->mem);
	for (c = 0; c < FT_LAT_NR; c++) {
		ft_hist_sub(&s->lat[c], &b->lat[c], &a->lat[c]);
		if (!rep->lat_present[c])
			continue;
		if (ft_report_latency(rep, (enum ft_lat_source)c, a, b, &s->pct[c]))
			err = -ENOMEM;
		else
			s->pct_known[c] = true;
	}
	return err;
}

/* Compaction's cost over the window (struct ft_rep_cost). */
static void cost(struct ft_report *rep)
{
	const int64_t *d = rep->all->d;
	const struct ft_rep_direct_cost *dc = &rep->direct;
	struct ft_rep_cost *c = &rep->cost;

	memset(c, 0, sizeof(*c));
	c->have = rep->vm_seen & (1u << FT_CF_MIGRATE_SCANNED);
	c->migrate = d[FT_CF_MIGRATE_SCANNED];
	c->free = d[FT_CF_FREE_SCANNED];
	c->isolated = d[FT_CF_ISOLATED];
	c->direct_migrate = per(dc->migrate, dc->stalls);
	c->direct_free = per(dc->free, dc->stalls);
	c->direct_per_success = per(dc->migrate + dc->free, dc->success);
	c->wakes = d[FT_CF_DAEMON_WAKES];
	c->kcompactd_migrate = d[FT_CF_DAEMON_MIGRATE_SCANNED];
	c->kcompactd_free = d[FT_CF_DAEMON_FREE_SCANNED];
	c->wake_migrate = per(c->kcompactd_migrate, c->wakes);
	c->wake_free = per(c->kcompactd_free, c->wakes);
}

/* Futile compaction over the window (struct ft_rep_futile). */
static void futile(struct ft_report *rep)
{
	const struct ft_futile *a = &rep->futile_first, *b = &rep->futile_last;
	struct ft_rep_futile *f = &rep->futile;
	int w, sc;

	memset(f, 0, sizeof(*f));
	f->traced = ft_session_has_event(rep->s, FT_EV_COMPACT_ISO_MIGRATE);
	for (w = 0; w < FT_ISO_WHO_NR; w++) {
		for (sc = 0; sc < FT_ISO_SCANNER_NR; sc++) {
#define D(m)	f->d.m[w][sc] = b->m[w][sc] - a->m[w][sc]
			D(events);
			D(scanned);
			D(scanned_futile);
			D(scanned_unknown);
			D(taken);
			D(taken_futile);
			D(taken_unknown);
#undef D
			f->share[w][sc] = ft_futile_share(a, b, (enum ft_iso_who)w,
							  (enum ft_iso_scanner)sc);
		}
	}
}

/*
 * Fallbacks by zone over the window: every zone of the session's table, then those outside every
 * zone.
 */
static void zone_fallbacks(struct ft_report *rep)
{
	const struct ft_events *ev = &rep->s->events;
	int k;

	rep->nr_zone_fb = 0;
	for (k = 0; rep->s->tracing && k <= ev->nr_zones; k++) {
		struct ft_extfrag_counts z = ft_report_zone_extfrag(rep, k);
		struct ft_rep_zone_fb *o = &rep->zone_fb[rep->nr_zone_fb++];

		memset(o, 0, sizeof(*o));
		o->outside = k == ev->nr_zones;
		o->node = o->outside ? -1 : ev->zones[k].node;
		if (!o->outside)
			memcpy(o->zone, ev->zones[k].name, sizeof(o->zone));
		o->total = z.total;
		o->fragmenting = z.fragmenting;
	}
}

/* Multi-size THP over the window (struct ft_rep_thp). */
static void thp(struct ft_report *rep)
{
	struct ft_rep_thp *t = &rep->thp;
	int i, k;

	memset(t, 0, sizeof(*t));
	t->have = rep->have_thp;
	if (!t->have)
		return;
	t->d = rep->thp_last;
	for (i = 0; i < t->d.nr; i++) {
		struct ft_thp_size *z = &t->d.s[i];
		struct ft_rep_thp_anon *an = &t->anon[i];

		/* counters in the window; levels (nr_*) as at its end */
		for (k = 0; k < z->nr_stats; k++)
			t->known[i][k] = !strncmp(z->stat_name[k], "nr_", 3) ||
				ft_report_thp_delta(rep, &rep->thp_last.s[i], z->stat_name[k],
						    &z->stat[k]);
		an->have = ft_report_thp_delta(rep, z, "anon_fault_alloc", &an->alloc) &&
			ft_report_thp_delta(rep, z, "anon_fault_fallback", &an->fallback);
		if (!ft_report_thp_delta(rep, z, "split", &an->split))
			an->split = 0;
		an->success = ft_report_pct((int64_t)an->alloc,
					    (int64_t)(an->alloc + an->fallback)) / 100;
	}
}

/* fragtop's own cost a tick (struct ft_rep_selfcost). */
static void selfcost(struct ft_report *rep)
{
	struct ft_rep_selfcost *c = &rep->self;
	struct ft_cost_counts a = ft_cost_total(&rep->cost_first),
	b = ft_cost_total(&rep->cost_last);
	size_t i;

#define RATE(o, x, y) do { \
	(o)->opens = ft_report_cost_per_tick(rep, (x)->opens, (y)->opens); \
	(o)->reads = ft_report_cost_per_tick(rep, (x)->reads, (y)->reads); \
	(o)->bytes = ft_report_cost_per_tick(rep, (x)->bytes, (y)->bytes); } while (0)
	memset(c, 0, sizeof(*c));
	c->ticks = rep->cost_ticks;
	c->heap = rep->cost_last.heap;
	RATE(&c->all, &a, &b);
	for (i = 0; i < FT_COST_NR; i++)
		RATE(&c->src[i], &rep->cost_first.src[i], &rep->cost_last.src[i]);
#undef RATE
	/* its own rows: what fragtop's reading made the allocator do */
	c->pid = rep->s->self_pid;
	c->own_frag_share = NAN;
	if (rep->procs && c->pid > 0) {
		c->own_known = true;
		ft_procs_of_process(rep->procs, c->pid, c->own);
		c->own_frag_share = ft_procs_frag_share(rep->procs, c->own[FT_PC_FRAGMENTING]);
	}
}

/* Fragmenting fallbacks by kernel stack (struct ft_rep_stacks).  0 or -ENOMEM. */
static int stacks(struct ft_report *rep)
{
	struct ft_rep_stacks *st = &rep->stacks;
	uint64_t listed;
	size_t i, shown;

	memset(st, 0, sizeof(*st));
	st->have = rep->stack_first && rep->stack_last;
	st->per_sec = rep->s->stacks_src.per_sec;
	st->err = rep->s->stacks_src.err;
	if (!st->have)
		return 0;
	st->g = calloc(FT_EV_STACKS, sizeof(*st->g));
	if (!st->g)
		return -ENOMEM;
	st->nr = ft_report_stacks(rep, st->g, FT_EV_STACKS, &st->other, &st->unstacked);
	if (st->nr > FT_EV_STACKS)
		st->nr = FT_EV_STACKS;
	shown = st->nr < FT_REP_STACKS_SHOWN ? st->nr : FT_REP_STACKS_SHOWN;
	listed = st->other + st->unstacked;
	for (i = 0; i < shown; i++)
		listed += st->g[i].fragmenting;
	/* the groups not listed: what the window's total has beyond the listed ones */
	st->rest = (uint64_t)rep->all->d[FT_CF_FRAGMENTING];
	st->rest = st->rest > listed ? st->rest - listed : 0;
	st->all = listed + st->rest;
	for (i = 0; i < shown; i++)
		st->share[i] = ft_report_pct((int64_t)st->g[i].fragmenting, (int64_t)st->all);
	st->share_rest = ft_report_pct((int64_t)st->rest, (int64_t)st->all);
	st->share_other = ft_report_pct((int64_t)st->other, (int64_t)st->all);
	st->share_unstacked = ft_report_pct((int64_t)st->unstacked, (int64_t)st->all);
	return 0;
}

/* The kernel log's page allocation failures over the window. */
static void kmsg(struct ft_report *rep)
{
	const struct ft_kmsg *k = &rep->s->kmsg;
	struct ft_rep_kmsg *o = &rep->kmsg;
	int i;

	memset(o, 0, sizeof(*o));
	o->max_order = -1;
	o->err = k->known ? k->err : -ENODATA;
	if (!rep->first.kmsg || !rep->last.kmsg)
		return;
	o->known = true;
	for (i = 0; i < FT_KMSG_ORDERS; i++) {
		o->by_order[i] = rep->last.kmsg_fail[i] - rep->first.kmsg_fail[i];
		o->failures += o->by_order[i];
	}
	o->lost = rep->last.kmsg_lost - rep->first.kmsg_lost;
	o->max_order = ft_kmsg_max_order(rep->first.kmsg_fail, rep->last.kmsg_fail);
	if (o->failures && k->nlast) {
		o->have_newest = true;
		o->newest = k->last[(k->nlast - 1) % FT_KMSG_LAST];
	}
}

int ft_report_figures(struct ft_report *rep)
{
	int k, err = 0;

	rep->all = calloc(1, sizeof(*rep->all));
	rep->iv_fig = rep->nr_iv ? calloc((size_t)rep->nr_iv, sizeof(*rep->iv_fig)) : NULL;
	if (!rep->all || (rep->nr_iv && !rep->iv_fig))
		return -ENOMEM;
	if (ft_report_stretch(rep, &rep->first, &rep->last, rep->all))
		err = -ENOMEM;
	for (k = 0; k < rep->nr_iv; k++)
		if (ft_report_stretch(rep, &rep->iv[k].from, &rep->iv[k].to, &rep->iv_fig[k]))
			err = -ENOMEM;
	cost(rep);
	futile(rep);
	thp(rep);
	selfcost(rep);
	kmsg(rep);
	if (stacks(rep))
		err = -ENOMEM;
	zone_fallbacks(rep);
	return err;
}


