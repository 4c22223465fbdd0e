// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop report --json`: the built report (analysis/report.h) as one object. */
#include "render/report.h"
#include "render/findings.h"
#include "render/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/json.h"
#include "kernel/cgroup.h"
#include "model/recfmt.h"
#include "kernel/thp.h"
#include "analysis/labels.h"
#include "render/contig.h"
#include "render/fit.h"
#include "render/session_json.h"

static void json_cost_rate(struct ft_json *j, const char *key, const struct ft_rep_cost_rate *r)
{
	ft_json_obj_begin_inline(j, key);
	ft_json_double(j, "files_opened", r->opens);
	ft_json_double(j, "reads", r->reads);
	ft_json_double(j, "bytes_read", r->bytes);
	ft_json_obj_end(j);
}

/*
 * "self": what the recording fragtop's own threads made the allocator do
 * over the window (its rows of the process table), null when its pid or
 * the tracing is not known.
 */
static void json_self(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_selfcost *c = &rep->self;

	if (!c->own_known)
		ft_json_null(j, "self");
	else
		ft_render_session_self_counts(j, c->pid, c->own, c->own_frag_share);
}

/* "cost": the recording fragtop's, a tick over the window, null when it did not count it. */
static void json_cost(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_selfcost *c = &rep->self;
	size_t i;

	if (!c->ticks) {
		ft_json_null(j, "cost");
		return;
	}
	ft_json_obj_begin(j, "cost");
	ft_json_u64(j, "ticks", c->ticks);
	ft_json_u64(j, "heap_bytes", c->heap);
	json_cost_rate(j, "per_tick", &c->all);
	ft_json_arr_begin(j, "by_source");
	for (i = 0; i < FT_COST_NR; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "source", ft_cost_src_names[i]);
		json_cost_rate(j, "per_tick", &c->src[i]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

static void json_lat(struct ft_json *j, const char *key, const struct ft_report *rep,
		     const struct ft_rep_stretch *f,
		     int src)
{
	const struct ft_rep_lat *l = &f->pct[src];
	const struct ft_hist *h = &f->lat[src];
	unsigned int b;

	if (!rep->lat_present[src] || !f->pct_known[src]) {
		ft_json_null(j, key);
		return;
	}
	ft_json_obj_begin(j, key);
	ft_json_u64(j, "count", l->count);
	ft_json_double(j, "mean_us", l->count ? l->mean_us : NAN);
	ft_json_u64(j, "p50_us", l->p50_us);
	ft_json_u64(j, "p90_us", l->p90_us);
	ft_json_u64(j, "p99_us", l->p99_us);
	ft_json_u64(j, "p999_us", l->p999_us);
	ft_json_u64(j, "max_us", l->max_us);
	ft_json_bool(j, "exact", l->exact);
	ft_json_arr_begin(j, "buckets");
	for (b = 0; b < FT_HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		ft_json_obj_begin_inline(j, NULL);
		ft_json_u64(j, "lo_us", ft_hist_bucket_lo(b));
		ft_json_u64(j, "hi_us", ft_hist_bucket_hi(b));
		ft_json_u64(j, "count", h->bucket[b]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

/* The counters' growth over a stretch (null: not on this kernel), and the shares made of them. */
static void json_counters(struct ft_json *j, const struct ft_rep_stretch *f)
{
	int c;

	for (c = 0; c < FT_CF_NR; c++)
		if (!f->have[c])
			ft_json_null(j, ft_counter_fields[c].key);	/* not on this kernel */
		else
			ft_json_i64(j, ft_counter_fields[c].key, f->d[c]);
	ft_json_double(j, "thp_fault_success", f->thp_success);
	ft_json_double(j, "compact_success_per_stall", f->compact_success);
}

/* "compaction": how direct stalls were counted, and background compaction by node. */
static void json_compaction(struct ft_json *j, const struct ft_report *rep,
			    const struct ft_rep_stretch *f)
{
	ft_json_obj_begin(j, "compaction");
	ft_json_bool(j, "direct_exact", rep->s->events.exact_direct);
	ft_json_i64(j, "direct_stalls", f->d[FT_CF_DIRECT_COMPACT]);
	ft_json_u64(j, "direct_zone_runs", f->direct_zone_runs);
	ft_json_i64(j, "background_compactions", f->d[FT_CF_BG_COMPACT]);
	ft_render_session_bg_nodes(j, "background_by_node", f->bg);
	ft_json_obj_end(j);
}

/*
 * "memory_stall": the host's PSI some and full (us) over the window and
 * direct compaction's traced time with its share of some; null without
 * /proc/pressure/memory in the recording.
 */
static void json_memstall(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_memstall *m = &rep->all->mem;

	if (!rep->all->mem_known) {
		ft_json_null(j, "memory_stall");
		return;
	}
	ft_json_obj_begin(j, "memory_stall");
	ft_json_u64(j, "psi_some_us", m->some_us);
	if (m->full_us != UINT64_MAX)
		ft_json_u64(j, "psi_full_us", m->full_us);
	else
		ft_json_null(j, "psi_full_us");
	if (isnan(m->compaction_us))
		ft_json_null(j, "direct_compaction_us");
	else
		ft_json_u64(j, "direct_compaction_us", (uint64_t)m->compaction_us);
	if (isnan(m->share))
		ft_json_null(j, "direct_compaction_share");
	else
		ft_json_double(j, "direct_compaction_share", m->share);
	ft_json_obj_end(j);
}

/*
 * "page_allocation_failures": the kernel log's over the window, by order; null when it was not
 * read.
 */
static void json_kmsg(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_kmsg *k = &rep->kmsg;

	if (!k->known) {
		ft_json_null(j, "page_allocation_failures");
		return;
	}
	ft_json_obj_begin(j, "page_allocation_failures");
	ft_render_session_kmsg_counts(j, k->failures, k->by_order, k->lost,
				      k->have_newest ? &k->newest : NULL);
	ft_json_obj_end(j);
}

/*
 * "futile_compaction": per who ran the scanners, what they isolated and the share in polluted
 * blocks.
 */
static void json_futile(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_futile *f = &rep->futile;
	const struct ft_futile *d = &f->d;
	int w;

	if (!f->traced) {
		ft_json_null(j, "futile_compaction");
		return;
	}
	ft_json_obj_begin(j, "futile_compaction");
	for (w = 0; w < FT_ISO_WHO_NR; w++) {
		ft_json_obj_begin(j, ft_iso_who_names[w]);
		ft_json_u64(j, "migrate_events", d->events[w][FT_ISO_MIGRATE]);
		ft_json_u64(j, "migrate_scanned", d->scanned[w][FT_ISO_MIGRATE]);
		ft_json_u64(j, "migrate_scanned_futile", d->scanned_futile[w][FT_ISO_MIGRATE]);
		ft_json_u64(j, "migrate_scanned_unread", d->scanned_unknown[w][FT_ISO_MIGRATE]);
		ft_json_double(j, "migrate_futile_share", f->share[w][FT_ISO_MIGRATE]);
		ft_json_u64(j, "free_events", d->events[w][FT_ISO_FREE]);
		ft_json_u64(j, "free_taken", d->taken[w][FT_ISO_FREE]);
		ft_json_u64(j, "free_taken_futile", d->taken_futile[w][FT_ISO_FREE]);
		ft_json_u64(j, "free_taken_unread", d->taken_unknown[w][FT_ISO_FREE]);
		ft_json_double(j, "free_futile_share", f->share[w][FT_ISO_FREE]);
		ft_json_obj_end(j);
	}
	ft_json_obj_end(j);
}

/*
 * "direct_compaction_cost": what direct compaction scanned per stall
 * (struct ft_rep_direct_cost), and kcompactd's per wake (struct
 * ft_rep_cost); null without the scanners' counters.
 */
static void json_direct_cost(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_direct_cost *d = &rep->direct;
	const struct ft_rep_cost *c = &rep->cost;

	if (!c->have) {
		ft_json_null(j, "direct_compaction_cost");
		return;
	}
	ft_json_obj_begin(j, "direct_compaction_cost");
	ft_json_bool(j, "exact", d->known);
	ft_json_i64(j, "migrate_scanned", d->migrate);
	ft_json_i64(j, "free_scanned", d->free);
	ft_json_i64(j, "stalls", d->stalls);
	ft_json_i64(j, "success", d->success);
	ft_json_double(j, "migrate_scanned_per_stall", c->direct_migrate);
	ft_json_double(j, "free_scanned_per_stall", c->direct_free);
	ft_json_double(j, "scanned_per_success", c->direct_per_success);
	ft_json_u64(j, "ticks", d->ticks);
	ft_json_u64(j, "ticks_left_out", d->ticks_out);
	ft_json_i64(j, "stalls_left_out", d->stalls_out);
	ft_json_i64(j, "kcompactd_wakes", c->wakes);
	ft_json_i64(j, "kcompactd_migrate_scanned", c->kcompactd_migrate);
	ft_json_i64(j, "kcompactd_free_scanned", c->kcompactd_free);
	ft_json_double(j, "kcompactd_migrate_scanned_per_wake", c->wake_migrate);
	ft_json_double(j, "kcompactd_free_scanned_per_wake", c->wake_free);
	ft_json_obj_end(j);
}

/* boost_by_zone: the sampler's per zone over a stretch (render/session_json.c). */
static void json_boost(struct ft_json *j, const struct ft_report *rep,
		       const struct ft_boost_tick *b)
{
	ft_render_session_boost_zones(j, "boost_by_zone", &rep->s->sample.zoneinfo, b,
				      rep->boost_nr);
}

/*
 * "thp_by_size": every size's counters over the window, [{size_kb, enabled, shmem_enabled,
 * <counter>: n}], null without THP inputs.
 */
static void json_thp(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_thp *t = &rep->thp;
	int i, k;

	if (!t->have) {
		ft_json_null(j, "thp_by_size");
		return;
	}
	ft_json_arr_begin(j, "thp_by_size");
	for (i = 0; i < t->d.nr; i++) {
		const struct ft_thp_size *z = &t->d.s[i];

		ft_json_obj_begin_inline(j, NULL);
		ft_render_session_thp_settings(j, z);
		/* counters in the window; levels (nr_*) as at its end */
		for (k = 0; k < z->nr_stats; k++)
			if (t->known[i][k])
				ft_json_u64(j, z->stat_name[k], z->stat[k]);
			else
				ft_json_null(j, z->stat_name[k]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* @key: a level's {mean, min, max, last}, or null when the kernel has no such counter. */
static void json_level(struct ft_json *j, const char *key, const struct ft_rep_level *lv)
{
	if (!lv->n) {
		ft_json_null(j, key);
		return;
	}
	ft_json_obj_begin_inline(j, key);
	ft_json_double(j, "mean", ft_report_level_mean(lv));
	ft_json_double(j, "min", lv->min);
	ft_json_double(j, "max", lv->max);
	ft_json_double(j, "last", lv->last);
	ft_json_obj_end(j);
}

/* The head: file, host, window, how the file ended. */
static void json_head(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_file *f = &rep->file;
	const struct ft_session *s = rep->s;
	uint64_t i;

	ft_json_str(j, "file", f->path);
	ft_json_str(j, "hostname", s->host.hostname);
	ft_json_str(j, "kernel", s->host.release);
	ft_json_u64(j, "start_realtime_ns", s->first_rt_ns);
	ft_json_double(j, "duration_s", ft_report_duration(rep));
	ft_json_double(j, "from_s", rep->all->from_s);
	ft_json_double(j, "to_s", rep->all->to_s);
	ft_json_u64(j, "samples", rep->ticks);
	ft_json_obj_begin(j, "recording");
	ft_json_bool(j, "clean", f->clean);
	ft_json_bool(j, "truncated", f->truncated);
	ft_json_u64(j, "chunks", f->chunks);
	ft_json_u64(j, "damaged_chunks", f->bad_chunks);
	ft_json_u64(j, "resyncs", f->resyncs);
	ft_json_u64(j, "bad_inputs", s->bad_inputs);
	if (s->map_refused)
		ft_json_u64(j, "map_refused_blocks", s->map_refused);
	else
		ft_json_null(j, "map_refused_blocks");
	ft_json_arr_begin(j, "skipped");	/* the first FT_SESSION_BAD_KEPT of them */
	for (i = 0; i < s->bad_inputs && i < FT_SESSION_BAD_KEPT; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_u64(j, "after_tick", s->bad[i].tick);
		ft_json_str(j, "record", ft_rec_type_name(s->bad[i].type));
		ft_json_u64(j, "type", s->bad[i].type);
		ft_json_u64(j, "sub", s->bad[i].sub);
		ft_json_u64(j, "bytes", s->bad[i].len);
		ft_json_str(j, "why", s->bad[i].why);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
	ft_json_bool(j, "traced", s->tracing);
	ft_json_i64(j, "pageblock_order",
		    s->tracing ? s->events.pageblock_order : s->sample.pageblock_order);
	ft_json_u64(j, "lost", s->lost);
}

/*
 * The elements of "extfrag_by_zone": fallbacks by zone over the window,
 * and those outside every zone (node -1, zone null) when there were any.
 */
static void json_extfrag_zones(struct ft_json *j, const struct ft_report *rep)
{
	int k;

	for (k = 0; k < rep->nr_zone_fb; k++) {
		const struct ft_rep_zone_fb *z = &rep->zone_fb[k];

		if (z->outside && !z->total)
			break;
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", z->node);
		if (!z->outside)
			ft_json_str(j, "zone", z->zone);
		else
			ft_json_null(j, "zone");
		ft_json_u64(j, "total", z->total);
		ft_json_u64(j, "fragmenting", z->fragmenting);
		ft_json_obj_end(j);
	}
}

/* The elements of "pageblocks": the classes of the last recorded map scan. */
static void json_pageblocks(struct ft_json *j, const struct ft_session *s)
{
	int k, c;

	for (k = 0; !s->map_err && k < (int)s->map.nr; k++) {
		const struct ft_pbmap_zone *z = &s->map.zones[k];

		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", z->node);
		ft_json_str(j, "zone", z->name);
		ft_json_u64(j, "total", z->nr_blocks);
		for (c = 0; c < FT_PB_NR; c++)
			ft_json_u64(j, ft_pb_names[c], z->count[c]);
		ft_json_u64(j, "pollution_pages", z->pollution);
		ft_json_u64(j, "thp_pages", z->thp);
		ft_json_u64(j, "thp_folios", z->thp_folios);
		ft_render_contig_json(j, s, (size_t)k, false);
		ft_json_obj_end(j);
	}
}

/* "controls": every change in the window, in time order. */
static void json_controls(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_session_audit *a;
	int ia, io;

	ft_json_arr_begin(j, "controls");
	for (ia = io = 0; (a = ft_report_next_change(rep, &ia, &io));) {
		if (!ft_report_in_window(rep, a->t_ns))
			continue;
		ft_json_obj_begin(j, NULL);
		ft_json_double(j, "t_s", ft_report_secs(rep, a->t_ns));
		ft_json_str(j, "knob", a->knob);
		ft_json_str(j, "how", a->how);
		ft_json_str(j, "outcome", a->outcome);
		ft_json_str(j, "old", a->old);
		ft_json_str(j, "new", a->new);
		ft_json_str(j, "message", a->msg);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_u64(j, "controls_not_kept", rep->s->audits_dropped);
}

/* "intervals": the metrics of each stretch between control changes. */
static void json_intervals(struct ft_json *j, const struct ft_report *rep)
{
	int k, lat;

	ft_json_arr_begin(j, "intervals");
	for (k = 0; k < rep->nr_iv; k++) {
		const struct ft_rep_interval *iv = &rep->iv[k];
		const struct ft_rep_stretch *f = &rep->iv_fig[k];

		ft_json_obj_begin(j, NULL);
		ft_json_double(j, "from_s", f->from_s);
		ft_json_double(j, "to_s", f->to_s);
		if (iv->boost >= 0)
			ft_json_i64(j, "watermark_boost_factor", iv->boost);
		else
			ft_json_null(j, "watermark_boost_factor");
		ft_json_str(j, "after", iv->opened_by);
		json_counters(j, f);
		json_boost(j, rep, iv->boost_zone);
		json_level(j, "free_in_pageblocks_pct", &iv->in_blocks);
		for (lat = 0; lat < FT_LAT_NR; lat++) {
			char key[48];

			snprintf(key, sizeof(key), "%s_latency", ft_lat_names[lat]);
			json_lat(j, key, rep, f, lat);
		}
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* "stacks": null without --stacks, else the groups and what adds up with them. */
static void json_stacks(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_stacks *st = &rep->stacks;
	size_t i;

	if (!st->have) {
		ft_json_null(j, "stacks");
		return;
	}
	ft_json_obj_begin(j, "stacks");
	ft_json_u64(j, "per_sec", st->per_sec);
	ft_json_i64(j, "error", st->err);
	ft_json_u64(j, "without_stack", st->unstacked);
	ft_json_u64(j, "past_table", st->other);
	ft_json_arr_begin(j, "groups");
	for (i = 0; i < st->nr; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "stack", st->g[i].key);
		ft_json_u64(j, "fragmenting", st->g[i].fragmenting);
		ft_json_u64(j, "change_ownership", st->g[i].change_ownership);
		ft_json_u64(j, "stacks", (uint64_t)st->g[i].rows);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

/* "show_stacks": the last page_owner_stacks/show_stacks' top stacks, null without one. */
static void json_owner_stacks(struct ft_json *j, const struct ft_report *rep,
			      const struct ft_rep_owners *o)
{
	char stack[256];
	size_t i;

	if (!o->have_stacks) {
		ft_json_null(j, "show_stacks");
		return;
	}
	ft_json_obj_begin(j, "show_stacks");
	ft_json_double(j, "at_s", ft_report_secs(rep, o->stacks_t_ns));
	ft_json_bool(j, "cut", o->stacks_cut);
	ft_json_u64(j, "stacks", o->nr_stacks);
	if (o->stacks_pages == FT_PO_PAGES_SATURATED)
		ft_json_null(j, "pages");	/* past 2^64: no count */
	else
		ft_json_u64(j, "pages", o->stacks_pages);
	ft_json_bool(j, "pages_saturated", o->stacks_pages == FT_PO_PAGES_SATURATED);
	ft_json_arr_begin(j, "top");
	for (i = 0; i < o->nr_top; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "stack",
			    ft_po_stack_text(&o->top[i].e, FT_PO_FRAMES, stack, sizeof(stack)));
		ft_json_u64(j, "pages", o->top[i].pages);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

/*
 * "labels": page_owner's block labels against the map's classes (analysis/labels.h); null without
 * looks.
 */
static void json_labels(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_session *s = rep->s;
	struct ft_labels l;
	int k, c, i;

	if (!s->owner_src.known || !s->owners.nr) {
		ft_json_null(j, "labels");
		return;
	}
	ft_labels_build(s, &l);
	ft_json_obj_begin(j, "labels");
	ft_json_u64(j, "blocks", l.blocks);
	ft_json_u64(j, "blocks_without_label", l.no_label);
	ft_json_u64(j, "blocks_not_read_by_map", l.unread);
	ft_json_obj_begin(j, "by_label");
	for (k = 0; k < l.nr_mt; k++) {
		ft_json_obj_begin(j, l.mt[k]);
		for (c = FT_PB_FREE; c < FT_PB_HOLE; c++)
			ft_json_u64(j, ft_pb_names[c], l.n[k][c]);
		ft_json_obj_end(j);
	}
	ft_json_obj_end(j);
	ft_json_u64(j, "movable_with_unmovable", l.hidden);
	ft_json_arr_begin(j, "movable_with_unmovable_blocks");
	for (i = 0; i < l.nr_list; i++) {
		ft_json_obj_begin(j, NULL);
		ft_json_u64(j, "pfn", l.list[i].pfn);
		ft_json_u64(j, "unmovable_pages", l.list[i].unmovable);
		ft_json_str(j, "class", ft_pb_names[l.list[i].cls]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

/*
 * "owners": null without page_owner looks, else the stacks that own pinned pages of mixed blocks.
 */
static void json_owners(struct ft_json *j, const struct ft_report *rep)
{
	struct ft_rep_owners o;
	char stack[256];
	size_t i;

	if (ft_report_owners_model(rep, &o) || !o.known) {
		ft_report_owners_free(&o);
		ft_json_null(j, "owners");
		return;
	}
	ft_json_obj_begin(j, "owners");
	ft_json_i64(j, "error", o.err);
	ft_json_u64(j, "blocks_read", o.looks);
	ft_json_u64(j, "mixed_blocks", o.blocks);
	ft_json_u64(j, "pinned_pages", o.tally.pin_pages);
	ft_json_u64(j, "pinning_allocations", o.tally.pins);
	ft_json_u64(j, "past_table_pages", o.tally.other_pages);
	ft_json_arr_begin(j, "groups");
	for (i = 0; i < o.nr; i++) {
		const struct ft_po_entry *e = &o.groups[i].first;

		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "stack", ft_po_stack_text(e, FT_PO_FRAMES, stack, sizeof(stack)));
		ft_json_u64(j, "pages", o.groups[i].pages);
		ft_json_u64(j, "allocations", o.groups[i].count);
		ft_json_u64(j, "order", e->order);
		ft_json_str(j, "migratetype", e->page_mt);
		ft_json_str(j, "gfp", e->gfp_names);
		ft_json_i64(j, "pid", e->pid);
		ft_json_str(j, "comm", e->comm);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	json_owner_stacks(j, rep, &o);
	ft_json_obj_end(j);
	ft_report_owners_free(&o);
}


/* "contiguity": will it fit over the window, the host's, per size (analysis/report.h). */
static void json_fits(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_fits *f = &rep->fits;
	char size[24];
	size_t k;

	if (!f->samples) {
		ft_json_null(j, "contiguity");
		return;
	}
	ft_json_obj_begin(j, "contiguity");
	ft_json_u64(j, "samples", f->samples);
	ft_json_arr_begin(j, "sizes");
	for (k = 0; k < f->sizes.nr; k++) {
		ft_json_obj_begin(j, NULL);
		ft_json_str(j, "size",
			    ft_fit_size_name(f->sizes.order[k], rep->s->host.page_size, size,
							 sizeof(size)));
		ft_json_u64(j, "size_bytes", (uint64_t)rep->s->host.page_size << f->sizes.order[k]);
		ft_json_i64(j, "order", f->sizes.order[k]);
		ft_render_fit_sources(j, f->sizes.src[k]);
		ft_json_u64(j, "now_min", f->now_min[k]);
		ft_json_double(j, "now_min_at_s", ft_report_secs(rep, f->now_min_t_ns[k]));
		if (f->after_known[k]) {
			ft_json_u64(j, "after_compaction_min", f->after_min[k]);
			ft_json_double(j, "after_compaction_min_at_s",
				       ft_report_secs(rep, f->after_min_t_ns[k]));
		} else {
			ft_json_null(j, "after_compaction_min");
			ft_json_null(j, "after_compaction_min_at_s");
		}
		ft_json_obj_begin(j, "last");
		ft_render_fit_members(j, &f->last[k], NULL);
		ft_json_obj_end(j);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

/* The report as one JSON object on stdout. */
void ft_render_report_json(const struct ft_report *rep)
{
	const struct ft_session *s = rep->s;
	struct ft_json j;
	int lat;

	ft_json_init(&j, stdout, true);
	ft_json_obj_begin(&j, NULL);
	json_head(&j, rep);
	ft_json_obj_begin(&j, "totals");
	json_counters(&j, rep->all);
	ft_json_obj_end(&j);
	if (s->tracing)
		json_compaction(&j, rep, rep->all);
	else
		ft_json_null(&j, "compaction");
	json_direct_cost(&j, rep);
	json_futile(&j, rep);
	json_memstall(&j, rep);
	json_kmsg(&j, rep);
	/* extfrag_by_zone goes before the processes, pageblocks after the latencies */
	ft_json_arr_begin(&j, "extfrag_by_zone");
	json_extfrag_zones(&j, rep);
	ft_json_arr_end(&j);
	if (rep->procs)
		ft_render_session_processes(&j, rep->procs, 0);
	else
		ft_json_null(&j, "processes");
	ft_render_session_by_cgroup(&j, rep->cgrows, rep->cgroups, rep);
	json_stacks(&j, rep);
	json_owners(&j, rep);
	json_labels(&j, rep);
	ft_json_obj_begin(&j, "latency");
	for (lat = 0; lat < FT_LAT_NR; lat++)
		json_lat(&j, ft_lat_names[lat], rep, rep->all, lat);
	ft_json_obj_end(&j);
	ft_json_arr_begin(&j, "pageblocks");	/* the last recorded map scan; empty without one */
	json_pageblocks(&j, s);
	ft_json_arr_end(&j);
	if (!s->map_err && s->map.nr)
		ft_render_contig_nodes_json(&j, s);
	else
		ft_json_null(&j, "gigantic_by_node");
	json_fits(&j, rep);
	json_controls(&j, rep);
	json_boost(&j, rep, rep->boost_zone);
	json_level(&j, "free_in_pageblocks_pct", &rep->in_blocks);
	json_thp(&j, rep);
	json_intervals(&j, rep);
	json_cost(&j, rep);
	json_self(&j, rep);
	if (rep->verdict) {
		ft_json_obj_begin(&j, "findings");
		ft_render_verdict_json(&j, rep->verdict);
		ft_json_obj_end(&j);
	} else if (rep->findings) {
		ft_json_obj_begin(&j, "findings");
		ft_render_findings_json(&j, rep->findings);
		ft_json_obj_end(&j);
	} else {
		ft_json_null(&j, "findings");
	}
	ft_json_obj_end(&j);
	ft_json_end(&j);
}
