// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's tracing (model/session_int.h): trace formats start the
 * decoder, sub-buffers are decoded into the reorder queue (model/trq.h),
 * and each tick counts the queue in time order into the events
 * (model/events.h), whose fallbacks mark the map and whose isolate
 * records join it.
 */
#include "model/session_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * A kernel_stack record belongs to the event it follows on its CPU: the
 * record queued last, when it is that CPU's fallback (the sub-buffer is
 * decoded in order).  A stack after anything else is not counted.
 */
static void pair_stack(void *ctx, const struct ft_trace_stack *st)
{
	struct ft_session *s = ctx;
	struct ft_trace_rec *r = ft_trq_last(&s->trq);

	if (!r || r->cpu != st->cpu || r->kind != FT_EV_EXTFRAG || r->stack || st->ts < r->ts)
		return;
	r->stack = ft_events_stack(&s->events, st);
}

static void queue_rec(void *ctx, const struct ft_trace_rec *r)
{
	struct ft_session *s = ctx;

	ft_trq_push(&s->trq, &s->events, r);
}

/*
 * An isolate record into s->futile: its block (the scanners isolate a
 * pageblock at a time: isolate_migratepages_block(), isolate_freepages_block())
 * holds an unmovable page (futile), holds none, or was not read whole.
 */
static void join_isolate(void *ctx, const struct ft_trace_rec *r, enum ft_iso_who who)
{
	struct ft_session *s = ctx;
	struct ft_futile *f = &s->futile;
	enum ft_iso_scanner sc = r->kind == FT_EV_COMPACT_ISO_FREE ? FT_ISO_FREE : FT_ISO_MIGRATE;
	const struct ft_pb_block *pb = NULL;

	f->events[who][sc]++;
	f->scanned[who][sc] += r->u.iso.scanned;
	f->taken[who][sc] += r->u.iso.taken;
	/* a record past its block (never seen on 6.18: 1,399 of 1,399 in one) is not placed */
	if (s->map.order >= 0 && r->u.iso.end_pfn > r->u.iso.start_pfn &&
	    (r->u.iso.end_pfn - 1) >> s->map.order == r->u.iso.start_pfn >> s->map.order)
		pb = ft_pbmap_block(&s->map, r->u.iso.start_pfn);
	if (!pb || pb->cls == FT_PB_UNSCANNED) {
		f->scanned_unknown[who][sc] += r->u.iso.scanned;
		f->taken_unknown[who][sc] += r->u.iso.taken;
	} else if (pb->pages[FT_PG_UNMOVABLE]) {
		f->scanned_futile[who][sc] += r->u.iso.scanned;
		f->taken_futile[who][sc] += r->u.iso.taken;
	}
}

static void mark_fallback(void *ctx, uint64_t pfn, int pid, bool fragmenting)
{
	struct ft_session *s = ctx;

	(void)fragmenting;
	/* in the inputs' time, so that marks fade in replay as they did live */
	ft_pbmap_mark(&s->map, pfn, pid, s->t_ns);
}

/* Keep the aggregator's zone table and pageblock order in step with the sample. */
static void sync_events(struct ft_session *s)
{
	struct ft_zone_range r[FT_EV_ZONES];
	const struct ft_zoneinfo *zi = &s->sample.zoneinfo;
	size_t i;
	int n = 0;

	if (ft_sample_has(&s->sample, FT_SRC_ZONEINFO)) {
		for (i = 0; i < zi->nr && n < FT_EV_ZONES; i++) {
			const struct ft_zi_zone *z = &zi->zones[i];

			if (!(z->has & FT_ZI_START_PFN) || !z->spanned)
				continue;
			r[n].node = z->node;
			snprintf(r[n].name, sizeof(r[n].name), "%s", z->name);
			r[n].start = z->start_pfn;
			r[n].end = z->start_pfn + z->spanned;
			n++;
		}
		ft_events_set_zones(&s->events, r, n);
	}
	if (s->sample.pageblock_order >= 0)
		s->events.pageblock_order = s->sample.pageblock_order;
	else if (s->events.pageblock_order < 0)
		s->events.pageblock_order = s->sample.pageblock_order_fallback;
}

static void update_event_rates(struct ft_session *s, uint64_t now)
{
	uint64_t m[FT_M_NR];
	double dt = (double)(now - s->ev_prev_t_ns) / 1e9;
	bool have = s->ev_prev_t_ns && now > s->ev_prev_t_ns;
	int i;

	ft_events_metrics(&s->events, m);
	for (i = 0; i < FT_M_NR; i++) {
		s->ev_rate[i] = have ? (double)(m[i] - s->ev_prev[i]) / dt : NAN;
		if (!isnan(s->ev_rate[i]))
			ft_series_push(&s->ev_series[i], s->ev_rate[i]);
		s->ev_prev[i] = m[i];
	}
	for (i = 0; i < s->events.nr_zones; i++) {
		const struct ft_extfrag_counts *c = &s->events.extfrag_zone[i];

		s->zone_extfrag_rate[i] = have ? (double)(c->total - s->zone_prev[i].total) /
			dt : NAN;
		s->zone_frag_rate[i] = have ?
			(double)(c->fragmenting - s->zone_prev[i].fragmenting) / dt : NAN;
		s->zone_prev[i] = *c;
	}
	s->ev_prev_t_ns = now;
}

void ft_session_zone_extfrag_rate(const struct ft_session *s, int node, const char *zone,
				  double *total, double *fragmenting)
{
	int i;

	*total = *fragmenting = NAN;
	if (!s->tracing)
		return;
	for (i = 0; i < s->events.nr_zones; i++) {
		if (s->events.zones[i].node == node && !strcmp(s->events.zones[i].name, zone)) {
			*total = s->zone_extfrag_rate[i];
			*fragmenting = s->zone_frag_rate[i];
			return;
		}
	}
}

static void start_tracing(struct ft_session *s)
{
	int i;

	if (s->tracing)
		return;
	if (ft_tracedec_init(&s->dec))
		return;
	s->dec.on_stack = pair_stack;
	{
		void (*on_latency)(void *, enum ft_lat_source, uint64_t) = s->events.on_latency;
		void *ctx = s->events.on_latency_ctx;

		ft_events_init(&s->events,
			       s->sample.pageblock_order >= 0 ? s->sample.pageblock_order :
			       s->sample.pageblock_order_fallback);
		s->events.on_latency = on_latency;
		s->events.on_latency_ctx = ctx;
	}
	ft_session_trace_hooks(s);
	for (i = 0; i < FT_M_NR; i++)
		s->ev_rate[i] = NAN;
	s->tracing = true;
	s->trace_err = 0;
	sync_events(s);
}

/* "system/event\n" or "header_page\n", then the format text. */
void ft_session_trace_format(struct ft_session *s, const struct ft_rec_record *in)
{
	const char *d = (const char *)in->data, *nl = memchr(d, '\n', in->len);
	const char *text, *slash;
	char system[64], name[128];
	size_t tl;
	int i, ev = -1;

	if (!nl || (size_t)(nl - d) >= sizeof(name)) {
		ft_session_bad(s, in, "a trace format without its name line");
		return;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(nl - d), d);
	text = nl + 1;
	tl = in->len - (size_t)(text - d);
	start_tracing(s);
	if (!s->tracing)
		return;
	if (!strcmp(name, "header_page")) {
		/* once: a file that repeats it costs nothing */
		if (s->dec.have_header) {
			s->formats_repeated++;
			return;
		}
		if (ft_tracedec_header_page(&s->dec, text, tl))
			ft_session_bad(s, in, "the ring buffer's header_page not understood");
		return;
	}
	slash = strchr(name, '/');
	if (!slash || (size_t)(slash - name) >= sizeof(system)) {
		ft_session_bad(s, in, "a trace format named other than system/event");
		return;
	}
	snprintf(system, sizeof(system), "%.*s", (int)(slash - name), name);
	if (!strcmp(name, "ftrace/kernel_stack")) {	/* the stack records (--stacks): once too */
		if (s->dec.stack_type >= 0)
			s->formats_repeated++;
		else if (ft_tracedec_format(&s->dec, system, text, tl))
			ft_session_bad(s, in, "the kernel_stack format not understood");
		return;
	}
	for (i = 0; i < FT_EV_NR; i++)
		if (!strcmp(ft_trace_events[i].system, system) &&
		    !strcmp(ft_trace_events[i].event, slash + 1))
			ev = i;
	/*
	 * One format per event: formats do not change within a session, and
	 * a file that repeats them must not make each repeat a full parse.
	 */
	if (ev < 0)
		return;
	if (ft_tracedec_has(&s->dec, ev)) {
		s->formats_repeated++;
		return;
	}
	/* an event this fragtop cannot decode stays off, as it does live */
	ft_tracedec_format(&s->dec, system, text, tl);
	s->trace_enabled = 0;
	for (i = 0; i < FT_EV_NR; i++)
		if (ft_tracedec_has(&s->dec, i))
			s->trace_enabled |= 1u << i;
	ft_events_set_status(&s->events, &s->dec);
}

void ft_session_trace_page(struct ft_session *s, const struct ft_rec_record *in)
{
	if (!s->tracing)
		return;
	sync_events(s);
	s->pages++;
	s->page_bytes += in->len;
	ft_tracedec_subbuf(&s->dec, in->data, in->len, in->sub, queue_rec, s);
}

void ft_session_trace_hooks(struct ft_session *s)
{
	s->events.on_fallback = mark_fallback;
	s->events.on_fallback_ctx = s;
	s->events.on_isolate = join_isolate;
	s->events.on_isolate_ctx = s;
}

void ft_session_trace_tick(struct ft_session *s, uint64_t now)
{
	size_t used = s->trq.nr;

	ft_trq_flush(&s->trq, &s->events);
	ft_trq_trim(&s->trq, used);
	ft_events_tick(&s->events);
	sync_events(s);
	update_event_rates(s, now);
	ft_latring_push(&s->lat, s->events.lat, s->ticks ? s->tick_t_ns : now, now);
}
