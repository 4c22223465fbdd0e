// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop export --csv|--json` printed: a recording's ticks, one row each
 * (cmd/export.c walks the replay and hands each tick here).
 */
#include "render/export.h"

#include <stdio.h>
#include <string.h>

#include "model/counterfield.h"
#include "model/frag.h"
#include "model/knob.h"
#include "model/thp.h"
#include "model/zonefield.h"
#include "render/csv.h"

/* The counters export writes, in column order (model/counterfield.h); a name of its own or NULL. */
static const struct {
	enum ft_cf c;
	const char *name;
} cols[] = {
	{ FT_CF_EXTFRAG, NULL },
	{ FT_CF_FRAGMENTING, NULL },
	{ FT_CF_DIRECT_COMPACT, "compactions" },	/* direct: stalls (model/events.h) */
	{ FT_CF_BG_COMPACT, NULL },
	{ FT_CF_RECLAIMS, NULL },
	{ FT_CF_KSWAPD_WAKES, NULL },
	{ FT_CF_FRAG_STALLS, NULL },
	{ FT_CF_COMPACT_STALL, NULL },
	{ FT_CF_COMPACT_SUCCESS, NULL },
	{ FT_CF_THP_ALLOC, NULL },
	{ FT_CF_THP_FALLBACK, NULL },
};
#define NR_COLS (sizeof(cols) / sizeof(cols[0]))
_Static_assert(NR_COLS == FT_EXPORT_COLS, "render/export.h counts the columns");
/* ",field": a header column; a zone name comes from the recording (render/csv.h quotes it) */
static void csv_col(const char *f)
{
	putchar(',');
	ft_render_csv_field(stdout, f);
}

static const char *col_name(size_t i)
{
	return cols[i].name ? cols[i].name : ft_counter_fields[cols[i].c].key;
}

static void values(const struct ft_session *s, int64_t *v)
{
	int64_t all[FT_CF_NR];
	size_t i;

	ft_counters_read(s, all);
	for (i = 0; i < NR_COLS; i++)
		v[i] = all[cols[i].c];
}


/* The zone fields of a row, in order (model/zonefield.h): a new one is its id here. */
static const enum ft_zf zone_cols[] = {
	FT_ZF_FREE, FT_ZF_UNUSABLE_PBO, FT_ZF_BOOST_PEAK, FT_ZF_BOOSTED, FT_ZF_FREE_IN_BLOCKS,
	FT_ZF_AMPLIFICATION, FT_ZF_GIANT_NOW, FT_ZF_GIANT_AFTER,
};
#define NR_ZONE_COLS (sizeof(zone_cols) / sizeof(zone_cols[0]))

/* The CSV header: the tick's columns, then the zone fields of each zone. */
static void csv_header(const struct ft_export *x, const struct ft_export_zone *zones, int nz)
{
	size_t i;
	int z;

	printf("t_s,realtime_s,watermark_boost_factor");
	for (i = 0; i < NR_COLS; i++)
		printf(",%s", col_name(i));
	for (z = 0; z < nz; z++)
		for (i = 0; i < NR_ZONE_COLS; i++) {
			char f[96];

			snprintf(f, sizeof(f), "N%d_%s_%s", zones[z].node, zones[z].name,
				 ft_zone_fields[zone_cols[i]].key);
			csv_col(f);
		}
	for (z = 0; z < x->thp_n; z++)
		printf(",thp_%ukB_anon_fault_alloc,thp_%ukB_anon_fault_fallback", x->thp_kb[z], x->thp_kb[z]);
	for (z = 0; z < x->ncg; z++) {
		char f[FT_CG_PATH + 16];

		snprintf(f, sizeof(f), "fragmenting:%s", x->cg[z].name);
		csv_col(f);
	}
	printf("\n");
}

/* The fragmenting fallbacks of cgroup @path's processes so far (the thread table's rows). */
static uint64_t cgroup_count(const struct ft_session *s, const char *path)
{
	const struct ft_procs *t = &s->events.procs;
	uint64_t n = 0;
	int i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->p[i].cgroup, path))
			n += t->p[i].c[FT_PC_FRAGMENTING];
	return n;
}

/*
 * Each chosen cgroup's fragmenting fallbacks in the tick (0 when its rows
 * were folded away, the table full: the count went back).
 */
static void cgroups_out(struct ft_export *x, const struct ft_session *s, bool shown)
{
	int i;

	if (shown && !x->csv && x->ncg)
		ft_json_obj_begin_inline(&x->j, "fragmenting_by_cgroup");
	for (i = 0; i < x->ncg; i++) {
		uint64_t now = cgroup_count(s, x->cg[i].path), d = now >= x->cg[i].prev ? now - x->cg[i].prev : 0;

		if (shown && x->csv)
			printf(",%llu", (unsigned long long)d);
		else if (shown)
			ft_json_u64(&x->j, x->cg[i].name, d);
		x->cg[i].prev = now;
	}
	if (shown && !x->csv && x->ncg)
		ft_json_obj_end(&x->j);
}

/* The session's index of the zone @key names this tick, or -1. */
static int zone_index(const struct ft_session *s, const struct ft_export_zone *key)
{
	size_t i;
	int found = -1;

	for (i = 0; i < s->sample.nr_zones; i++)
		if (s->sample.zones[i].zi->node == key->node && !strcmp(s->sample.zones[i].zi->name, key->name))
			found = (int)i;
	return found;
}

/* A zone's fields in one tick: CSV cells (empty where absent) or a JSON object (null). */
static void zone_out(struct ft_export *x, const struct ft_session *s, const struct ft_export_zone *key)
{
	int i = zone_index(s, key);
	char v[32];
	size_t c;

	if (!x->csv) {
		ft_json_obj_begin(&x->j, NULL);
		ft_json_i64(&x->j, "node", key->node);
		ft_json_str(&x->j, "zone", key->name);
	}
	for (c = 0; c < NR_ZONE_COLS; c++) {
		bool have = i >= 0 && ft_zone_field_text(s, (size_t)i, zone_cols[c], v, sizeof(v));

		if (x->csv)
			printf(",%s", have ? v : "");
		else if (have)
			ft_json_raw(&x->j, ft_zone_fields[zone_cols[c]].key, v);
		else
			ft_json_null(&x->j, ft_zone_fields[zone_cols[c]].key);
	}
	if (!x->csv)
		ft_json_obj_end(&x->j);
}

/*
 * THP by size: the sizes with anonymous fault counters at the first tick
 * (none in a recording made before fragtop read them: no columns), each
 * tick's alloc and fallback.
 */

static void thp_find_sizes(struct ft_export *x, const struct ft_session *s)
{
	uint64_t v;
	int i;

	x->thp_n = 0;
	for (i = 0; s->thp_ticks && i < s->thp.nr && x->thp_n < FT_THP_SIZES; i++)
		if (ft_thp_stat(&s->thp.s[i], "anon_fault_alloc", &v))
			x->thp_kb[x->thp_n++] = s->thp.s[i].kb;
}

/* @name's growth over the tick for size @kb: false before two ticks of it. */
static bool thp_tick(const struct ft_session *s, uint32_t kb, const char *name, uint64_t *d)
{
	return ft_thp_growth(&s->thp_prev, &s->thp, kb, name, d);
}

static void thp_out(struct ft_export *x, const struct ft_session *s)
{
	static const char *const names[2] = { "anon_fault_alloc", "anon_fault_fallback" };
	uint64_t d;
	int k, c;

	if (!x->thp_n)
		return;
	if (!x->csv)
		ft_json_arr_begin(&x->j, "thp");
	for (k = 0; k < x->thp_n; k++) {
		if (!x->csv) {
			ft_json_obj_begin_inline(&x->j, NULL);
			ft_json_u64(&x->j, "size_kb", x->thp_kb[k]);
		}
		for (c = 0; c < 2; c++) {
			bool have = thp_tick(s, x->thp_kb[k], names[c], &d);

			if (x->csv && have)
				printf(",%llu", (unsigned long long)d);
			else if (x->csv)
				printf(",");
			else if (have)
				ft_json_u64(&x->j, names[c], d);
			else
				ft_json_null(&x->j, names[c]);
		}
		if (!x->csv)
			ft_json_obj_end(&x->j);
	}
	if (!x->csv)
		ft_json_arr_end(&x->j);
}

/* One tick as a CSV line or a JSON object: its counts are @now - the previous tick's. */
static void row(struct ft_export *x, const struct ft_session *s, double t, const int64_t *now)
{
	const struct ft_knob_value *bv = &s->knobs[ft_knob_find("watermark_boost_factor") - ft_knobs];
	const int64_t *prev = x->prev;
	size_t i;
	int z;

	if (x->csv) {
		printf("%.3f,%.3f,", t, (double)s->tick_rt_ns / 1e9);
		if (!bv->err)
			printf("%lld", (long long)bv->num);
		for (i = 0; i < NR_COLS; i++)
			printf(",%lld", (long long)(now[i] - prev[i]));
	} else {
		ft_json_obj_begin(&x->j, NULL);
		ft_json_double(&x->j, "t_s", t);
		ft_json_u64(&x->j, "realtime_ns", s->tick_rt_ns);
		if (bv->err)
			ft_json_null(&x->j, "watermark_boost_factor");
		else
			ft_json_i64(&x->j, "watermark_boost_factor", bv->num);
		for (i = 0; i < NR_COLS; i++)
			ft_json_i64(&x->j, col_name(i), now[i] - prev[i]);
		ft_json_arr_begin(&x->j, "zones");
	}
	for (z = 0; z < x->nz; z++)
		zone_out(x, s, &x->zones[z]);
	if (!x->csv)
		ft_json_arr_end(&x->j);
	thp_out(x, s);
	cgroups_out(x, s, true);
	if (x->csv)
		printf("\n");
	else
		ft_json_obj_end(&x->j);
}

void ft_render_export_begin(struct ft_export *x, bool csv, const char *file, const struct ft_session *first,
			    const struct ft_export_cgroup *cg, int ncg)
{
	size_t i;
	int k;

	memset(x, 0, sizeof(*x));
	x->csv = csv;
	for (k = 0; k < ncg && k < FT_EXPORT_CGROUPS; k++) {
		x->cg[x->ncg] = cg[k];
		x->cg[x->ncg++].prev = cgroup_count(first, cg[k].path);
	}
	for (i = 0; i < first->sample.nr_zones && x->nz < FT_EXPORT_ZONES; i++) {
		const struct ft_zi_zone *zi = first->sample.zones[i].zi;

		if (!ft_zi_populated(zi))
			continue;
		x->zones[x->nz].node = zi->node;
		memcpy(x->zones[x->nz].name, zi->name, sizeof(x->zones[x->nz].name));
		x->nz++;
	}
	values(first, x->prev);
	thp_find_sizes(x, first);
	if (csv) {
		csv_header(x, x->zones, x->nz);
	} else {
		ft_json_init(&x->j, stdout, false);
		ft_json_obj_begin(&x->j, NULL);
		ft_json_str(&x->j, "file", file);
		ft_json_arr_begin(&x->j, "samples");
	}
}

void ft_render_export_tick(struct ft_export *x, const struct ft_session *s, double t, bool shown)
{
	int64_t now[NR_COLS];

	values(s, now);
	if (shown)	/* before the window only the counts move on */
		row(x, s, t, now);
	else
		cgroups_out(x, s, false);
	memcpy(x->prev, now, sizeof(now));
}

void ft_render_export_end(struct ft_export *x)
{
	if (x->csv)
		return;
	ft_json_arr_end(&x->j);
	ft_json_obj_end(&x->j);
	ft_json_end(&x->j);
}
