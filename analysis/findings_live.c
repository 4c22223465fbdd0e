// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/findings_live.h"

#include <math.h>
#include <string.h>

void ft_find_live_init(struct ft_find_live *fl, double window_s)
{
	memset(fl, 0, sizeof(*fl));
	fl->window_s = window_s > 0 ? window_s : FT_FIND_LIVE_WINDOW;
}

/* @s's newest tick as a point (its peaks: the caller's). */
static void take(const struct ft_session *s, struct ft_find_point *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->t_ns = s->tick_t_ns;
	p->have = ft_counters_read(s, p->c);
	if (s->tracing)
		p->direct = s->events.lat[FT_LAT_COMPACTION];
	if (ft_sample_has(&s->sample, FT_SRC_PRESSURE) && s->sample.psi.some.have) {
		p->psi = true;
		p->psi_some_us = s->sample.psi.some.total_us;
	}
	if (s->kmsg.known && !s->kmsg.err) {
		p->kmsg = true;
		memcpy(p->kmsg_fail, s->kmsg.by_order, sizeof(p->kmsg_fail));
	}
	p->futile = s->futile;
	for (i = 0; i < s->boost_nr; i++) {
		p->boosted += s->boost_total[i].boosted;
		p->samples += s->boost_total[i].samples;
	}
}

static const struct ft_find_point *newest(const struct ft_find_live *fl)
{
	return fl->n ? &fl->p[(fl->head + fl->n - 1) % FT_FIND_LIVE_POINTS] : NULL;
}

void ft_find_live_tick(struct ft_find_live *fl, const struct ft_session *s)
{
	const struct ft_find_point *last = newest(fl);
	uint64_t step = (uint64_t)(fl->window_s / (FT_FIND_LIVE_POINTS - 1) * 1e9);
	struct ft_find_point *p;
	int i;

	if (!s->ticks)
		return;
	/* a seek back, or a jump (a seek on, a long pause): the window starts again */
	if (last &&
	    (s->tick_t_ns < last->t_ns ||
	     s->tick_t_ns - last->t_ns > (uint64_t)(2 * fl->window_s * 1e9)))
		ft_find_live_init(fl, fl->window_s);
	for (i = 0; i < s->boost_nr && i < FT_BOOST_ZONES; i++)
		if (s->boost[i].peak > fl->peak[i])
			fl->peak[i] = s->boost[i].peak;
	last = newest(fl);
	if (last && s->tick_t_ns - last->t_ns < step)
		return;
	if (fl->n == FT_FIND_LIVE_POINTS) {
		fl->head = (fl->head + 1) % FT_FIND_LIVE_POINTS;
		fl->n--;
	}
	p = &fl->p[(fl->head + fl->n++) % FT_FIND_LIVE_POINTS];
	take(s, p);
	memcpy(p->peak, fl->peak, sizeof(p->peak));
	memset(fl->peak, 0, sizeof(fl->peak));
}

/* Counter @cf's growth, or NAN when either end lacks it. */
static double grow(const struct ft_find_point *a, const struct ft_find_point *b, enum ft_cf cf)
{
	uint32_t bit = 1u << cf;

	return (a->have & b->have & bit) &&
	b->c[cf] >= a->c[cf] ? (double)(b->c[cf] - a->c[cf]) : NAN;
}

static void window_figures(const struct ft_find_point *a, const struct ft_find_point *b,
			   double secs,
			   const struct ft_session *s, double *v)
{
	double al = grow(a, b, FT_CF_THP_ALLOC), fb = grow(a, b, FT_CF_THP_FALLBACK);
	struct ft_hist h;

	v[FT_FX_SECS] = secs;
	v[FT_FX_FRAG] = grow(a, b, FT_CF_FRAGMENTING);
	v[FT_FX_FRAG_S] = v[FT_FX_FRAG] / secs;
	if (!isnan(al) && !isnan(fb)) {
		v[FT_FX_THP_FAULTS] = al + fb;
		v[FT_FX_THP_FALLBACK_PCT] = al + fb > 0 ? 100 * fb / (al + fb) : 0;
	}
	if (s->tracing) {
		v[FT_FX_DIRECT] = grow(a, b, FT_CF_DIRECT_COMPACT);
		ft_hist_sub(&h, &b->direct, &a->direct);
		v[FT_FX_DIRECT_MS] = (double)h.sum_us / 1000;
		v[FT_FX_DIRECT_P99_MS] = h.count ? (double)ft_hist_percentile(&h, 99) / 1000 : 0;
	}
	v[FT_FX_KCOMPACTD_WAKES] = grow(a, b, FT_CF_KCOMPACTD_WAKES);
	v[FT_FX_BG_COMPACT] = grow(a, b, FT_CF_BG_COMPACT);
	v[FT_FX_MIGRATE_SCANNED] = grow(a, b, FT_CF_MIGRATE_SCANNED);
	if (ft_session_has_event(s, FT_EV_COMPACT_ISO_MIGRATE)) {
		v[FT_FX_FUTILE_PCT] = 100 * ft_futile_share(&a->futile, &b->futile, FT_ISO_DIRECT,
							    FT_ISO_MIGRATE);
		if (isnan(v[FT_FX_FUTILE_PCT]) && s->map.nr && !s->map_err)
			/* nothing scanned in read blocks: nothing futile */
			v[FT_FX_FUTILE_PCT] = 0;
	}
	if (s->boost_nr && b->samples > a->samples)
		v[FT_FX_BOOSTED_PCT] = 100.0 * (double)(b->boosted - a->boosted) /
			(double)(b->samples - a->samples);
	if (a->psi && b->psi && b->psi_some_us >= a->psi_some_us) {
		double some = (double)(b->psi_some_us - a->psi_some_us);

		v[FT_FX_MEMSTALL_PCT] = 100 * some / (secs * 1e6);
		if (s->tracing)
			v[FT_FX_COMPACT_SHARE_PCT] = some > 0 ? 100 * v[FT_FX_DIRECT_MS] * 1000 /
				some : 0;
	}
	if (a->kmsg && b->kmsg) {
		uint64_t n = 0;
		int o;

		for (o = 0; o < FT_KMSG_ORDERS; o++)
			n += b->kmsg_fail[o] - a->kmsg_fail[o];
		v[FT_FX_ALLOC_FAILURES] = (double)n;
		v[FT_FX_ALLOC_FAIL_ORDER] = ft_kmsg_max_order(a->kmsg_fail, b->kmsg_fail);
	}
}

bool ft_find_in_live(const struct ft_find_live *fl, const struct ft_session *s,
		     struct ft_find_in *in)
{
	struct ft_boost_tick peaks[FT_BOOST_ZONES];
	struct ft_find_knobs kn;
	const struct ft_find_point *a;
	struct ft_find_point b;
	unsigned int k;
	double secs;
	int i;

	ft_find_in_init(in);
	if (!fl->n)
		return false;
	a = &fl->p[fl->head];
	take(s, &b);
	if (b.t_ns <= a->t_ns)
		return false;
	secs = (double)(b.t_ns - a->t_ns) / 1e9;
	in->from_s = (double)(a->t_ns - s->first_t_ns) / 1e9;
	in->to_s = (double)(b.t_ns - s->first_t_ns) / 1e9;
	ft_find_knobs_read(s->knobs, &kn);
	ft_find_in_end(s, &kn, in);
	window_figures(a, &b, secs, s, in->v);
	/* the boost's peak over the window: the points after the oldest, and since the newest */
	memset(peaks, 0, sizeof(peaks));
	for (i = 0; i < s->boost_nr && i < FT_BOOST_ZONES; i++) {
		peaks[i].peak = fl->peak[i];
		for (k = 1; k < fl->n; k++) {
			const struct ft_find_point *p =
				&fl->p[(fl->head + k) % FT_FIND_LIVE_POINTS];

			if (p->peak[i] > peaks[i].peak)
				peaks[i].peak = p->peak[i];
		}
	}
	if (s->boost_nr)
		in->v[FT_FX_CEILING_PCT] = ft_find_ceiling_pct(s, peaks, s->boost_nr,
							       in->v[FT_FX_BOOST_FACTOR]);
	ft_find_in_sizes(s, kn.thp_on, NULL, 0, in);	/* -ENOMEM: the sizes not judged, said so */
	return true;
}
