// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/compare.h"

#include "model/thp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const struct {
	const char *name, *key, *unit;
} rows[FT_CMP_NR] = {
	[FT_CMP_DURATION] = { "duration s", "duration_s", "s" },
	[FT_CMP_FRAG] = { "fragmenting fallbacks", "extfrag_fragmenting", "" },
	[FT_CMP_FRAG_S] = { "  per second", "extfrag_fragmenting_per_s", "/s" },
	[FT_CMP_EXTFRAG] = { "all fallbacks", "extfrag", "" },
	[FT_CMP_EXTFRAG_S] = { "  per second", "extfrag_per_s", "/s" },
	[FT_CMP_OWNERSHIP] = { "ownership changes", "extfrag_change_ownership", "" },
	[FT_CMP_THP_OK] = { "THP fault success %", "thp_fault_success_pct", "%" },
	[FT_CMP_COMPACT] = { "compaction stalls", "compact_stall", "" },
	[FT_CMP_COMPACT_FAIL] = { "compaction fails", "compact_fail", "" },
	[FT_CMP_COMPACT_OK] = { "compaction success %", "compact_success_pct", "%" },
	[FT_CMP_DIRECT_COMPACT] = { "direct compactions", "direct_compaction_stalls", "" },
	[FT_CMP_BG_COMPACT] = { "bg compactions", "background_compactions", "" },
	[FT_CMP_RECLAIMS] = { "direct reclaims", "direct_reclaims", "" },
	[FT_CMP_KSWAPD] = { "kswapd wakes", "kswapd_wakes", "" },
	[FT_CMP_KCOMPACTD] = { "kcompactd wakes", "kcompactd_wakes", "" },
	[FT_CMP_FRAG_STALLS] = { "fragmentation stalls", "fragmentation_stalls", "" },
	[FT_CMP_BOOST_PEAK] = { "boost peak (pages)", "boost_peak_pages", "" },
	[FT_CMP_BOOSTED] = { "boosted %", "boosted_pct", "%" },
	[FT_CMP_BOOST_EPISODES] = { "boost episodes", "boost_episodes", "" },
	[FT_CMP_IN_BLOCKS] = { "free in pageblocks %", "free_in_pageblocks_pct", "%" },
	[FT_CMP_ALLOCSTALLS] = { "allocation stalls", "allocstall", "" },
	[FT_CMP_PGSCAN_KSWAPD] = { "kswapd scanned pages", "pgscan_kswapd", "" },
	[FT_CMP_MIGRATE_PER_STALL] = { "migrate scanned/stall", "compact_migrate_scanned_per_stall", "" },
	[FT_CMP_FREE_PER_STALL] = { "free scanned/stall", "compact_free_scanned_per_stall", "" },
	[FT_CMP_SCANNED_PER_SUCCESS] = { "scanned/success", "compact_scanned_per_success", "" },
};

static const char *const lat_short[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = "compaction", [FT_LAT_RECLAIM] = "reclaim", [FT_LAT_FRAG_STALL] = "frag stall",
	[FT_LAT_BG_COMPACTION] = "bg compact",
};
static const char *const pct_name[3] = { "p50", "p99", "max" };

static double pct_of(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

/* The metrics of one report. */
/* Per THP size: the anon faults it served and fell back in the run, and the success %; NAN where a size did neither. */
static void thp_rows(const struct ft_report *r, double *v)
{
	int k;

	for (k = 0; r->have_thp && k < 8; k++) {
		uint64_t a, f;
		double al, fb;

		if (!ft_thp_growth(&r->thp_first, &r->thp_last, ft_cmp_thp_kb[k], "anon_fault_alloc", &a) ||
		    !ft_thp_growth(&r->thp_first, &r->thp_last, ft_cmp_thp_kb[k], "anon_fault_fallback", &f) ||
		    a + f == 0)
			continue;
		al = (double)a;
		fb = (double)f;
		v[FT_CMP_THP0 + 3 * k] = al;
		v[FT_CMP_THP0 + 3 * k + 1] = fb;
		v[FT_CMP_THP0 + 3 * k + 2] = 100 * al / (al + fb);
	}
}

void ft_cmp_measure_report(const struct ft_report *r, double *v)
{
	const int64_t *x = r->first.c, *y = r->last.c;
	double d = (double)(r->last.t_ns - r->first.t_ns) / 1e9;
	bool tr = r->rp.session.tracing;
	int i, s;

	for (i = 0; i < FT_CMP_NR; i++)
		v[i] = NAN;
	v[FT_CMP_DURATION] = d;
	if (tr) {
		v[FT_CMP_FRAG] = (double)(y[FT_CF_FRAGMENTING] - x[FT_CF_FRAGMENTING]);
		v[FT_CMP_EXTFRAG] = (double)(y[FT_CF_EXTFRAG] - x[FT_CF_EXTFRAG]);
		v[FT_CMP_FRAG_S] = d > 0 ? v[FT_CMP_FRAG] / d : NAN;
		v[FT_CMP_EXTFRAG_S] = d > 0 ? v[FT_CMP_EXTFRAG] / d : NAN;
		v[FT_CMP_OWNERSHIP] = (double)(y[FT_CF_OWNERSHIP] - x[FT_CF_OWNERSHIP]);
		v[FT_CMP_KSWAPD] = (double)(y[FT_CF_KSWAPD_WAKES] - x[FT_CF_KSWAPD_WAKES]);
		v[FT_CMP_KCOMPACTD] = (double)(y[FT_CF_KCOMPACTD_WAKES] - x[FT_CF_KCOMPACTD_WAKES]);
		v[FT_CMP_RECLAIMS] = (double)(y[FT_CF_RECLAIMS] - x[FT_CF_RECLAIMS]);
		v[FT_CMP_DIRECT_COMPACT] = (double)(y[FT_CF_DIRECT_COMPACT] - x[FT_CF_DIRECT_COMPACT]);
		v[FT_CMP_BG_COMPACT] = (double)(y[FT_CF_BG_COMPACT] - x[FT_CF_BG_COMPACT]);
	}
	v[FT_CMP_THP_OK] = pct_of(y[FT_CF_THP_ALLOC] - x[FT_CF_THP_ALLOC],
			     y[FT_CF_THP_ALLOC] - x[FT_CF_THP_ALLOC] + y[FT_CF_THP_FALLBACK] - x[FT_CF_THP_FALLBACK]);
	v[FT_CMP_COMPACT] = (double)(y[FT_CF_COMPACT_STALL] - x[FT_CF_COMPACT_STALL]);
	v[FT_CMP_COMPACT_FAIL] = (double)(y[FT_CF_COMPACT_FAIL] - x[FT_CF_COMPACT_FAIL]);
	v[FT_CMP_COMPACT_OK] = pct_of(y[FT_CF_COMPACT_SUCCESS] - x[FT_CF_COMPACT_SUCCESS],
				 y[FT_CF_COMPACT_STALL] - x[FT_CF_COMPACT_STALL]);
	if (r->lat_present[FT_LAT_FRAG_STALL])
		v[FT_CMP_FRAG_STALLS] = (double)(y[FT_CF_FRAG_STALLS] - x[FT_CF_FRAG_STALLS]);
	if (r->boost_nr) {
		uint64_t peak = 0, eps = 0, samples = 0, boosted = 0;

		for (i = 0; i < r->boost_nr; i++) {
			const struct ft_boost_tick *b = &r->boost_zone[i];

			peak = b->peak > peak ? b->peak : peak;
			eps += b->episodes;
			samples += b->samples;
			boosted += b->boosted;
		}
		v[FT_CMP_BOOST_PEAK] = (double)peak;
		v[FT_CMP_BOOST_EPISODES] = (double)eps;
		v[FT_CMP_BOOSTED] = samples ? 100.0 * (double)boosted / (double)samples : NAN;
	}
	/* compaction's cost and reclaim (vmstat): per direct stall, kcompactd's part taken out */
	if (r->vm_seen & (1u << FT_CF_ALLOCSTALLS))
		v[FT_CMP_ALLOCSTALLS] = (double)(y[FT_CF_ALLOCSTALLS] - x[FT_CF_ALLOCSTALLS]);
	if (r->vm_seen & (1u << FT_CF_PGSCAN_KSWAPD))
		v[FT_CMP_PGSCAN_KSWAPD] = (double)(y[FT_CF_PGSCAN_KSWAPD] - x[FT_CF_PGSCAN_KSWAPD]);
	if (r->vm_seen & (1u << FT_CF_MIGRATE_SCANNED)) {
		double stalls = (double)(y[FT_CF_COMPACT_STALL] - x[FT_CF_COMPACT_STALL]);
		double ok = (double)(y[FT_CF_COMPACT_SUCCESS] - x[FT_CF_COMPACT_SUCCESS]);
		double mig = (double)(y[FT_CF_MIGRATE_SCANNED] - x[FT_CF_MIGRATE_SCANNED] -
				      (y[FT_CF_DAEMON_MIGRATE_SCANNED] - x[FT_CF_DAEMON_MIGRATE_SCANNED]));
		double fre = (double)(y[FT_CF_FREE_SCANNED] - x[FT_CF_FREE_SCANNED] -
				      (y[FT_CF_DAEMON_FREE_SCANNED] - x[FT_CF_DAEMON_FREE_SCANNED]));

		v[FT_CMP_MIGRATE_PER_STALL] = stalls > 0 ? mig / stalls : NAN;
		v[FT_CMP_FREE_PER_STALL] = stalls > 0 ? fre / stalls : NAN;
		v[FT_CMP_SCANNED_PER_SUCCESS] = ok > 0 ? (mig + fre) / ok : NAN;
	}
	/* the mean over the run of free memory's share in whole pageblocks (6.15+) */
	v[FT_CMP_IN_BLOCKS] = ft_rep_level_mean(&r->in_blocks);
	thp_rows(r, v);
	for (s = 0; s < FT_LAT_NR; s++) {
		struct ft_rep_lat l;

		if (!r->lat_present[s] || ft_report_latency(r, s, &r->first, &r->last, &l) || !l.count)
			continue;
		v[FT_CMP_LAT0 + 3 * s] = (double)l.p50_us;
		v[FT_CMP_LAT0 + 3 * s + 1] = (double)l.p99_us;
		v[FT_CMP_LAT0 + 3 * s + 2] = (double)l.max_us;
	}
}

const unsigned int ft_cmp_thp_kb[8] = { 16, 32, 64, 128, 256, 512, 1024, 2048 };
static const char *const thp_what[3] = { "alloc", "fallback", "success %" };
static const char *const thp_key[3] = { "anon_fault_alloc", "anon_fault_fallback", "success_pct" };

void ft_cmp_row_name(int r, char *buf, size_t sz)
{
	if (r >= FT_CMP_THP0)
		snprintf(buf, sz, "THP %ukB %s", ft_cmp_thp_kb[(r - FT_CMP_THP0) / 3], thp_what[(r - FT_CMP_THP0) % 3]);
	else if (r < FT_CMP_LAT0)
		snprintf(buf, sz, "%s", rows[r].name);
	else
		snprintf(buf, sz, "%s %s us", lat_short[(r - FT_CMP_LAT0) / 3], pct_name[(r - FT_CMP_LAT0) % 3]);
}

void ft_cmp_row_key(int r, char *buf, size_t sz)
{
	static const char *const *const keys = ft_lat_names;
	static const char *const p[3] = { "p50_us", "p99_us", "max_us" };

	if (r >= FT_CMP_THP0)
		snprintf(buf, sz, "thp_%ukB_%s", ft_cmp_thp_kb[(r - FT_CMP_THP0) / 3], thp_key[(r - FT_CMP_THP0) % 3]);
	else if (r < FT_CMP_LAT0)
		snprintf(buf, sz, "%s", rows[r].key);
	else
		snprintf(buf, sz, "latency_%s_%s", keys[(r - FT_CMP_LAT0) / 3], p[(r - FT_CMP_LAT0) % 3]);
}

double ft_cmp_change_pct(const struct ft_stats *base, const struct ft_stats *g)
{
	return base->n && g->n && base->mean != 0 ? (g->mean - base->mean) * 100 / fabs(base->mean) : NAN;
}

double ft_cmp_p_value(const struct ft_stats *base, const struct ft_stats *g)
{
	struct ft_welch w;

	return ft_welch(base, g, &w) ? w.p : NAN;
}

int ft_cmp_measure(struct ft_cmp_group *g, int ng)
{
	struct ft_report *rep = calloc(1, sizeof(*rep));
	int k, i, r, err;

	if (!rep)
		return -1;
	for (k = 0; k < ng; k++) {
		for (i = 0; i < g[k].nr; i++) {
			err = ft_report_build(rep, g[k].run[i].file, &g[k].run[i].w);
			if (!err)
				ft_cmp_measure_report(rep, g[k].run[i].v);
			ft_report_release(rep);
			if (err) {
				free(rep);
				return -1;
			}
		}
		for (r = 0; r < FT_CMP_NR; r++) {
			double vals[FT_CMP_MAX_RUNS];

			for (i = 0; i < g[k].nr; i++)
				vals[i] = g[k].run[i].v[r];
			ft_stats_of(vals, (size_t)g[k].nr, &g[k].st[r]);
		}
	}
	free(rep);
	return 0;
}
