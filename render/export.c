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
#include "kernel/thp.h"
#include "model/zonefield.h"
#include "render/csv.h"

/* ",field": a header column; a zone name comes from the recording (render/csv.h quotes it) */
static void csv_col(const char *f)
{
	putchar(',');
	ft_render_csv_field(stdout, f);
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
	for (i = 0; i < FT_EXPORT_COLS; i++)
		printf(",%s", ft_exportrow_col_name(i));
	for (z = 0; z < nz; z++)
		for (i = 0; i < NR_ZONE_COLS; i++) {
			char f[96];

			snprintf(f, sizeof(f), "N%d_%s_%s", zones[z].node, zones[z].name,
				 ft_zone_fields[zone_cols[i]].key);
			csv_col(f);
		}
	for (z = 0; z < x->rs.thp_n; z++)
		printf(",thp_%ukB_anon_fault_alloc,thp_%ukB_anon_fault_fallback", x->rs.thp_kb[z],
		       x->rs.thp_kb[z]);
	for (z = 0; z < x->rs.ncg; z++) {
		char f[FT_CG_PATH + 16];

		snprintf(f, sizeof(f), "fragmenting:%s", x->rs.cg[z].name);
		csv_col(f);
	}
	printf("\n");
}

/* Each chosen cgroup's fragmenting fallbacks in the tick. */
static void cgroups_out(struct ft_export *x, const struct ft_exportrow *r)
{
	int i;

	if (!x->csv && x->rs.ncg)
		ft_json_obj_begin_inline(&x->j, "fragmenting_by_cgroup");
	for (i = 0; i < x->rs.ncg; i++) {
		if (x->csv)
			printf(",%llu", (unsigned long long)r->cg[i]);
		else
			ft_json_u64(&x->j, x->rs.cg[i].name, r->cg[i]);
	}
	if (!x->csv && x->rs.ncg)
		ft_json_obj_end(&x->j);
}

/* The session's index of the zone @key names this tick, or -1. */
static int zone_index(const struct ft_session *s, const struct ft_export_zone *key)
{
	size_t i;
	int found = -1;

	for (i = 0; i < s->sample.nr_zones; i++)
		if (s->sample.zones[i].zi->node == key->node &&
		    !strcmp(s->sample.zones[i].zi->name, key->name))
			found = (int)i;
	return found;
}

/* A zone's fields in one tick: CSV cells (empty where absent) or a JSON object (null). */
static void zone_out(struct ft_export *x, const struct ft_session *s,
		     const struct ft_export_zone *key)
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
 * THP by size: each size's anonymous faults served and fallen back in the tick (empty, null: not
 * known).
 */
static void thp_out(struct ft_export *x, const struct ft_exportrow *r)
{
	static const char *const names[2] = { "anon_fault_alloc", "anon_fault_fallback" };
	int k, c;

	if (!x->rs.thp_n)
		return;
	if (!x->csv)
		ft_json_arr_begin(&x->j, "thp");
	for (k = 0; k < x->rs.thp_n; k++) {
		if (!x->csv) {
			ft_json_obj_begin_inline(&x->j, NULL);
			ft_json_u64(&x->j, "size_kb", x->rs.thp_kb[k]);
		}
		for (c = 0; c < 2; c++) {
			if (x->csv && r->thp_have[k][c])
				printf(",%llu", (unsigned long long)r->thp[k][c]);
			else if (x->csv)
				printf(",");
			else if (r->thp_have[k][c])
				ft_json_u64(&x->j, names[c], r->thp[k][c]);
			else
				ft_json_null(&x->j, names[c]);
		}
		if (!x->csv)
			ft_json_obj_end(&x->j);
	}
	if (!x->csv)
		ft_json_arr_end(&x->j);
}

/* One tick as a CSV line or a JSON object: its figures @r (analysis/exportrow.h). */
static void row(struct ft_export *x, const struct ft_session *s, double t,
		const struct ft_exportrow *r)
{
	const struct ft_knob_value *bv =
		&s->knobs[ft_knob_find("watermark_boost_factor") - ft_knobs];
	size_t i;
	int z;

	if (x->csv) {
		printf("%.3f,%.3f,", t, (double)s->tick_rt_ns / 1e9);
		if (!bv->err)
			printf("%lld", (long long)bv->num);
		for (i = 0; i < FT_EXPORT_COLS; i++)
			printf(",%lld", (long long)r->d[i]);
	} else {
		ft_json_obj_begin(&x->j, NULL);
		ft_json_double(&x->j, "t_s", t);
		ft_json_u64(&x->j, "realtime_ns", s->tick_rt_ns);
		if (bv->err)
			ft_json_null(&x->j, "watermark_boost_factor");
		else
			ft_json_i64(&x->j, "watermark_boost_factor", bv->num);
		for (i = 0; i < FT_EXPORT_COLS; i++)
			ft_json_i64(&x->j, ft_exportrow_col_name(i), r->d[i]);
		ft_json_arr_begin(&x->j, "zones");
	}
	for (z = 0; z < x->nz; z++)
		zone_out(x, s, &x->zones[z]);
	if (!x->csv)
		ft_json_arr_end(&x->j);
	thp_out(x, r);
	cgroups_out(x, r);
	if (x->csv)
		printf("\n");
	else
		ft_json_obj_end(&x->j);
}

void ft_render_export_begin(struct ft_export *x, bool csv, const char *file,
			    const struct ft_session *first,
			    const struct ft_export_cgroup *cg, int ncg)
{
	size_t i;

	memset(x, 0, sizeof(*x));
	x->csv = csv;
	ft_exportrow_begin(&x->rs, first, cg, ncg);
	for (i = 0; i < first->sample.nr_zones && x->nz < FT_EXPORT_ZONES; i++) {
		const struct ft_zi_zone *zi = first->sample.zones[i].zi;

		if (!ft_zi_populated(zi))
			continue;
		x->zones[x->nz].node = zi->node;
		memcpy(x->zones[x->nz].name, zi->name, sizeof(x->zones[x->nz].name));
		x->nz++;
	}
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
	struct ft_exportrow r;

	/* before the window only the counts move on */
	ft_exportrow_tick(&x->rs, s, shown ? &r : NULL);
	if (shown)
		row(x, s, t, &r);
}

void ft_render_export_end(struct ft_export *x)
{
	if (x->csv)
		return;
	ft_json_arr_end(&x->j);
	ft_json_obj_end(&x->j);
	ft_json_end(&x->j);
}
