// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/events.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/zero.h"

const char *const ft_lat_names[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = "compaction",
	[FT_LAT_RECLAIM] = "direct_reclaim",
	[FT_LAT_FRAG_STALL] = "fragmentation_stall",
	[FT_LAT_BG_COMPACTION] = "background_compaction",
};

const char *const ft_compact_kind_names[FT_CK_NR] = {
	[FT_CK_DIRECT] = "direct",
	[FT_CK_BACKGROUND] = "background",
};

const enum ft_trace_event ft_lat_event[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = FT_EV_COMPACT_END,
	[FT_LAT_RECLAIM] = FT_EV_RECLAIM_END,
	[FT_LAT_FRAG_STALL] = FT_EV_FRAG_STALL,
	[FT_LAT_BG_COMPACTION] = FT_EV_COMPACT_END,
};

void ft_events_init(struct ft_events *ev, int pageblock_order)
{
	ft_zero(ev, sizeof(*ev));
	ev->pageblock_order = pageblock_order;
	ev->status_skipped = ev->status_not_suitable = -1000;
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
	int i;

	memcpy(ev->compact_status_val, d->status_val, sizeof(ev->compact_status_val));
	ev->nr_compact_status = d->nr_status;
	ev->status_skipped = ev->status_not_suitable = -1000;
	for (i = 0; i < d->nr_status; i++) {
		if (!strcmp(d->status_name[i], "skipped"))
			ev->status_skipped = d->status_val[i];
		else if (!strcmp(d->status_name[i], "not_suitable_zone"))
			ev->status_not_suitable = d->status_val[i];
	}
	ev->exact_direct = ft_tracedec_has(d, FT_EV_COMPACT_TRY);
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
	struct ft_proc *p;

	add_counts(&ev->extfrag, frag, own);
	add_counts(zone >= 0 ? &ev->extfrag_zone[zone] : &ev->extfrag_nozone, frag, own);
	if (e->alloc_mt >= 0 && e->alloc_mt < FT_EV_MT &&
	    e->fallback_mt >= 0 && e->fallback_mt < FT_EV_MT) {
		ev->pair[e->alloc_mt][e->fallback_mt]++;
		ev->zone_pair[zone >= 0 ? zone : FT_EV_ZONES][frag][e->alloc_mt][e->fallback_mt]++;
	}
	p = ft_procs_row(&ev->procs, r->pid, r->ts);	/* one lookup for its three counts */
	if (p) {
		p->c[FT_PC_EXTFRAG]++;
		p->c[FT_PC_FRAGMENTING] += frag;
		p->c[FT_PC_OWNERSHIP] += own;
	}
	if (ev->on_fallback)
		ev->on_fallback(ev->on_fallback_ctx, e->pfn, r->pid, frag);
	ev->fb_ring[ev->fb_head++ % FT_EV_FB_RING] = (struct ft_fb_pfn){ .pfn = e->pfn,
									 .ts = r->ts };
	if (r->stack)
		add_counts(r->stack <= (uint32_t)ev->nr_stacks ? &ev->stacks[r->stack - 1].fb :
			   &ev->stack_other,
			   frag, own);
	rf = &ev->recent[ev->recent_head++ % FT_EV_RECENT];
	*rf = (struct ft_recent_fallback){
		.ts = r->ts, .pfn = e->pfn, .zone = zone, .pid = r->pid,
		.alloc_order = (int8_t)e->alloc_order, .fallback_order = (int8_t)e->fallback_order,
		.alloc_mt = (int8_t)e->alloc_mt, .fallback_mt = (int8_t)e->fallback_mt,
		.fragmenting = frag, .change_ownership = own,
	};
	/* the name its process has by now (NAME inputs); one not named yet is named when it is */
	if (p && p->comm[0]) {
		size_t n = strnlen(p->comm, sizeof(rf->comm) - 1);

		memcpy(rf->comm, p->comm, n);
		rf->comm[n] = '\0';
	}
}

/* the process counters of a latency source: count, then time (background: none) */
static const enum ft_proc_col lat_col[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = FT_PC_COMPACTION,
	[FT_LAT_RECLAIM] = FT_PC_RECLAIM,
	[FT_LAT_FRAG_STALL] = FT_PC_FRAG_STALL,
	[FT_LAT_BG_COMPACTION] = FT_PC_NR,
};

static void latency(struct ft_events *ev, enum ft_lat_source src, const struct ft_trace_rec *r,
		    uint64_t us)
{
	ft_hist_add(&ev->lat[src], us);
	if (lat_col[src] != FT_PC_NR) {
		/* exact direct stalls are counted by the attempt, not by its zones */
		if (src != FT_LAT_COMPACTION || !ev->exact_direct)
			ft_procs_count(&ev->procs, r->pid, r->ts, lat_col[src], 1);
		ft_procs_count(&ev->procs, r->pid, r->ts, lat_col[src] + 1, us);
	}
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

/* Delete @s from @tab with a backward shift, so lookups of later entries still work. */
static void slot_delete(struct ft_open_begin *tab, struct ft_open_begin *s)
{
	unsigned int i = (unsigned int)(s - tab), j;

	s->pid = 0;
	for (j = (i + 1) % FT_EV_OPEN; tab[j].pid; j = (j + 1) % FT_EV_OPEN) {
		struct ft_open_begin tmp = tab[j];
		struct ft_open_begin *dst;

		tab[j].pid = 0;
		dst = slot(tab, tmp.pid, true);
		if (dst)	/* always: the entry just freed is a free slot */
			*dst = tmp;
	}
}

/* Take @r's begin..end pair of @src: its latency in *@us; false if there was no begin. */
static bool take_pair(struct ft_events *ev, enum ft_lat_source src, const struct ft_trace_rec *r,
		      uint64_t *us)
{
	struct ft_open_begin *s = r->pid > 0 ? slot(ev->open[src], r->pid, false) : NULL;

	if (!s || r->ts < s->ts) {
		ev->unpaired[src]++;
		return false;
	}
	*us = (r->ts - s->ts) / 1000;
	slot_delete(ev->open[src], s);
	return true;
}

/* The node of a kcompactd thread, -1 if @pid is not one (by its wake event or its name). */
static int kcompactd_node(const struct ft_events *ev, int pid)
{
	const struct ft_proc *p;
	int i;

	for (i = 0; i < ev->nr_kcompactd; i++)
		if (ev->kcompactd[i].pid == pid)
			return ev->kcompactd[i].nid;
	p = ft_procs_find(&ev->procs, pid);
	if (p && !strncmp(p->comm, "kcompactd", 9))
		return p->comm[9] >= '0' && p->comm[9] <= '9' ? atoi(p->comm + 9) : FT_EV_NODES;
	return -1;
}

static void kcompactd_wake(struct ft_events *ev, const struct ft_trace_rec *r)
{
	int i, nid = r->u.wake.nid >= 0 &&
	r->u.wake.nid < FT_EV_NODES ? r->u.wake.nid : FT_EV_NODES;

	ev->bg[nid].wakes++;
	for (i = 0; i < ev->nr_kcompactd; i++)
		if (ev->kcompactd[i].pid == r->pid)
			return;
	if (ev->nr_kcompactd < FT_EV_NODES && r->pid > 0)
		ev->kcompactd[ev->nr_kcompactd++] = (typeof(ev->kcompactd[0])){ r->pid, nid };
}

/* Count @r's task's open direct attempt @a in compact_stall, once. */
static void direct_count(struct ft_events *ev, struct ft_open_begin *a,
			 const struct ft_trace_rec *r)
{
	if (a->counted)
		return;
	a->counted = true;
	ev->direct_stalls++;
	ft_procs_count(&ev->procs, r->pid, r->ts, FT_PC_COMPACTION, 1);
}

/*
 * The task of @r has left its direct attempt (a new one, direct reclaim, a kswapd wake-up, a
 * fallback).
 */
static void direct_close(struct ft_events *ev, const struct ft_trace_rec *r)
{
	struct ft_open_begin *a;

	if (ev->exact_direct && r->pid > 0 && (a = slot(ev->direct, r->pid, false)))
		slot_delete(ev->direct, a);
}

static void direct_try(struct ft_events *ev, const struct ft_trace_rec *r)
{
	struct ft_open_begin *a;

	ev->direct_attempts++;
	direct_close(ev, r);
	if (r->pid <= 0 || !(a = slot(ev->direct, r->pid, true)))
		return;
	*a = (struct ft_open_begin){ .pid = r->pid, .ts = r->ts };
}

/*
 * A zone result of a compaction: true for a direct attempt's (counted
 * when it @counts, i.e. is above SKIPPED), false for background compaction.
 */
static bool zone_result(struct ft_events *ev, const struct ft_trace_rec *r, bool counts)
{
	struct ft_open_begin *a;

	if (!ev->exact_direct)
		return kcompactd_node(ev, r->pid) < 0;
	a = r->pid > 0 ? slot(ev->direct, r->pid, false) : NULL;
	if (!a)
		return false;
	a->zones++;
	if (counts)
		direct_count(ev, a, r);
	return true;
}

static int bg_node_of(const struct ft_events *ev, const struct ft_trace_rec *r)
{
	int z = r->u.compact.zone_start != UINT64_MAX ? zone_of(ev, r->u.compact.zone_start) : -1;
	int nid = z >= 0 ? ev->zones[z].node : kcompactd_node(ev, r->pid);

	return nid >= 0 && nid < FT_EV_NODES ? nid : FT_EV_NODES;
}

static void compact_begin(struct ft_events *ev, const struct ft_trace_rec *r)
{
	bool direct = zone_result(ev, r, true);

	begin(ev, direct ? FT_LAT_COMPACTION : FT_LAT_BG_COMPACTION, r);
}

/* A zone compaction ended (@paired: with its begin, @us after it), of its kind. */
static void compact_done(struct ft_events *ev, const struct ft_trace_rec *r, bool direct,
			 bool paired,
			 uint64_t us)
{
	int i;

	for (i = 0; i < ev->nr_compact_status; i++)
		if (ev->compact_status_val[i] == r->u.compact.status)
			break;
	ev->compact_status[direct ? FT_CK_DIRECT : FT_CK_BACKGROUND][i < ev->nr_compact_status ? i :
								     FT_MAX_STATUS]++;
	if (!direct && kcompactd_node(ev, r->pid) < 0)
		ev->bg_foreign++;	/* paired or not: vmstat counted its scanning */
	if (!paired)
		return;
	latency(ev, direct ? FT_LAT_COMPACTION : FT_LAT_BG_COMPACTION, r, us);
	if (!direct) {
		int nid = bg_node_of(ev, r);

		ev->bg[nid].count++;
		ev->bg[nid].us += us;
	}
}

static void compact_end(struct ft_events *ev, const struct ft_trace_rec *r)
{
	/* the kind its begin had: a direct attempt's pair is in the direct table */
	bool direct = r->pid > 0 && slot(ev->open[FT_LAT_COMPACTION], r->pid, false);
	const struct ft_proc *p;
	bool paired;
	uint64_t us = 0;

	paired = take_pair(ev, direct ? FT_LAT_COMPACTION : FT_LAT_BG_COMPACTION, r, &us);
	if (!ev->exact_direct && direct) {
		/*
		 * Without attempts a task is direct unless known as kcompactd; one
		 * not named yet waits (its NAME follows the drain it appeared in)
		 */
		direct = kcompactd_node(ev, r->pid) < 0;
		p = ft_procs_find(&ev->procs, r->pid);
		if (direct && paired && (!p || !p->comm[0]) && ev->nr_pending < FT_EV_PENDING) {
			ev->pending[ev->nr_pending++] = (typeof(ev->pending[0])){ .r = *r,
				.us = us };
			return;
		}
	}
	compact_done(ev, r, direct, paired, us);
}

/* Pending compactions of @pid (0: all), now that names are known. */
static void pending_flush(struct ft_events *ev, int pid)
{
	int i, n = 0;

	for (i = 0; i < ev->nr_pending; i++) {
		const typeof(ev->pending[0]) *p = &ev->pending[i];

		if (pid && p->r.pid != pid) {
			ev->pending[n++] = *p;
			continue;
		}
		compact_done(ev, &p->r, kcompactd_node(ev, p->r.pid) < 0, true, p->us);
	}
	ev->nr_pending = n;
}

void ft_events_tick(struct ft_events *ev)
{
	pending_flush(ev, 0);
}

/*
 * defer_reset follows a zone's SUCCESS (traced or not) in the attempt, or
 * an allocation that compaction served (counted already): it counts
 */
static void compact_defer_reset(struct ft_events *ev, const struct ft_trace_rec *r)
{
	struct ft_open_begin *a = ev->exact_direct &&
	r->pid > 0 ? slot(ev->direct, r->pid, false) : NULL;

	if (a && !a->counted && !a->zones)
		ev->direct_silent++;
	if (a)
		zone_result(ev, r, true);
}

static void compact_suitable(struct ft_events *ev, const struct ft_trace_rec *r)
{
	int st = r->u.compact.status;

	/* CONTINUE counts too: begin and end follow, and their status always does */
	zone_result(ev, r, st != ev->status_skipped && st != ev->status_not_suitable);
}

uint32_t ft_events_stack(struct ft_events *ev, const struct ft_trace_stack *st)
{
	uint64_t h = 0xcbf29ce484222325ull;
	struct ft_ev_stack *row;
	int i, k;

	for (i = 0; i < st->n; i++)	/* FNV-1a of the frames kept */
		for (k = 0; k < 8; k++) {
			h ^= (st->ip[i] >> (8 * k)) & 0xff;
			h *= 0x100000001b3ull;
		}
	for (i = 0; i < ev->nr_stacks; i++) {
		row = &ev->stacks[i];
		if (row->hash == h && row->n == st->n &&
		    !memcmp(row->ip, st->ip, (size_t)st->n * 8))
			return (uint32_t)i + 1;
	}
	if (ev->nr_stacks == FT_EV_STACKS)
		return FT_EV_STACKS + 1;
	row = &ev->stacks[ev->nr_stacks++];
	memset(row, 0, sizeof(*row));
	row->hash = h;
	row->n = st->n < 0 ? 0 : st->n > FT_STACK_DEPTH ? FT_STACK_DEPTH : st->n;
	row->all = st->all;
	memcpy(row->ip, st->ip, (size_t)row->n * 8);
	return (uint32_t)ev->nr_stacks;
}

const char *const ft_iso_who_names[FT_ISO_WHO_NR] = { "direct", "kcompactd", "other" };
const char *const ft_iso_scanner_names[FT_ISO_SCANNER_NR] = { "migrate", "free" };

double ft_futile_share(const struct ft_futile *a, const struct ft_futile *b, enum ft_iso_who who,
		       enum ft_iso_scanner sc)
{
	const uint64_t(*all)[FT_ISO_SCANNER_NR] = sc == FT_ISO_MIGRATE ? b->scanned : b->taken;
	const uint64_t(*fut)[FT_ISO_SCANNER_NR] = sc == FT_ISO_MIGRATE ?
		b->scanned_futile : b->taken_futile;
	const uint64_t(*unk)[FT_ISO_SCANNER_NR] = sc == FT_ISO_MIGRATE ?
		b->scanned_unknown : b->taken_unknown;
	uint64_t n = all[who][sc], f = fut[who][sc], u = unk[who][sc];

	if (a) {
		n -= (sc == FT_ISO_MIGRATE ? a->scanned : a->taken)[who][sc];
		f -= (sc == FT_ISO_MIGRATE ? a->scanned_futile : a->taken_futile)[who][sc];
		u -= (sc == FT_ISO_MIGRATE ? a->scanned_unknown : a->taken_unknown)[who][sc];
	}
	return n > u ? (double)f / (double)(n - u) : NAN;
}

/*
 * Who ran an isolate record: a direct attempt of its task, kcompactd, or neither (compact_memory,
 * alloc_contig_range).
 */
static void isolate(struct ft_events *ev, const struct ft_trace_rec *r)
{
	enum ft_iso_who who;

	if (!ev->on_isolate)
		return;
	if (kcompactd_node(ev, r->pid) >= 0)
		who = FT_ISO_KCOMPACTD;
	else if (ev->exact_direct)
		who = r->pid > 0 && slot(ev->direct, r->pid, false) ? FT_ISO_DIRECT : FT_ISO_OTHER;
	else
		/* without try_to_compact_pages traced: any task's but kcompactd's */
		who = FT_ISO_DIRECT;
	ev->on_isolate(ev->on_isolate_ctx, r, who);
}

void ft_events_add(struct ft_events *ev, const struct ft_trace_rec *r)
{
	ev->records++;
	if ((unsigned int)r->kind < FT_EV_NR)
		ev->by_kind[r->kind]++;
	switch (r->kind) {
	case FT_EV_EXTFRAG:
		direct_close(ev, r);
		extfrag(ev, r);
		break;
	case FT_EV_FRAG_STALL:
		latency(ev, FT_LAT_FRAG_STALL, r, r->u.stall.duration_us);
		break;
	case FT_EV_COMPACT_TRY:
		direct_try(ev, r);
		break;
	case FT_EV_COMPACT_DEFERRED:
		zone_result(ev, r, true);
		break;
	case FT_EV_COMPACT_DEFER_RESET:
		compact_defer_reset(ev, r);
		break;
	case FT_EV_COMPACT_SUITABLE:
		compact_suitable(ev, r);
		break;
	case FT_EV_COMPACT_BEGIN:
		compact_begin(ev, r);
		break;
	case FT_EV_COMPACT_END:
		compact_end(ev, r);
		break;
	case FT_EV_COMPACT_KCOMPACTD_WAKE:
		kcompactd_wake(ev, r);
		break;
	case FT_EV_COMPACT_ISO_MIGRATE:
	case FT_EV_COMPACT_ISO_FREE:
		isolate(ev, r);
		break;
	case FT_EV_WAKEUP_KSWAPD:
		direct_close(ev, r);
		break;
	case FT_EV_RECLAIM_BEGIN:
		direct_close(ev, r);
		begin(ev, FT_LAT_RECLAIM, r);
		break;
	case FT_EV_RECLAIM_END: {
		uint64_t us;

		if (take_pair(ev, FT_LAT_RECLAIM, r, &us))
			latency(ev, FT_LAT_RECLAIM, r, us);
		break;
	}
	default:
		break;
	}
}

void ft_events_add_cb(void *ctx, const struct ft_trace_rec *r)
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
	[FT_M_COMPACTION] = "direct compactions",
	[FT_M_RECLAIM] = "direct reclaims",
	[FT_M_KSWAPD_WAKE] = "kswapd wakes",
	[FT_M_KCOMPACTD_WAKE] = "kcompactd wakes",
	[FT_M_FRAG_STALL] = "fragmentation stalls",
	[FT_M_BG_COMPACTION] = "background compactions",
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
	[FT_M_BG_COMPACTION] = FT_EV_COMPACT_END,
};

void ft_events_metrics(const struct ft_events *ev, uint64_t out[FT_M_NR])
{
	out[FT_M_EXTFRAG] = ev->extfrag.total;
	out[FT_M_FRAGMENTING] = ev->extfrag.fragmenting;
	out[FT_M_OWNERSHIP] = ev->extfrag.change_ownership;
	/* exact: attempts counted; otherwise the direct begin/end pairs */
	out[FT_M_COMPACTION] = ev->exact_direct ?
		ev->direct_stalls : ev->lat[FT_LAT_COMPACTION].count;
	out[FT_M_BG_COMPACTION] = ev->lat[FT_LAT_BG_COMPACTION].count;
	out[FT_M_RECLAIM] = ev->by_kind[FT_EV_RECLAIM_END];
	out[FT_M_KSWAPD_WAKE] = ev->by_kind[FT_EV_KSWAPD_WAKE];
	out[FT_M_KCOMPACTD_WAKE] = ev->by_kind[FT_EV_COMPACT_KCOMPACTD_WAKE];
	out[FT_M_FRAG_STALL] = ev->by_kind[FT_EV_FRAG_STALL];
}

void ft_events_name(struct ft_events *ev, int pid, const char *comm, uint64_t t_ns)
{
	uint64_t have = ev->recent_head < FT_EV_RECENT ? ev->recent_head : FT_EV_RECENT, i;

	ft_procs_name(&ev->procs, pid, comm, t_ns);
	pending_flush(ev, pid);
	/* the newest first: stop at one already named (older ones were named before it) */
	for (i = 0; i < have; i++) {
		struct ft_recent_fallback *rf =
			&ev->recent[(ev->recent_head - 1 - i) % FT_EV_RECENT];

		if (rf->pid != pid)
			continue;
		if (rf->comm[0])
			break;
		snprintf(rf->comm, sizeof(rf->comm), "%s", comm);
	}
}
