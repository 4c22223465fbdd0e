// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The findings' input from a report's window (analysis/findings.h): the
 * figures compare measures of a run (analysis/compare.h, computed once
 * there), and what the window's end gives (analysis/findings_in.c: the
 * knobs, zone files, map, who fragmented and paid, the sizes of interest).
 */
#include "analysis/findings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/measure.h"
#include "analysis/report.h"
#include "model/fit.h"

/* The stack pinning most pages of mixed blocks, as "comm: frame". */
static int pinner(const struct ft_report *rep, struct ft_find_in *in)
{
	struct ft_rep_owners o;
	int err = ft_report_owners_model(rep, &o);

	if (!err && o.known && o.nr) {
		const struct ft_po_entry *e = &o.groups[0].first;

		snprintf(in->pinner, sizeof(in->pinner), "%s (%llu pages)%s%s",
			 e->comm[0] ? e->comm : "?",
			 (unsigned long long)o.groups[0].pages, e->nr_frames ? " at " : "",
			 e->nr_frames ? e->frames[0] : "");
	}
	ft_report_owners_free(&o);
	return err;
}

int ft_find_in_report(const struct ft_report *rep, const struct ft_fit_need *need, size_t nr_need,
		      struct ft_find_in *in)
{
	const struct ft_session *s = rep->s;
	const struct ft_rep_stretch *all = rep->all;
	double cmp[FT_CMP_NR], *v = in->v;
	struct ft_find_knobs kn;
	int err;

	ft_find_in_init(in);
	if (!all)
		return 0;
	ft_measure_report(rep, cmp);
	in->from_s = all->from_s;
	in->to_s = all->to_s;
	v[FT_FX_SECS] = all->secs;
	v[FT_FX_FRAG] = cmp[FT_CMP_FRAG];
	v[FT_FX_FRAG_S] = cmp[FT_CMP_FRAG_S];
	ft_find_knobs_read(rep->knobs_end, &kn);
	ft_find_in_end(s, &kn, in);
	/*
	 * the kernel's own level over the window where it has one (6.15+), else the free lists at
	 * the end
	 */
	if (!isnan(cmp[FT_CMP_IN_BLOCKS]))
		v[FT_FX_IN_BLOCKS_PCT] = cmp[FT_CMP_IN_BLOCKS];
	if (all->have[FT_CF_THP_ALLOC] && all->have[FT_CF_THP_FALLBACK]) {
		double a = (double)all->d[FT_CF_THP_ALLOC], f = (double)all->d[FT_CF_THP_FALLBACK];

		v[FT_FX_THP_FAULTS] = a + f;
		/* no fault: none fell back */
		v[FT_FX_THP_FALLBACK_PCT] = a + f > 0 ? 100 * f / (a + f) : 0;
	}
	if (s->tracing) {
		v[FT_FX_DIRECT] = (double)all->d[FT_CF_DIRECT_COMPACT];
		v[FT_FX_DIRECT_MS] = (double)all->lat[FT_LAT_COMPACTION].sum_us / 1000;
		if (all->pct_known[FT_LAT_COMPACTION] && all->pct[FT_LAT_COMPACTION].count)
			v[FT_FX_DIRECT_P99_MS] = (double)all->pct[FT_LAT_COMPACTION].p99_us / 1000;
		else if (v[FT_FX_DIRECT] == 0)
			v[FT_FX_DIRECT_P99_MS] = 0;	/* no stall: no latency to be high */
	}
	v[FT_FX_KCOMPACTD_WAKES] = cmp[FT_CMP_KCOMPACTD];
	v[FT_FX_BG_COMPACT] = cmp[FT_CMP_BG_COMPACT];
	v[FT_FX_FUTILE_PCT] = cmp[FT_CMP_FUTILE_DIRECT_MIGRATE];
	/* traced with a map, and direct compaction scanned nothing there: nothing futile */
	if (isnan(v[FT_FX_FUTILE_PCT]) && ft_session_has_event(s, FT_EV_COMPACT_ISO_MIGRATE) &&
	    s->map.nr &&
	    !s->map_err)
		v[FT_FX_FUTILE_PCT] = 0;
	if (all->have[FT_CF_MIGRATE_SCANNED])
		v[FT_FX_MIGRATE_SCANNED] = (double)all->d[FT_CF_MIGRATE_SCANNED];
	v[FT_FX_BOOSTED_PCT] = cmp[FT_CMP_BOOSTED];
	if (rep->boost_nr)
		v[FT_FX_CEILING_PCT] = ft_find_ceiling_pct(s, rep->boost_zone, rep->boost_nr,
							   v[FT_FX_BOOST_FACTOR]);
	if (all->mem_known && all->secs > 0) {
		v[FT_FX_MEMSTALL_PCT] = 100.0 * (double)all->mem.some_us / (all->secs * 1e6);
		if (!isnan(all->mem.share))
			v[FT_FX_COMPACT_SHARE_PCT] = 100 * all->mem.share;
		else if (!isnan(all->mem.compaction_us))
			v[FT_FX_COMPACT_SHARE_PCT] = 0;	/* no stall at all */
	}
	if (rep->kmsg.known) {
		v[FT_FX_ALLOC_FAILURES] = (double)rep->kmsg.failures;
		v[FT_FX_ALLOC_FAIL_ORDER] = rep->kmsg.max_order;	/* -1: none */
	}
	ft_find_in_who(rep->procs, rep->cgrows, in);
	err = pinner(rep, in);
	if (!err)
		err = ft_find_in_sizes(s, kn.thp_on, need, nr_need, in);
	return err;
}

int ft_report_findings(struct ft_report *rep, const struct ft_fit_need *need, size_t nr_need)
{
	struct ft_findings *fs = calloc(1, sizeof(*fs));
	int err;

	if (!fs)
		return -ENOMEM;
	err = ft_find_in_report(rep, need, nr_need, &fs->in);
	if (err) {
		free(fs);
		return err;
	}
	ft_find_eval(&fs->in, fs);
	free(rep->findings);
	rep->findings = fs;
	return 0;
}
