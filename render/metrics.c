// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/metrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "model/counterfield.h"
#include "model/frag.h"
#include "model/knob.h"
#include "kernel/thp.h"
#include "kernel/vmstat.h"
#include "model/zonefield.h"

/* One family: its name, type and help, as node_exporter writes them. */
static const struct {
	const char *name, *type, *help;
} fam[FT_MF_NR] = {
	[FT_MF_BUILD] = { "fragtop_build", "info", "fragtop's version and the kernel it watches." },
	[FT_MF_UP] = { "fragtop_up", "gauge",
		       "1 if the source was read at the last sample, 0 if not." },
	[FT_MF_FREE_BLOCKS] = { "fragtop_zone_free_blocks", "gauge",
		"Free blocks of the order in the zone (buddyinfo)." },
	[FT_MF_FREE_BY_TYPE] = { "fragtop_zone_free_blocks_by_type", "gauge",
		"Free blocks of the order and migratetype (pagetypeinfo)." },
	[FT_MF_WATERMARK] = { "fragtop_zone_watermark_bytes", "gauge",
		"The zone's watermark (boost included, as zoneinfo prints it), in bytes." },
	[FT_MF_UNUSABLE] = { "fragtop_zone_unusable_free_index", "gauge",
		"Unusable free space index for an allocation of the order (0..1)." },
	[FT_MF_FRAGIDX] = { "fragtop_zone_fragmentation_index", "gauge",
		"Fragmentation index for the order (-1: a free block of it exists)." },
	[FT_MF_PAGEBLOCKS] = { "fragtop_zone_pageblocks", "gauge",
			       "Pageblocks of the migratetype (pagetypeinfo)." },
	[FT_MF_CONTIG] = { "fragtop_contiguous_blocks", "gauge",
		"Aligned blocks of size_bytes the zone can give: when=\"now\" from the free lists "
		"above the min watermark (all-free runs above the buddy's largest order), "
		"when=\"after_compaction\" the blocks holding only free and movable pages that the "
		"free memory can hold (the pageblock map, --collector.map). Where blocks were not "
		"read whole, the interval's lower end." },
	[FT_MF_KNOB] = { "fragtop_vm_knob", "gauge", "A vm knob's value." },
	[FT_MF_COMPACT_SCANNED] = { "fragtop_compaction_scanned_pages", "counter",
		"Pages compaction's migrate and free scanners scanned since fragtop started, from "
		"/proc/vmstat: direct (allocating tasks', as report counts it: without tracing, "
		"compaction asked through compact_memory is in it), background (kcompactd's), and "
		"compact_memory (asked through compact_memory or proactive compaction: the ticks a "
		"traced task other than kcompactd compacted in, and the one after)." },
	[FT_MF_COMPACT_ISOLATED] = { "fragtop_compaction_isolated_pages", "counter",
		"Pages compaction isolated to migrate (vmstat compact_isolated)." },
	[FT_MF_THP_ENABLED] = { "fragtop_thp_size_enabled", "gauge",
		"1 for the setting a THP size's enabled file selects, 0 for the others it lists." },
	[FT_MF_THP_SHMEM_ENABLED] = { "fragtop_thp_size_shmem_enabled", "gauge",
		"1 for the setting a THP size's shmem_enabled file selects, 0 for the others it "
		"lists." },
	[FT_MF_THP_ANON] = { "fragtop_thp_anon_faults", "counter",
		"Anonymous page faults that asked for a THP of the size, by result "
		"(stats/anon_fault_*)." },
	[FT_MF_THP_SHMEM] = { "fragtop_thp_shmem_allocations", "counter",
		"shmem allocations that asked for a THP of the size, by result (stats/shmem_*)." },
	[FT_MF_THP_SPLITS] = { "fragtop_thp_splits", "counter",
		"THPs of the size split, failed to split or queued for a deferred split "
		"(stats/split*)." },
	[FT_MF_THP_SWPOUT] = { "fragtop_thp_swapouts", "counter",
		"THPs of the size swapped out whole, or split to be swapped out (stats/swpout*)." },
	[FT_MF_THP_ANON_FOLIOS] = { "fragtop_thp_anon_folios", "gauge",
		"Anonymous THPs of the size in use (stats/nr_anon)." },
	[FT_MF_THP_PARTIAL] = { "fragtop_thp_anon_partially_mapped_folios", "gauge",
		"Anonymous THPs of the size partly unmapped (stats/nr_anon_partially_mapped)." },
	[FT_MF_EXTFRAG] = { "fragtop_extfrag_events", "counter",
		"Allocator fallbacks (mm_page_alloc_extfrag) by zone and migratetypes." },
	[FT_MF_COMPACTION] = { "fragtop_compaction_outcomes", "counter",
		"Zone compactions by kind (direct: an allocating task's; background: kcompactd, "
		"proactive, compact_memory) and outcome." },
	[FT_MF_FRAG_STALLS] = { "fragtop_fragmentation_stalls", "counter",
		"Fragmentation stalls (mm_fragmentation_stall, patched kernels)." },
	[FT_MF_LOST] = { "fragtop_trace_lost_events", "counter",
			 "Trace events the ring buffer dropped." },
	[FT_MF_PSI_WAITING] = { "fragtop_pressure_memory_waiting_seconds", "counter",
		"Time some tasks waited for memory (/proc/pressure/memory some total), as "
		"node_exporter's node_pressure_memory_waiting_seconds_total." },
	[FT_MF_PSI_STALLED] = { "fragtop_pressure_memory_stalled_seconds", "counter",
		"Time all non-idle tasks stalled on memory (/proc/pressure/memory full total), as "
		"node_exporter's node_pressure_memory_stalled_seconds_total." },
	[FT_MF_STALL_SECONDS] = { "fragtop_stall_duration_seconds", "histogram",
		"Allocation stalls by source." },
	[FT_MF_COMPACT_STALLS] = { "fragtop_compaction_stalls", "counter",
		"Direct compaction stalls, counted as the kernel's compact_stall is." },
	[FT_MF_BG_COMPACTIONS] = { "fragtop_background_compactions", "counter",
		"Background zone compactions (kcompactd, proactive, compact_memory) by node." },
	[FT_MF_BG_COMPACT_SECONDS] = { "fragtop_background_compaction_seconds", "counter",
		"Time in background zone compactions by node." },
	[FT_MF_KCOMPACTD_WAKES] = { "fragtop_kcompactd_wakes", "counter",
				    "kcompactd wake-ups by node." },
	[FT_MF_FINDING] = { "fragtop_finding_active", "gauge",
		"1 while the rule fires over the last minute, 0 while it is checked and does not "
		"(fragtop doctor's rules, severity the rule's own; docs/runbook.md#RULE). A rule "
		"whose inputs are missing has no series." },
	[FT_MF_ALLOC_FAILURES] = { "fragtop_page_allocation_failures", "counter",
		"Page allocation failures the kernel logged since fragtop started, by order "
		"(/dev/kmsg; the last order counts larger ones too)." },
	[FT_MF_SELF_FRAG] = { "fragtop_self_fragmenting_fallbacks", "counter",
		"Fragmenting fallbacks fragtop's own threads caused (its footprint, traced as any "
		"process's)." },
	[FT_MF_SELF_FALLBACKS] = { "fragtop_self_fallbacks", "counter",
		"Allocator fallbacks (mm_page_alloc_extfrag) fragtop's own threads caused." },
	[FT_MF_SELF_STALL] = { "fragtop_self_stall_seconds", "counter",
		"Time fragtop's own threads spent in direct compaction and direct reclaim, by "
		"kind." },
	[FT_MF_CG_UNLISTED] = { "fragtop_cgroups_unlisted", "gauge",
		"Memory cgroups the last read did not list (--collector.cgroups), by reason: "
		"not_looked_at (directories past the walk's bounds, each one at least), past_table "
		"(listed past the 512 a table keeps)." },
	[FT_MF_CG_FRAG] = { "fragtop_cgroup_fragmenting_fallbacks", "counter",
		"Fragmenting fallbacks of the cgroup's traced tasks (--collector.cgroups: the top "
		"K cgroups, one \"other\" summing the rest, and the tasks whose cgroup was not "
		"read under \"" FT_CGU_EXITED_NAME "\" or \"" FT_CGU_UNREAD_NAME "\")." },
	[FT_MF_CG_FALLBACKS] = { "fragtop_cgroup_fallbacks", "counter",
		"Allocator fallbacks (mm_page_alloc_extfrag) of the cgroup's traced tasks." },
	[FT_MF_CG_COMPACT] = { "fragtop_cgroup_compaction_stall_seconds", "counter",
		"Time the cgroup's traced tasks spent in direct compaction." },
	[FT_MF_CG_RECLAIM] = { "fragtop_cgroup_reclaim_stall_seconds", "counter",
		"Time the cgroup's traced tasks spent in direct reclaim." },
	[FT_MF_CG_ANON] = { "fragtop_cgroup_anon_bytes", "gauge",
		"The cgroup's anonymous memory (memory.stat: v2 anon, v1 total_rss)." },
	[FT_MF_CG_ANON_THP] = { "fragtop_cgroup_anon_thp_bytes", "gauge",
		"The cgroup's anonymous memory in huge pages (memory.stat: v2 anon_thp, v1 "
		"total_rss_huge)." },
	[FT_MF_CG_WAITING] = { "fragtop_cgroup_pressure_memory_waiting_seconds", "counter",
		"Time some of the cgroup's tasks waited for memory (memory.pressure some total, "
		"v2)." },
	[FT_MF_CG_STALLED] = { "fragtop_cgroup_pressure_memory_stalled_seconds", "counter",
		"Time all of the cgroup's tasks stalled on memory (memory.pressure full total, "
		"v2)." },
	[FT_MF_SRV_CONNS] = { "fragtop_exporter_connections", "gauge",
		"Connections the exporter holds open, this scrape's included." },
	[FT_MF_SRV_REFUSED] = { "fragtop_exporter_refused_connections", "counter",
		"Connections answered 503 because --max-connections were open." },
	[FT_MF_SRV_FD_RESTS] = { "fragtop_exporter_out_of_fds", "counter",
		"Times accept() found no file descriptor left (the listener rested 100 ms)." },
	[FT_MF_SRV_SCRAPES] = { "fragtop_exporter_scrapes", "counter",
				"Scrapes of /metrics answered before this one." },
	[FT_MF_SRV_UNAUTHORIZED] = { "fragtop_exporter_unauthorized_requests", "counter",
		"Requests answered 401: no or wrong basic-auth credentials (--web.config.file)." },
	[FT_MF_SRV_TLS_FAILED] = { "fragtop_exporter_tls_handshake_failures", "counter",
		"TLS handshakes that failed, plain HTTP sent to the TLS port included." },
	[FT_MF_SRV_EVICTED] = { "fragtop_exporter_evicted_connections", "counter",
		"Connections closed to give a newcomer the slot: kept alive between requests, "
		"trickling or silent, never one making progress." },
	[FT_MF_SRV_HEAD_TIMEOUTS] = { "fragtop_exporter_header_timeouts", "counter",
		"Connections closed for not sending a whole request head within "
		"--header-timeout." },
	[FT_MF_SRV_ACCEPTED] = { "fragtop_exporter_accepted_connections", "counter",
		"Connections accepted; a client that keeps its connection alive (HTTP/1.1) is "
		"accepted once for many scrapes." },
	[FT_MF_SRV_GZIP] = { "fragtop_exporter_gzip_scrapes", "counter",
		"Scrapes of /metrics answered gzip-compressed (the client's Accept-Encoding asked "
		"for it)." },
	[FT_MF_SRV_IDLE_TIMEOUTS] = { "fragtop_exporter_idle_timeouts", "counter",
		"Kept-alive connections closed after --idle-timeout without a request." },
	[FT_MF_SRV_THROTTLED] = { "fragtop_exporter_throttled_requests", "counter",
		"Requests held back because their client address had had --max-rate answers that "
		"second." },
	[FT_MF_SRV_REQ_TIMEOUTS] = { "fragtop_exporter_request_timeouts", "counter",
		"Connections closed because a request was not answered and taken 10 s after its "
		"first byte (a client that does not read its answers)." },
	[FT_MF_SRV_OPENS] = { "fragtop_exporter_files_opened", "counter",
		"Files the exporter opened or directories it listed, by source, up to this "
		"scrape's sample." },
	[FT_MF_SRV_READS] = { "fragtop_exporter_reads", "counter",
		"Read calls the exporter made, by source, up to this scrape's sample." },
	[FT_MF_SRV_READ_BYTES] = { "fragtop_exporter_read_bytes", "counter",
		"Bytes the exporter read, by source, up to this scrape's sample." },
	[FT_MF_SRV_HEAP] = { "fragtop_exporter_heap_bytes", "gauge",
		"Heap the exporter holds (malloc's bytes in use) at this scrape's sample." },
	/* the process collector every Prometheus client library has, by its names */
	[FT_MF_PROC_CPU] = { "process_cpu_seconds", "counter",
			     "Total user and system CPU time spent in seconds." },
	[FT_MF_PROC_RSS] = { "process_resident_memory_bytes", "gauge",
			     "Resident memory size in bytes." },
	[FT_MF_PROC_VSIZE] = { "process_virtual_memory_bytes", "gauge",
			       "Virtual memory size in bytes." },
	[FT_MF_PROC_FDS] = { "process_open_fds", "gauge", "Number of open file descriptors." },
	[FT_MF_PROC_MAX_FDS] = { "process_max_fds", "gauge",
				 "Maximum number of open file descriptors." },
	[FT_MF_PROC_START] = { "process_start_time_seconds", "gauge",
		"Start time of the process since unix epoch in seconds." },
};

/* The zone gauges the field registry describes (model/zonefield.h): a family each. */
static const int zone_field_of[FT_MF_NR] = {
	[FT_MF_FREE_PAGES] = FT_ZF_FREE + 1, [FT_MF_MANAGED] = FT_ZF_MANAGED + 1,
	[FT_MF_FREE_IN_BLOCKS] = FT_ZF_FREE_IN_BLOCKS + 1, [FT_MF_BOOST] = FT_ZF_BOOST + 1,
	[FT_MF_BOOST_PEAK] = FT_ZF_BOOST_PEAK + 1, [FT_MF_BOOSTED] = FT_ZF_BOOSTED + 1,
	[FT_MF_AMPLIFICATION] = FT_ZF_AMPLIFICATION + 1, [FT_MF_GIANT_NOW] = FT_ZF_GIANT_NOW + 1,
	[FT_MF_GIANT_AFTER] = FT_ZF_GIANT_AFTER + 1,
};

/*
 * A family's name, type and help: the registry's for a zone field (and
 * whether it counts pages, exported in bytes), else fam[]'s.
 */
static void family(enum ft_mfamily mf, const char **name, const char **type, const char **help,
		   bool *in_bytes)
{
	int zf = zone_field_of[mf] - 1;

	*in_bytes = false;
	if (zf >= 0) {
		*name = ft_zone_fields[zf].metric;
		*type = ft_zone_fields[zf].kind == FT_ZF_COUNTER ? "counter" : "gauge";
		*help = ft_zone_fields[zf].help;
		*in_bytes = !strcmp(ft_zone_fields[zf].unit, "pages");
		return;
	}
	*name = fam[mf].name;
	*type = fam[mf].type;
	*help = fam[mf].help;
}

struct out {
	FILE *f;
	const struct ft_metrics *m;
};

/*
 * A label value: backslash, double quote and newline escaped; control
 * characters and broken UTF-8 (Prometheus wants UTF-8) as '?'.
 */
static void label_value(FILE *f, const char *v)
{
	const unsigned char *p = (const unsigned char *)v;
	size_t len = strlen(v);

	while (len) {
		uint32_t cp;
		int n = ft_utf8_next(p, len, &cp);

		if (n <= 0) {
			fputc('?', f);
			n = 1;
		} else if (cp == '\\' || cp == '"') {
			fprintf(f, "\\%c", (char)cp);
		} else if (cp == '\n') {
			fputs("\\n", f);
		} else if (cp < 0x20 || cp == 0x7f || ft_cp_unsafe(cp)) {
			fputc('?', f);
		} else {
			fwrite(p, 1, (size_t)n, f);
		}
		p += n;
		len -= (size_t)n;
	}
}

/*
 * HELP and TYPE.  OpenMetrics names the family without the sample's
 * suffix ("fragtop_extfrag_events", type counter, samples ..._total); the
 * text format names it by the sample ("fragtop_extfrag_events_total") and
 * has no info type (a gauge "..._info" of 1).
 */
static void head(struct out *o, enum ft_mfamily mf)
{
	const char *suffix = "", *name, *type, *help;
	bool in_bytes;
	int hl;

	if (o->m->no_head)
		return;
	family(mf, &name, &type, &help, &in_bytes);
	if (!o->m->openmetrics && !strcmp(type, "counter"))
		suffix = "_total";
	if (!o->m->openmetrics && !strcmp(type, "info")) {
		suffix = "_info";
		type = "gauge";
	}
	/* the registry's help is of pages: said in bytes here, the sentence's period kept last */
	hl = (int)strlen(help);
	if (in_bytes && hl && help[hl - 1] == '.')
		hl--;
	fprintf(o->f, "# HELP %s%s %.*s%s\n# TYPE %s%s %s\n", name, suffix, hl, help,
		in_bytes ? ", in bytes." : "", name, suffix, type);
}

/* The label names fragtop's own families use (a sample cannot carry one twice). */
static const char *const own_labels[] = {
	"node", "zone", "order", "migratetype", "level", "knob", "size", "setting", "result",
	"scanner", "kind", "status", "fragmenting", "alloc_migratetype", "fallback_migratetype",
	"source", "le", "version", "kernel", NULL,
};

int ft_render_metrics_label_ok(const char *name, char *why, size_t sz)
{
	size_t i;

	for (i = 0; name[i]; i++)
		if (!(name[i] == '_' || (name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= 'A' && name[i] <= 'Z') ||
		      (i && name[i] >= '0' && name[i] <= '9'))) {
			snprintf(why, sz, "a label name is letters, digits and '_', not starting "
					  "with a digit");
			return -1;
		}
	if (!i || !strncmp(name, "__", 2)) {
		snprintf(why, sz,
			 i ? "label names starting with \"__\" are Prometheus's own" :
			 "an empty label name");
		return -1;
	}
	for (i = 0; own_labels[i]; i++)
		if (!strcmp(name, own_labels[i])) {
			snprintf(why, sz, "fragtop's own metrics use the label \"%s\"", name);
			return -1;
		}
	return 0;
}

/*
 * @v in the fewest digits that read back as @v (Go's strconv 'g', -1: 0.3, not
 * 0.29999999999999999).
 */
static const char *shortest(double v, char *buf, size_t sz)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sz, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, sz, "%.17g", v);
	return buf;
}

/* name{k="v",...} value [timestamp]; @labels: NULL-ended key, value pairs. */
static void sample(struct out *o, const char *name, const char *suffix, const char *const *labels,
		   double v)
{
	char buf[32];
	int i;

	const char *const *extra = o->m->extra_labels;
	bool any = false;

	fprintf(o->f, "%s%s", name, suffix);
	for (i = 0; labels && labels[i]; i += 2) {
		fprintf(o->f, "%s%s=\"", any ? "," : "{", labels[i]);
		label_value(o->f, labels[i + 1]);
		fputc('"', o->f);
		any = true;
	}
	for (i = 0; extra && extra[i]; i += 2) {
		fprintf(o->f, "%s%s=\"", any ? "," : "{", extra[i]);
		label_value(o->f, extra[i + 1]);
		fputc('"', o->f);
		any = true;
	}
	if (any)
		fputc('}', o->f);
	if (isnan(v))
		fputs(" NaN", o->f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf" : " -Inf", o->f);
	else if (v == floor(v) && fabs(v) < 9e15)
		fprintf(o->f, " %.0f", v);
	else
		fprintf(o->f, " %s", shortest(v, buf, sizeof(buf)));
	/* OpenMetrics timestamps are seconds, the text format's milliseconds */
	if (o->m->timestamp_ms && o->m->openmetrics)
		fprintf(o->f, " %lld.%03lld", (long long)(o->m->timestamp_ms / 1000),
			(long long)(o->m->timestamp_ms % 1000));
	else if (o->m->timestamp_ms)
		fprintf(o->f, " %lld", (long long)o->m->timestamp_ms);
	fputc('\n', o->f);
}

static bool want(const struct out *o, enum ft_mfamily mf)
{
	return !o->m->only || o->m->only == (int)mf + 1;
}

/* Per order: free blocks, the unusable index or the fragmentation index of zone @z. */
static void order_samples(struct out *o, const struct ft_sample *sm, int mf,
			  const struct ft_zone *z,
			  const char **l)
{
	char ord[16];
	int k;

	if (!z->bi)
		return;
	for (k = 0; k < sm->nr_orders; k++) {
		snprintf(ord, sizeof(ord), "%d", k);
		l[4] = "order";
		l[5] = ord;
		l[6] = NULL;
		sample(o, fam[mf].name, "", l, mf == FT_MF_FREE_BLOCKS ? (double)z->bi->blocks[k] :
		       mf == FT_MF_UNUSABLE ? z->unusable[k] / 1000.0 : z->fragidx[k] / 1000.0);
	}
}

/* Per migratetype (pagetypeinfo): free pages by order, or pageblocks. */
static void type_samples(struct out *o, const struct ft_sample *sm, int mf, const struct ft_zone *z,
			 const char **l)
{
	char ord[16];
	int k, t;

	if (!z->pti || (mf == FT_MF_PAGEBLOCKS && !z->pti->has_blocks))
		return;
	for (t = 0; t < sm->pti.nr_types; t++) {
		if (mf == FT_MF_PAGEBLOCKS) {
			l[4] = "migratetype";
			l[5] = sm->pti.types[t];
			l[6] = NULL;
			sample(o, fam[mf].name, "", l, (double)z->pti->blocks[t]);
			continue;
		}
		if (!(z->pti->free_seen & (1u << t)))
			continue;
		for (k = 0; k < sm->pti.nr_orders; k++) {
			snprintf(ord, sizeof(ord), "%d", k);
			l[4] = "order";
			l[5] = ord;
			l[6] = "migratetype";
			l[7] = sm->pti.types[t];
			l[8] = NULL;
			sample(o, fam[mf].name, "", l, (double)z->pti->free[t][k]);
		}
	}
}

/* Family @mf's samples for zone @i (labels node and zone in @l). */
static void zone_samples(struct out *o, const struct ft_session *s, int mf, size_t i,
			 const char **l)
{
	const struct ft_zone *z = &s->sample.zones[i];
	const struct ft_zi_zone *zi = z->zi;
	static const char *const lv[3] = { "min", "low", "high" };
	const uint64_t wm[3] = { zi->min, zi->low, zi->high };
	int k;

	if (zone_field_of[mf]) {	/* one value, absent where the registry says so */
		const struct ft_zone_field *f = &ft_zone_fields[zone_field_of[mf] - 1];
		struct ft_zv v;

		if (f->get(s, i, &v))
			sample(o, f->metric, "", l,
			       strcmp(f->unit, "pages") ? v.d : v.d * (double)s->host.page_size);
		return;
	}
	switch (mf) {
	case FT_MF_WATERMARK:
		for (k = 0; k < 3; k++) {
			l[4] = "level";
			l[5] = lv[k];
			l[6] = NULL;
			sample(o, fam[mf].name, "", l, (double)wm[k] * (double)s->host.page_size);
		}
		break;
	case FT_MF_FREE_BLOCKS:
	case FT_MF_UNUSABLE:
	case FT_MF_FRAGIDX:
		order_samples(o, &s->sample, mf, z, l);
		break;
	case FT_MF_FREE_BY_TYPE:
	case FT_MF_PAGEBLOCKS:
		type_samples(o, &s->sample, mf, z, l);
		break;
	default:
		break;
	}
}

/* Whether family @mf has nothing to say here: no boost sampler, or a kernel before 6.15. */
static bool zone_family_absent(const struct ft_session *s, int mf)
{
	const struct ft_sample *sm = &s->sample;
	size_t i;

	if ((mf == FT_MF_BOOST_PEAK || mf == FT_MF_BOOSTED) && !s->boost_nr)
		return true;	/* no sampler */
	if (mf == FT_MF_AMPLIFICATION || mf == FT_MF_GIANT_NOW || mf == FT_MF_GIANT_AFTER) {
		/* the map's: a family only where some zone has a value */
		for (i = 0; !s->map_err && i < sm->nr_zones; i++) {
			struct ft_zv v;

			if (ft_zone_fields[zone_field_of[mf] - 1].get(s, i, &v))
				return false;
		}
		return true;
	}
	if (mf != FT_MF_FREE_IN_BLOCKS)
		return false;
	/* absent on kernels before 6.15, never 0 */
	for (i = 0; i < sm->nr_zones; i++)
		if (sm->zones[i].zi->has & FT_ZI_FREE_BLOCKS)
			return false;
	return true;
}

/*
 * fragtop_contiguous_blocks: every zone and size of @t, now and (where the map read it) after
 * compaction.
 */
static void contiguity(struct out *o, const struct ft_fits *t)
{
	char node[16], bytes[32];
	size_t z, k;

	if (!t || !t->nr_zones || !t->sizes.nr || !want(o, FT_MF_CONTIG))
		return;
	head(o, FT_MF_CONTIG);
	for (z = 0; z < t->nr_zones; z++)
		for (k = 0; k < t->sizes.nr; k++) {
			const struct ft_fit *f = ft_fits_at(t, z, k);
			const char *l[] = { "node", node, "zone", f->zone, "size_bytes", bytes,
					    "when", "now", NULL };

			snprintf(node, sizeof(node), "%d", f->node);
			snprintf(bytes, sizeof(bytes), "%llu",
				 (unsigned long long)t->page_size << f->order);
			/*
			 * without the map, what lies above the buddy's orders is not known: no
			 * series
			 */
			if (f->buddy || f->map)
				sample(o, fam[FT_MF_CONTIG].name, "", l, (double)f->now_lo);
			l[7] = "after_compaction";
			if (f->map)
				sample(o, fam[FT_MF_CONTIG].name, "", l, (double)f->after_lo);
		}
}

/*
 * fragtop_finding_active: every rule checked, 1 fired or 0.  One series a
 * rule: severity is the rule's own (a finding graver than it, a size
 * asked that cannot fit, says so in doctor), so a series never splits.
 */
static void findings(struct out *o, const struct ft_findings *fs)
{
	int i;

	if (!fs || !want(o, FT_MF_FINDING))
		return;
	head(o, FT_MF_FINDING);
	for (i = 0; i < FT_FIND_RULES; i++) {
		const struct ft_rule *r = &ft_find_rules[i];
		const char *sev = ft_find_sev_names[r->sev];
		const char *l[] = { "rule", r->name, "severity", sev, NULL };

		if (!fs->checked[i])
			continue;
		sample(o, fam[FT_MF_FINDING].name, "", l, fs->fired[i] ? 1 : 0);
	}
}

/* fragtop_page_allocation_failures_total{order}: while the kernel log is read. */
static void alloc_failures(struct out *o, const struct ft_session *s)
{
	char order[8];
	int k;

	if (!s->kmsg.known || s->kmsg.err || !want(o, FT_MF_ALLOC_FAILURES))
		return;
	head(o, FT_MF_ALLOC_FAILURES);
	for (k = 0; k < FT_KMSG_ORDERS; k++) {
		const char *l[] = { "order", order, NULL };

		snprintf(order, sizeof(order), "%d", k);
		sample(o, fam[FT_MF_ALLOC_FAILURES].name, "_total", l, (double)s->kmsg.by_order[k]);
	}
}

static void zone_gauges(struct out *o, const struct ft_session *s)
{
	const struct ft_sample *sm = &s->sample;
	char node[16];
	size_t i;

	for (int mf = FT_MF_FREE_PAGES; mf <= FT_MF_PAGEBLOCKS; mf++) {
		if (!want(o, mf) || zone_family_absent(s, mf))
			continue;
		head(o, mf);
		for (i = 0; i < sm->nr_zones; i++) {
			const struct ft_zi_zone *zi = sm->zones[i].zi;
			const char *l[12] = { "node", node, "zone", zi->name, NULL };

			if (!ft_zi_populated(zi))
				continue;
			snprintf(node, sizeof(node), "%d", zi->node);
			zone_samples(o, s, mf, i, l);
		}
	}
}

/*
 * A bucket bound of @us microseconds as exact seconds ("1.048576", not
 * %g's "1.04858": a client library prints a bound's shortest exact form).
 */
static void le_seconds(char *buf, size_t sz, uint64_t us)
{
	int n = snprintf(buf, sz, "%llu.%06llu", (unsigned long long)(us / 1000000),
			 (unsigned long long)(us % 1000000));

	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
	if (n > 2 && buf[n - 1] == '0' && buf[n - 2] == '.')	/* a whole second: "2" */
		buf[n - 2] = '\0';
}

/* Background compaction by node: the nodes that had any, "unknown" last. */
static void background(struct out *o, const struct ft_events *ev)
{
	static const enum ft_mfamily mf[] = { FT_MF_BG_COMPACTIONS, FT_MF_BG_COMPACT_SECONDS,
					      FT_MF_KCOMPACTD_WAKES };
	char node[16];
	size_t f;
	int n;

	for (f = 0; f < sizeof(mf) / sizeof(mf[0]); f++) {
		if (!want(o, mf[f]))
			continue;
		head(o, mf[f]);
		for (n = 0; n <= FT_EV_NODES; n++) {
			const struct ft_bg_node *b = &ev->bg[n];
			const char *l[] = { "node", node, NULL };

			if (!b->count && !b->wakes && n)
				continue;	/* node 0 always, so the family has a sample */
			if (n == FT_EV_NODES)
				snprintf(node, sizeof(node), "unknown");
			else
				snprintf(node, sizeof(node), "%d", n);
			sample(o, fam[mf[f]].name, "_total", l,
			       mf[f] == FT_MF_BG_COMPACTIONS ? (double)b->count :
			       mf[f] == FT_MF_BG_COMPACT_SECONDS ? (double)b->us /
				       1e6 : (double)b->wakes);
		}
	}
}

/*
 * The host's memory pressure totals, when /proc/pressure/memory was read
 * (fragtop_up{source="pressure"}).
 */
static void host_pressure(struct out *o, const struct ft_session *s)
{
	const struct ft_psi *p = &s->sample.psi;

	if (!ft_sample_has(&s->sample, FT_SRC_PRESSURE))
		return;
	if (want(o, FT_MF_PSI_WAITING) && p->some.have) {
		head(o, FT_MF_PSI_WAITING);
		sample(o, fam[FT_MF_PSI_WAITING].name, "_total", NULL,
		       (double)p->some.total_us / 1e6);
	}
	if (want(o, FT_MF_PSI_STALLED) && p->full.have) {
		head(o, FT_MF_PSI_STALLED);
		sample(o, fam[FT_MF_PSI_STALLED].name, "_total", NULL,
		       (double)p->full.total_us / 1e6);
	}
}

/*
 * Can the allocator fall back from migratetype @x to @y?  The kernel's
 * fallbacks[] table, the same from 4.x to 6.18: Unmovable (0), Movable
 * (1) and Reclaimable (2) take from each other.  These series are
 * written from the start, at 0, so that rate() and increase() see the
 * first fallback (a series born at its first event loses it).
 */
static bool fallback_pair(int x, int y)
{
	return x != y && x < 3 && y < 3;
}

/* fragtop's own footprint: its threads' rows of the process table (tracing, its pid known). */
static void self_events(struct out *o, const struct ft_session *s)
{
	uint64_t own[FT_PC_NR];

	if (s->self_pid <= 0)
		return;
	ft_procs_of_process(&s->events.procs, s->self_pid, own);
	if (want(o, FT_MF_SELF_FRAG)) {
		head(o, FT_MF_SELF_FRAG);
		sample(o, fam[FT_MF_SELF_FRAG].name, "_total", NULL,
		       (double)own[FT_PC_FRAGMENTING]);
	}
	if (want(o, FT_MF_SELF_FALLBACKS)) {
		head(o, FT_MF_SELF_FALLBACKS);
		sample(o, fam[FT_MF_SELF_FALLBACKS].name, "_total", NULL,
		       (double)own[FT_PC_EXTFRAG]);
	}
	if (want(o, FT_MF_SELF_STALL)) {
		const char *lc[] = { "kind", "compaction", NULL },
		*lr[] = { "kind", "reclaim", NULL };

		head(o, FT_MF_SELF_STALL);
		sample(o, fam[FT_MF_SELF_STALL].name, "_total", lc,
		       (double)own[FT_PC_COMPACTION_US] / 1e6);
		sample(o, fam[FT_MF_SELF_STALL].name, "_total", lr,
		       (double)own[FT_PC_RECLAIM_US] / 1e6);
	}
}

/* Fallbacks by zone, fragmenting or not, and migratetype pair (every pair a zone can have). */
static void extfrag(struct out *o, const struct ft_session *s)
{
	const struct ft_events *ev = &s->events;
	char node[16], a[32], b[32];
	int z, fr, x, y;

	head(o, FT_MF_EXTFRAG);
	for (z = 0; z <= ev->nr_zones; z++) {
		int zi = z < ev->nr_zones ? z : FT_EV_ZONES;
		const char *zone = z < ev->nr_zones ? ev->zones[z].name : "none";

		snprintf(node, sizeof(node), "%d", z < ev->nr_zones ? ev->zones[z].node : -1);
		for (fr = 0; fr < 2; fr++)
			for (x = 0; x < FT_EV_MT; x++)
				for (y = 0; y < FT_EV_MT; y++) {
					const char *l[] = {
						"node", node, "zone", zone,
						"fragmenting", fr ? "true" : "false",
						"alloc_migratetype",
						ft_sample_mt_name(&s->sample, x, a, sizeof(a)),
						"fallback_migratetype",
						ft_sample_mt_name(&s->sample, y, b, sizeof(b)), NULL
					};
					uint64_t n = ev->zone_pair[zi][fr][x][y];

					if (n || (z < ev->nr_zones && fallback_pair(x, y)))
						sample(o, fam[FT_MF_EXTFRAG].name, "_total", l,
						       (double)n);
				}
	}
}

/* The stall latency histograms, as Prometheus histograms in seconds. */
static void stall_seconds(struct out *o, const struct ft_session *s)
{
	const struct ft_events *ev = &s->events;
	int i;

	head(o, FT_MF_STALL_SECONDS);
	for (i = 0; i < FT_LAT_NR; i++) {
		const struct ft_hist *h = &ev->lat[i];
		uint64_t cum = 0;
		unsigned int bk = 0;
		char le[32];
		int k;

		/* background compaction stalls no task: its time is a counter of its own */
		if (i == FT_LAT_BG_COMPACTION || !ft_session_has_event(s, ft_lat_event[i]))
			continue;
		/*
		 * buckets at powers of two microseconds, 1 us to 4 s; the log-linear ones
		 * sum into them
		 */
		for (k = 0; k <= 22; k++) {
			const char *l[] = { "source", ft_lat_names[i], "le", le, NULL };
			uint64_t bound = 1ull << k;

			for (; bk < FT_HIST_BUCKETS && ft_hist_bucket_hi(bk) <= bound; bk++)
				cum += h->bucket[bk];
			le_seconds(le, sizeof(le), bound);
			sample(o, fam[FT_MF_STALL_SECONDS].name, "_bucket", l, (double)cum);
		}
		{
			const char *l[] = { "source", ft_lat_names[i], "le", "+Inf", NULL };
			const char *l2[] = { "source", ft_lat_names[i], NULL };

			sample(o, fam[FT_MF_STALL_SECONDS].name, "_bucket", l,
			       (double)h->count);
			sample(o, fam[FT_MF_STALL_SECONDS].name, "_sum", l2,
			       (double)h->sum_us / 1e6);
			sample(o, fam[FT_MF_STALL_SECONDS].name, "_count", l2,
			       (double)h->count);
		}
	}
}

static void events(struct out *o, const struct ft_session *s)
{
	const struct ft_events *ev = &s->events;
	int i;

	if (want(o, FT_MF_EXTFRAG))
		extfrag(o, s);
	if (want(o, FT_MF_COMPACTION) && ft_session_has_event(s, FT_EV_COMPACT_END)) {
		int k;

		head(o, FT_MF_COMPACTION);
		for (k = 0; k < FT_CK_NR; k++)
			for (i = 0; i < ev->nr_compact_status; i++) {
				const char *l[] = { "kind", ft_compact_kind_names[k], "status",
						    s->dec.status_name[i],
						    NULL };

				sample(o, fam[FT_MF_COMPACTION].name, "_total", l,
				       (double)ev->compact_status[k][i]);
			}
	}
	if (want(o, FT_MF_COMPACT_STALLS) && ft_session_has_event(s, FT_EV_COMPACT_END)) {
		uint64_t m[FT_M_NR];

		ft_events_metrics(ev, m);
		head(o, FT_MF_COMPACT_STALLS);
		sample(o, fam[FT_MF_COMPACT_STALLS].name, "_total", NULL,
		       (double)m[FT_M_COMPACTION]);
	}
	if (ft_session_has_event(s, FT_EV_COMPACT_END))
		background(o, ev);
	if (want(o, FT_MF_FRAG_STALLS) && ft_session_has_event(s, FT_EV_FRAG_STALL)) {
		head(o, FT_MF_FRAG_STALLS);
		sample(o, fam[FT_MF_FRAG_STALLS].name, "_total", NULL,
		       (double)ev->by_kind[FT_EV_FRAG_STALL]);
	}
	if (want(o, FT_MF_LOST)) {
		head(o, FT_MF_LOST);
		sample(o, fam[FT_MF_LOST].name, "_total", NULL, (double)s->lost);
	}
	if (want(o, FT_MF_STALL_SECONDS))
		stall_seconds(o, s);
}

/*
 * Compaction's cost from vmstat since fragtop's first sample: scanned by
 * scanner and kind (model/direct.h: direct as report counts it,
 * kcompactd's, and compact_memory's and proactive compaction's), isolated.
 */
static void compaction_cost(struct out *o, const struct ft_session *s)
{
	static const char *const scanner[2] = { "migrate", "free" };
	const uint32_t need = (1u << FT_CF_MIGRATE_SCANNED) | (1u << FT_CF_FREE_SCANNED) |
		(1u << FT_CF_DAEMON_MIGRATE_SCANNED) | (1u << FT_CF_DAEMON_FREE_SCANNED);
	const struct ft_vmstat *vs = &s->sample.vmstat;
	int64_t now[FT_CF_NR], iso;
	struct ft_scan_kinds sk;
	int k;

	if (!ft_sample_has(&s->sample, FT_SRC_VMSTAT))
		return;
	/* a kernel before 4.x's counters, or no first sample kept: left out */
	if ((ft_counters_read(s, now) & need) != need || (s->counter_first_have & need) != need)
		return;
	ft_direct_kinds(&s->direct, s->counter_first, now, &sk);
	if (want(o, FT_MF_COMPACT_SCANNED)) {
		head(o, FT_MF_COMPACT_SCANNED);
		for (k = 0; k < 2; k++) {
			const char *ld[] = { "scanner", scanner[k], "kind", "direct", NULL };
			const char *lb[] = { "scanner", scanner[k], "kind", "background", NULL };
			const char *lm[] = { "scanner", scanner[k], "kind", "compact_memory",
					     NULL };

			sample(o, fam[FT_MF_COMPACT_SCANNED].name, "_total", ld,
			       (double)sk.direct[k]);
			sample(o, fam[FT_MF_COMPACT_SCANNED].name, "_total", lb,
			       (double)sk.kcompactd[k]);
			sample(o, fam[FT_MF_COMPACT_SCANNED].name, "_total", lm,
			       (double)sk.other[k]);
		}
	}
	if (want(o, FT_MF_COMPACT_ISOLATED) && ft_vmstat_value(vs, FT_VM_COMPACT_ISOLATED, &iso)) {
		head(o, FT_MF_COMPACT_ISOLATED);
		sample(o, fam[FT_MF_COMPACT_ISOLATED].name, "_total", NULL, (double)iso);
	}
}

/* Which stats/ counter feeds which family, with its result label (NULL: none). */
static const struct {
	enum ft_mfamily mf;
	const char *stat, *result;
} thp_stats[] = {
	{ FT_MF_THP_ANON, "anon_fault_alloc", "alloc" },
	{ FT_MF_THP_ANON, "anon_fault_fallback", "fallback" },
	{ FT_MF_THP_ANON, "anon_fault_fallback_charge", "fallback_charge" },
	{ FT_MF_THP_SHMEM, "shmem_alloc", "alloc" },
	{ FT_MF_THP_SHMEM, "shmem_fallback", "fallback" },
	{ FT_MF_THP_SHMEM, "shmem_fallback_charge", "fallback_charge" },
	{ FT_MF_THP_SPLITS, "split", "split" },
	{ FT_MF_THP_SPLITS, "split_failed", "failed" },
	{ FT_MF_THP_SPLITS, "split_deferred", "deferred" },
	{ FT_MF_THP_SWPOUT, "swpout", "swpout" },
	{ FT_MF_THP_SWPOUT, "swpout_fallback", "fallback" },
	{ FT_MF_THP_ANON_FOLIOS, "nr_anon", NULL },
	{ FT_MF_THP_PARTIAL, "nr_anon_partially_mapped", NULL },
};

/* A setting file's words, 1 for the [selected] one and 0 for the rest. */
static void thp_setting(struct out *o, enum ft_mfamily mf, const char *size, const char *text)
{
	char w[32];
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " ");
		bool on = n > 2 && p[0] == '[' && p[n - 1] == ']';
		const char *l[] = { "size", size, "setting", w, NULL };

		if (n && n - (on ? 2 : 0) < sizeof(w)) {
			snprintf(w, sizeof(w), "%.*s", (int)(n - (on ? 2 : 0)), p + (on ? 1 : 0));
			sample(o, fam[mf].name, "", l, on ? 1 : 0);
		}
		p += n;
		while (*p == ' ')
			p++;
	}
}

/* Multi-size THP, by size: the settings, then each family of counters. */
static void thp(struct out *o, const struct ft_session *s)
{
	const struct ft_thp *t = &s->thp;
	enum ft_mfamily mf;
	char size[16];
	size_t k;
	int i;

	if (!s->thp_ticks || !t->nr)
		return;
	for (mf = FT_MF_THP_ENABLED; mf <= FT_MF_THP_PARTIAL; mf++) {
		bool any = false;

		if (!want(o, mf))
			continue;
		for (i = 0; i < t->nr && !any; i++)
			for (k = 0; k < sizeof(thp_stats) / sizeof(thp_stats[0]) && !any; k++) {
				uint64_t v;

				any = mf == FT_MF_THP_ENABLED ? t->s[i].enabled[0] :
				      mf == FT_MF_THP_SHMEM_ENABLED ? t->s[i].shmem[0] :
				      thp_stats[k].mf == mf &&
				      ft_thp_stat(&t->s[i], thp_stats[k].stat, &v);
			}
		if (!any)	/* not on this kernel: the family is left out */
			continue;
		head(o, mf);
		for (i = 0; i < t->nr; i++) {
			ft_thp_size_label(t->s[i].kb, size, sizeof(size));
			if (mf == FT_MF_THP_ENABLED || mf == FT_MF_THP_SHMEM_ENABLED) {
				thp_setting(o, mf, size,
					    mf == FT_MF_THP_ENABLED ? t->s[i].enabled :
					    t->s[i].shmem);
				continue;
			}
			for (k = 0; k < sizeof(thp_stats) / sizeof(thp_stats[0]); k++) {
				const char *l[] = { "size", size, "result", thp_stats[k].result,
						    NULL };
				uint64_t v;

				if (thp_stats[k].mf != mf ||
				    !ft_thp_stat(&t->s[i], thp_stats[k].stat, &v))
					continue;
				if (!thp_stats[k].result)
					l[2] = NULL;
				sample(o, fam[mf].name,
				       strcmp(fam[mf].type, "counter") ? "" : "_total", l,
				       (double)v);
			}
		}
	}
}

/* What the exporter's sampling cost (the session's COST input, model/cost.h), by source. */
static void own_cost(struct out *o, const struct ft_session *s)
{
	static const enum ft_mfamily mf[3] = { FT_MF_SRV_OPENS, FT_MF_SRV_READS,
					       FT_MF_SRV_READ_BYTES };
	int k;

	if (!s->cost.known)
		return;
	for (k = 0; k < 3; k++) {
		if (!want(o, mf[k]))
			continue;
		head(o, mf[k]);
		for (size_t i = 0; i < FT_COST_NR; i++) {
			const struct ft_cost_counts *c = &s->cost.now.src[i];
			const char *l[] = { "source", ft_cost_src_names[i], NULL };

			sample(o, fam[mf[k]].name, "_total", l,
			       (double)(k == 0 ? c->opens : k == 1 ? c->reads : c->bytes));
		}
	}
	if (want(o, FT_MF_SRV_HEAP)) {
		head(o, FT_MF_SRV_HEAP);
		sample(o, fam[FT_MF_SRV_HEAP].name, "", NULL, (double)s->cost.now.heap);
	}
}

/*
 * The process collector's families (client_golang's names and help), when the exporter read them.
 */
static void process(struct out *o, const struct ft_selfstat *p)
{
	const struct {
		enum ft_mfamily mf;
		double v;
		bool have;
	} rows[] = {
		{ FT_MF_PROC_CPU, p->cpu_seconds, true },
		{ FT_MF_PROC_RSS, (double)p->resident_bytes, true },
		{ FT_MF_PROC_VSIZE, (double)p->virtual_bytes, true },
		{ FT_MF_PROC_FDS, (double)p->open_fds, true },
		{ FT_MF_PROC_MAX_FDS, (double)p->max_fds, p->max_fds > 0 },
		{ FT_MF_PROC_START, p->start_time_seconds, p->start_time_seconds > 0 },
	};
	size_t k;

	for (k = 0; p->known && k < sizeof(rows) / sizeof(rows[0]); k++)
		if (rows[k].have && want(o, rows[k].mf)) {
			head(o, rows[k].mf);
			sample(o, fam[rows[k].mf].name,
			       strcmp(fam[rows[k].mf].type, "counter") ? "" : "_total", NULL,
			       rows[k].v);
		}
}

/*
 * Counter @k of the counts @c (a chosen cgroup's, "other"'s, a bucket's) in its family's unit (us
 * as seconds).
 */
static double cg_count(const uint64_t *c, enum ft_proc_col k)
{
	return k == FT_PC_COMPACTION_US ||
	k == FT_PC_RECLAIM_US ? (double)c[k] / 1e6 : (double)c[k];
}

/* What the last cgroup read left out, by reason: served whenever the cgroups were read. */
static void cgroups_unlisted(struct out *o, const struct ft_cgroups *c)
{
	const char *l1[] = { "reason", "not_looked_at", NULL },
	*l2[] = { "reason", "past_table", NULL };

	if (!c || !c->known || !want(o, FT_MF_CG_UNLISTED))
		return;
	head(o, FT_MF_CG_UNLISTED);
	sample(o, fam[FT_MF_CG_UNLISTED].name, "", l1, (double)c->left_out);
	sample(o, fam[FT_MF_CG_UNLISTED].name, "", l2, (double)c->dropped);
}

/*
 * --collector.cgroups: per family at most K + 1 cgroups, the counters
 * with "other" (the rest summed), the memory gauges and pressure for the
 * chosen only (a subtree's memory already holds its children's).
 */
static void cgroups(struct out *o, const struct ft_cgtop *t, const struct ft_cgroups *c)
{
	cgroups_unlisted(o, c);
	static const struct { enum ft_mfamily mf; enum ft_proc_col k; } counts[] = {
		{ FT_MF_CG_FRAG, FT_PC_FRAGMENTING }, { FT_MF_CG_FALLBACKS, FT_PC_EXTFRAG },
		{ FT_MF_CG_COMPACT, FT_PC_COMPACTION_US }, { FT_MF_CG_RECLAIM, FT_PC_RECLAIM_US },
	};
	char name[FT_CG_PATH];
	size_t f;
	int i, u;

	for (f = 0; f < sizeof(counts) / sizeof(counts[0]); f++) {
		const char *lo[] = { "cgroup", "other", "name", "other", NULL };

		if (!want(o, counts[f].mf))
			continue;
		head(o, counts[f].mf);
		for (i = 0; i < t->nr; i++) {
			const char *l[] = { "cgroup", t->r[i].path, "name", name, NULL };

			ft_cgroup_name(t->r[i].path, c ? c->pods : NULL, c ? c->nr_pods : 0, name,
				       sizeof(name));
			sample(o, fam[counts[f].mf].name, "_total", l,
			       cg_count(t->r[i].c, counts[f].k));
		}
		sample(o, fam[counts[f].mf].name, "_total", lo, cg_count(t->other, counts[f].k));
		for (u = FT_CGU_READ + 1; u < FT_CGU_NR; u++) {
			const char *lu[] = { "cgroup", ft_cg_unread_names[u], "name",
					     ft_cg_unread_names[u], NULL };
			int k;

			for (k = 0; k < FT_PC_NR && !t->unread[u][k]; k++)
				;
			if (k < FT_PC_NR)	/* served once it counts something */
				sample(o, fam[counts[f].mf].name, "_total", lu,
				       cg_count(t->unread[u], counts[f].k));
		}
	}
	for (f = FT_MF_CG_ANON; f <= FT_MF_CG_STALLED; f++) {
		if (!want(o, (enum ft_mfamily)f))
			continue;
		head(o, (enum ft_mfamily)f);
		for (i = 0; i < t->nr; i++) {
			const struct ft_cgroup *g = t->r[i].g;
			const char *l[] = { "cgroup", t->r[i].path, "name", name, NULL };
			const struct ft_psi_line *p = !g ? NULL : f == FT_MF_CG_WAITING ?
				&g->psi.some : &g->psi.full;
			enum ft_cgm mk = f == FT_MF_CG_ANON ? FT_CGM_ANON : FT_CGM_ANON_THP;

			if (!g)
				continue;
			ft_cgroup_name(t->r[i].path, c ? c->pods : NULL, c ? c->nr_pods : 0, name,
				       sizeof(name));
			if (f == FT_MF_CG_ANON || f == FT_MF_CG_ANON_THP) {
				if (g->mem.have & (1u << mk))
					sample(o, fam[f].name, "", l, (double)g->mem.v[mk]);
			} else if (p->have) {
				sample(o, fam[f].name, "_total", l, (double)p->total_us / 1e6);
			}
		}
	}
}

int ft_render_metrics_write(FILE *f, const struct ft_session *s, const struct ft_metrics *m)
{
	struct out o = { f, m };
	size_t i;

	if (want(&o, FT_MF_BUILD)) {
		const char *l[] = { "version", FT_VERSION, "kernel", s->host.release, NULL };

		head(&o, FT_MF_BUILD);
		sample(&o, fam[FT_MF_BUILD].name, "_info", l, 1);
	}
	if (want(&o, FT_MF_UP)) {
		head(&o, FT_MF_UP);
		for (i = 0; i < FT_SRC_NR; i++) {
			const char *l[] = { "source", ft_source_names[i], NULL };
			int err = s->sample.err[i];

			/*
			 * no PSI in this kernel (or the recording): no series, as node_exporter has
			 * none
			 */
			if (i == FT_SRC_PRESSURE && !ft_sample_has(&s->sample, (int)i) &&
			    (!err || err == -ENOENT || err == -EOPNOTSUPP))
				continue;
			sample(&o, fam[FT_MF_UP].name, "", l,
			       ft_sample_has(&s->sample, (int)i) ? 1 : 0);
		}
		{
			const char *l[] = { "source", "tracepoints", NULL };

			sample(&o, fam[FT_MF_UP].name, "", l, s->tracing ? 1 : 0);
		}
	}
	host_pressure(&o, s);
	zone_gauges(&o, s);
	contiguity(&o, m->fits);
	findings(&o, m->findings);
	alloc_failures(&o, s);
	if (want(&o, FT_MF_KNOB)) {
		head(&o, FT_MF_KNOB);
		for (i = 0; i < ft_knobs_nr && i < FT_SESSION_MAX_KNOBS; i++) {
			const char *l[] = { "knob", ft_knobs[i].name, NULL };

			if (ft_knobs[i].type == FT_KNOB_INT && !s->knobs[i].err &&
			    s->knobs[i].raw_len)
				sample(&o, fam[FT_MF_KNOB].name, "", l, (double)s->knobs[i].num);
		}
	}
	compaction_cost(&o, s);
	thp(&o, s);
	if (s->tracing) {
		events(&o, s);
		self_events(&o, s);
	}
	if (m->server) {
		const struct { enum ft_mfamily mf; uint64_t v; } counters[] = {
			{ FT_MF_SRV_REFUSED, m->server->refused },
			{ FT_MF_SRV_FD_RESTS, m->server->fd_rests },
			{ FT_MF_SRV_SCRAPES, m->server->scrapes },
			{ FT_MF_SRV_UNAUTHORIZED, m->server->unauthorized },
			{ FT_MF_SRV_TLS_FAILED, m->server->tls_failed },
			{ FT_MF_SRV_EVICTED, m->server->evicted },
			{ FT_MF_SRV_HEAD_TIMEOUTS, m->server->head_timeouts },
			{ FT_MF_SRV_ACCEPTED, m->server->accepted },
			{ FT_MF_SRV_GZIP, m->server->gzip },
			{ FT_MF_SRV_IDLE_TIMEOUTS, m->server->idle_timeouts },
			{ FT_MF_SRV_THROTTLED, m->server->throttled },
			{ FT_MF_SRV_REQ_TIMEOUTS, m->server->request_timeouts },
		};
		size_t k;

		if (want(&o, FT_MF_SRV_CONNS)) {
			head(&o, FT_MF_SRV_CONNS);
			sample(&o, fam[FT_MF_SRV_CONNS].name, "", NULL, m->server->connections);
		}
		for (k = 0; k < sizeof(counters) / sizeof(counters[0]); k++)
			if (want(&o, counters[k].mf)) {
				head(&o, counters[k].mf);
				sample(&o, fam[counters[k].mf].name, "_total", NULL,
				       (double)counters[k].v);
			}
		own_cost(&o, s);
		process(&o, &m->server->process);
	}
	if (m->cgroups)
		cgroups(&o, m->cgroups, m->cgroups_names);
	if (m->openmetrics && m->eof)
		fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}
