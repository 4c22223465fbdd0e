// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The findings' rules (analysis/findings.h): the table, each rule's test,
 * and the evaluation.  docs/runbook.md has a section per rule, named as
 * the rule is (tests/cli/runbook.sh holds them to each other), with the
 * thresholds below.
 */
#include "analysis/findings.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const ft_find_sev_names[FT_SEV_NR] = { "info", "warning", "critical" };

#define TRACE	"tracing (root, tracefs)"
#define VMSTAT	"/proc/vmstat"
#define KNOBS	"the knob's file"
#define MAP	"a map scan (root, /proc/kpageflags: record --map-interval)"

const struct ft_find_fig ft_find_figs[FT_FX_NR] = {
	[FT_FX_SECS] = { "window_s", "s", "the window's length", "two ticks" },
	[FT_FX_FRAG] = { "fragmenting_fallbacks", "",
			 "fallbacks below pageblock order that mixed a block", TRACE },
	[FT_FX_FRAG_S] = { "fragmenting_fallbacks_per_s", "/s", "the same, a second", TRACE },
	[FT_FX_BOOST_FACTOR] = { "watermark_boost_factor", "", "the knob at the window's end",
				 KNOBS },
	[FT_FX_SCALE_FACTOR] = { "watermark_scale_factor", "", "the knob at the window's end",
				 KNOBS },
	[FT_FX_PROACTIVENESS] = { "compaction_proactiveness", "", "the knob at the window's end",
				  KNOBS " (5.9+)" },
	[FT_FX_THP_DEFRAG] = { "thp_defrag", "",
			       "THP defrag: 0 never, 1 defer, 2 defer+madvise, 3 madvise, "
			       "4 always", KNOBS },
	[FT_FX_THP_FAULTS] = { "thp_faults", "",
			       "PMD-size THP faults tried (served and fallen back)", VMSTAT },
	[FT_FX_THP_FALLBACK_PCT] = { "thp_fault_fallback_pct", "%",
				     "of them, fallen back to base pages",
				     VMSTAT " (THP faults in the window)" },
	[FT_FX_FREE_PCT] = { "free_pct", "%", "free memory, of MemTotal, at the window's end",
			     "/proc/meminfo and the zone files" },
	[FT_FX_FREE_MB] = { "free_mib", "MiB", "free memory at the window's end",
			    "the zone files" },
	[FT_FX_IN_BLOCKS_PCT] = { "free_in_pageblocks_pct", "%",
				  "free memory in whole free pageblocks",
				  "the zone files" },
	[FT_FX_DIRECT] = { "direct_compaction_stalls", "", "direct compaction stalls", TRACE },
	[FT_FX_DIRECT_P99_MS] = { "direct_compaction_p99_ms", "ms", "their p99 latency",
				  TRACE " and a direct compaction" },
	[FT_FX_DIRECT_MS] = { "direct_compaction_ms", "ms", "their time summed", TRACE },
	[FT_FX_KCOMPACTD_WAKES] = { "kcompactd_wakes", "", "times kcompactd woke", TRACE },
	[FT_FX_BG_COMPACT] = { "background_compactions", "", "zone compactions kcompactd ran",
			       TRACE },
	[FT_FX_FUTILE_PCT] = { "futile_direct_migrate_pct", "%",
			       "direct compaction's migrate scanning in blocks that can never be "
			       "emptied",
			       TRACE " and " MAP },
	[FT_FX_MIGRATE_SCANNED] = { "compact_migrate_scanned", "",
				    "pages compaction's migrate scanner looked at",
				    VMSTAT },
	[FT_FX_AMPLIFICATION] = { "pollution_amplification", "",
				  "share of pageblocks polluted over the share of pages unmovable",
				  MAP },
	[FT_FX_POLLUTED_PCT] = { "polluted_pageblocks_pct", "%",
				 "pageblocks holding an unmovable page", MAP },
	[FT_FX_BOOSTED_PCT] = { "boosted_pct", "%",
				"the boost sampler's reads that found a zone boosted",
				"the boost sampler" },
	[FT_FX_CEILING_PCT] = { "boost_peak_of_ceiling_pct", "%",
				"the highest zone's boost peak, of the most the factor allows",
				"the boost sampler and watermark_boost_factor" },
	[FT_FX_MEMSTALL_PCT] = { "memory_stall_pct", "%",
				 "time some task stalled on memory (PSI some)",
				 "/proc/pressure/memory" },
	[FT_FX_COMPACT_SHARE_PCT] = { "compaction_share_of_stall_pct", "%",
				      "direct compaction's traced time, of the memory stall",
				      "/proc/pressure/memory and " TRACE },
	[FT_FX_ALLOC_FAILURES] = { "page_allocation_failures", "",
				   "\"page allocation failure\" lines in the kernel log",
				   "the kernel log (/dev/kmsg)" },
	[FT_FX_ALLOC_FAIL_ORDER] = { "page_allocation_failure_order", "",
				     "the largest order that failed",
				     "the kernel log (/dev/kmsg)" },
	[FT_FX_MIN_FREE_KB] = { "min_free_kbytes", "KiB", "the knob at the window's end", KNOBS },
	[FT_FX_SIZES] = { "sizes_judged", "", "sizes of interest judged, on every node",
			  "the zone files" },
};

void ft_find_in_init(struct ft_find_in *in)
{
	int i;

	memset(in, 0, sizeof(*in));
	for (i = 0; i < FT_FX_NR; i++)
		in->v[i] = NAN;
}

double ft_find_th(const struct ft_rule *r, const char *name)
{
	int i;

	for (i = 0; i < FT_FIND_TH && r->th[i].name; i++)
		if (!strcmp(r->th[i].name, name))
			return r->th[i].v;
	return NAN;
}

static void ev(struct ft_finding *f, enum ft_fx fx)
{
	if (f->nr_ev < FT_FIND_EV)
		f->ev[f->nr_ev++] = fx;
}

static void knob(struct ft_finding *f, const char *name, double v)
{
	snprintf(f->knob, sizeof(f->knob), "%s", name);
	snprintf(f->value, sizeof(f->value), "%.0f", v);
}

/* Who: @a and @b, as the finding keeps them (a name "" is not known). */
static void who(struct ft_finding *f, const struct ft_find_who *a, const struct ft_find_who *b)
{
	f->who[0] = *a;
	f->who[1] = *b;
}

#define V(fx)	(in->v[fx])
#define TH(n)	ft_find_th(r, n)

/* Fragmenting fallbacks while the seeds' boost is off. */
static bool boost_off(const struct ft_find_in *in, const struct ft_rule *r, struct ft_finding *f)
{
	if (V(FT_FX_BOOST_FACTOR) != 0 || V(FT_FX_FRAG) < TH("min_fragmenting") ||
	    V(FT_FX_FRAG_S) < TH("min_per_s"))
		return false;
	ev(f, FT_FX_FRAG);
	ev(f, FT_FX_FRAG_S);
	ev(f, FT_FX_BOOST_FACTOR);
	snprintf(f->detail, sizeof(f->detail), "%.0f fragmenting fallbacks (%.3g a second) with "
		 "watermark_boost_factor 0", V(FT_FX_FRAG), V(FT_FX_FRAG_S));
	who(f, &in->frag_cg, &in->frag_proc);
	knob(f, "watermark_boost_factor", 15000);
	return true;
}

/* THP faults fall back while free memory is plentiful but not in whole blocks. */
static bool thp_fragmented(const struct ft_find_in *in, const struct ft_rule *r,
			   struct ft_finding *f)
{
	if (V(FT_FX_THP_FAULTS) < TH("min_faults") ||
	    V(FT_FX_THP_FALLBACK_PCT) < TH("fallback_pct") ||
	    V(FT_FX_FREE_PCT) < TH("free_pct") ||
	    V(FT_FX_IN_BLOCKS_PCT) >= TH("in_blocks_below_pct"))
		return false;
	ev(f, FT_FX_THP_FAULTS);
	ev(f, FT_FX_THP_FALLBACK_PCT);
	ev(f, FT_FX_FREE_PCT);
	ev(f, FT_FX_FREE_MB);
	ev(f, FT_FX_IN_BLOCKS_PCT);
	snprintf(f->detail, sizeof(f->detail),
		 "%.0f%% of %.0f THP faults fell back with %.0f%% of memory free "
		 "(%.0f MiB), only %.0f%% of it in whole pageblocks: fragmentation, not shortage",
		 V(FT_FX_THP_FALLBACK_PCT), V(FT_FX_THP_FAULTS), V(FT_FX_FREE_PCT),
		 V(FT_FX_FREE_MB),
		 V(FT_FX_IN_BLOCKS_PCT));
	who(f, &in->frag_cg, &in->frag_proc);
	knob(f, "compact_memory", 1);
	return true;
}

/* Direct compaction stalls with a high p99. */
static bool compaction_stalls(const struct ft_find_in *in, const struct ft_rule *r,
			      struct ft_finding *f)
{
	if (V(FT_FX_DIRECT) < TH("min_stalls") || V(FT_FX_DIRECT_P99_MS) < TH("p99_ms"))
		return false;
	ev(f, FT_FX_DIRECT);
	ev(f, FT_FX_DIRECT_P99_MS);
	ev(f, FT_FX_DIRECT_MS);
	snprintf(f->detail, sizeof(f->detail),
		 "%.0f direct compaction stalls, p99 %.1f ms, %.0f ms in all",
		 V(FT_FX_DIRECT), V(FT_FX_DIRECT_P99_MS), V(FT_FX_DIRECT_MS));
	who(f, &in->stall_cg, &in->stall_proc);
	if (V(FT_FX_PROACTIVENESS) < TH("proactiveness_to")) {
		ev(f, FT_FX_PROACTIVENESS);
		knob(f, "compaction_proactiveness", TH("proactiveness_to"));
	}
	return true;
}

/* kcompactd idle while tasks compact directly. */
static bool kcompactd_idle(const struct ft_find_in *in, const struct ft_rule *r,
			   struct ft_finding *f)
{
	double p = V(FT_FX_PROACTIVENESS);

	if (V(FT_FX_DIRECT) < TH("min_stalls") || V(FT_FX_KCOMPACTD_WAKES) > TH("max_wakes"))
		return false;
	ev(f, FT_FX_DIRECT);
	ev(f, FT_FX_KCOMPACTD_WAKES);
	ev(f, FT_FX_PROACTIVENESS);
	snprintf(f->detail, sizeof(f->detail),
		 "%.0f direct compaction stalls while kcompactd woke %.0f times "
		 "(compaction_proactiveness %.0f)", V(FT_FX_DIRECT), V(FT_FX_KCOMPACTD_WAKES), p);
	who(f, &in->stall_cg, &in->stall_proc);
	knob(f, "compaction_proactiveness", p < 20 ? 20 : p * 2 > 100 ? 100 : p * 2);
	return true;
}

/* Compaction scanning blocks it can never empty. */
static bool futile_compaction(const struct ft_find_in *in, const struct ft_rule *r,
			      struct ft_finding *f)
{
	if (V(FT_FX_FUTILE_PCT) < TH("futile_pct") || V(FT_FX_MIGRATE_SCANNED) < TH("min_scanned"))
		return false;
	ev(f, FT_FX_FUTILE_PCT);
	ev(f, FT_FX_MIGRATE_SCANNED);
	snprintf(f->detail, sizeof(f->detail),
		 "%.0f%% of direct compaction's migrate scanning was in blocks "
		 "holding pages it cannot move (%.0f pages scanned by compaction)%s%s",
		 V(FT_FX_FUTILE_PCT), V(FT_FX_MIGRATE_SCANNED),
		 in->pinner[0] ? "; pinned most by " : "",
		 in->pinner);
	who(f, &in->frag_cg, &in->frag_proc);
	return true;
}

/* Unmovable pages spread over many more blocks than their number needs. */
static bool pollution_spread(const struct ft_find_in *in, const struct ft_rule *r,
			     struct ft_finding *f)
{
	if (V(FT_FX_AMPLIFICATION) < TH("amplification") ||
	    V(FT_FX_POLLUTED_PCT) < TH("polluted_pct"))
		return false;
	ev(f, FT_FX_AMPLIFICATION);
	ev(f, FT_FX_POLLUTED_PCT);
	ev(f, FT_FX_FRAG);
	snprintf(f->detail, sizeof(f->detail),
		 "unmovable pages in %.0f%% of the pageblocks, %.1f times the share "
		 "of pages they are%s%s", V(FT_FX_POLLUTED_PCT), V(FT_FX_AMPLIFICATION),
		 in->pinner[0] ? "; pinned most by " : "", in->pinner);
	who(f, &in->frag_cg, &in->frag_proc);
	if (V(FT_FX_BOOST_FACTOR) == 0)
		knob(f, "watermark_boost_factor", 15000);
	else if (in->fragment_stall)
		knob(f, "fragment_stall_order", 3);
	return true;
}

/* "5 x 2 MiB" */
static void size_text(char *buf, size_t sz, uint64_t kb)
{
	if (kb >= 1048576 && !(kb % 1048576))
		snprintf(buf, sz, "%llu GiB", (unsigned long long)(kb >> 20));
	else if (kb >= 1024 && !(kb % 1024))
		snprintf(buf, sz, "%llu MiB", (unsigned long long)(kb >> 10));
	else
		snprintf(buf, sz, "%llu KiB", (unsigned long long)kb);
}

static const char *fmt_u64(char *buf, size_t sz, uint64_t v)
{
	snprintf(buf, sz, "%llu", (unsigned long long)v);
	return buf;
}

/* "12"; "0-12" where the map only sampled some blocks, "3+" above a known floor (preflight's) */
static const char *range(char *buf, size_t sz, uint64_t lo, uint64_t hi)
{
	if (hi == UINT64_MAX)
		snprintf(buf, sz, "%llu+", (unsigned long long)lo);
	else if (hi > lo)
		snprintf(buf, sz, "%llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
	else
		snprintf(buf, sz, "%llu", (unsigned long long)lo);
	return buf;
}

/* A size of interest that does not fit now (compact node N), or not at all. */
static bool size_wont_fit(const struct ft_find_in *in, const struct ft_rule *r,
			  struct ft_finding *f)
{
	int i, compact = -1;
	size_t len = 0;
	bool any = false, never = false;

	(void)r;
	for (i = 0; in->sizes_known && i < in->nr_sizes; i++) {
		const struct ft_find_size *z = &in->size[i];
		char sz[32], now[48], aft[48], cap[24];
		bool after = z->after_known && z->after_lo >= z->need;

		if (z->now_lo >= z->need)
			continue;
		size_text(sz, sizeof(sz), z->kb);
		if (len < sizeof(f->detail)) {
			const char *then = z->after_known ?
				range(aft, sizeof(aft), z->after_lo, z->after_hi) :
				z->free_cap < z->need ? "free memory above the watermark for " :
				"after compaction not known (no map)";
			const char *tail = z->after_known ? " after compaction" :
				z->free_cap < z->need ? fmt_u64(cap, sizeof(cap), z->free_cap) : "";

			len += (size_t)snprintf(f->detail + len, sizeof(f->detail) - len,
						"%snode %d: %llu x %s wanted, %s now, %s%s",
						any ? "; " : "", z->node,
						(unsigned long long)z->need, sz,
						range(now, sizeof(now), z->now_lo, z->now_hi),
						then, tail);
		}
		any = true;
		if (after && compact < 0)
			compact = z->node;
		/* not even after compaction: no such runs, or not the free memory for them */
		if (z->asked &&
		    (z->free_cap < z->need || (z->after_known && z->after_hi < z->need)))
			never = true;
	}
	if (!any)
		return false;
	ev(f, FT_FX_FREE_MB);
	if (never)
		f->sev = FT_SEV_CRITICAL;
	if (compact >= 0)
		knob(f, "compact_node", compact);
	return true;
}

/* The boost reaches its ceiling: the watermarks are too close for the allocation rate. */
static bool boost_ceiling(const struct ft_find_in *in, const struct ft_rule *r,
			  struct ft_finding *f)
{
	double s = V(FT_FX_SCALE_FACTOR);

	if (V(FT_FX_CEILING_PCT) < TH("ceiling_pct") || V(FT_FX_BOOSTED_PCT) < TH("boosted_pct"))
		return false;
	ev(f, FT_FX_CEILING_PCT);
	ev(f, FT_FX_BOOSTED_PCT);
	ev(f, FT_FX_SCALE_FACTOR);
	snprintf(f->detail, sizeof(f->detail),
		 "the boost reached %.0f%% of its ceiling and a zone was boosted "
		 "%.0f%% of the time (watermark_scale_factor %.0f)", V(FT_FX_CEILING_PCT),
		 V(FT_FX_BOOSTED_PCT), s);
	who(f, &in->frag_cg, &in->frag_proc);
	knob(f, "watermark_scale_factor", s * 2 > 1000 ? (s > 1000 ? s : 1000) : s * 2);
	return true;
}

/* THP defrag "always": every THP fault may compact directly. */
static bool thp_defrag_stalls(const struct ft_find_in *in, const struct ft_rule *r,
			      struct ft_finding *f)
{
	if (V(FT_FX_THP_DEFRAG) != FT_DEFRAG_ALWAYS || V(FT_FX_DIRECT) < TH("min_stalls") ||
	    V(FT_FX_DIRECT_P99_MS) < TH("p99_ms"))
		return false;
	ev(f, FT_FX_THP_DEFRAG);
	ev(f, FT_FX_DIRECT);
	ev(f, FT_FX_DIRECT_P99_MS);
	snprintf(f->detail, sizeof(f->detail),
		 "thp_defrag is always: %.0f direct compaction stalls, p99 %.1f ms",
		 V(FT_FX_DIRECT), V(FT_FX_DIRECT_P99_MS));
	who(f, &in->stall_cg, &in->stall_proc);
	snprintf(f->knob, sizeof(f->knob), "thp_defrag");
	snprintf(f->value, sizeof(f->value), "defer+madvise");
	return true;
}

/* Direct compaction is a large part of the memory stall. */
static bool compaction_pressure(const struct ft_find_in *in, const struct ft_rule *r,
				struct ft_finding *f)
{
	if (V(FT_FX_MEMSTALL_PCT) < TH("stall_pct") || V(FT_FX_COMPACT_SHARE_PCT) < TH("share_pct"))
		return false;
	ev(f, FT_FX_MEMSTALL_PCT);
	ev(f, FT_FX_COMPACT_SHARE_PCT);
	snprintf(f->detail, sizeof(f->detail),
		 "tasks stalled on memory %.1f%% of the time, %.0f%% of it in "
		 "direct compaction", V(FT_FX_MEMSTALL_PCT), V(FT_FX_COMPACT_SHARE_PCT));
	who(f, &in->stall_cg, &in->stall_proc);
	if (V(FT_FX_THP_DEFRAG) == FT_DEFRAG_ALWAYS) {
		snprintf(f->knob, sizeof(f->knob), "thp_defrag");
		snprintf(f->value, sizeof(f->value), "defer+madvise");
	} else if (V(FT_FX_PROACTIVENESS) < 40) {
		knob(f, "compaction_proactiveness", 40);
	}
	return true;
}

/* Page allocation failures in the kernel log. */
static bool alloc_failures(const struct ft_find_in *in, const struct ft_rule *r,
			   struct ft_finding *f)
{
	if (V(FT_FX_ALLOC_FAILURES) < TH("min_failures"))
		return false;
	ev(f, FT_FX_ALLOC_FAILURES);
	ev(f, FT_FX_ALLOC_FAIL_ORDER);
	snprintf(f->detail, sizeof(f->detail),
		 "%.0f page allocation failures in the kernel log, up to order %.0f",
		 V(FT_FX_ALLOC_FAILURES), V(FT_FX_ALLOC_FAIL_ORDER));
	/* small orders: the reserve ran out; a larger one is fragmentation (the other rules) */
	if (V(FT_FX_ALLOC_FAIL_ORDER) <= TH("reserve_orders") && V(FT_FX_MIN_FREE_KB) > 0) {
		ev(f, FT_FX_MIN_FREE_KB);
		knob(f, "min_free_kbytes", ceil(V(FT_FX_MIN_FREE_KB) * 1.5));
	}
	return true;
}

#define NEEDS(...)	.needs = { __VA_ARGS__ }, \
			.nr_needs = sizeof((enum ft_fx[]){ __VA_ARGS__ }) / sizeof(enum ft_fx)

const struct ft_rule ft_find_rules[FT_FIND_RULES] = {
	{ "boost_off", FT_SEV_WARNING, "fragmenting fallbacks with the watermark boost off",
	  "Fallbacks are mixing pageblocks and watermark_boost_factor is 0, so nothing reclaims to "
	  "undo it:\n"
	  "the mixed blocks stay mixed, and huge pages get scarcer the longer the host runs.",
	  "the overview (1): fallbacks and the boost gauge; who: processes (7), cgroups (9)",
	  "set watermark_boost_factor back to its default, 15000",
	  "fragmenting fallbacks -89.5% (7407 to 777 a run, p < 0.001) on 6.1; no change on 6.12 "
	  "under "
	  "page-table holes (+10.5%, p 0.54)",
	  "docs/lab-table.md (fragtop's lab, n = 5 a group); the seeds' boost patch: 358574 to "
	  "19274 (-95%)",
	  NEEDS(FT_FX_FRAG, FT_FX_FRAG_S, FT_FX_BOOST_FACTOR),
	  { { "min_fragmenting", 100, "" }, { "min_per_s", 0.1, "/s" } }, boost_off },
	{ "thp_fragmented", FT_SEV_WARNING,
	  "THP faults fall back while memory is free, but not in whole blocks",
	  "Huge page faults are served with base pages although memory is free: it is free in "
	  "pieces.\n"
	  "This is fragmentation, not shortage; reclaim will not help, compaction can.",
	  "the THP view (8); the overview's free-in-blocks figure (1); the map (5)",
	  "compact now (compact_memory), then find who mixes the blocks (pollution_spread, the "
	  "processes view)",
	  "free memory in whole blocks rises, until the same workload splits it again",
	  "the kernel's documentation (admin-guide/sysctl/vm.rst, compact_memory); not measured in "
	  "fragtop's lab",
	  NEEDS(FT_FX_THP_FAULTS, FT_FX_THP_FALLBACK_PCT, FT_FX_FREE_PCT, FT_FX_IN_BLOCKS_PCT),
	  { { "min_faults", 100, "" }, { "fallback_pct", 20, "%" }, { "free_pct", 10, "%" },
	    { "in_blocks_below_pct", 25, "%" } }, thp_fragmented },
	{ "compaction_stalls", FT_SEV_WARNING, "direct compaction stalls with a high p99",
	  "Tasks compact memory themselves inside their allocations, and the slowest wait long:\n"
	  "a request that allocates then waits that long.",
	  "the stalls view (3): the compaction histogram; who pays: processes (7), cgroups (9)",
	  "let kcompactd compact ahead of the tasks: raise compaction_proactiveness",
	  "direct compaction falls as kcompactd keeps free blocks ready, at kcompactd's CPU cost",
	  "the kernel's documentation (admin-guide/sysctl/vm.rst, compaction_proactiveness); not "
	  "measured in "
	  "fragtop's lab, where no run compacted directly",
	  NEEDS(FT_FX_DIRECT, FT_FX_DIRECT_P99_MS),
	  { { "min_stalls", 10, "" }, { "p99_ms", 10, "ms" }, { "proactiveness_to", 40, "" } },
	  compaction_stalls },
	{ "kcompactd_idle", FT_SEV_WARNING, "kcompactd idle while tasks compact directly",
	  "Tasks compact in their own allocations while the background compactor does not run:\n"
	  "the work kcompactd could have done ahead is paid in the tasks' latency.",
	  "the stalls view (3); the controls view (4): compaction_proactiveness",
	  "raise compaction_proactiveness (20 is the kernel's default; 0 turns proactive "
	  "compaction off)",
	  "kcompactd wakes and compacts ahead; the direct stalls fall",
	  "the kernel's documentation (admin-guide/sysctl/vm.rst, compaction_proactiveness); "
	  "docs/lab-table.md: "
	  "boosting woke kcompactd 28.6 times a run against 0.4 (6.1, p 0.003)",
	  NEEDS(FT_FX_DIRECT, FT_FX_KCOMPACTD_WAKES, FT_FX_PROACTIVENESS),
	  { { "min_stalls", 10, "" }, { "max_wakes", 0, "" } }, kcompactd_idle },
	{ "futile_compaction", FT_SEV_WARNING, "compaction scans blocks it can never empty",
	  "Most of what direct compaction scanned was in blocks holding unmovable or pinned "
	  "pages:\n"
	  "that scanning cannot make a free block; it costs CPU and latency for nothing.",
	  "the map (5): the mixed blocks and who owns them (page_owner); the stalls view (3)",
	  "find who pins the blocks (boot with page_owner=on, record --owner-blocks) and move or "
	  "fix it",
	  "no knob fixes pinned pages; the scanning falls when fewer blocks hold them",
	  "the map's futile share (docs/design/metrics.md, futile compaction)",
	  NEEDS(FT_FX_FUTILE_PCT, FT_FX_MIGRATE_SCANNED),
	  { { "futile_pct", 50, "%" }, { "min_scanned", 10000, "" } }, futile_compaction },
	{ "pollution_spread", FT_SEV_WARNING, "unmovable pages spread over many pageblocks",
	  "A few unmovable pages sit in many more pageblocks than their number needs:\n"
	  "each such block can never be made a free huge page, whatever compaction does.",
	  "the map (5): mixed blocks; who: processes (7), cgroups (9), page owners in the map",
	  "turn the boost on (watermark_boost_factor) or, on a kernel with the stall, "
	  "fragment_stall_order",
	  "the stall cut fragmenting fallbacks -97.6% on 6.12 (63400 to 1544 a run, p < 0.001); "
	  "boosting "
	  "-89.5% on 6.1",
	  "docs/lab-table.md (fragtop's lab); the seeds' table (stall: 19274 to 1351, -93%)",
	  NEEDS(FT_FX_AMPLIFICATION, FT_FX_POLLUTED_PCT),
	  { { "amplification", 10, "" }, { "polluted_pct", 20, "%" } }, pollution_spread },
	{ "size_wont_fit", FT_SEV_WARNING, "a size of interest does not fit now",
	  "Not enough free blocks of a size the host uses (or you named) on a node:\n"
	  "an allocation of it now must compact first, or fails if compaction cannot make them.",
	  "the overview's sizes line (1); `fragtop preflight --need COUNTxSIZE`",
	  "where compaction can make them: compact that node (compact_node); else free memory "
	  "first",
	  "the blocks counted \"after compaction\" become free blocks, at most as many as free "
	  "memory holds",
	  "fragtop's own figures, checked against the kernel's allocations "
	  "(tests/host/preflight-*.sh)",
	  NEEDS(FT_FX_SIZES, FT_FX_FREE_MB), { { NULL, 0, NULL } }, size_wont_fit },
	{ "boost_ceiling", FT_SEV_WARNING, "the boost hits its ceiling",
	  "The boost reached the most watermark_boost_factor allows, and stayed on much of the "
	  "time:\n"
	  "the watermarks are too close together for the rate at which memory is taken.",
	  "the overview (1): the boost gauge, boosted %, ceiling",
	  "widen the watermarks: raise watermark_scale_factor",
	  "a higher high watermark raises the ceiling and kswapd's target, at the cost of more "
	  "free memory kept",
	  "the kernel's documentation (admin-guide/sysctl/vm.rst, watermark_scale_factor); the "
	  "seeds' boost "
	  "patch sizes the boost from the high watermark; not measured in fragtop's lab",
	  NEEDS(FT_FX_CEILING_PCT, FT_FX_BOOSTED_PCT, FT_FX_SCALE_FACTOR),
	  { { "ceiling_pct", 95, "%" }, { "boosted_pct", 25, "%" } }, boost_ceiling },
	{ "thp_defrag_stalls", FT_SEV_WARNING, "THP defrag \"always\" makes faults stall",
	  "With thp_defrag always, every THP fault that finds no free huge page compacts "
	  "directly:\n"
	  "faults stall in compaction instead of falling back to base pages at once.",
	  "the THP view (8); the stalls view (3)",
	  "set thp_defrag to defer+madvise: only madvised regions compact in the fault, others "
	  "wake kcompactd",
	  "THP faults outside MADV_HUGEPAGE stop compacting directly; fewer of them are served "
	  "huge at once",
	  "the kernel's documentation (admin-guide/mm/transhuge.rst, defrag)",
	  NEEDS(FT_FX_THP_DEFRAG, FT_FX_DIRECT, FT_FX_DIRECT_P99_MS),
	  { { "min_stalls", 10, "" }, { "p99_ms", 10, "ms" } }, thp_defrag_stalls },
	{ "compaction_pressure", FT_SEV_WARNING, "compaction is much of the memory pressure",
	  "Tasks stalled on memory, and most of that stall was direct compaction, not reclaim:\n"
	  "the host has memory, it is fragmented.",
	  "the stalls view (3); the cgroups view (9): each cgroup's stall and compaction's share",
	  "cut direct compaction: thp_defrag defer+madvise if it is always, else raise "
	  "compaction_proactiveness",
	  "the compaction share of the stall falls",
	  "the kernel's documentation (admin-guide/mm/transhuge.rst, sysctl/vm.rst); not measured "
	  "in fragtop's lab",
	  NEEDS(FT_FX_MEMSTALL_PCT, FT_FX_COMPACT_SHARE_PCT),
	  { { "stall_pct", 1, "%" }, { "share_pct", 50, "%" } }, compaction_pressure },
	{ "alloc_failures", FT_SEV_CRITICAL, "page allocation failures in the kernel log",
	  "The kernel failed allocations and said so in its log: something got an error, or a "
	  "packet\n"
	  "was dropped. Atomic failures of small orders mean the reserve ran out, large ones "
	  "fragmentation.",
	  "the kernel log (dmesg); the overview's watermarks (1)",
	  "small orders (<= 3): raise min_free_kbytes; larger: see size_wont_fit and compaction",
	  "a larger reserve behind the min watermark for atomic allocations",
	  "the kernel's documentation (min_free_kbytes); Meta's defrag_mode report (LKML, "
	  "2026-05-22: 85,509 "
	  "GFP_ATOMIC failures in 2 hours)",
	  NEEDS(FT_FX_ALLOC_FAILURES, FT_FX_ALLOC_FAIL_ORDER),
	  { { "min_failures", 1, "" }, { "reserve_orders", 3, "" } }, alloc_failures },
};

const struct ft_rule *ft_find_rule(const char *name)
{
	int i;

	for (i = 0; i < FT_FIND_RULES; i++)
		if (!strcmp(ft_find_rules[i].name, name))
			return &ft_find_rules[i];
	return NULL;
}

void ft_find_eval(const struct ft_find_in *in, struct ft_findings *out)
{
	struct ft_find_in copy = *in;	/* @in may be out->in */
	int i, j, sev;

	memset(out, 0, sizeof(*out));
	out->in = copy;
	for (i = 0; i < FT_FIND_RULES; i++) {
		const struct ft_rule *r = &ft_find_rules[i];
		struct ft_finding f = { .rule = r, .sev = r->sev };

		out->checked[i] = true;
		for (j = 0; j < r->nr_needs; j++)
			if (isnan(in->v[r->needs[j]])) {
				out->checked[i] = false;
				out->missing[i] = r->needs[j];
				break;
			}
		if (out->checked[i] && r->fire(&out->in, r, &f)) {
			out->fired[i] = true;
			out->f[out->nr++] = f;
		}
	}
	/* most severe first, table order within a severity */
	for (sev = FT_SEV_NR - 1, j = 0; sev >= 0; sev--)
		for (i = j; i < out->nr; i++)
			if ((int)out->f[i].sev == sev) {
				struct ft_finding t = out->f[i];

				memmove(&out->f[j + 1], &out->f[j], (size_t)(i - j) * sizeof(t));
				out->f[j++] = t;
			}
}

bool ft_find_active(const struct ft_findings *fs, const char *name)
{
	int i;

	for (i = 0; i < FT_FIND_RULES; i++)
		if (!strcmp(ft_find_rules[i].name, name))
			return fs->fired[i];
	return false;
}

void ft_find_value_text(const struct ft_find_in *in, enum ft_fx fx, char *buf, size_t sz)
{
	double v = in->v[fx];
	const char *u = ft_find_figs[fx].unit;

	if (isnan(v))
		snprintf(buf, sz, "n/a");
	else
		snprintf(buf, sz, "%.*f%s%s", v == floor(v) ||
			 fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2, v,
			 *u && *u != '%' && *u != '/' ? " " : "", u);
}
