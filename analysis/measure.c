// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/measure.h"

#include "model/contig.h"
#include "model/fit.h"
#include "kernel/thp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * The rows of the table: a label, a key for JSON and CSV, a unit and how
 * the row is measured from a run's report.  Most are a counter's growth
 * over the run (its first and last counters, model/counterfield.h), per
 * second, or one growth as a share of another; the rest have a function.
 * A row is measured only when the run has what it needs (the tracepoints,
 * vmstat's own counter, the stall tracepoint); NAN otherwise.  Adding a
 * metric is a row here and its enum name in compare.h.
 */
enum cmp_how {
	CMP_DURATION,
	CMP_DELTA,		/* a's growth */
	CMP_PER_S,		/* a's growth per second */
	CMP_PCT_OF,		/* a's growth as a % of b's */
	CMP_PCT_OF_SUM,		/* a's growth as a % of a's and b's */
	CMP_FN,
};

enum { NEED_TRACE = 1, NEED_VM = 2, NEED_FRAG_STALL = 4 };

static double boost_peak(const struct ft_report *r);
static double boost_episodes(const struct ft_report *r);
static double boosted_pct(const struct ft_report *r);
static double in_blocks(const struct ft_report *r);
static double migrate_per_stall(const struct ft_report *r);
static double free_per_stall(const struct ft_report *r);
static double scanned_per_success(const struct ft_report *r);
static double frag_stall_ms(const struct ft_report *r);
static double amplification(const struct ft_report *r);
static double giant_now(const struct ft_report *r);
static double giant_after(const struct ft_report *r);
static double futile_dm(const struct ft_report *r);
static double futile_df(const struct ft_report *r);
static double futile_km(const struct ft_report *r);
static double futile_kf(const struct ft_report *r);

static const struct cmp_row {
	const char *name, *key, *unit;
	enum cmp_how how;
	enum ft_cf a, b;
	unsigned int need;	/* NEED_VM: vmstat had counter a */
	double (*fn)(const struct ft_report *r);	/* CMP_FN; NAN: not in this run */
} rows[FT_CMP_LAT0] = {
	[FT_CMP_DURATION] = { "duration s", "duration_s", "s", CMP_DURATION },
#define GROWTH(name, key, cf, need)	{ name, key, "", CMP_DELTA, cf, 0, need, NULL }
#define PER_S(name, key, cf, need)	{ name, key, "/s", CMP_PER_S, cf, 0, need, NULL }
#define FN(name, key, unit, fn, cf, need)	{ name, key, unit, CMP_FN, cf, 0, need, fn }
	[FT_CMP_FRAG] = GROWTH("fragmenting fallbacks", "extfrag_fragmenting", FT_CF_FRAGMENTING,
			       NEED_TRACE),
	[FT_CMP_FRAG_S] = PER_S("  per second", "extfrag_fragmenting_per_s", FT_CF_FRAGMENTING,
				NEED_TRACE),
	[FT_CMP_EXTFRAG] = GROWTH("all fallbacks", "extfrag", FT_CF_EXTFRAG, NEED_TRACE),
	[FT_CMP_EXTFRAG_S] = PER_S("  per second", "extfrag_per_s", FT_CF_EXTFRAG, NEED_TRACE),
	[FT_CMP_OWNERSHIP] = GROWTH("ownership changes", "extfrag_change_ownership",
				    FT_CF_OWNERSHIP, NEED_TRACE),
	[FT_CMP_THP_OK] = { "THP fault success %", "thp_fault_success_pct", "%", CMP_PCT_OF_SUM,
			    FT_CF_THP_ALLOC, FT_CF_THP_FALLBACK, 0, NULL },
	[FT_CMP_COMPACT] = GROWTH("compaction stalls", "compact_stall", FT_CF_COMPACT_STALL, 0),
	[FT_CMP_COMPACT_FAIL] = GROWTH("compaction fails", "compact_fail", FT_CF_COMPACT_FAIL, 0),
	[FT_CMP_COMPACT_OK] = { "compaction success %", "compact_success_pct", "%", CMP_PCT_OF,
				FT_CF_COMPACT_SUCCESS, FT_CF_COMPACT_STALL, 0, NULL },
	[FT_CMP_DIRECT_COMPACT] = GROWTH("direct compactions", "direct_compaction_stalls",
					 FT_CF_DIRECT_COMPACT,
					 NEED_TRACE),
	[FT_CMP_BG_COMPACT] = GROWTH("bg compactions", "background_compactions", FT_CF_BG_COMPACT,
				     NEED_TRACE),
	[FT_CMP_RECLAIMS] = GROWTH("direct reclaims", "direct_reclaims", FT_CF_RECLAIMS,
				   NEED_TRACE),
	[FT_CMP_KSWAPD] = GROWTH("kswapd wakes", "kswapd_wakes", FT_CF_KSWAPD_WAKES, NEED_TRACE),
	[FT_CMP_KCOMPACTD] = GROWTH("kcompactd wakes", "kcompactd_wakes", FT_CF_KCOMPACTD_WAKES,
				    NEED_TRACE),
	[FT_CMP_FRAG_STALLS] = GROWTH("fragmentation stalls", "fragmentation_stalls",
				      FT_CF_FRAG_STALLS,
				      NEED_FRAG_STALL),
	/* the seeds' "total stall time": what the fragmentation stalls cost the allocating tasks */
	[FT_CMP_FRAG_STALL_MS] = FN("  total stall ms", "fragmentation_stall_ms", "ms",
				    frag_stall_ms, 0,
				    NEED_FRAG_STALL),
	[FT_CMP_BOOST_PEAK] = FN("boost peak (pages)", "boost_peak_pages", "", boost_peak, 0, 0),
	[FT_CMP_BOOSTED] = FN("boosted %", "boosted_pct", "%", boosted_pct, 0, 0),
	[FT_CMP_BOOST_EPISODES] = FN("boost episodes", "boost_episodes", "", boost_episodes, 0, 0),
	[FT_CMP_IN_BLOCKS] = FN("free in pageblocks %", "free_in_pageblocks_pct", "%", in_blocks, 0,
				0),
	[FT_CMP_ALLOCSTALLS] = GROWTH("allocation stalls", "allocstall", FT_CF_ALLOCSTALLS,
				      NEED_VM),
	[FT_CMP_PGSCAN_KSWAPD] = GROWTH("kswapd scanned pages", "pgscan_kswapd",
					FT_CF_PGSCAN_KSWAPD, NEED_VM),
	[FT_CMP_MIGRATE_PER_STALL] = FN("migrate scanned/stall",
					"compact_migrate_scanned_per_stall", "",
					migrate_per_stall, FT_CF_MIGRATE_SCANNED, NEED_VM),
	[FT_CMP_FREE_PER_STALL] = FN("free scanned/stall", "compact_free_scanned_per_stall", "",
				     free_per_stall, FT_CF_MIGRATE_SCANNED, NEED_VM),
	[FT_CMP_SCANNED_PER_SUCCESS] = FN("scanned/success", "compact_scanned_per_success", "",
					  scanned_per_success, FT_CF_MIGRATE_SCANNED, NEED_VM),
	[FT_CMP_AMPLIFICATION] = FN("amplification", "pollution_amplification", "", amplification,
				    0, 0),
	[FT_CMP_GIANT_NOW] = FN("gigantic pages now", "gigantic_available_now", "", giant_now, 0,
				0),
	[FT_CMP_GIANT_AFTER] = FN("  after compaction", "gigantic_available_after_compaction", "",
				  giant_after,
				  0, 0),
	[FT_CMP_FUTILE_DIRECT_MIGRATE] = FN("futile direct migr. %", "futile_direct_migrate_pct",
					    "%", futile_dm, 0,
					    NEED_TRACE),
	[FT_CMP_FUTILE_DIRECT_FREE] = FN("futile direct free %", "futile_direct_free_pct", "%",
					 futile_df, 0,
					 NEED_TRACE),
	[FT_CMP_FUTILE_KCD_MIGRATE] = FN("futile bg migrate %", "futile_kcompactd_migrate_pct", "%",
					 futile_km,
					 0, NEED_TRACE),
	[FT_CMP_FUTILE_KCD_FREE] = FN("futile bg free %", "futile_kcompactd_free_pct", "%",
				      futile_kf, 0,
				      NEED_TRACE),
#undef GROWTH
#undef PER_S
#undef FN
};

static const char *const lat_short[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = "compaction", [FT_LAT_RECLAIM] = "reclaim",
	[FT_LAT_FRAG_STALL] = "frag stall",
	[FT_LAT_BG_COMPACTION] = "bg compact",
};
static const char *const pct_name[3] = { "p50", "p99", "max" };

static double pct_of(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

/*
 * Per THP size: the anon faults it served and fell back in the run, and the success %; NAN where a
 * size did neither.
 */
static void thp_rows(const struct ft_report *r, double *v)
{
	int k;

	for (k = 0; r->have_thp && k < 8; k++) {
		uint64_t a, f;
		double al, fb;

		if (!ft_thp_growth(&r->thp_first, &r->thp_last, ft_cmp_thp_kb[k],
				   "anon_fault_alloc", &a) ||
		    !ft_thp_growth(&r->thp_first, &r->thp_last, ft_cmp_thp_kb[k],
				   "anon_fault_fallback", &f) ||
		    a + f == 0)
			continue;
		al = (double)a;
		fb = (double)f;
		v[FT_CMP_THP0 + 3 * k] = al;
		v[FT_CMP_THP0 + 3 * k + 1] = fb;
		v[FT_CMP_THP0 + 3 * k + 2] = 100 * al / (al + fb);
	}
}

/* Counter @cf's growth over the run. */
static double growth(const struct ft_report *r, enum ft_cf cf)
{
	return (double)(r->last.c[cf] - r->first.c[cf]);
}

double ft_measure_secs(const struct ft_report *r)
{
	return (double)(r->last.t_ns - r->first.t_ns) / 1e9;
}

/* The boost sampler's zones, summed (peak: the highest). */
static bool boost_sum(const struct ft_report *r, struct ft_boost_tick *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->boost_nr; i++) {
		const struct ft_boost_tick *b = &r->boost_zone[i];

		t->peak = b->peak > t->peak ? b->peak : t->peak;
		t->episodes += b->episodes;
		t->samples += b->samples;
		t->boosted += b->boosted;
	}
	return r->boost_nr > 0;
}

static double frag_stall_ms(const struct ft_report *r)
{
	return (double)(r->last.lat[FT_LAT_FRAG_STALL].sum_us -
			r->first.lat[FT_LAT_FRAG_STALL].sum_us) / 1000;
}

static double boost_peak(const struct ft_report *r)
{
	struct ft_boost_tick t;

	return boost_sum(r, &t) ? (double)t.peak : NAN;
}

static double boost_episodes(const struct ft_report *r)
{
	struct ft_boost_tick t;

	return boost_sum(r, &t) ? (double)t.episodes : NAN;
}

static double boosted_pct(const struct ft_report *r)
{
	struct ft_boost_tick t;

	return boost_sum(r, &t) && t.samples ? 100.0 * (double)t.boosted / (double)t.samples : NAN;
}

/* the mean over the run of free memory's share in whole pageblocks (6.15+) */
static double in_blocks(const struct ft_report *r)
{
	return ft_report_level_mean(&r->in_blocks);
}

/* The last map scan's amplification, every zone's blocks together; NAN without a scan. */
static double amplification(const struct ft_report *r)
{
	struct ft_amp a;

	ft_amp_of_map(&r->s->map, r->s->map_err, &a);
	/* of some blocks only (a map never read whole): not a figure of the run */
	return ft_amp_partial(&a) ? NAN : ft_amp_ratio(&a);
}

/* Gigantic pages available at the last map scan, now (@after false) or after compaction. */
static double giant(const struct ft_report *r, bool after)
{
	const struct ft_session *s = r->s;
	double n = 0;
	size_t k;

	if (s->map_err || !s->map.nr || ft_session_contig_order(s) < 0)
		return NAN;
	for (k = 0; k < s->map.nr; k++) {
		struct ft_contig_zone c;

		ft_session_contig(s, k, &c, NULL, 0);
		if (c.count[FT_GR_UNKNOWN])
			return NAN;	/* a zone not read whole: no figure */
		n += after ? c.after : c.now;
	}
	return n;
}

/* The futile share of the run, % (model/events.h); NAN without the isolate events or a map. */
static double futile(const struct ft_report *r, enum ft_iso_who who, enum ft_iso_scanner sc)
{
	if (!ft_session_has_event(r->s, FT_EV_COMPACT_ISO_MIGRATE))
		return NAN;
	return 100 * ft_futile_share(&r->futile_first, &r->futile_last, who, sc);
}

static double futile_dm(const struct ft_report *r)
{
	return futile(r, FT_ISO_DIRECT, FT_ISO_MIGRATE);
}

static double futile_df(const struct ft_report *r)
{
	return futile(r, FT_ISO_DIRECT, FT_ISO_FREE);
}

static double futile_km(const struct ft_report *r)
{
	return futile(r, FT_ISO_KCOMPACTD, FT_ISO_MIGRATE);
}

static double futile_kf(const struct ft_report *r)
{
	return futile(r, FT_ISO_KCOMPACTD, FT_ISO_FREE);
}

static double giant_now(const struct ft_report *r)
{
	return giant(r, false);
}

static double giant_after(const struct ft_report *r)
{
	return giant(r, true);
}

/*
 * compaction's cost (vmstat): what direct compaction scanned per stall and
 * per success, kcompactd's part and compaction asked outside it taken out
 * (struct ft_rep_direct_cost)
 */
static double migrate_per_stall(const struct ft_report *r)
{
	return r->direct.stalls > 0 ? (double)r->direct.migrate / (double)r->direct.stalls : NAN;
}

static double free_per_stall(const struct ft_report *r)
{
	return r->direct.stalls > 0 ? (double)r->direct.free / (double)r->direct.stalls : NAN;
}

static double scanned_per_success(const struct ft_report *r)
{
	return r->direct.success > 0 ? (double)(r->direct.migrate + r->direct.free) /
		(double)r->direct.success : NAN;
}

static bool has_what_it_needs(const struct ft_report *r, const struct cmp_row *row)
{
	if ((row->need & NEED_TRACE) && !r->s->tracing)
		return false;
	if ((row->need & NEED_VM) && !(r->vm_seen & (1u << row->a)))
		return false;
	return !(row->need & NEED_FRAG_STALL) || r->lat_present[FT_LAT_FRAG_STALL];
}

static double measure_row(const struct ft_report *r, const struct cmp_row *row)
{
	double d = ft_measure_secs(r);

	if (!has_what_it_needs(r, row))
		return NAN;
	switch (row->how) {
	case CMP_DURATION:
		return d;
	case CMP_DELTA:
		return growth(r, row->a);
	case CMP_PER_S:
		return d > 0 ? growth(r, row->a) / d : NAN;
	case CMP_PCT_OF:
		return pct_of(r->last.c[row->a] - r->first.c[row->a],
			      r->last.c[row->b] - r->first.c[row->b]);
	case CMP_PCT_OF_SUM:
		return pct_of(r->last.c[row->a] - r->first.c[row->a],
			      r->last.c[row->a] - r->first.c[row->a] + r->last.c[row->b] -
				      r->first.c[row->b]);
	case CMP_FN:
		return row->fn(r);
	}
	return NAN;
}

/*
 * Per size of ft_rep_fit_kb: the host's smallest now and after compaction over the run; NAN where
 * not known.
 */
static void fit_rows(const struct ft_report *r, double *v)
{
	const struct ft_rep_fits *f = &r->fits;
	size_t k;

	for (k = 0; f->samples && k < FT_REP_FIT_SIZES; k++) {
		char kb[32];
		int order;
		size_t i;

		snprintf(kb, sizeof(kb), "%lluK", (unsigned long long)ft_rep_fit_kb[k]);
		order = ft_fit_size_parse(kb, r->s->host.page_size);
		for (i = 0; i < f->sizes.nr; i++) {
			if (f->sizes.order[i] != order)
				continue;
			v[FT_CMP_FIT0 + 2 * k] = (double)f->now_min[i];
			if (f->after_known[i])
				v[FT_CMP_FIT0 + 2 * k + 1] = (double)f->after_min[i];
		}
	}
}

void ft_measure_report(const struct ft_report *r, double *v)
{
	int i, s;

	for (i = 0; i < FT_CMP_NR; i++)
		v[i] = NAN;
	for (i = 0; i < FT_CMP_LAT0; i++)
		v[i] = measure_row(r, &rows[i]);
	thp_rows(r, v);
	fit_rows(r, v);
	for (s = 0; s < FT_LAT_NR; s++) {
		struct ft_rep_lat l;

		if (!r->lat_present[s] || ft_report_latency(r, s, &r->first, &r->last, &l) ||
		    !l.count)
			continue;
		v[FT_CMP_LAT0 + 3 * s] = (double)l.p50_us;
		v[FT_CMP_LAT0 + 3 * s + 1] = (double)l.p99_us;
		v[FT_CMP_LAT0 + 3 * s + 2] = (double)l.max_us;
	}
}

const unsigned int ft_cmp_thp_kb[8] = { 16, 32, 64, 128, 256, 512, 1024, 2048 };
static const char *const thp_what[3] = { "alloc", "fallback", "success %" };
static const char *const thp_key[3] = { "anon_fault_alloc", "anon_fault_fallback", "success_pct" };

/* "2M" for a size of ft_rep_fit_kb */
static const char *fit_name(int r, char *buf, size_t sz)
{
	uint64_t kb = ft_rep_fit_kb[(r - FT_CMP_FIT0) / 2];

	snprintf(buf, sz, kb >= 1048576 ? "%lluG" : "%lluM",
		 (unsigned long long)(kb >= 1048576 ? kb >> 20 : kb >> 10));
	return buf;
}

void ft_cmp_row_name(int r, char *buf, size_t sz)
{
	char size[16];

	if (r >= FT_CMP_FIT0)
		snprintf(buf, sz, "%s %s", fit_name(r, size, sizeof(size)),
			 (r - FT_CMP_FIT0) % 2 ? "after compact, min" : "blocks now, min");
	else if (r >= FT_CMP_THP0)
		snprintf(buf, sz, "THP %ukB %s", ft_cmp_thp_kb[(r - FT_CMP_THP0) / 3],
			 thp_what[(r - FT_CMP_THP0) % 3]);
	else if (r < FT_CMP_LAT0)
		snprintf(buf, sz, "%s", rows[r].name);
	else
		snprintf(buf, sz, "%s %s us", lat_short[(r - FT_CMP_LAT0) / 3],
			 pct_name[(r - FT_CMP_LAT0) % 3]);
}

void ft_cmp_row_key(int r, char *buf, size_t sz)
{
	static const char *const *const keys = ft_lat_names;
	static const char *const p[3] = { "p50_us", "p99_us", "max_us" };

	if (r >= FT_CMP_FIT0)
		snprintf(buf, sz, "contiguous_%llukB_%s",
			 (unsigned long long)ft_rep_fit_kb[(r - FT_CMP_FIT0) / 2],
			 (r - FT_CMP_FIT0) % 2 ? "after_compaction_min" : "now_min");
	else if (r >= FT_CMP_THP0)
		snprintf(buf, sz, "thp_%ukB_%s", ft_cmp_thp_kb[(r - FT_CMP_THP0) / 3],
			 thp_key[(r - FT_CMP_THP0) % 3]);
	else if (r < FT_CMP_LAT0)
		snprintf(buf, sz, "%s", rows[r].key);
	else
		snprintf(buf, sz, "latency_%s_%s", keys[(r - FT_CMP_LAT0) / 3],
			 p[(r - FT_CMP_LAT0) % 3]);
}


bool ft_cmp_row_is_pct(int r)
{
	if (r < 0 || r >= FT_CMP_NR || r >= FT_CMP_FIT0)
		return false;
	if (r >= FT_CMP_THP0)
		return (r - FT_CMP_THP0) % 3 == 2;	/* "success %" */
	return r < FT_CMP_LAT0 && !strcmp(rows[r].unit, "%");
}
