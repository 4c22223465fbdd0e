// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The findings' figures that a window's end gives alone (analysis/
 * findings.h): the knobs, the zone files, the map's pollution, who
 * fragmented and paid, the sizes of interest.  A report's window
 * (analysis/findings_report.c) and the live sliding window
 * (analysis/findings_live.c) both take them from here.
 */
#include "analysis/findings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cgrows.h"
#include "analysis/fits.h"
#include "analysis/report.h"
#include "model/fit.h"

/* Knob @name of @knobs (a session's, ft_knobs[] order): false when it was not read. */
static bool knob_read(const struct ft_knob_value *knobs, const char *name,
		      const struct ft_knob_value **out)
{
	const struct ft_knob *k = ft_knob_find(name);
	const struct ft_knob_value *v;

	if (!k)
		return false;
	v = &knobs[k - ft_knobs];
	*out = v;
	return v->raw_len > 0 && !v->err;
}

static double knob_num(const struct ft_knob_value *knobs, const char *name)
{
	const struct ft_knob_value *v;

	return knob_read(knobs, name, &v) ? (double)v->num : NAN;
}

/* A selector knob's option, or NULL. */
static const char *knob_option(const struct ft_knob_value *knobs, const char *name)
{
	const struct ft_knob_value *v;

	if (!knob_read(knobs, name, &v) || v->sel.selected < 0 ||
	    v->sel.selected >= v->sel.nr_options)
		return NULL;
	return v->sel.options[v->sel.selected];
}

static double defrag_setting(const struct ft_knob_value *knobs)
{
	static const char *const names[] = {
		[FT_DEFRAG_NEVER] = "never", [FT_DEFRAG_DEFER] = "defer",
		[FT_DEFRAG_DEFER_MADVISE] = "defer+madvise", [FT_DEFRAG_MADVISE] = "madvise",
		[FT_DEFRAG_ALWAYS] = "always",
	};
	const char *opt = knob_option(knobs, "thp_defrag");
	size_t i;

	for (i = 0; opt && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(opt, names[i]))
			return (double)i;
	return NAN;
}

void ft_find_knobs_read(const struct ft_knob_value *knobs, struct ft_find_knobs *k)
{
	const struct ft_knob_value *v;
	const char *thp = knob_option(knobs, "thp_enabled");

	k->boost_factor = knob_num(knobs, "watermark_boost_factor");
	k->scale_factor = knob_num(knobs, "watermark_scale_factor");
	k->proactiveness = knob_num(knobs, "compaction_proactiveness");
	k->min_free_kb = knob_num(knobs, "min_free_kbytes");
	k->thp_defrag = defrag_setting(knobs);
	k->thp_on = thp && strcmp(thp, "never");
	k->fragment_stall = knob_read(knobs, "fragment_stall_order", &v);
}

/* Free memory and its share in whole pageblocks from the last zone files. */
static void free_memory(const struct ft_session *s, struct ft_find_in *in)
{
	const struct ft_sample *sm = &s->sample;
	uint64_t free = 0, managed = 0, blocks = 0;
	bool have_blocks = false;
	size_t i;
	int o;

	if (!ft_sample_has(sm, FT_SRC_ZONEINFO))
		return;
	for (i = 0; i < sm->zoneinfo.nr; i++) {
		const struct ft_zone *z = &sm->zones[i];

		free += z->zi->free;
		managed += z->zi->managed;
		if (!z->bi || sm->pageblock_order < 0)
			continue;
		have_blocks = true;
		for (o = sm->pageblock_order; o < sm->nr_orders && o < FT_MAX_ORDERS; o++)
			blocks += z->bi->blocks[o] << o;
	}
	in->v[FT_FX_FREE_MB] = (double)free * (double)s->host.page_size / 1048576;
	if (managed)
		in->v[FT_FX_FREE_PCT] = 100.0 * (double)free / (double)managed;
	/* the free lists at pageblock order and above */
	if (have_blocks && free)
		in->v[FT_FX_IN_BLOCKS_PCT] = 100.0 * (double)blocks / (double)free;
}

double ft_find_ceiling_pct(const struct ft_session *s, const struct ft_boost_tick *zones, int nr,
			   double factor)
{
	const struct ft_sample *sm = &s->sample;
	double best = NAN;
	int i;

	if (factor == 0)
		return 0;	/* boosting off: no ceiling to reach */
	if (!(factor > 0) || !ft_sample_has(sm, FT_SRC_ZONEINFO))
		return NAN;
	for (i = 0; i < nr && (size_t)i < sm->zoneinfo.nr; i++) {
		const struct ft_zi_zone *zi = &sm->zoneinfo.zones[i];
		uint64_t c = ft_boost_ceiling(zi->high, zi->boost, (int64_t)factor,
					      sm->pageblock_order);
		double p;

		if (!c || !zi->managed)
			continue;
		p = 100.0 * (double)zones[i].peak / (double)c;
		if (isnan(best) || p > best)
			best = p;
	}
	return best;
}

/* The process row with the most of column @c, as a share of @total. */
static void top_proc(const struct ft_procs *t, int c, double total, struct ft_find_who *w)
{
	const struct ft_proc *best = NULL;
	int i;

	for (i = 0; t && i < t->nr; i++)
		if (t->p[i].c[c] && (!best || t->p[i].c[c] > best->c[c]))
			best = &t->p[i];
	if (!best || !(total > 0))
		return;
	snprintf(w->name, sizeof(w->name), "%s", best->comm[0] ? best->comm : "?");
	w->pid = best->tgid ? best->tgid : best->pid;
	w->pct = 100.0 * (double)best->c[c] / total;
}

/*
 * The cgroup row with the most of column @c (named ones only: not "other" nor an unattributed
 * bucket).
 */
static void top_cgroup(const struct ft_cgrows *rows, int c, double total, struct ft_find_who *w)
{
	const struct ft_cgrow *best = NULL;
	int i;

	for (i = 0; rows && i < rows->nr; i++)
		if (!rows->r[i].other && rows->r[i].path[0] && rows->r[i].c[c] &&
		    (!best || rows->r[i].c[c] > best->c[c]))
			best = &rows->r[i];
	if (!best || !(total > 0))
		return;
	snprintf(w->name, sizeof(w->name), "%s", ft_cgrow_name(best));
	w->pct = 100.0 * (double)best->c[c] / total;
}

/* Column @c summed over every process row, the folded ones too. */
static double proc_total(const struct ft_procs *t, int c)
{
	double sum = 0;
	int i;

	if (!t)
		return NAN;
	for (i = 0; i < t->nr; i++)
		sum += (double)t->p[i].c[c];
	return sum + (double)t->other[c];
}

void ft_find_in_who(const struct ft_procs *t, const struct ft_cgrows *rows, struct ft_find_in *in)
{
	double frag = proc_total(t, FT_PC_FRAGMENTING), us = proc_total(t, FT_PC_COMPACTION_US);

	top_proc(t, FT_PC_FRAGMENTING, frag, &in->frag_proc);
	top_proc(t, FT_PC_COMPACTION_US, us, &in->stall_proc);
	top_cgroup(rows, FT_PC_FRAGMENTING, frag, &in->frag_cg);
	top_cgroup(rows, FT_PC_COMPACTION_US, us, &in->stall_cg);
}
int ft_find_in_sizes(const struct ft_session *s, bool thp_on, const struct ft_fit_need *need,
		     size_t nr_need,
		     struct ft_find_in *in)
{
	struct ft_fits_sizes sz;
	struct ft_fits *t;
	int asked[FT_FITS_SIZES_MAX];
	size_t n = 0, i, k, nd;
	unsigned int which = 0;
	int err;

	for (i = 0; i < nr_need && n < FT_FITS_SIZES_MAX; i++)
		asked[n++] = need[i].order;
	if (thp_on)
		which = FT_FITS_SRC_PAGEBLOCK;
	ft_fits_sizes(s, which, asked, n, &sz);
	if (!sz.nr) {
		in->v[FT_FX_SIZES] = 0;	/* THP off and nothing asked: no size to judge */
		return 0;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ft_fits_init(t);
	err = ft_fits_build(t, s, &sz, true);
	if (err) {
		ft_fits_release(t);
		free(t);
		return err == -ENODATA ? 0 : err;
	}
	in->sizes_known = true;
	in->v[FT_FX_SIZES] = (double)sz.nr;
	for (nd = 0; nd < t->nr_nodes; nd++)
		for (k = 0; k < sz.nr && in->nr_sizes < FT_FIND_SIZES; k++) {
			const struct ft_fit *f = ft_fits_node_at(t, nd, k);
			struct ft_find_size *z = &in->size[in->nr_sizes++];

			z->node = f->node;
			z->kb = ((uint64_t)s->host.page_size << sz.order[k]) / 1024;
			z->asked = sz.src[k] & FT_FITS_SRC_ASKED;
			z->need = 1;
			for (i = 0; z->asked && i < nr_need; i++)
				if (need[i].order == sz.order[k])
					z->need = need[i].count;
			z->now_lo = f->now_lo;
			z->now_hi = f->now_hi;
			z->after_lo = f->after_lo;
			z->after_hi = f->after_hi;
			z->after_known = f->map || f->after_hi != UINT64_MAX;
			z->free_cap = f->free_cap;
		}
	ft_fits_release(t);
	free(t);
	return 0;
}


void ft_find_in_end(const struct ft_session *s, const struct ft_find_knobs *k,
		    struct ft_find_in *in)
{
	double *v = in->v;
	struct ft_amp a;

	v[FT_FX_BOOST_FACTOR] = k->boost_factor;
	v[FT_FX_SCALE_FACTOR] = k->scale_factor;
	v[FT_FX_PROACTIVENESS] = k->proactiveness;
	v[FT_FX_MIN_FREE_KB] = k->min_free_kb;
	v[FT_FX_THP_DEFRAG] = k->thp_defrag;
	in->fragment_stall = k->fragment_stall;
	free_memory(s, in);
	/* of some blocks only (a map never read whole): not a figure of the host */
	if (ft_amp_of_map(&s->map, s->map_err, &a) && !ft_amp_partial(&a)) {
		v[FT_FX_AMPLIFICATION] = ft_amp_ratio(&a);
		if (a.blocks)
			v[FT_FX_POLLUTED_PCT] = 100.0 * (double)a.polluted / (double)a.blocks;
	}
}
