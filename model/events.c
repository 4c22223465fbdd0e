// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/events.h"

#include <stdio.h>
#include <string.h>

const char *const ft_lat_names[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = "compaction",
	[FT_LAT_RECLAIM] = "direct_reclaim",
	[FT_LAT_FRAG_STALL] = "fragmentation_stall",
};

const enum ft_trace_event ft_lat_event[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = FT_EV_COMPACT_END,
	[FT_LAT_RECLAIM] = FT_EV_RECLAIM_END,
	[FT_LAT_FRAG_STALL] = FT_EV_FRAG_STALL,
};

void ft_events_init(struct ft_events *ev, int pageblock_order)
{
	memset(ev, 0, sizeof(*ev));
	ev->pageblock_order = pageblock_order;
	ft_procs_init(&ev->procs);
}

void ft_events_set_zones(struct ft_events *ev, const struct ft_zone_range *z, int n)
{
	if (n > FT_EV_ZONES)
		n = FT_EV_ZONES;
	memcpy(ev->zones, z, (size_t)n * sizeof(*z));
	ev->nr_zones = n;
}

void ft_events_set_status(struct ft_events *ev, const struct ft_tracedec *d)
{
	memcpy(ev->compact_status_val, d->status_val, sizeof(ev->compact_status_val));
	ev->nr_compact_status = d->nr_status;
}

static int zone_of(const struct ft_events *ev, uint64_t pfn)
{
	int i;

	for (i = 0; i < ev->nr_zones; i++)
		if (pfn >= ev->zones[i].start && pfn < ev->zones[i].end)
			return i;
	return -1;
}

static void add_counts(struct ft_extfrag_counts *c, bool frag, bool own)
{
	c->total++;
	c->fragmenting += frag;
	c->change_ownership += own;
}

static void extfrag(struct ft_events *ev, const struct ft_trace_rec *r)
{
	const typeof(r->u.extfrag) *e = &r->u.extfrag;
	bool frag = ev->pageblock_order >= 0 && e->fallback_order < ev->pageblock_order;
	bool own = e->change_ownership != 0;
	int zone = zone_of(ev, e->pfn);
	struct ft_recent_fallback *rf;

	add_counts(&ev->extfrag, frag, own);
	add_counts(zone >= 0 ? &ev->extfrag_zone[zone] : &ev->extfrag_nozone, frag, own);
	if (e->alloc_mt >= 0 && e->alloc_mt < FT_EV_MT &&
	    e->fallback_mt >= 0 && e->fallback_mt < FT_EV_MT) {
		ev->pair[e->alloc_mt][e->fallback_mt]++;
		ev->zone_pair[zone >= 0 ? zone : FT_EV_ZONES][frag][e->alloc_mt][e->fallback_mt]++;
	}
	ft_procs_count(&ev->procs, r->pid, r->ts, FT_PC_EXTFRAG, 1);
	if (frag)
		ft_procs_count(&ev->procs, r->pid, r->ts, FT_PC_FRAGMENTING, 1);
	if (own)
		ft_procs_count(&ev->procs, r->pid, r->ts, FT_PC_OWNERSHIP, 1);
	if (ev->on_fallback)
		ev->on_fallback(ev->on_fallback_ctx, e->pfn, frag);
	ev->fb_ring[ev->fb_head++ % FT_EV_FB_RING] = (struct ft_fb_pfn){ .pfn = e->pfn, .ts = r->ts };
	rf = &ev->recent[ev->recent_head++ % FT_EV_RECENT];
	*rf = (struct ft_recent_fallback){
		.ts = r->ts, .pfn = e->pfn, .zone = zone, .pid = r->pid,
		.alloc_order = (int8_t)e->alloc_order, .fallback_order = (int8_t)e->fallback_order,
		.alloc_mt = (int8_t)e->alloc_mt, .fallback_mt = (int8_t)e->fallback_mt,
		.fragmenting = frag, .change_ownership = own,
	};
}

/* the process counters of a latency source: count, then time */
static const enum ft_proc_col lat_col[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = FT_PC_COMPACTION,
	[FT_LAT_RECLAIM] = FT_PC_RECLAIM,
	[FT_LAT_FRAG_STALL] = FT_PC_FRAG_STALL,
};

static void latency(struct ft_events *ev, enum ft_lat_source src, const struct ft_trace_rec *r,
		    uint64_t us)
{
	ft_hist_add(&ev->lat[src], us);
	ft_procs_count(&ev->procs, r->pid, r->ts, lat_col[src], 1);
	ft_procs_count(&ev->procs, r->pid, r->ts, lat_col[src] + 1, us);
	if (ev->on_latency)
		ev->on_latency(ev->on_latency_ctx, src, us);
}

/* Open-addressed by pid; a begin without an end is overwritten by the next one. */
static struct ft_open_begin *slot(struct ft_open_begin *tab, int pid, bool create)
{
	unsigned int h = (unsigned int)pid * 2654435761u, i;

	for (i = 0; i < FT_EV_OPEN; i++) {
		struct ft_open_begin *s = &tab[(h + i) % FT_EV_OPEN];

		if (s->pid == pid)
			return s;
		if (!s->pid)
			return create ? s : NULL;
	}
	return NULL;
}

static void begin(struct ft_events *ev, enum ft_lat_source src, const struct ft_trace_rec *r)
{
	struct ft_open_begin *s;

	if (r->pid <= 0)
		return;
	s = slot(ev->open[src], r->pid, true);
	if (!s) {
		ev->unpaired[src]++;
		return;
	}
	s->pid = r->pid;
	s->ts = r->ts;
}

static void end(struct ft_events *ev, enum ft_lat_source src, const struct ft_trace_rec *r)
{
	struct ft_open_begin *s = r->pid > 0 ? slot(ev->open[src], r->pid, false) : NULL;
	unsigned int i, j;

	if (!s || r->ts < s->ts) {
		ev->unpaired[src]++;
		return;
	}
	latency(ev, src, r, (r->ts - s->ts) / 1000);
	/* delete with backward shift so lookups of later entries still work */
	i = (unsigned int)(s - ev->open[src]);
	s->pid = 0;
	for (j = (i + 1) % FT_EV_OPEN; ev->open[src][j].pid; j = (j + 1) % FT_EV_OPEN) {
		struct ft_open_begin tmp = ev->open[src][j];
		struct ft_open_begin *dst;

		ev->open[src][j].pid = 0;
		dst = slot(ev->open[src], tmp.pid, true);
		if (dst)	/* always: the entry just freed is a free slot */
			*dst = tmp;
	}
}

static void compact_end(struct ft_events *ev, const struct ft_trace_rec *r)
{
	int i;

	for (i = 0; i < ev->nr_compact_status; i++)
		if (ev->compact_status_val[i] == r->u.compact_end.status)
			break;
	ev->compact_status[i < ev->nr_compact_status ? i : FT_MAX_STATUS]++;
	end(ev, FT_LAT_COMPACTION, r);
}

void ft_events_add(struct ft_events *ev, const struct ft_trace_rec *r)
{
	ev->records++;
	if ((unsigned int)r->kind < FT_EV_NR)
		ev->by_kind[r->kind]++;
	switch (r->kind) {
	case FT_EV_EXTFRAG:
		extfrag(ev, r);
		break;
	case FT_EV_FRAG_STALL:
		latency(ev, FT_LAT_FRAG_STALL, r, r->u.stall.duration_us);
		break;
	case FT_EV_COMPACT_BEGIN:
		begin(ev, FT_LAT_COMPACTION, r);
		break;
	case FT_EV_COMPACT_END:
		compact_end(ev, r);
		break;
	case FT_EV_RECLAIM_BEGIN:
		begin(ev, FT_LAT_RECLAIM, r);
		break;
	case FT_EV_RECLAIM_END:
		end(ev, FT_LAT_RECLAIM, r);
		break;
	default:
		break;
	}
}

void ft_events_add_cb(const struct ft_trace_rec *r, void *ctx)
{
	ft_events_add(ctx, r);
}

int ft_events_recent(const struct ft_events *ev, struct ft_recent_fallback *out, int n)
{
	uint64_t have = ev->recent_head < FT_EV_RECENT ? ev->recent_head : FT_EV_RECENT;
	int i;

	for (i = 0; i < n && (uint64_t)i < have; i++)
		out[i] = ev->recent[(ev->recent_head - 1 - (uint64_t)i) % FT_EV_RECENT];
	return i;
}

const char *const ft_ev_metric_names[FT_M_NR] = {
	[FT_M_EXTFRAG] = "fallbacks (extfrag)",
	[FT_M_FRAGMENTING] = "  fragmenting",
	[FT_M_OWNERSHIP] = "  ownership changed",
	[FT_M_COMPACTION] = "compactions",
	[FT_M_RECLAIM] = "direct reclaims",
	[FT_M_KSWAPD_WAKE] = "kswapd wakes",
	[FT_M_KCOMPACTD_WAKE] = "kcompactd wakes",
	[FT_M_FRAG_STALL] = "fragmentation stalls",
};

const enum ft_trace_event ft_ev_metric_event[FT_M_NR] = {
	[FT_M_EXTFRAG] = FT_EV_EXTFRAG,
	[FT_M_FRAGMENTING] = FT_EV_EXTFRAG,
	[FT_M_OWNERSHIP] = FT_EV_EXTFRAG,
	[FT_M_COMPACTION] = FT_EV_COMPACT_END,
	[FT_M_RECLAIM] = FT_EV_RECLAIM_END,
	[FT_M_KSWAPD_WAKE] = FT_EV_KSWAPD_WAKE,
	[FT_M_KCOMPACTD_WAKE] = FT_EV_COMPACT_KCOMPACTD_WAKE,
	[FT_M_FRAG_STALL] = FT_EV_FRAG_STALL,
};

void ft_events_metrics(const struct ft_events *ev, uint64_t out[FT_M_NR])
{
	out[FT_M_EXTFRAG] = ev->extfrag.total;
	out[FT_M_FRAGMENTING] = ev->extfrag.fragmenting;
	out[FT_M_OWNERSHIP] = ev->extfrag.change_ownership;
	out[FT_M_COMPACTION] = ev->by_kind[FT_EV_COMPACT_END];
	out[FT_M_RECLAIM] = ev->by_kind[FT_EV_RECLAIM_END];
	out[FT_M_KSWAPD_WAKE] = ev->by_kind[FT_EV_KSWAPD_WAKE];
	out[FT_M_KCOMPACTD_WAKE] = ev->by_kind[FT_EV_COMPACT_KCOMPACTD_WAKE];
	out[FT_M_FRAG_STALL] = ev->by_kind[FT_EV_FRAG_STALL];
}

void ft_events_name(struct ft_events *ev, int pid, const char *comm, uint64_t t_ns)
{
	uint64_t have = ev->recent_head < FT_EV_RECENT ? ev->recent_head : FT_EV_RECENT, i;

	ft_procs_name(&ev->procs, pid, comm, t_ns);
	/* the newest first: stop at one already named (older ones were named before it) */
	for (i = 0; i < have; i++) {
		struct ft_recent_fallback *rf = &ev->recent[(ev->recent_head - 1 - i) % FT_EV_RECENT];

		if (rf->pid != pid)
			continue;
		if (rf->comm[0])
			break;
		snprintf(rf->comm, sizeof(rf->comm), "%s", comm);
	}
}
