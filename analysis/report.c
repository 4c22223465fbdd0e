// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/report.h"
#include "analysis/report_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/diag.h"
#include "base/grow.h"
#include "collectors/replay.h"
#include "model/knobwatch.h"


static void point(struct ft_report *rep, struct ft_rep_point *pt)
{
	const struct ft_session *s = rep->s;

	memset(pt, 0, sizeof(*pt));
	pt->t_ns = rep->s->tick_t_ns;
	rep->vm_seen = ft_counters_read(s, pt->c) & ft_counters_vmstat_mask();
	if (s->tracing) {
		memcpy(pt->bg, s->events.bg, sizeof(pt->bg));
		memcpy(pt->lat, s->events.lat, sizeof(pt->lat));
	}
	memcpy(pt->lat_n, rep->nr_raw, sizeof(pt->lat_n));
	if (ft_sample_has(&s->sample, FT_SRC_PRESSURE) && s->sample.psi.some.have) {
		pt->psi = true;
		pt->psi_some_us = s->sample.psi.some.total_us;
		pt->psi_full = s->sample.psi.full.have;
		pt->psi_full_us = s->sample.psi.full.total_us;
	}
	if (s->kmsg.known && !s->kmsg.err) {
		pt->kmsg = true;
		memcpy(pt->kmsg_fail, s->kmsg.by_order, sizeof(pt->kmsg_fail));
		pt->kmsg_lost = s->kmsg.lost;
	}
}

/* The pressure of cgroup @path in @c, or NULL. */
static const struct ft_psi *cg_psi(const struct ft_cgroups *c, const char *path)
{
	const struct ft_cgroup *g = ft_cgroup_find(c, path);

	return g && g->psi.some.have ? &g->psi : NULL;
}

int ft_report_cgroup_stall(const struct ft_report *rep, const char *path, uint64_t compaction_us,
			   struct ft_rep_memstall *out)
{
	static const struct ft_psi none = { .some = { .have = true }, .full = { .have = true } };
	const struct ft_psi *a = cg_psi(rep->cgroups_first, path), *b = cg_psi(rep->cgroups, path);

	memset(out, 0, sizeof(*out));
	/* made within the window: it stalled from 0 (unless the first table left cgroups out) */
	if (!a && b && rep->cgroups_first && !rep->cgroups_first->dropped &&
	    !ft_cgroup_find(rep->cgroups_first, path))
		a = &none;
	if (!a || !b || b->some.total_us < a->some.total_us)
		return -ENODATA;
	out->some_us = b->some.total_us - a->some.total_us;
	out->full_us = a->full.have && b->full.have && b->full.total_us >= a->full.total_us ?
		       b->full.total_us - a->full.total_us : UINT64_MAX;
	out->compaction_us = rep->lat_present[FT_LAT_COMPACTION] ? (double)compaction_us : NAN;
	out->share = !isnan(out->compaction_us) &&
	out->some_us ? out->compaction_us / (double)out->some_us : NAN;
	return 0;
}

int ft_report_memstall(const struct ft_report *rep, const struct ft_rep_point *from,
		       const struct ft_rep_point *to,
		       struct ft_rep_memstall *out)
{
	const struct ft_hist *a = &from->lat[FT_LAT_COMPACTION], *b = &to->lat[FT_LAT_COMPACTION];

	memset(out, 0, sizeof(*out));
	if (!from->psi || !to->psi || to->psi_some_us < from->psi_some_us)
		return -ENODATA;
	out->some_us = to->psi_some_us - from->psi_some_us;
	out->full_us = from->psi_full && to->psi_full && to->psi_full_us >= from->psi_full_us ?
		       to->psi_full_us - from->psi_full_us : UINT64_MAX;
	out->compaction_us = rep->lat_present[FT_LAT_COMPACTION] && b->sum_us >= a->sum_us ?
			     (double)(b->sum_us - a->sum_us) : NAN;
	out->share = !isnan(out->compaction_us) &&
	out->some_us ? out->compaction_us / (double)out->some_us : NAN;
	return 0;
}

/* The session's fallbacks by zone now, outside every zone last. */
static void zones_take(const struct ft_report *rep, struct ft_extfrag_counts *out)
{
	const struct ft_events *ev = &rep->s->events;

	memcpy(out, ev->extfrag_zone, sizeof(ev->extfrag_zone));
	out[FT_EV_ZONES] = ev->extfrag_nozone;
}

struct ft_extfrag_counts ft_report_zone_extfrag(const struct ft_report *rep, int k)
{
	int i = k == rep->s->events.nr_zones ? FT_EV_ZONES : k;
	const struct ft_extfrag_counts *a = &rep->zone_first[i], *b = &rep->zone_last[i];

	if (k < 0 || k > rep->s->events.nr_zones)
		return (struct ft_extfrag_counts){ 0 };
	return (struct ft_extfrag_counts){
		.total = b->total - a->total,
		.fragmenting = b->fragmenting - a->fragmenting,
		.change_ownership = b->change_ownership - a->change_ownership,
	};
}

/* The window's direct compaction cost: the session's at its last tick less its baseline's. */
static void direct_window(struct ft_report *rep)
{
	const struct ft_direct_cost *a = &rep->direct_first, *b = &rep->direct_last;
	struct ft_rep_direct_cost *d = &rep->direct;

	d->migrate = b->migrate - a->migrate;
	d->free = b->free - a->free;
	d->stalls = b->stalls - a->stalls;
	d->success = b->success - a->success;
	d->ticks = b->ticks - a->ticks;
	d->ticks_out = b->ticks_out - a->ticks_out;
	d->stalls_out = b->stalls_out - a->stalls_out;
}

/*
 * A knob's new value seen at this tick that no control change of the
 * recording explains: someone else changed it after the tick at @since_ns.
 */
static void note_outside(struct ft_report *rep, const struct ft_knob_change *c, uint64_t since_ns)
{
	const char *knob = c->knob->name, *old = c->old, *new = c->new;
	struct ft_session_audit *a;
	char who[96];

	if (rep->nr_outside == FT_REP_MAX_OUTSIDE) {
		rep->outside_dropped++;
		return;
	}
	a = &rep->outside[rep->nr_outside++];
	memset(a, 0, sizeof(*a));
	a->t_ns = rep->s->tick_t_ns;
	snprintf(a->knob, sizeof(a->knob), "%.31s", knob);
	snprintf(a->old, sizeof(a->old), "%.31s", old);
	snprintf(a->new, sizeof(a->new), "%.31s", new);
	snprintf(a->outcome, sizeof(a->outcome), "seen");
	ft_knob_change_who(c, who, sizeof(who));
	if (c->claim) {		/* another fragtop process said it made it (model/journal.h) */
		snprintf(a->how, sizeof(a->how), "%.15s",
			 c->claim->by[0] ? c->claim->by : "fragtop");
		snprintf(a->by, sizeof(a->by), "%s", c->claim->by);
		a->pid = c->claim->pid;
		a->uid = c->claim->uid;
	} else {
		snprintf(a->how, sizeof(a->how), "outside");
	}
	snprintf(a->msg, sizeof(a->msg), "%.31s %.31s -> %.31s: changed %s%.60s, after +%.1f s",
		 knob, old, new,
		 c->claim ? "by " : "", c->claim ? who : "outside this fragtop",
		 (double)(since_ns - rep->start_t_ns) / 1e9);
}

/* The knob changes between two ticks: the first opens an interval. */
struct tick_changes {
	struct ft_report *rep;
	uint64_t since_ns;	/* the tick before */
	bool changed;
	char opened[160];	/* what opened it: the last of ours, else the first outside */
	char who[96];		/* ... made by whom */
};

static void on_change(void *ctx, const struct ft_knob_change *c)
{
	struct tick_changes *t = ctx;

	if (c->audit) {
		t->changed = true;
		snprintf(t->opened, sizeof(t->opened), "%s %s -> %s", c->audit->knob, c->old,
			 c->new);
		ft_knob_change_who(c, t->who, sizeof(t->who));
		return;
	}
	note_outside(t->rep, c, t->since_ns);
	if (!t->changed) {
		char who[96];

		t->changed = true;
		ft_knob_change_who(c, who, sizeof(who));
		snprintf(t->who, sizeof(t->who), "%s", who);
		snprintf(t->opened, sizeof(t->opened), "%.32s %.32s -> %.32s (%.48s)",
			 c->knob->name, c->old, c->new,
			 who);
	}
}

/* events.on_latency: keep every value for exact percentiles. */
static void keep_latency(void *ctx, enum ft_lat_source src, uint64_t us)
{
	struct ft_report *rep = ctx;

	if (rep->raw_full[src])
		return;
	if (ft_grow_from((void **)&rep->raw[src], &rep->cap_raw[src], rep->nr_raw[src] + 1,
			 sizeof(uint32_t),
			 4096, FT_REP_MAX_RAW)) {
		rep->raw_full[src] = true;
		return;
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
	const struct ft_knob_value *v = &rep->s->knobs[k - ft_knobs];

	return v->err ? -1 : v->num;
}

/* The sampler's last tick into the recording's and the interval's sums. */
static void add_boost(struct ft_report *rep, struct ft_rep_interval *iv)
{
	const struct ft_session *s = rep->s;
	int i;

	if (s->boost_nr > rep->boost_nr)
		rep->boost_nr = s->boost_nr;
	for (i = 0; i < s->boost_nr; i++) {
		ft_boost_sum(&rep->boost_zone[i], &s->boost[i]);
		ft_boost_sum(&iv->boost_zone[i], &s->boost[i]);
	}
}

static void level_add(struct ft_rep_level *lv, double v)
{
	if (!lv->n || v < lv->min)
		lv->min = v;
	if (!lv->n || v > lv->max)
		lv->max = v;
	lv->sum += v;
	lv->last = v;
	lv->n++;
}

/*
 * The tick's share of free memory in whole free pageblocks (vmstat, 6.15+), when the kernel has it.
 */
static void add_in_blocks(struct ft_report *rep, struct ft_rep_interval *iv)
{
	const struct ft_vmstat *vs = &rep->s->sample.vmstat;
	int64_t free, blocks;

	if (!ft_vmstat_value(vs, FT_VM_NR_FREE_PAGES, &free) ||
	    !ft_vmstat_value(vs, FT_VM_NR_FREE_PAGES_BLOCKS, &blocks) || free <= 0)
		return;
	level_add(&rep->in_blocks, 100.0 * (double)blocks / (double)free);
	level_add(&iv->in_blocks, 100.0 * (double)blocks / (double)free);
}

double ft_report_level_mean(const struct ft_rep_level *lv)
{
	return lv->n ? lv->sum / (double)lv->n : NAN;
}

int ft_report_window_where(double t, double from, double to, double slack)
{
	return t < from - slack ? -1 : t > to + slack ? 1 : 0;
}

void ft_report_cut_init(struct ft_rep_cut *c, double from, double to)
{
	*c = (struct ft_rep_cut){ .from = from, .to = to, .slack = FT_REP_WINDOW_SLACK };
}

int ft_report_cut_where(struct ft_rep_cut *c, double t)
{
	if (c->seen == 1 && t > c->t_first)
		c->slack = FT_REP_WINDOW_SHARE * (t - c->t_first);
	if (!c->seen)
		c->t_first = t;
	if (c->seen < 2)
		c->seen++;
	return ft_report_window_where(t, c->from, c->to, c->slack);
}

int ft_report_window_secs(const char *arg, uint64_t start_rt_ns, double *secs, char *why, size_t sz)
{
	unsigned int h, m, s = 0;
	char *end, tail;
	double v;

	if (strchr(arg, ':')) {
		time_t t0 = (time_t)(start_rt_ns / 1000000000ull), t;
		struct tm tm;
		int n = sscanf(arg, "%u:%u%c", &h, &m, &tail);

		/* HH:MM, or HH:MM:SS and nothing after */
		if (n == 3 && (tail != ':' || sscanf(arg, "%u:%u:%u%c", &h, &m, &s, &tail) != 3))
			n = 0;
		if ((n != 2 && n != 3) || h > 23 || m > 59 || s > 60) {
			snprintf(why, sz, "'%s' is neither seconds nor a time of day (HH:MM[:SS])",
				 arg);
			return -EINVAL;
		}
		if (!start_rt_ns || !localtime_r(&t0, &tm)) {
			snprintf(why, sz, "'%s': the recording does not say when it started", arg);
			return -EINVAL;
		}
		tm.tm_hour = (int)h;
		tm.tm_min = (int)m;
		tm.tm_sec = (int)s;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t < t0)
			t += 86400;	/* the next day's */
		*secs = (double)t - (double)start_rt_ns / 1e9;
		if (*secs < 0)
			*secs = 0;
		return 0;
	}
	v = strtod(arg, &end);
	if (end == arg || *end || !(v >= 0) || isinf(v)) {
		snprintf(why, sz, "'%s' is neither seconds nor a time of day (HH:MM[:SS])", arg);
		return -EINVAL;
	}
	*secs = v;
	return 0;
}

/* What ft_report_build() carries from tick to tick. */
struct build {
	struct ft_report *rep;
	const struct ft_rep_window *w;
	const char *path;
	struct ft_rep_cut cut;
	struct ft_knob_watch watch;
	struct tick_changes tc;
	struct ft_rep_point prev;	/* the tick before */
	bool ended;			/* a tick past the window was read */
	bool said;			/* the error is said already */
	bool procs_kept;		/* rep->procs holds the table as of a tick of the window */
	bool stacks;			/* the recording has stacks, and rep->stack_* are kept */
	bool cgroups_first;		/* rep->cgroups_first holds the window's first cgroups */
};

/* The window's ends, once the recording's start is known (the first tick).  0 or -EINVAL, said. */
static int window_ends(struct build *b)
{
	struct ft_report *rep = b->rep;
	const struct ft_rep_window *w = b->w;
	char why[160];

	rep->start_t_ns = rep->s->tick_t_ns;
	if (w && ((w->from && ft_report_window_secs(w->from, rep->s->first_rt_ns, &rep->from_s, why,
						 sizeof(why))) ||
		  (w->to &&
		   ft_report_window_secs(w->to, rep->s->first_rt_ns, &rep->to_s, why,
					 sizeof(why))))) {
		ft_diag(FT_DIAG_ERR, "%s: %s", b->path, why);
		b->said = true;
		return -EINVAL;
	}
	ft_report_cut_init(&b->cut, rep->from_s, rep->to_s);
	return 0;
}

/* The window's first tick: the baseline every rate and difference starts from. */
static void baseline(struct build *b, const struct ft_rep_point *now)
{
	struct ft_report *rep = b->rep;

	rep->first = *now;
	rep->have_first = true;
	zones_take(rep, rep->zone_first);
	rep->direct_first = rep->s->direct.cost;
	rep->direct_last = rep->direct_first;
	rep->futile_first = rep->s->futile;
	rep->futile_last = rep->futile_first;
	rep->direct.known = rep->s->tracing && rep->s->events.exact_direct;
	memcpy(rep->zone_last, rep->zone_first, sizeof(rep->zone_last));
	rep->boost_first = boost_now(rep);
	rep->iv[0].from = *now;
	rep->iv[0].boost = rep->boost_first;
	rep->nr_iv = 1;
	if (rep->procs_first)
		*rep->procs_first = rep->s->events.procs;
	b->cgroups_first = rep->cgroups_first && rep->s->nr_cgroups && rep->s->cgroups->known;
	if (b->cgroups_first)
		*rep->cgroups_first = *rep->s->cgroups;	/* each cgroup's pressure at the start */
	b->stacks = rep->stack_first && rep->stack_last && ft_session_has_stacks(rep->s);
	if (b->stacks) {
		ft_stack_base_take(rep->stack_first, &rep->s->events);
		*rep->stack_last = *rep->stack_first;
	}
	b->prev = *now;
	ft_knob_watch_start(&b->watch, rep->s);
}

/*
 * A tick after the baseline: a new interval if a knob changed, and what is kept "as of each tick".
 */
static void later_tick(struct build *b, const struct ft_rep_point *now)
{
	struct ft_report *rep = b->rep;

	b->tc.since_ns = b->prev.t_ns;
	b->tc.changed = false;
	ft_knob_watch_step(&b->watch, rep->s, on_change, &b->tc);
	if (b->tc.changed && rep->nr_iv < FT_REP_MAX_INTERVALS) {
		/* the change happened between the previous tick and this one */
		rep->iv[rep->nr_iv - 1].to = b->prev;
		rep->iv[rep->nr_iv].from = b->prev;
		rep->iv[rep->nr_iv].boost = boost_now(rep);
		snprintf(rep->iv[rep->nr_iv].opened_by, sizeof(rep->iv[0].opened_by), "%s",
			 b->tc.opened);
		snprintf(rep->iv[rep->nr_iv].by, sizeof(rep->iv[0].by), "%s", b->tc.who);
		rep->nr_iv++;
	}
	rep->direct_last = rep->s->direct.cost;	/* as of each tick, like the zones' */
	rep->futile_last = rep->s->futile;
	add_boost(rep, &rep->iv[rep->nr_iv - 1]);
	add_in_blocks(rep, &rep->iv[rep->nr_iv - 1]);
	b->prev = *now;
	zones_take(rep, rep->zone_last);	/* as of each tick, like the stacks' */
	/* the stacks' counts as of each tick: the session ends one tick past a window */
	if (b->stacks)
		ft_stack_base_take(rep->stack_last, &rep->s->events);
	/* with an end to the window, the table as of each tick (the next may be past it) */
	if (b->w && b->w->to && rep->procs_first && rep->procs) {
		*rep->procs = rep->s->events.procs;
		b->procs_kept = true;
	}
}

const uint64_t ft_rep_fit_kb[FT_REP_FIT_SIZES] = { 2048, 4096, 32768, 1048576 };

/* Will it fit at a tick whose zone files are new: each size's smallest now and after compaction. */
static void fits_tick(struct ft_report *rep)
{
	const struct ft_session *s = rep->s;
	struct ft_rep_fits *f = &rep->fits;
	int asked[4];
	size_t k, n = 0;

	if (!ft_sample_has(&s->sample, FT_SRC_BUDDYINFO) ||
	    s->sample.src_t_ns[FT_SRC_BUDDYINFO] == f->seen_t_ns)
		return;
	f->seen_t_ns = s->sample.src_t_ns[FT_SRC_BUDDYINFO];
	if (!f->table && !(f->table = calloc(1, sizeof(*f->table))))
		return;
	for (k = 0; k < FT_REP_FIT_SIZES; k++) {
		char kb[32];

		snprintf(kb, sizeof(kb), "%lluK", (unsigned long long)ft_rep_fit_kb[k]);
		if ((asked[n] = ft_fit_size_parse(kb, s->host.page_size)) >= 0)
			n++;
	}
	if (!f->samples)
		ft_fits_sizes(s, FT_FITS_SRC_HOST, asked, n, &f->sizes);
	if (ft_fits_build(f->table, s, &f->sizes, true))
		return;
	for (k = 0; k < f->sizes.nr; k++) {
		const struct ft_fit *h = &f->table->host[k];

		if (!f->samples || h->now_lo < f->now_min[k]) {
			f->now_min[k] = h->now_lo;
			f->now_min_t_ns[k] = s->tick_t_ns;
		}
		if (h->map && (!f->after_known[k] || h->after_lo < f->after_min[k])) {
			f->after_min[k] = h->after_lo;
			f->after_min_t_ns[k] = s->tick_t_ns;
			f->after_known[k] = true;
		}
		f->last[k] = *h;
	}
	f->samples++;
}

/* One tick of the recording.  1 go on, 0 past the window, -errno (said). */
static int one_tick(struct build *b)
{
	struct ft_report *rep = b->rep;
	struct ft_rep_point now;
	int where;

	if (!rep->start_t_ns && window_ends(b))
		return -EINVAL;
	where = ft_report_cut_where(&b->cut, (double)(rep->s->tick_t_ns - rep->start_t_ns) / 1e9);
	if (where < 0)
		return 1;	/* before the window: not even the baseline */
	if (where > 0) {
		b->ended = true;
		return 0;	/* past it: the tick before was the last */
	}
	rep->ticks++;
	point(rep, &now);
	memcpy(rep->knobs_end, rep->s->knobs, sizeof(rep->knobs_end));
	fits_tick(rep);
	/* the recording fragtop's own cost, likewise */
	if (rep->s->cost.known) {
		if (!rep->cost_ticks++)
			rep->cost_first = rep->s->cost.now;
		rep->cost_last = rep->s->cost.now;
	}
	/* THP by size: the first tick of the window that has it, and every one after */
	if (rep->s->thp_ticks) {
		if (!rep->have_thp)
			rep->thp_first = rep->s->thp;
		rep->thp_last = rep->s->thp;
		rep->have_thp = true;
	}
	if (!rep->have_first)
		baseline(b, &now);
	else
		later_tick(b, &now);
	return 1;
}

/* The window read: its last point, the processes' differences, which latencies were traced. */
static void window_done(struct build *b)
{
	struct ft_report *rep = b->rep;
	int lat;

	if (b->ended)
		rep->last = b->prev;	/* the session is one tick past the window */
	else
		point(rep, &rep->last);
	rep->iv[rep->nr_iv - 1].to = rep->last;
	direct_window(rep);
	if (rep->s->tracing && rep->procs_first && rep->procs) {
		if (!b->ended || !b->procs_kept)	/* else: kept at the window's last tick */
			*rep->procs = rep->s->events.procs;
		ft_procs_sub(rep->procs, rep->procs, rep->procs_first);
	} else {
		free(rep->procs);	/* no table */
		rep->procs = NULL;
	}
	if (rep->cgroups && rep->s->nr_cgroups && rep->s->cgroups->known) {
		*rep->cgroups = *rep->s->cgroups;	/* names: the pods of the window's end */
	} else {					/* no cgroups recorded: NULL says so */
		free(rep->cgroups);
		rep->cgroups = NULL;
	}
	if (!b->cgroups_first) {
		free(rep->cgroups_first);
		rep->cgroups_first = NULL;
	}
	if (!b->stacks) {		/* no stacks: NULL says so (analysis/compare.c) */
		free(rep->stack_first);
		free(rep->stack_last);
		rep->stack_first = rep->stack_last = NULL;
	}
	for (lat = 0; lat < FT_LAT_NR; lat++)
		rep->lat_present[lat] = rep->s->tracing &&
			ft_session_has_event(rep->s, ft_lat_event[lat]);
}

int ft_report_build(struct ft_report *rep, const char *path, const struct ft_rep_window *w)
{
	/*
	 * zone layout once a minute is plenty for a report; every latency kept for exact
	 * percentiles
	 */
	const struct ft_session_opts so = { .lean = 60, .on_latency = keep_latency,
					    .on_latency_ctx = rep };
	struct build b = { .rep = rep, .w = w, .path = path, .tc = { .rep = rep } };
	int err;

	memset(rep, 0, sizeof(*rep));
	/* a session is 1.9 MB: its rings stay out of RSS until used */
	rep->rp = calloc(1, sizeof(*rep->rp));
	if (!rep->rp) {
		ft_diag(FT_DIAG_ERR, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	rep->s = &rep->rp->session;
	err = ft_replay_open(rep->rp, path, &so);
	if (err) {
		ft_diag(FT_DIAG_ERR, "%s: %s", path,
			rep->rp->r.why[0] ? rep->rp->r.why : strerror(-err));
		return err;
	}
	rep->from_s = 0;
	rep->to_s = INFINITY;
	/* set again once the window's ends are known */
	ft_report_cut_init(&b.cut, rep->from_s, rep->to_s);
	/*
	 * the processes' table and the stacks' counts at the window's ends (ft_report_release
	 * frees)
	 */
	rep->procs_first = malloc(sizeof(*rep->procs_first));
	rep->procs = malloc(sizeof(*rep->procs));
	rep->stack_first = malloc(sizeof(*rep->stack_first));
	rep->stack_last = malloc(sizeof(*rep->stack_last));
	/* kept when the recording has them */
	rep->cgroups_first = malloc(sizeof(*rep->cgroups_first));
	rep->cgroups = malloc(sizeof(*rep->cgroups));
	while ((err = ft_replay_step(rep->rp)) > 0 && (err = one_tick(&b)) > 0)
		;
	if (err < 0) {
		if (!b.said)
			ft_diag(FT_DIAG_ERR, "%s: %s", path, strerror(-err));
		return err;
	}
	if (!rep->have_first) {
		if (rep->start_t_ns)
			ft_diag(FT_DIAG_ERR,
				"%s: no sample in the window (the recording is %.1f s long)", path,
				(double)(rep->s->tick_t_ns - rep->start_t_ns) / 1e9);
		else
			ft_diag(FT_DIAG_ERR, "%s: no complete sample in the recording%s%s", path,
				rep->rp->r.why[0] ? ": " : "", rep->rp->r.why);
		return -ENODATA;
	}
	window_done(&b);
	snprintf(rep->file.path, sizeof(rep->file.path), "%s", rep->rp->path);
	rep->file.clean = rep->rp->r.clean;
	rep->file.truncated = rep->rp->r.truncated;
	rep->file.chunks = rep->rp->r.nr;
	rep->file.bad_chunks = rep->rp->bad_chunks;
	rep->file.resyncs = rep->rp->r.resyncs;
	err = ft_report_figures(rep);
	if (err)
		ft_diag(FT_DIAG_ERR, "%s: %s", path, strerror(-err));
	return err;
}

size_t ft_report_stacks(const struct ft_report *rep, struct ft_stack_group *out, size_t max,
			uint64_t *other, uint64_t *unstacked)
{
	*other = *unstacked = 0;
	if (!rep->stack_first || !rep->stack_last)
		return 0;
	return ft_stack_groups(&rep->s->events, rep->stack_first, rep->stack_last,
			       &rep->s->syms, out, max, other, unstacked);
}

/* The map's class of the block at PFN @pfn: FT_PB_UNSCANNED when it has none. */
size_t ft_report_owners(const struct ft_report *rep, struct ft_po_group *out, size_t max,
			struct ft_po_tally *t, size_t *blocks, size_t *looks)
{
	const struct ft_session *s = rep->s;
	size_t i, n = 0;

	memset(t, 0, sizeof(*t));
	*blocks = 0;
	*looks = s->owners.nr;
	for (i = 0; i < s->owners.nr; i++) {
		const struct ft_owner_look *o = &s->owners.looks[i];
		const struct ft_pb_block *pb = ft_pbmap_block(&s->map, o->pfn);
		enum ft_pb c = pb ? (enum ft_pb)pb->cls : FT_PB_UNSCANNED;

		if (!o->text_len)
			continue;
		if (c == FT_PB_UNSCANNED ? !o->other_pages : c != FT_PB_MIXED)
			continue;
		(*blocks)++;
		n = ft_po_group_more(ft_session_owner_text(s, o), o->text_len, out, n, max, t);
	}
	ft_po_group_sort(out, n);
	return n;
}

/* The shares and joins the owners' sections print (struct ft_rep_owners). */
static void owners_figures(struct ft_rep_owners *o)
{
	size_t i, k;

	for (i = 0; i < o->nr && i < FT_REP_OWNERS_SHOWN; i++)
		o->group_pct[i] = ft_report_pct((int64_t)o->groups[i].pages,
						(int64_t)o->tally.pin_pages);
	o->has_rest = o->nr > FT_REP_OWNERS_SHOWN || o->tally.other;
	o->rest_pages = o->tally.other_pages;
	for (i = FT_REP_OWNERS_SHOWN; i < o->nr; i++)
		o->rest_pages += o->groups[i].pages;
	o->rest_pct = ft_report_pct((int64_t)o->rest_pages, (int64_t)o->tally.pin_pages);
	for (i = 0; i < o->nr_top && i < FT_REP_OWNER_STACKS; i++) {
		if (!ft_po_share(o->top[i].pages, o->stacks_pages, &o->top_pct[i]))
			o->top_pct[i] = NAN;
		o->top_pins[i] = false;
		for (k = 0; k < o->nr; k++)
			o->top_pins[i] |= o->groups[k].stack_id == o->top[i].e.stack_id;
	}
}

int ft_report_owners_model(const struct ft_report *rep, struct ft_rep_owners *o)
{
	const struct ft_session *s = rep->s;

	memset(o, 0, sizeof(*o));
	o->known = s->owner_src.known;
	o->err = s->owner_src.err;
	if (!o->known)
		return 0;
	if (s->owners.stacks_len) {
		o->have_stacks = true;
		o->stacks_cut = s->owner_src.stacks_cut;
		o->stacks_t_ns = s->owner_src.stacks_t_ns;
		o->nr_top = ft_po_stacks_top(s->owners.stacks, s->owners.stacks_len - 1, o->top,
					     FT_REP_OWNER_STACKS,
					     &o->stacks_pages, &o->nr_stacks, &o->bad);
	}
	o->groups = calloc(FT_REP_OWNER_GROUPS, sizeof(*o->groups));
	if (!o->groups)
		return -ENOMEM;
	o->nr = ft_report_owners(rep, o->groups, FT_REP_OWNER_GROUPS, &o->tally, &o->blocks,
				 &o->looks);
	owners_figures(o);
	return 0;
}

void ft_report_owners_free(struct ft_rep_owners *o)
{
	free(o->groups);
	o->groups = NULL;
	o->nr = 0;
}

void ft_report_release(struct ft_report *rep)
{
	int i;

	for (i = 0; i < FT_LAT_NR; i++)
		free(rep->raw[i]);
	free(rep->procs);
	free(rep->cgroups);
	free(rep->cgroups_first);
	free(rep->procs_first);
	free(rep->cgrows);
	free(rep->stack_first);
	free(rep->stack_last);
	if (rep->fits.table)
		ft_fits_release(rep->fits.table);
	free(rep->fits.table);
	free(rep->all);
	free(rep->iv_fig);
	free(rep->findings);
	free(rep->stacks.g);
	if (rep->rp)
		ft_replay_close(rep->rp);
	free(rep->rp);
	rep->rp = NULL;
	rep->s = NULL;
}

/* The model's accessors, for every renderer alike. */

/* Seconds into the recording (from its first tick, whatever the window). */
double ft_report_secs(const struct ft_report *rep, uint64_t t)
{
	return (double)((int64_t)t - (int64_t)rep->start_t_ns) / 1e9;
}

/* The window's length. */
double ft_report_duration(const struct ft_report *rep)
{
	return (double)(rep->last.t_ns - rep->first.t_ns) / 1e9;
}

/* A control change inside the report's window (it starts after the baseline tick). */
bool ft_report_in_window(const struct ft_report *rep, uint64_t t_ns)
{
	if (rep->from_s <= 0 && isinf(rep->to_s))
		return true;	/* the whole recording: every change */
	return t_ns > rep->first.t_ns && t_ns <= rep->last.t_ns;
}

/*
 * The control changes in time order: the recording's own and the knob
 * changes seen from outside it (ft_report.outside).  NULL at the end.
 */
const struct ft_session_audit *ft_report_next_change(const struct ft_report *rep, int *ia, int *io)
{
	const struct ft_session *s = rep->s;
	const struct ft_session_audit *a = *ia < (int)s->nr_audits ? &s->audits[*ia] : NULL;
	const struct ft_session_audit *o = *io < rep->nr_outside ? &rep->outside[*io] : NULL;

	while (a && ft_session_audit_note(a))	/* who made an outside change: in its entry */
		a = ++*ia < (int)s->nr_audits ? &s->audits[*ia] : NULL;
	if (a && (!o || a->t_ns <= o->t_ns)) {
		(*ia)++;
		return a;
	}
	if (o)
		(*io)++;
	return o;
}

/* Counter @name of size @z over the window; false when either end lacks it (or it went back). */
bool ft_report_thp_delta(const struct ft_report *rep, const struct ft_thp_size *z, const char *name,
			 uint64_t *d)
{
	return ft_thp_growth(&rep->thp_first, &rep->thp_last, z->kb, name, d);
}

/* The recording fragtop's cost a tick over the window: (last - first) / ticks between. */
double ft_report_cost_per_tick(const struct ft_report *rep, uint64_t first, uint64_t last)
{
	return rep->cost_ticks > 1 &&
	last >= first ? (double)(last - first) / (double)(rep->cost_ticks - 1) : NAN;
}
/* @part of @whole in percent; NAN when @whole is not above 0. */
double ft_report_pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

/* Fold the window's thread rows into process rows (without --threads).  0 or -ENOMEM. */
int ft_report_by_process(struct ft_report *rep)
{
	struct ft_procs *by_process;

	if (!rep->procs)
		return 0;
	by_process = malloc(sizeof(*by_process));
	if (!by_process)
		return -ENOMEM;
	ft_procs_by_process(by_process, rep->procs);
	memcpy(rep->procs, by_process, sizeof(*by_process));
	free(by_process);
	return 0;
}

int ft_report_by_cgroup(struct ft_report *rep)
{
	if (!rep->procs)
		return 0;
	if (!rep->cgrows && !(rep->cgrows = malloc(sizeof(*rep->cgrows))))
		return -ENOMEM;
	ft_cgrows_build(rep->procs, rep->cgrows);
	return 0;
}
