// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop plot`'s data: a recording's window replayed into series (analysis/plot.h). */
#include "analysis/plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "collectors/replay.h"
#include "model/frag.h"
#include "model/knob.h"
#include "model/knobwatch.h"

static int grow(struct ft_plot_run *r)
{
	size_t cap = r->cap ? r->cap * 2 : 1024;
	int s, z;
	void *p;

	if (!(p = realloc(r->t, cap * sizeof(*r->t))))
		return -ENOMEM;
	r->t = p;
	for (s = 0; s < FT_PLOT_NR; s++)
		for (z = 0; z < FT_PLOT_LINES; z++) {
			if (!(p = realloc(r->v[s][z], cap * sizeof(double))))
				return -ENOMEM;
			r->v[s][z] = p;
		}
	if (!(p = realloc(r->heat, cap * sizeof(*r->heat))))
		return -ENOMEM;
	r->heat = p;
	r->cap = cap;
	return 0;
}

/* The zones to draw: the populated ones, largest first, at most FT_PLOT_ZONES. */
static void pick_zones(struct ft_plot_run *r, const struct ft_session *s)
{
	const struct ft_sample *sm = &s->sample;
	size_t i;
	int k;

	for (i = 0; i < sm->nr_zones && i < FT_BOOST_ZONES; i++) {
		const struct ft_zi_zone *zi = sm->zones[i].zi;

		if (!ft_zi_populated(zi))
			continue;
		for (k = r->nz; k > 0 && sm->zones[r->zi[k - 1]].zi->managed < zi->managed; k--)
			if (k < FT_PLOT_ZONES) {
				r->zi[k] = r->zi[k - 1];
				memcpy(r->zone[k], r->zone[k - 1], sizeof(r->zone[k]));
			}
		if (k >= FT_PLOT_ZONES)
			continue;
		r->zi[k] = (int)i;
		snprintf(r->zone[k], sizeof(r->zone[k]), "N%d %s", zi->node, zi->name);
		if (r->nz < FT_PLOT_ZONES)
			r->nz++;
	}
}

/* The knob changes of a tick as marks: every recorded one, and those made outside fragtop. */
struct mark_ctx {
	struct ft_plot_run *r;
	uint64_t start;		/* the first tick */
	double from;		/* the window's start, s */
	double t, prev_t;	/* this tick and the one before, s */
	bool before;		/* this tick is before the window */
	int err;
};

static void on_change(void *ctx, const struct ft_knob_change *c)
{
	struct mark_ctx *x = ctx;
	const struct ft_session_audit *a = c->audit;
	struct ft_plot_mark *m;

	if (a ? (double)(a->t_ns - x->start) / 1e9 < x->from : x->before)
		return;
	if (!(m = realloc(x->r->marks, (x->r->nr_marks + 1) * sizeof(*m)))) {
		x->err = -ENOMEM;
		return;
	}
	x->r->marks = m;
	m += x->r->nr_marks++;
	/*
	 * ours at the audit's time; one from outside between the last tick and this one, as report
	 * says
	 */
	m->t = a ? (double)((int64_t)a->t_ns - (int64_t)x->start) / 1e9 : x->prev_t;
	snprintf(m->text, sizeof(m->text), "%.60s %.60s -> %.60s%s", a ? a->knob : c->knob->name,
		 c->old, c->new, a ? "" : " (outside fragtop)");
}

/* A THP size's slot (8 kB << slot), or -1 past 2 MiB or not a power of two. */
static int thp_slot(uint32_t kb)
{
	int slot;

	for (slot = 0; slot < FT_PLOT_THP_SLOTS; slot++)
		if (kb == 8u << slot)
			return slot;
	return -1;
}

/* Tick @n's success % per size: over the THP input that came with it, NAN otherwise. */
static void thp_point(struct ft_plot_run *r, const struct ft_session *s, size_t n)
{
	bool fresh = s->thp_ticks >= 2 && s->thp_t_ns != r->thp_t_ns;
	int i, slot;

	for (slot = 0; slot < FT_PLOT_THP_SLOTS; slot++)
		r->v[FT_PLOT_THP_OK][slot][n] = NAN;
	r->thp_t_ns = s->thp_t_ns;
	for (i = 0; fresh && i < s->thp.nr; i++) {
		uint32_t kb = s->thp.s[i].kb;
		uint64_t a, f;

		slot = thp_slot(kb);
		if (slot < 0 || !ft_thp_growth(&s->thp_prev, &s->thp, kb, "anon_fault_alloc", &a) ||
		    !ft_thp_growth(&s->thp_prev, &s->thp, kb, "anon_fault_fallback", &f) ||
		    !(a + f))
			continue;
		r->v[FT_PLOT_THP_OK][slot][n] = 100.0 * (double)a / (double)(a + f);
		r->thp_faults[slot] += (double)(a + f);
	}
}

/* Open @path to be read once, front to back (no checkpoints); says why not. */
static int open_once(struct ft_replay *rp, const char *path)
{
	int err = ft_replay_open(rp, path, NULL);

	if (err) {
		ft_diag(FT_DIAG_ERR, "%s: %s", path, rp->r.why[0] ? rp->r.why : strerror(-err));
		ft_replay_close(rp);
		return err;
	}
	rp->forward_only = true;
	return 0;
}

/* Point @n of the heat map: the tick's stall latencies by octave. */
static void heat_point(struct ft_plot_run *r, const struct ft_session *s, size_t n)
{
	struct ft_hist lh;
	size_t i;
	int src;

	memset(r->heat[n], 0, sizeof(r->heat[0]));
	if (!s->tracing || ft_latring_newest_ns(&s->lat) != s->tick_t_ns)
		return;
	for (src = 0; src < FT_LAT_NR; src++) {
		if (src == FT_LAT_BG_COMPACTION ||
		    !ft_session_lat_last(s, (enum ft_lat_source)src, &lh))
			continue;
		for (i = 0; i < FT_HIST_BUCKETS; i++) {
			uint64_t lo = ft_hist_bucket_lo((unsigned int)i);
			int o = lo ? 63 - __builtin_clzll(lo) : 0;

			r->heat[n][o < FT_PLOT_OCTAVES ? o : FT_PLOT_OCTAVES -
				   1] += (double)lh.bucket[i];
		}
	}
}

int ft_plot_load(struct ft_plot_run *r, const char *path, const struct ft_rep_window *w)
{
	static struct ft_replay rp;
	uint64_t start = 0;
	double from = 0, to = INFINITY, prev_t = 0;
	struct ft_knob_watch watch;
	struct mark_ctx mc = { .r = r };
	struct ft_rep_cut cut = { 0 };
	char why[160];
	int err, z, k, where;

	memset(r, 0, sizeof(*r));
	memset(&watch, 0, sizeof(watch));
	r->file = path;
	err = open_once(&rp, path);
	if (err)
		return err;
	while ((err = ft_replay_step(&rp)) > 0) {
		const struct ft_session *s = &rp.session;
		double t;

		if (!start) {
			start = s->tick_t_ns;
			if (w &&
			    ((w->from &&
			      ft_report_window_secs(w->from, s->first_rt_ns, &from, why,
						    sizeof(why))) ||
				  (w->to &&
				   ft_report_window_secs(w->to, s->first_rt_ns, &to, why,
							 sizeof(why))))) {
				ft_diag(FT_DIAG_ERR, "%s: %s", path, why);
				err = -EINVAL;
				break;
			}
			pick_zones(r, s);
			ft_report_cut_init(&cut, from, to);
		}
		t = (double)(s->tick_t_ns - start) / 1e9;
		mc.before = (where = ft_report_cut_where(&cut, t)) < 0;
		mc.start = start;
		mc.from = from;
		mc.t = t;
		mc.prev_t = prev_t;
		ft_knob_watch_step(&watch, s, on_change, &mc);
		if (mc.err) {
			err = mc.err;
			break;
		}
		prev_t = t;
		if (where < 0)
			continue;
		if (where > 0)
			break;
		if (r->n == r->cap && (err = grow(r)))
			break;
		r->t[r->n] = t;
		r->boost |= s->boost_nr > 0;
		r->tracing |= s->tracing;
		r->thp |= s->thp_ticks > 0;
		for (z = 0; z < r->nz; z++) {
			double v[FT_PLOT_NR];

			for (k = 0; k < FT_PLOT_THP_OK; k++) {
				static const enum ft_zh_metric m[FT_PLOT_THP_OK] = {
					FT_ZH_FRAG_RATE, FT_ZH_BOOST_PEAK, FT_ZH_BOOSTED,
					FT_ZH_UNUSABLE, FT_ZH_FREE,
					FT_ZH_IN_BLOCKS,
				};

				ft_session_history(s, r->zi[z], m[k], 0, 1, &v[k], NULL, NULL);
			}
			v[FT_PLOT_BOOSTED] *= 100;
			v[FT_PLOT_IN_BLOCKS] *= 100;
			for (k = 0; k < FT_PLOT_THP_OK; k++)
				r->v[k][z][r->n] = v[k];
		}
		thp_point(r, s, r->n);
		heat_point(r, s, r->n);
		r->n++;
	}
	ft_replay_close(&rp);
	if (err < 0) {
		if (err != -EINVAL)
			ft_diag(FT_DIAG_ERR, "%s: %s", path, strerror(-err));
		return err;
	}
	if (!r->n) {
		ft_diag(FT_DIAG_ERR, "%s: no sample%s", path, w &&
			(w->from || w->to) ? " in the window" : "");
		return -ENODATA;
	}
	return 0;
}

void ft_plot_release(struct ft_plot_run *r)
{
	int s, z;

	free(r->t);
	for (s = 0; s < FT_PLOT_NR; s++)
		for (z = 0; z < FT_PLOT_LINES; z++)
			free(r->v[s][z]);
	free(r->heat);
	free(r->marks);
}
