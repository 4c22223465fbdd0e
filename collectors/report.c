// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


const char *const ft_rep_counter_names[FT_RC_NR] = {
	[FT_RC_EXTFRAG] = "extfrag",
	[FT_RC_FRAGMENTING] = "extfrag_fragmenting",
	[FT_RC_OWNERSHIP] = "extfrag_change_ownership",
	[FT_RC_THP_ALLOC] = "thp_fault_alloc",
	[FT_RC_THP_FALLBACK] = "thp_fault_fallback",
	[FT_RC_COMPACT_STALL] = "compact_stall",
	[FT_RC_COMPACT_SUCCESS] = "compact_success",
	[FT_RC_COMPACT_FAIL] = "compact_fail",
	[FT_RC_RECLAIMS] = "direct_reclaims",
	[FT_RC_KSWAPD_WAKES] = "kswapd_wakes",
	[FT_RC_FRAG_STALLS] = "fragmentation_stalls",
};

static void point(struct ft_report *rep, struct ft_rep_point *pt)
{
	const struct ft_session *l = &rep->rp.session;
	uint64_t m[FT_M_NR] = { 0 };
	static const struct { enum ft_rep_counter c; const char *name; } vm[] = {
		{ FT_RC_THP_ALLOC, "thp_fault_alloc" },
		{ FT_RC_THP_FALLBACK, "thp_fault_fallback" },
		{ FT_RC_COMPACT_STALL, "compact_stall" },
		{ FT_RC_COMPACT_SUCCESS, "compact_success" },
		{ FT_RC_COMPACT_FAIL, "compact_fail" },
	};
	size_t i;

	memset(pt, 0, sizeof(*pt));
	pt->t_ns = rep->rp.session.tick_t_ns;
	if (l->tracing)
		ft_events_metrics(&l->events, m);
	pt->c[FT_RC_EXTFRAG] = (int64_t)m[FT_M_EXTFRAG];
	pt->c[FT_RC_FRAGMENTING] = (int64_t)m[FT_M_FRAGMENTING];
	pt->c[FT_RC_OWNERSHIP] = (int64_t)m[FT_M_OWNERSHIP];
	pt->c[FT_RC_RECLAIMS] = (int64_t)m[FT_M_RECLAIM];
	pt->c[FT_RC_KSWAPD_WAKES] = (int64_t)m[FT_M_KSWAPD_WAKE];
	pt->c[FT_RC_FRAG_STALLS] = (int64_t)m[FT_M_FRAG_STALL];
	for (i = 0; i < sizeof(vm) / sizeof(vm[0]); i++)
		if (!ft_vmstat_get(&l->sample.vmstat, vm[i].name, &pt->c[vm[i].c], &rep->vm_hint[i]))
			pt->c[vm[i].c] = 0;
	if (l->tracing)
		memcpy(pt->lat, l->events.lat, sizeof(pt->lat));
	memcpy(pt->lat_n, rep->nr_raw, sizeof(pt->lat_n));
}

/* events.on_latency: keep every value for exact percentiles. */
static void keep_latency(void *ctx, enum ft_lat_source src, uint64_t us)
{
	struct ft_report *rep = ctx;

	if (rep->raw_full[src])
		return;
	if (rep->nr_raw[src] == rep->cap_raw[src]) {
		size_t cap = rep->cap_raw[src] ? rep->cap_raw[src] * 2 : 4096;
		uint32_t *p = cap <= FT_REP_MAX_RAW ? realloc(rep->raw[src], cap * sizeof(*p)) : NULL;

		if (!p) {
			rep->raw_full[src] = true;
			return;
		}
		rep->raw[src] = p;
		rep->cap_raw[src] = cap;
	}
	rep->raw[src][rep->nr_raw[src]++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

int ft_report_latency(const struct ft_report *rep, enum ft_lat_source src,
		      const struct ft_rep_point *from, const struct ft_rep_point *to,
		      struct ft_rep_lat *out)
{
	struct ft_hist h;
	size_t n = to->lat_n[src] - from->lat_n[src];
	uint32_t *v;

	ft_hist_sub(&h, &to->lat[src], &from->lat[src]);
	memset(out, 0, sizeof(*out));
	out->count = h.count;
	out->mean_us = h.count ? ft_hist_mean(&h) : NAN;
	/* exact when every value in between was kept (none dropped, none before the hook) */
	out->exact = !rep->raw_full[src] && n == h.count;
	if (!out->exact) {
		out->p50_us = ft_hist_percentile(&h, 50);
		out->p90_us = ft_hist_percentile(&h, 90);
		out->p99_us = ft_hist_percentile(&h, 99);
		out->p999_us = ft_hist_percentile(&h, 99.9);
		out->max_us = h.max_us;
		return 0;
	}
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, rep->raw[src] + from->lat_n[src], n * sizeof(*v));
	ft_pct_sort(v, n);
	out->p50_us = ft_pct_sorted(v, n, 50);
	out->p90_us = ft_pct_sorted(v, n, 90);
	out->p99_us = ft_pct_sorted(v, n, 99);
	out->p999_us = ft_pct_sorted(v, n, 99.9);
	out->max_us = v[n - 1];
	free(v);
	return 0;
}

static int64_t boost_now(const struct ft_report *rep)
{
	const struct ft_knob *k = ft_knob_find("watermark_boost_factor");
	const struct ft_knob_value *v = &rep->rp.session.knobs[k - ft_knobs];

	return v->err ? -1 : v->num;
}

/* The sampler's last tick into the recording's and the interval's sums. */
static void add_boost(struct ft_report *rep, struct ft_rep_interval *iv)
{
	const struct ft_session *s = &rep->rp.session;
	int i;

	if (s->boost_nr > rep->boost_nr)
		rep->boost_nr = s->boost_nr;
	for (i = 0; i < s->boost_nr; i++) {
		ft_boost_sum(&rep->boost_zone[i], &s->boost[i]);
		ft_boost_sum(&iv->boost_zone[i], &s->boost[i]);
	}
}

int ft_report_build(struct ft_report *rep, const char *path)
{
	struct ft_rep_point prev;
	char knob_prev[FT_SESSION_MAX_KNOBS][FT_KNOB_TEXT];
	size_t seen = 0, k;
	int err, lat;

	memset(rep, 0, sizeof(*rep));
	/* zone layout once a minute is plenty for a report */
	err = ft_replay_open(&rep->rp, path, 60);
	if (err) {
		fprintf(stderr, "fragtop: %s: %s\n", path, rep->rp.r.why[0] ? rep->rp.r.why : strerror(-err));
		return err;
	}
	rep->rp.session.events.on_latency = keep_latency;
	rep->rp.session.events.on_latency_ctx = rep;
	memset(&prev, 0, sizeof(prev));
	memset(knob_prev, 0, sizeof(knob_prev));
	while ((err = ft_replay_step(&rep->rp)) > 0) {
		struct ft_rep_point now;
		bool changed = false;
		char opened[160] = "";

		point(rep, &now);
		if (!rep->have_first) {
			/* the first tick is the baseline: rates start from it */
			rep->first = now;
			rep->have_first = true;
			rep->boost_first = boost_now(rep);
			rep->iv[0].from = now;
			rep->iv[0].boost = rep->boost_first;
			rep->nr_iv = 1;
			rep->procs_first = malloc(sizeof(*rep->procs_first));
			if (rep->procs_first)
				*rep->procs_first = rep->rp.session.events.procs;
			prev = now;
			seen = rep->rp.session.nr_audits;
			for (k = 0; k < ft_knobs_nr && k < FT_SESSION_MAX_KNOBS; k++)
				ft_knob_value_text(&ft_knobs[k], &rep->rp.session.knobs[k], knob_prev[k],
						   sizeof(knob_prev[k]));
			continue;
		}
		for (; seen < rep->rp.session.nr_audits; seen++) {
			const struct ft_session_audit *a = &rep->rp.session.audits[seen];

			if (strcmp(a->outcome, "ok"))
				continue;
			changed = true;
			snprintf(opened, sizeof(opened), "%s %s -> %s", a->knob, a->old, a->new);
		}
		/* a knob changed by someone else (a script, sysctl) opens an interval too */
		for (k = 0; k < ft_knobs_nr && k < FT_SESSION_MAX_KNOBS; k++) {
			char v[FT_KNOB_TEXT];

			ft_knob_value_text(&ft_knobs[k], &rep->rp.session.knobs[k], v, sizeof(v));
			if (strcmp(v, knob_prev[k]) && knob_prev[k][0] && v[0] && !changed) {
				changed = true;
				snprintf(opened, sizeof(opened), "%.40s %.32s -> %.32s (outside fragtop)",
					 ft_knobs[k].name, knob_prev[k], v);
			}
		}
		for (k = 0; k < ft_knobs_nr && k < FT_SESSION_MAX_KNOBS; k++)
			ft_knob_value_text(&ft_knobs[k], &rep->rp.session.knobs[k], knob_prev[k],
					   sizeof(knob_prev[k]));
		if (changed && rep->nr_iv < FT_REP_MAX_INTERVALS) {
			/* the change happened between the previous tick and this one */
			rep->iv[rep->nr_iv - 1].to = prev;
			rep->iv[rep->nr_iv].from = prev;
			rep->iv[rep->nr_iv].boost = boost_now(rep);
			snprintf(rep->iv[rep->nr_iv].opened_by, sizeof(rep->iv[0].opened_by), "%s", opened);
			rep->nr_iv++;
		}
		add_boost(rep, &rep->iv[rep->nr_iv - 1]);
		prev = now;
	}
	if (err < 0) {
		fprintf(stderr, "fragtop: %s: %s\n", path, strerror(-err));
		return err;
	}
	if (!rep->have_first) {
		fprintf(stderr, "fragtop: %s: no complete sample in the recording%s%s\n", path,
			rep->rp.r.why[0] ? ": " : "", rep->rp.r.why);
		return -ENODATA;
	}
	point(rep, &rep->last);
	rep->iv[rep->nr_iv - 1].to = rep->last;
	if (rep->rp.session.tracing && rep->procs_first) {
		rep->procs = malloc(sizeof(*rep->procs));
		if (rep->procs)
			ft_procs_sub(rep->procs, &rep->rp.session.events.procs, rep->procs_first);
	}
	for (lat = 0; lat < FT_LAT_NR; lat++)
		rep->lat_present[lat] = rep->rp.session.tracing &&
			ft_session_has_event(&rep->rp.session, lat == FT_LAT_COMPACTION ? FT_EV_COMPACT_END :
				     lat == FT_LAT_RECLAIM ? FT_EV_RECLAIM_END : FT_EV_FRAG_STALL);
	return 0;
}

void ft_report_release(struct ft_report *rep)
{
	int i;

	for (i = 0; i < FT_LAT_NR; i++)
		free(rep->raw[i]);
	free(rep->procs);
	free(rep->procs_first);
	ft_replay_close(&rep->rp);
}

