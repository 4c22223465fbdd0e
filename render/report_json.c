// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop report --json`: the built report (analysis/report.h) as one object. */
#include "render/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cost.h"
#include "base/json.h"
#include "model/cgroup.h"
#include "model/recfmt.h"
#include "model/thp.h"
#include "analysis/labels.h"
#include "render/contig.h"
#include "render/fit.h"
#include "render/session_json.h"

static void json_cost_counts(struct ft_json *j, const char *key, const struct ft_report *rep,
			     const struct ft_cost_counts *a, const struct ft_cost_counts *b)
{
	ft_json_obj_begin_inline(j, key);
	ft_json_double(j, "files_opened", ft_report_cost_per_tick(rep, a->opens, b->opens));
	ft_json_double(j, "reads", ft_report_cost_per_tick(rep, a->reads, b->reads));
	ft_json_double(j, "bytes_read", ft_report_cost_per_tick(rep, a->bytes, b->bytes));
	ft_json_obj_end(j);
}

/* "cost": the recording fragtop's, a tick over the window, null when it did not count it. */
static void json_cost(struct ft_json *j, const struct ft_report *rep)
{
	struct ft_cost_counts a = ft_cost_total(&rep->cost_first), b = ft_cost_total(&rep->cost_last);
	size_t i;

	if (!rep->cost_ticks) {
		ft_json_null(j, "cost");
		return;
	}
	ft_json_obj_begin(j, "cost");
	ft_json_u64(j, "ticks", rep->cost_ticks);
	ft_json_u64(j, "heap_bytes", rep->cost_last.heap);
	json_cost_counts(j, "per_tick", rep, &a, &b);
	ft_json_arr_begin(j, "by_source");
	for (i = 0; i < FT_COST_NR; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "source", ft_cost_src_names[i]);
		json_cost_counts(j, "per_tick", rep, &rep->cost_first.src[i], &rep->cost_last.src[i]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

static void json_lat(struct ft_json *j, const char *key, const struct ft_report *rep, int src,
		     const struct ft_rep_point *from, const struct ft_rep_point *to)
{
	struct ft_rep_lat l;
	struct ft_hist h;
	unsigned int b;

	if (!rep->lat_present[src] || ft_report_latency(rep, src, from, to, &l)) {
		ft_json_null(j, key);
		return;
	}
	ft_hist_sub(&h, &to->lat[src], &from->lat[src]);
	ft_json_obj_begin(j, key);
	ft_json_u64(j, "count", l.count);
	ft_json_double(j, "mean_us", l.count ? l.mean_us : NAN);
	ft_json_u64(j, "p50_us", l.p50_us);
	ft_json_u64(j, "p90_us", l.p90_us);
	ft_json_u64(j, "p99_us", l.p99_us);
	ft_json_u64(j, "p999_us", l.p999_us);
	ft_json_u64(j, "max_us", l.max_us);
	ft_json_bool(j, "exact", l.exact);
	ft_json_arr_begin(j, "buckets");
	for (b = 0; b < FT_HIST_BUCKETS; b++) {
		if (!h.bucket[b])
			continue;
		ft_json_obj_begin_inline(j, NULL);
		ft_json_u64(j, "lo_us", ft_hist_bucket_lo(b));
		ft_json_u64(j, "hi_us", ft_hist_bucket_hi(b));
		ft_json_u64(j, "count", h.bucket[b]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

static void json_counters(struct ft_json *j, const struct ft_report *rep,
			  const struct ft_rep_point *from, const struct ft_rep_point *to)
{
	int c;

	for (c = 0; c < FT_CF_NR; c++)
		if (((c == FT_CF_VM_FRAG_STALL || c >= FT_CF_MIGRATE_SCANNED) && !(rep->vm_seen & (1u << c))) ||
		    (c == FT_CF_FRAG_STALLS && !rep->lat_present[FT_LAT_FRAG_STALL]))
			ft_json_null(j, ft_counter_fields[c].key);	/* not on this kernel */
		else
			ft_json_i64(j, ft_counter_fields[c].key, to->c[c] - from->c[c]);
	ft_json_double(j, "thp_fault_success", ft_report_pct(to->c[FT_CF_THP_ALLOC] - from->c[FT_CF_THP_ALLOC],
		       to->c[FT_CF_THP_ALLOC] - from->c[FT_CF_THP_ALLOC] +
		       to->c[FT_CF_THP_FALLBACK] - from->c[FT_CF_THP_FALLBACK]) / 100);
	ft_json_double(j, "compact_success_per_stall",
		       ft_report_pct(to->c[FT_CF_COMPACT_SUCCESS] - from->c[FT_CF_COMPACT_SUCCESS],
			   to->c[FT_CF_COMPACT_STALL] - from->c[FT_CF_COMPACT_STALL]) / 100);
}

/* "compaction": how direct stalls were counted, and background compaction by node. */
static void json_compaction(struct ft_json *j, const struct ft_report *rep, const struct ft_rep_point *a,
			    const struct ft_rep_point *b)
{
	ft_json_obj_begin(j, "compaction");
	ft_json_bool(j, "direct_exact", rep->s->events.exact_direct);
	ft_json_i64(j, "direct_stalls", b->c[FT_CF_DIRECT_COMPACT] - a->c[FT_CF_DIRECT_COMPACT]);
	ft_json_u64(j, "direct_zone_runs", b->lat[FT_LAT_COMPACTION].count - a->lat[FT_LAT_COMPACTION].count);
	ft_json_i64(j, "background_compactions", b->c[FT_CF_BG_COMPACT] - a->c[FT_CF_BG_COMPACT]);
	ft_render_session_bg_nodes(j, "background_by_node", b->bg, a->bg);
	ft_json_obj_end(j);
}

/*
 * "memory_stall": the host's PSI some and full (us) over the window and
 * direct compaction's traced time with its share of some; null without
 * /proc/pressure/memory in the recording.
 */
static void json_memstall(struct ft_json *j, const struct ft_report *rep)
{
	struct ft_rep_memstall m;

	if (ft_report_memstall(rep, &rep->first, &rep->last, &m)) {
		ft_json_null(j, "memory_stall");
		return;
	}
	ft_json_obj_begin(j, "memory_stall");
	ft_json_u64(j, "psi_some_us", m.some_us);
	if (m.full_us != UINT64_MAX)
		ft_json_u64(j, "psi_full_us", m.full_us);
	else
		ft_json_null(j, "psi_full_us");
	if (isnan(m.compaction_us))
		ft_json_null(j, "direct_compaction_us");
	else
		ft_json_u64(j, "direct_compaction_us", (uint64_t)m.compaction_us);
	if (isnan(m.share))
		ft_json_null(j, "direct_compaction_share");
	else
		ft_json_double(j, "direct_compaction_share", m.share);
	ft_json_obj_end(j);
}

/* "futile_compaction": per who ran the scanners, what they isolated and the share in polluted blocks. */
static void json_futile(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_futile *a = &rep->futile_first, *b = &rep->futile_last;
	int w;

	if (!ft_session_has_event(rep->s, FT_EV_COMPACT_ISO_MIGRATE)) {
		ft_json_null(j, "futile_compaction");
		return;
	}
	ft_json_obj_begin(j, "futile_compaction");
	for (w = 0; w < FT_ISO_WHO_NR; w++) {
		ft_json_obj_begin(j, ft_iso_who_names[w]);
		ft_json_u64(j, "migrate_events", b->events[w][FT_ISO_MIGRATE] - a->events[w][FT_ISO_MIGRATE]);
		ft_json_u64(j, "migrate_scanned", b->scanned[w][FT_ISO_MIGRATE] - a->scanned[w][FT_ISO_MIGRATE]);
		ft_json_u64(j, "migrate_scanned_futile",
			    b->scanned_futile[w][FT_ISO_MIGRATE] - a->scanned_futile[w][FT_ISO_MIGRATE]);
		ft_json_u64(j, "migrate_scanned_unread",
			    b->scanned_unknown[w][FT_ISO_MIGRATE] - a->scanned_unknown[w][FT_ISO_MIGRATE]);
		ft_json_double(j, "migrate_futile_share", ft_futile_share(a, b, (enum ft_iso_who)w, FT_ISO_MIGRATE));
		ft_json_u64(j, "free_events", b->events[w][FT_ISO_FREE] - a->events[w][FT_ISO_FREE]);
		ft_json_u64(j, "free_taken", b->taken[w][FT_ISO_FREE] - a->taken[w][FT_ISO_FREE]);
		ft_json_u64(j, "free_taken_futile", b->taken_futile[w][FT_ISO_FREE] - a->taken_futile[w][FT_ISO_FREE]);
		ft_json_u64(j, "free_taken_unread",
			    b->taken_unknown[w][FT_ISO_FREE] - a->taken_unknown[w][FT_ISO_FREE]);
		ft_json_double(j, "free_futile_share", ft_futile_share(a, b, (enum ft_iso_who)w, FT_ISO_FREE));
		ft_json_obj_end(j);
	}
	ft_json_obj_end(j);
}

/* "direct_compaction_cost": what direct compaction scanned per stall (struct ft_rep_direct_cost). */
static void json_direct_cost(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_direct_cost *d = &rep->direct;

	if (!(rep->vm_seen & (1u << FT_CF_MIGRATE_SCANNED))) {
		ft_json_null(j, "direct_compaction_cost");
		return;
	}
	ft_json_obj_begin(j, "direct_compaction_cost");
	ft_json_bool(j, "exact", d->known);
	ft_json_i64(j, "migrate_scanned", d->migrate);
	ft_json_i64(j, "free_scanned", d->free);
	ft_json_i64(j, "stalls", d->stalls);
	ft_json_i64(j, "success", d->success);
	if (d->stalls > 0) {
		ft_json_double(j, "migrate_scanned_per_stall", (double)d->migrate / (double)d->stalls);
		ft_json_double(j, "free_scanned_per_stall", (double)d->free / (double)d->stalls);
	} else {
		ft_json_null(j, "migrate_scanned_per_stall");
		ft_json_null(j, "free_scanned_per_stall");
	}
	if (d->success > 0)
		ft_json_double(j, "scanned_per_success", (double)(d->migrate + d->free) / (double)d->success);
	else
		ft_json_null(j, "scanned_per_success");
	ft_json_u64(j, "ticks", d->ticks);
	ft_json_u64(j, "ticks_left_out", d->ticks_out);
	ft_json_i64(j, "stalls_left_out", d->stalls_out);
	ft_json_obj_end(j);
}

/*
 * boost_by_zone: the sampler's per zone over a window: peak (pages),
 * boosted_fraction (0..1 of the reads), episodes, samples (reads).
 */
static void json_boost(struct ft_json *j, const struct ft_report *rep,
		       const struct ft_boost_tick *b)
{
	const struct ft_zoneinfo *zi = &rep->s->sample.zoneinfo;
	int i;

	ft_json_arr_begin(j, "boost_by_zone");
	for (i = 0; i < rep->boost_nr && (size_t)i < zi->nr; i++) {
		if (!zi->zones[i].present)
			continue;
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", zi->zones[i].node);
		ft_json_str(j, "zone", zi->zones[i].name);
		ft_json_u64(j, "peak", b[i].peak);
		ft_json_double(j, "boosted_fraction", b[i].samples ?
			       (double)b[i].boosted / b[i].samples : 0);
		ft_json_u64(j, "episodes", b[i].episodes);
		ft_json_u64(j, "samples", b[i].samples);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* "thp_by_size": every size's counters over the window, [{size_kb, enabled, shmem_enabled, <counter>: n}], null without THP inputs. */
static void json_thp(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_thp *t = &rep->thp_last;
	int i, k;

	if (!rep->have_thp) {
		ft_json_null(j, "thp_by_size");
		return;
	}
	ft_json_arr_begin(j, "thp_by_size");
	for (i = 0; i < t->nr; i++) {
		const struct ft_thp_size *z = &t->s[i];

		ft_json_obj_begin_inline(j, NULL);
		ft_render_session_thp_settings(j, z);
		for (k = 0; k < z->nr_stats; k++) {
			uint64_t d;

			/* counters in the window; levels (nr_*) as at its end */
			if (!strncmp(z->stat_name[k], "nr_", 3))
				ft_json_u64(j, z->stat_name[k], z->stat[k]);
			else if (ft_report_thp_delta(rep, z, z->stat_name[k], &d))
				ft_json_u64(j, z->stat_name[k], d);
			else
				ft_json_null(j, z->stat_name[k]);
		}
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
	ft_json_double(j, "from_s", ft_report_secs(rep, rep->first.t_ns));
	ft_json_double(j, "to_s", ft_report_secs(rep, rep->last.t_ns));
	ft_json_u64(j, "samples", rep->ticks);
	ft_json_obj_begin(j, "recording");
	ft_json_bool(j, "clean", f->clean);
	ft_json_bool(j, "truncated", f->truncated);
	ft_json_u64(j, "chunks", f->chunks);
	ft_json_u64(j, "damaged_chunks", f->bad_chunks);
	ft_json_u64(j, "resyncs", f->resyncs);
	ft_json_u64(j, "bad_inputs", s->bad_inputs);
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
	ft_json_i64(j, "pageblock_order", s->tracing ? s->events.pageblock_order : s->sample.pageblock_order);
	ft_json_u64(j, "lost", s->lost);
}

/*
 * The elements of "extfrag_by_zone": fallbacks by zone over the window,
 * and those outside every zone (node -1, zone null) when there were any.
 */
static void json_extfrag_zones(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_session *s = rep->s;
	int k;

	for (k = 0; s->tracing && k <= s->events.nr_zones; k++) {
		struct ft_extfrag_counts z = ft_report_zone_extfrag(rep, k);

		if (k == s->events.nr_zones && !z.total)
			break;
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", k < s->events.nr_zones ? s->events.zones[k].node : -1);
		if (k < s->events.nr_zones)
			ft_json_str(j, "zone", s->events.zones[k].name);
		else
			ft_json_null(j, "zone");
		ft_json_u64(j, "total", z.total);
		ft_json_u64(j, "fragmenting", z.fragmenting);
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

		ft_json_obj_begin(j, NULL);
		ft_json_double(j, "from_s", ft_report_secs(rep, iv->from.t_ns));
		ft_json_double(j, "to_s", ft_report_secs(rep, iv->to.t_ns));
		if (iv->boost >= 0)
			ft_json_i64(j, "watermark_boost_factor", iv->boost);
		else
			ft_json_null(j, "watermark_boost_factor");
		ft_json_str(j, "after", iv->opened_by);
		json_counters(j, rep, &iv->from, &iv->to);
		json_boost(j, rep, iv->boost_zone);
		json_level(j, "free_in_pageblocks_pct", &iv->in_blocks);
		for (lat = 0; lat < FT_LAT_NR; lat++) {
			char key[48];

			snprintf(key, sizeof(key), "%s_latency", ft_lat_names[lat]);
			json_lat(j, key, rep, lat, &iv->from, &iv->to);
		}
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* "stacks": null without --stacks, else the groups and what adds up with them. */
static void json_stacks(struct ft_json *j, const struct ft_report *rep)
{
	struct ft_stack_group *g;
	uint64_t other = 0, unstacked = 0;
	size_t n, i;

	if (!rep->stack_first) {
		ft_json_null(j, "stacks");
		return;
	}
	g = calloc(FT_EV_STACKS, sizeof(*g));
	n = g ? ft_report_stacks(rep, g, FT_EV_STACKS, &other, &unstacked) : 0;
	if (n > FT_EV_STACKS)
		n = FT_EV_STACKS;
	ft_json_obj_begin(j, "stacks");
	ft_json_u64(j, "per_sec", rep->s->stacks_src.per_sec);
	ft_json_i64(j, "error", rep->s->stacks_src.err);
	ft_json_u64(j, "without_stack", unstacked);
	ft_json_u64(j, "past_table", other);
	ft_json_arr_begin(j, "groups");
	for (i = 0; i < n; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "stack", g[i].key);
		ft_json_u64(j, "fragmenting", g[i].fragmenting);
		ft_json_u64(j, "change_ownership", g[i].change_ownership);
		ft_json_u64(j, "stacks", (uint64_t)g[i].rows);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
	free(g);
}

/* "show_stacks": the last page_owner_stacks/show_stacks' top stacks, null without one. */
static void json_owner_stacks(struct ft_json *j, const struct ft_report *rep, const struct ft_rep_owners *o)
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
		ft_json_str(j, "stack", ft_po_stack_text(&o->top[i].e, FT_PO_FRAMES, stack, sizeof(stack)));
		ft_json_u64(j, "pages", o->top[i].pages);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

/* "labels": page_owner's block labels against the map's classes (analysis/labels.h); null without looks. */
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

/* "owners": null without page_owner looks, else the stacks that own pinned pages of mixed blocks. */
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
		ft_json_str(j, "size", ft_fit_size_name(f->sizes.order[k], rep->s->host.page_size, size,
							 sizeof(size)));
		ft_json_u64(j, "size_bytes", (uint64_t)rep->s->host.page_size << f->sizes.order[k]);
		ft_json_i64(j, "order", f->sizes.order[k]);
		ft_render_fit_sources(j, f->sizes.src[k]);
		ft_json_u64(j, "now_min", f->now_min[k]);
		ft_json_double(j, "now_min_at_s", ft_report_secs(rep, f->now_min_t_ns[k]));
		if (f->after_known[k]) {
			ft_json_u64(j, "after_compaction_min", f->after_min[k]);
			ft_json_double(j, "after_compaction_min_at_s", ft_report_secs(rep, f->after_min_t_ns[k]));
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
	json_counters(&j, rep, &rep->first, &rep->last);
	ft_json_obj_end(&j);
	if (s->tracing)
		json_compaction(&j, rep, &rep->first, &rep->last);
	else
		ft_json_null(&j, "compaction");
	json_direct_cost(&j, rep);
	json_futile(&j, rep);
	json_memstall(&j, rep);
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
		json_lat(&j, ft_lat_names[lat], rep, lat, &rep->first, &rep->last);
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
	ft_json_obj_end(&j);
	ft_json_end(&j);
}
