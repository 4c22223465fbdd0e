// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop snapshot` printed: one sample of the session as JSON or as a table per zone. */
#include "render/snapshot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/json.h"
#include "kernel/cgroup.h"
#include "model/frag.h"
#include "model/zonefield.h"
#include "render/contig.h"
#include "render/session_json.h"

static void json_thousandths(struct ft_json *j, const char *key, const int *v, int n)
{
	char buf[32];
	int i;

	ft_json_arr_begin_inline(j, key);
	for (i = 0; i < n; i++) {
		ft_thousandths_format(v[i], buf, sizeof(buf));
		ft_json_raw(j, NULL, buf);
	}
	ft_json_arr_end(j);
}

static void json_u64s(struct ft_json *j, const char *key, const uint64_t *v, int n)
{
	int i;

	ft_json_arr_begin_inline(j, key);
	for (i = 0; i < n; i++)
		ft_json_u64(j, NULL, v[i]);
	ft_json_arr_end(j);
}

static const struct ft_pbmap_zone *map_zone(const struct ft_snapshot_in *l,
					    const struct ft_zi_zone *zi)
{
	int k = ft_pbmap_zone_named(&l->session->map, zi->node, zi->name);

	return k < 0 ? NULL : &l->session->map.zones[k];
}

static void json_pageblocks(struct ft_json *j, const struct ft_session *s,
			    const struct ft_pbmap_zone *mz)
{
	int order = s->map.order;
	uint64_t marked = 0;
	size_t need;
	uint32_t b;
	char *enc;
	int c;

	if (!mz) {
		ft_json_null(j, "pageblocks");
		return;
	}
	ft_json_obj_begin(j, "pageblocks");
	ft_json_u64(j, "total", mz->nr_blocks);
	for (c = FT_PB_FREE; c < FT_PB_NR; c++)
		ft_json_u64(j, ft_pb_names[c], mz->count[c]);
	ft_json_u64(j, "unscanned", mz->count[FT_PB_UNSCANNED]);
	ft_json_u64(j, "pollution_pages", mz->pollution);
	ft_json_u64(j, "thp_pages", mz->thp);
	ft_json_u64(j, "thp_folios", mz->thp_folios);
	for (b = 0; b < mz->nr_blocks; b++)
		marked += mz->blocks[b].fallbacks != 0;
	ft_json_u64(j, "blocks_with_fallbacks", marked);
	/* block i of the map covers PFNs [(first_block + i) << order, +2^order) */
	ft_json_u64(j, "first_block_pfn", mz->first_block << order);
	need = ft_pbmap_encode(mz, NULL, 0);
	enc = malloc(need + 1);
	if (enc) {
		ft_pbmap_encode(mz, enc, need + 1);
		ft_json_str(j, "map", enc);
		free(enc);
	} else {
		ft_json_null(j, "map");
	}
	ft_render_contig_json(j, s, (size_t)(mz - s->map.zones), true);
	ft_json_obj_end(j);
}

/* A zone's scalar fields in snapshot's JSON, in order (model/zonefield.h). */
static const enum ft_zf zone_fields[] = {
	FT_ZF_FREE, FT_ZF_FREE_IN_BLOCKS, FT_ZF_MIN, FT_ZF_LOW, FT_ZF_HIGH, FT_ZF_BOOST,
	FT_ZF_PROMO,
	FT_ZF_MANAGED, FT_ZF_PRESENT, FT_ZF_SPANNED, FT_ZF_START_PFN,
};

static void json_zone(struct ft_json *j, const struct ft_snapshot_in *l, const struct ft_zone *z)
{
	const struct ft_sample *s = &l->session->sample;
	const struct ft_zi_zone *zi = z->zi;
	const struct ft_pagetypeinfo *pti = &s->pti;
	char v[32];
	size_t f;
	int t;

	ft_json_obj_begin(j, NULL);
	ft_json_i64(j, "node", zi->node);
	ft_json_str(j, "zone", zi->name);
	/* the kernel's own fragmentation gauge (free_pages_blocks) among them */
	for (f = 0; f < sizeof(zone_fields) / sizeof(zone_fields[0]); f++) {
		const char *key = ft_zone_fields[zone_fields[f]].key;

		if (ft_zone_field_text(l->session, (size_t)(z - s->zones), zone_fields[f], v,
				       sizeof(v)))
			ft_json_raw(j, key, v);
		else
			ft_json_null(j, key);
	}
	if (z->bi) {
		json_u64s(j, "free_blocks", z->bi->blocks, s->nr_orders);
		json_thousandths(j, "unusable_index", z->unusable, s->nr_orders);
		json_thousandths(j, "fragmentation_index", z->fragidx, s->nr_orders);
	} else {
		ft_json_null(j, "free_blocks");
		ft_json_null(j, "unusable_index");
		ft_json_null(j, "fragmentation_index");
	}
	if (z->pti) {
		uint32_t capped = 0;

		ft_json_obj_begin(j, "free_by_type");
		for (t = 0; t < pti->nr_types; t++) {
			if (!(z->pti->free_seen & (1u << t)))
				continue;
			json_u64s(j, pti->types[t], z->pti->free[t], pti->nr_orders);
			capped |= z->pti->capped[t];
		}
		ft_json_obj_end(j);
		/* Counts the kernel printed as ">100000": lower bounds. */
		ft_json_bool(j, "free_by_type_capped", capped != 0);
		ft_json_obj_begin(j, "blocks_by_type");
		for (t = 0; t < pti->nr_types; t++)
			ft_json_u64(j, pti->types[t], z->pti->blocks[t]);
		ft_json_obj_end(j);
		if (z->pti->has_mixed) {
			ft_json_obj_begin(j, "mixed_blocks_by_type");
			for (t = 0; t < pti->nr_types; t++)
				ft_json_u64(j, pti->types[t], z->pti->mixed[t]);
			ft_json_obj_end(j);
		} else {
			ft_json_null(j, "mixed_blocks_by_type");
		}
	} else {
		ft_json_null(j, "free_by_type");
		ft_json_null(j, "blocks_by_type");
		ft_json_null(j, "mixed_blocks_by_type");
	}
	if (l->map_scan)
		json_pageblocks(j, l->session, l->map_err ? NULL : map_zone(l, zi));
	ft_json_obj_end(j);
}

static void json_knobs(struct ft_json *j, const struct ft_snapshot_in *l)
{
	size_t i;

	ft_json_obj_begin(j, "sysctl");
	for (i = 0; i < ft_knobs_nr && i < FT_SESSION_MAX_KNOBS; i++)
		if (ft_knobs[i].type == FT_KNOB_INT && !l->session->knobs[i].err)
			ft_json_i64(j, ft_knobs[i].name, l->session->knobs[i].num);
	ft_json_obj_end(j);
	ft_json_obj_begin(j, "thp");
	for (i = 0; i < ft_knobs_nr && i < FT_SESSION_MAX_KNOBS; i++) {
		const struct ft_selector *sel = &l->session->knobs[i].sel;

		if (ft_knobs[i].type != FT_KNOB_SELECT || l->session->knobs[i].err)
			continue;
		/* "thp_enabled" -> "enabled" */
		ft_json_str(j, ft_knobs[i].name + 4, sel->options[sel->selected]);
	}
	ft_json_obj_end(j);
}


static void json_events(struct ft_json *j, const struct ft_snapshot_in *l)
{
	const struct ft_events *ev = &l->session->events;
	const struct ft_sample *s = &l->session->sample;
	char a[16], b[16];
	int i, k;

	if (!l->session->tracing) {
		ft_json_null(j, "events");
		ft_json_null(j, "latency");
		ft_json_str(j, "trace_error",
			    l->trace_error ? l->trace_error : "not traced (use --interval SECS)");
		return;
	}
	ft_json_obj_begin(j, "events");
	ft_json_u64(j, "lost", l->session->lost);
	ft_json_obj_begin(j, "available");
	for (i = 0; i < FT_EV_NR; i++)
		ft_json_bool(j, ft_trace_events[i].event, ft_session_has_event(l->session, i));
	ft_json_obj_end(j);
	ft_json_obj_begin(j, "extfrag");
	ft_render_session_extfrag_counts(j, &ev->extfrag);
	ft_json_i64(j, "pageblock_order", ev->pageblock_order);
	ft_json_arr_begin(j, "by_zone");
	for (i = 0; i < ev->nr_zones; i++) {
		if (!ev->extfrag_zone[i].total)
			continue;
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", ev->zones[i].node);
		ft_json_str(j, "zone", ev->zones[i].name);
		ft_render_session_extfrag_counts(j, &ev->extfrag_zone[i]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_arr_begin(j, "by_migratetype");
	for (i = 0; i < FT_EV_MT; i++)
		for (k = 0; k < FT_EV_MT; k++) {
			if (!ev->pair[i][k])
				continue;
			ft_json_obj_begin(j, NULL);
			ft_json_str(j, "alloc", ft_sample_mt_name(s, i, a, sizeof(a)));
			ft_json_str(j, "fallback", ft_sample_mt_name(s, k, b, sizeof(b)));
			ft_json_u64(j, "count", ev->pair[i][k]);
			ft_json_obj_end(j);
		}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
	{
		static struct ft_procs by_process;

		ft_procs_by_process(&by_process, &ev->procs);
		ft_render_session_processes(j, &by_process, 0);
		ft_render_session_self(j, &by_process, l->session->self_pid);
	}
	ft_render_session_by_cgroup(j, l->cgrows,
				    l->session->nr_cgroups ? l->session->cgroups : NULL, NULL);
	ft_render_session_compaction(j, l->session, ev);
	ft_json_u64(j, "kcompactd_wake", ev->by_kind[FT_EV_COMPACT_KCOMPACTD_WAKE]);
	ft_json_u64(j, "kswapd_wake", ev->by_kind[FT_EV_KSWAPD_WAKE]);
	ft_json_u64(j, "wakeup_kswapd", ev->by_kind[FT_EV_WAKEUP_KSWAPD]);
	ft_json_u64(j, "compaction_deferred", ev->by_kind[FT_EV_COMPACT_DEFERRED]);
	ft_json_obj_end(j);
	ft_json_obj_begin(j, "latency");
	for (i = 0; i < FT_LAT_NR; i++) {
		if (!ft_session_has_event(l->session, ft_lat_event[i]))
			ft_json_null(j, ft_lat_names[i]);	/* absent on this kernel */
		else
			ft_render_session_hist(j, ft_lat_names[i], &ev->lat[i]);
	}
	ft_json_obj_end(j);
}

/* A pressure file's lines as {"some": {...}, "full": {...}} (a line the file lacks: null). */
static void json_psi(struct ft_json *j, const char *key, const struct ft_psi *p)
{
	const struct ft_psi_line *l[2] = { &p->some, &p->full };
	static const char *const kind[2] = { "some", "full" };
	int i;

	if (!p->some.have) {
		ft_json_null(j, key);
		return;
	}
	ft_json_obj_begin(j, key);
	for (i = 0; i < 2; i++) {
		if (!l[i]->have) {
			ft_json_null(j, kind[i]);
			continue;
		}
		ft_json_obj_begin_inline(j, kind[i]);
		ft_json_double(j, "avg10", l[i]->avg10);
		ft_json_double(j, "avg60", l[i]->avg60);
		ft_json_double(j, "avg300", l[i]->avg300);
		ft_json_u64(j, "total_us", l[i]->total_us);
		ft_json_obj_end(j);
	}
	ft_json_obj_end(j);
}

/* One cgroup: its names, processes, memory (bytes; THP events), coverage and pressure. */
static void json_cgroup(struct ft_json *j, const struct ft_cgroups *c, const struct ft_cgroup *g)
{
	const struct ft_pod *pod = ft_cgroup_pod_of(c, g->path);
	char key[48];
	int k;

	ft_json_obj_begin(j, NULL);
	ft_json_str(j, "path", g->path);
	ft_json_str(j, "name", g->name);
	if (pod) {
		ft_json_str(j, "namespace", pod->ns);
		ft_json_str(j, "pod", pod->name);
	} else {
		ft_json_null(j, "namespace");
		ft_json_null(j, "pod");
	}
	ft_json_u64(j, "processes", g->procs);
	for (k = 0; k < FT_CGM_NR; k++) {
		bool events = k == FT_CGM_THP_FAULT_ALLOC || k == FT_CGM_THP_COLLAPSE_ALLOC;

		snprintf(key, sizeof(key), "%s%s", ft_cgm_names[k], events ? "" : "_bytes");
		if (g->mem.have & (1u << k))
			ft_json_u64(j, key, g->mem.v[k]);
		else
			ft_json_null(j, key);
	}
	ft_json_double(j, "thp_coverage", ft_cgroup_mem_coverage(&g->mem));
	json_psi(j, "pressure", &g->psi);
	ft_json_obj_end(j);
}

/*
 * "cgroups": the memory hierarchy's version, the pods named, every cgroup read; null when not read.
 */
static void json_cgroups(struct ft_json *j, const struct ft_session *s)
{
	const struct ft_cgroups *c = s->nr_cgroups ? s->cgroups : NULL;
	int i;

	if (!c) {
		ft_json_null(j, "cgroups");
		return;
	}
	ft_json_obj_begin(j, "cgroups");
	if (c->version)
		ft_json_i64(j, "version", c->version);
	else
		ft_json_null(j, "version");
	ft_json_i64(j, "pods", c->nr_pods);
	ft_json_u64(j, "dropped", c->dropped);
	ft_json_u64(j, "left_out", c->left_out);
	ft_json_arr_begin(j, "groups");
	for (i = 0; i < c->nr; i++)
		json_cgroup(j, c, &c->g[i]);
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

/* The sample as one JSON object. */
void ft_render_snapshot_json(FILE *f, const struct ft_snapshot_in *l)
{
	const struct ft_sample *smp = &l->session->sample;
	struct ft_json j;
	size_t i;
	int r;

	ft_json_init(&j, f, true);
	ft_json_obj_begin(&j, NULL);
	ft_json_str(&j, "fragtop_version", FT_VERSION);
	ft_json_str(&j, "hostname", l->session->host.hostname);
	ft_json_str(&j, "kernel", l->session->host.release);
	ft_json_str(&j, "root", l->root);
	ft_json_i64(&j, "time", (int64_t)l->now);
	if (smp->pageblock_order >= 0)
		ft_json_i64(&j, "pageblock_order", smp->pageblock_order);
	else
		ft_json_null(&j, "pageblock_order");
	ft_json_str(&j, "pageblock_order_source",
		    ft_sample_has(smp, FT_SRC_PAGETYPEINFO) ? "pagetypeinfo" :
		    smp->pageblock_order >= 0 ? "thp_pmd_size" : NULL);
	ft_json_i64(&j, "nr_orders", smp->nr_orders);
	if (ft_sample_has(smp, FT_SRC_PAGETYPEINFO)) {
		ft_json_arr_begin_inline(&j, "migratetypes");
		for (r = 0; r < smp->pti.nr_types; r++)
			ft_json_str(&j, NULL, smp->pti.types[r]);
		ft_json_arr_end(&j);
	} else {
		ft_json_null(&j, "migratetypes");
	}
	ft_json_obj_begin(&j, "sources");
	for (r = 0; r < FT_SRC_NR; r++)
		ft_json_str(&j, ft_source_names[r],
			    ft_sample_has(smp, r) ? "ok" : ft_file_strerror(smp->err[r]));
	ft_json_obj_end(&j);
	ft_json_arr_begin(&j, "zones");
	for (i = 0; i < smp->nr_zones; i++)
		if (ft_zi_populated(smp->zones[i].zi))
			json_zone(&j, l, &smp->zones[i]);
	ft_json_arr_end(&j);
	if (l->interval_s > 0 && smp->rates.valid) {
		ft_json_obj_begin(&j, "rates");
		ft_json_double(&j, "interval", smp->rates.dt);
		for (r = 0; r < FT_RATE_NR; r++)
			ft_json_double(&j, ft_rate_defs[r].name, smp->rates.v[r]);
		ft_json_double(&j, "thp_fault_success", smp->rates.thp_success);
		ft_json_double(&j, "compact_success_ratio", smp->rates.compact_success);
		ft_json_obj_end(&j);
	}
	ft_json_obj_begin(&j, "vmstat");
	for (i = 0; ft_sample_has(smp, FT_SRC_VMSTAT) && i < smp->vmstat.nr; i++)
		ft_json_i64(&j, smp->vmstat.items[i].name, smp->vmstat.items[i].value);
	ft_json_obj_end(&j);
	if (l->map_scan && l->map_err)
		ft_json_str(&j, "map_error", l->map_err == -EACCES || l->map_err == -EPERM ?
			    "/proc/kpageflags needs root" : l->map_err == -ECANCELED ?
			    "kept off: a CONFIG_DEBUG_VM kernel before 6.17 (--map-force reads it "
			    "anyway)" :
			    strerror(-l->map_err));
	if (l->map_scan && !l->map_err)
		ft_render_contig_nodes_json(&j, l->session);
	json_knobs(&j, l);
	ft_render_session_thp(&j, l->session);
	json_psi(&j, "pressure", ft_sample_has(smp, FT_SRC_PRESSURE) ? &smp->psi :
		 l->session->nr_cgroups ? &l->session->cgroups->host : &(struct ft_psi){ 0 });
	json_cgroups(&j, l->session);
	json_events(&j, l);
	ft_render_session_cost(&j, l->session);
	ft_render_session_kmsg(&j, l->session);
	/* the boost sampler over the interval (reads between the two samples) */
	if (l->interval_s > 0 && l->session->boost_nr) {
		ft_render_session_boost_zones(&j, "boost_by_zone", &smp->zoneinfo,
					      l->session->boost_total,
					      l->session->boost_nr);
	} else {
		ft_json_null(&j, "boost_by_zone");
	}
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

/* The sample as a table per zone. */
void ft_render_snapshot_table(FILE *f, const struct ft_snapshot_in *l)
{
	const struct ft_sample *s = &l->session->sample;
	char buf[32];
	size_t i;
	int o, t;

	fprintf(f, "fragtop %s  host %s  kernel %s  pageblock order %d\n",
		FT_VERSION, l->session->host.hostname, l->session->host.release,
		s->pageblock_order);
	for (i = 0; i < s->nr_zones; i++) {
		const struct ft_zone *z = &s->zones[i];
		const struct ft_zi_zone *zi = z->zi;

		if (!ft_zi_populated(zi))
			continue;
		fprintf(f, "\nNode %d, zone %s\n", zi->node, zi->name);
		fprintf(f, "  free %llu  min %llu  low %llu  high %llu  boost %s  managed %llu\n",
			(unsigned long long)zi->free, (unsigned long long)zi->min,
			(unsigned long long)zi->low, (unsigned long long)zi->high,
			zi->has & FT_ZI_BOOST ? (snprintf(buf, sizeof(buf), "%llu",
				(unsigned long long)zi->boost), buf) : "n/a",
			(unsigned long long)zi->managed);
		if (zi->has & FT_ZI_FREE_BLOCKS)
			fprintf(f, "  free in whole pageblocks %llu (%.1f%% of free)\n",
				(unsigned long long)zi->free_blocks,
				zi->free ? 100.0 * (double)zi->free_blocks /
					(double)zi->free : 0.0);
		if (!z->bi)
			continue;
		fprintf(f, "  %-16s", "order");
		for (o = 0; o < s->nr_orders; o++)
			fprintf(f, " %7d", o);
		fprintf(f, "\n  %-16s", "free blocks");
		for (o = 0; o < s->nr_orders; o++)
			fprintf(f, " %7llu", (unsigned long long)z->bi->blocks[o]);
		fprintf(f, "\n  %-16s", "unusable index");
		for (o = 0; o < s->nr_orders; o++) {
			ft_thousandths_format(z->unusable[o], buf, sizeof(buf));
			fprintf(f, " %7s", buf);
		}
		fprintf(f, "\n  %-16s", "frag index");
		for (o = 0; o < s->nr_orders; o++) {
			ft_thousandths_format(z->fragidx[o], buf, sizeof(buf));
			fprintf(f, " %7s", buf);
		}
		fputc('\n', f);
		if (l->map_scan && !l->map_err && map_zone(l, zi)) {
			const struct ft_pbmap_zone *mz = map_zone(l, zi);
			int c;

			fprintf(f, "  map %u blocks: ", mz->nr_blocks);
			for (c = FT_PB_FREE; c < FT_PB_NR; c++)
				fprintf(f, " %s %u", ft_pb_names[c], mz->count[c]);
			fprintf(f, "  (unmovable pages in mixed blocks: %llu; THP-backed pages: "
				   "%llu)\n",
				(unsigned long long)mz->pollution, (unsigned long long)mz->thp);
			ft_render_contig_text(f, l->session, (size_t)(mz - l->session->map.zones),
					      "  ");
		}
		if (!z->pti)
			continue;
		fprintf(f, "  pageblocks     ");
		for (t = 0; t < s->pti.nr_types; t++)
			fprintf(f, " %s %llu", s->pti.types[t],
				(unsigned long long)z->pti->blocks[t]);
		fputc('\n', f);
	}
	if (!ft_sample_has(s, FT_SRC_PAGETYPEINFO))
		fprintf(f, "\n(pagetypeinfo: %s)\n", ft_file_strerror(s->err[FT_SRC_PAGETYPEINFO]));
	if (l->map_scan && !l->map_err && ft_session_contig_order(l->session) >= 0) {
		fputc('\n', f);
		ft_render_contig_nodes_text(f, l->session, "");
	}
	/* what the rows mean, as vmstat's man page would say (the figures are the kernel's own) */
	fputs("\nfree, min, low, high, boost, managed: pages (zoneinfo); free blocks: blocks of "
	      "2^order pages\nunusable index: the share of free memory held by blocks smaller than "
	      "the order (0..1)\nfrag index: why an allocation of the order would fail: -1.000 it "
	      "would not (a free block\n  of the order exists); near 0 for lack of memory, near 1 "
	      "for fragmentation (compaction\n  runs above extfrag_threshold / 1000); the kernel's "
	      "debugfs extfrag_index\n", f);
	if (l->map_scan && !l->map_err)
		fputs("amplification: the share of blocks holding an unmovable page over the share "
		      "of pages\n  that are unmovable: 1 when they are packed, large when spread\n"
		      "regions: aligned runs of the largest huge page size, wholly in the zone: "
		      "free, movable\n  (compaction can empty it), tainted (an unmovable page or a "
		      "hole), unknown (not read\n  whole), uninitialised (the kernel has not "
		      "initialised it yet)\n", f);
}
