// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/fleet.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/cell.h"
#include "base/clock.h"
#include "base/json.h"
#include "base/sanitize.h"

static void when(double t, char *buf, size_t sz)
{
	if (!ft_utc_format(t, buf, sz))
		snprintf(buf, sz, "%.0f", t);
}

/* The labels as "k=v k=v", made safe. */
static const char *labels_line(const char *labels, char *buf, size_t sz)
{
	char tmp[FT_FLEET_LABELS];

	return ft_safe(ft_fleet_labels_line(labels, tmp, sizeof(tmp)), buf, sz);
}

static int instance_width(const struct ft_fleet *f)
{
	size_t i, w = strlen("INSTANCE");

	for (i = 0; i < f->nshown; i++) {
		size_t n = strlen(f->hosts[f->order[i]].instance);

		if (n > w)
			w = n;
	}
	return w > 40 ? 40 : (int)w;
}

void ft_render_fleet_text(FILE *out, const struct ft_fleet *f, const struct ft_fleet_meta *m)
{
	char at[32], cell[64], safe[4 * FT_FLEET_INSTANCE], lab[4 * FT_FLEET_LABELS];
	size_t i, up = 0;
	int c, iw = instance_width(f);

	for (i = 0; i < f->nhosts; i++)
		up += f->hosts[i].up == 1;
	when(m->at, at, sizeof(at));
	fprintf(out, "%zu hosts, %zu up, %zu shown%s%s; at %s; sorted by %s%s; %lu queries, %llu "
		     "bytes\n",
		f->nhosts, up, f->nshown, f->filter[0] ? " by " : "",
		f->filter[0] ? ft_safe(f->filter, lab, sizeof(lab)) : "",
		at, f->cols[f->sort].head, f->inverted ? " (inverted)" : "", m->queries, m->bytes);
	if (f->no_rules)
		fprintf(out, "no fleet series: load dist/fragtop-rules.yml's fragtop-fleet group "
			     "into Prometheus\n");
	fprintf(out, "%-*s", iw, "INSTANCE");
	for (c = 1; c < f->ncols; c++)
		fprintf(out, " %*s", f->cols[c].width, f->cols[c].head);
	fprintf(out, "  LABELS\n");
	for (i = 0; i < f->nshown; i++) {
		const struct ft_fleet_host *h = &f->hosts[f->order[i]];

		fprintf(out, "%-*s", iw, ft_safe(h->instance, safe, sizeof(safe)));
		for (c = 1; c < f->ncols; c++)
			fprintf(out, " %*s", f->cols[c].width,
				ft_fleet_cell(f, h, c, cell, sizeof(cell)));
		fprintf(out, "  %s\n", labels_line(h->labels, lab, sizeof(lab)));
	}
}

static void json_labels(struct ft_json *j, const char *labels)
{
	char tmp[FT_FLEET_LABELS];
	char *p = tmp, *next, *eq;

	ft_json_obj_begin_inline(j, "labels");
	snprintf(tmp, sizeof(tmp), "%s", labels);
	while (*p) {
		next = strchr(p, FT_FLEET_LABEL_SEP[0]);
		if (next)
			*next = '\0';
		eq = strchr(p, '=');
		if (eq) {
			*eq = '\0';
			ft_json_str(j, p, eq + 1);
		}
		if (!next)
			break;
		p = next + 1;
	}
	ft_json_obj_end(j);
}

static void json_meta(struct ft_json *j, const struct ft_fleet_meta *m)
{
	char at[32];

	when(m->at, at, sizeof(at));
	ft_json_str(j, "prometheus", m->url);
	ft_json_str(j, "selector", m->selector);
	ft_json_str(j, "at", at);
	ft_json_double(j, "window_seconds", m->window);
	ft_json_u64(j, "queries", m->queries);
	ft_json_u64(j, "bytes_read", m->bytes);
	ft_json_double(j, "refresh_seconds", m->seconds);
}

static void json_host(struct ft_json *j, const struct ft_fleet *f, const struct ft_fleet_host *h)
{
	char name[40];
	int c, k;

	ft_json_obj_begin(j, NULL);
	ft_json_str(j, "instance", h->instance);
	ft_json_bool(j, "up", h->up == 1);
	json_labels(j, h->labels);
	for (c = 2; c < f->ncols; c++)
		if (f->cols[c].fig != FT_FLEET_FIG_CONTIG)
			ft_json_double(j, f->cols[c].json, h->v[c]);
	ft_json_obj_begin(j, "contiguous_blocks");
	for (c = 2; c < f->ncols; c++) {
		if (f->cols[c].fig != FT_FLEET_FIG_CONTIG || f->cols[c].after)
			continue;
		snprintf(name, sizeof(name), "%s", f->cols[c].head);
		ft_json_obj_begin_inline(j, name);
		ft_json_double(j, "now", h->v[c]);
		ft_json_double(j, "after_compaction", c + 1 < f->ncols ? h->v[c + 1] : NAN);
		ft_json_obj_end(j);
	}
	ft_json_obj_end(j);
	ft_json_arr_begin_inline(j, "trend");
	for (k = 0; k < FT_FLEET_SPARK; k++)
		ft_json_double(j, NULL, h->spark[k]);
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

void ft_render_fleet_json(FILE *out, const struct ft_fleet *f, const struct ft_fleet_meta *m)
{
	struct ft_json j;
	size_t i, up = 0;

	for (i = 0; i < f->nhosts; i++)
		up += f->hosts[i].up == 1;
	ft_json_init(&j, out, true);
	ft_json_obj_begin(&j, NULL);
	json_meta(&j, m);
	ft_json_str(&j, "sort", f->cols[f->sort].head);
	ft_json_bool(&j, "inverted", f->inverted);
	ft_json_str(&j, "filter", f->filter);
	ft_json_bool(&j, "rules_loaded", !f->no_rules);
	ft_json_u64(&j, "hosts_total", f->nhosts);
	ft_json_u64(&j, "hosts_up", up);
	ft_json_str(&j, "trend_of",
		    f->cols[f->sort].kind == FT_FLEET_COL_INSTANCE ? "FALLBK/s" :
		    f->cols[f->sort].head);
	ft_json_arr_begin(&j, "hosts");
	for (i = 0; i < f->nshown; i++)
		json_host(&j, f, &f->hosts[f->order[i]]);
	ft_json_arr_end(&j);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

static void num(FILE *out, int w, double v)
{
	if (isnan(v))
		fprintf(out, " %*s", w, "-");
	else
		fprintf(out, " %*.0f", w, v);
}

void ft_render_fleet_detail_text(FILE *out, const struct ft_fleet_detail *d,
				 const struct ft_fleet_meta *m)
{
	char at[32], safe[4 * 256];
	int i, o, k;

	when(m->at, at, sizeof(at));
	fprintf(out, "%s at %s (Prometheus %s; %lu queries)\n",
		ft_safe(d->instance, safe, sizeof(safe)), at,
		m->url, m->queries);
	if (!d->nzones)
		fprintf(out, "no zone series for this instance\n");
	fprintf(out, "\nfree blocks by order\n%-4s %-8s", "NODE", "ZONE");
	for (o = 0; o < FT_FLEET_ORDERS; o++)
		fprintf(out, " %7d", o);
	fprintf(out, " %7s %9s %9s %9s\n", "11+", "FREE_MiB", "MANAGED", "FALLBK/s");
	for (i = 0; i < d->nzones; i++) {
		const struct ft_fleet_zone *z = &d->zones[i];

		char zn[64];

		fprintf(out, "%-4s %-8s", ft_safe(z->node, safe, sizeof(safe)),
			ft_safe(z->zone, zn, sizeof(zn)));
		for (o = 0; o <= FT_FLEET_ORDERS; o++)
			num(out, 7, o <= z->max_order ? z->free_blocks[o] : NAN);
		num(out, 9, z->free_bytes / 1048576);
		num(out, 9, z->managed_bytes / 1048576);
		fprintf(out, " %9s\n", ft_cell(safe, sizeof(safe), z->fallbacks, 9, 2));
	}
	if (d->sizes.n) {
		fprintf(out, "\ncontiguous blocks (now / after compaction)\n%-4s %-8s", "NODE",
			"ZONE");
		for (k = 0; k < d->sizes.n; k++)
			fprintf(out, " %15s", d->sizes.name[k]);
		fprintf(out, "\n");
		for (i = 0; i < d->nzones; i++) {
			const struct ft_fleet_zone *z = &d->zones[i];

			char zn[64];

			fprintf(out, "%-4s %-8s", ft_safe(z->node, safe, sizeof(safe)),
				ft_safe(z->zone, zn, sizeof(zn)));
			for (k = 0; k < d->sizes.n; k++) {
				num(out, 7, z->contig[k][0]);
				fprintf(out, " /");
				num(out, 5, z->contig[k][1]);
			}
			fprintf(out, "\n");
		}
	}
	fprintf(out, "\ncgroups by fragmenting fallbacks/s (--collector.cgroups)\n");
	if (!d->ncgroups)
		fprintf(out, "  none\n");
	for (i = 0; i < d->ncgroups; i++)
	{
		char nm[4 * 128];

		fprintf(out, "  %9s  %s%s%s\n",
			ft_cell((char[16]){ 0 }, 16, d->cgroups[i].fallbacks, 9, 2),
			ft_safe(d->cgroups[i].cgroup, safe, sizeof(safe)),
			d->cgroups[i].name[0] ? "  " : "",
			ft_safe(d->cgroups[i].name, nm, sizeof(nm)));
	}
}

static void spark_json(struct ft_json *j, const char *key, const double *v)
{
	int k;

	ft_json_arr_begin_inline(j, key);
	for (k = 0; k < FT_FLEET_SPARK; k++)
		ft_json_double(j, NULL, v[k]);
	ft_json_arr_end(j);
}

void ft_render_fleet_detail_json(FILE *out, const struct ft_fleet_detail *d,
				 const struct ft_fleet_meta *m)
{
	struct ft_json j;
	int i, o, k;

	ft_json_init(&j, out, true);
	ft_json_obj_begin(&j, NULL);
	json_meta(&j, m);
	ft_json_str(&j, "instance", d->instance);
	ft_json_arr_begin(&j, "zones");
	for (i = 0; i < d->nzones; i++) {
		const struct ft_fleet_zone *z = &d->zones[i];

		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "node", z->node);
		ft_json_str(&j, "zone", z->zone);
		ft_json_arr_begin_inline(&j, "free_blocks");
		for (o = 0; o <= z->max_order && o < FT_FLEET_ORDERS; o++)
			ft_json_double(&j, NULL, z->free_blocks[o]);
		ft_json_arr_end(&j);
		ft_json_double(&j, "free_blocks_above",
			       z->max_order >= FT_FLEET_ORDERS ? z->free_blocks[FT_FLEET_ORDERS] :
			       0);
		ft_json_double(&j, "free_bytes", z->free_bytes);
		ft_json_double(&j, "managed_bytes", z->managed_bytes);
		ft_json_double(&j, "fragmenting_fallbacks_per_second", z->fallbacks);
		ft_json_obj_begin(&j, "contiguous_blocks");
		for (k = 0; k < d->sizes.n; k++) {
			ft_json_obj_begin_inline(&j, d->sizes.name[k]);
			ft_json_double(&j, "now", z->contig[k][0]);
			ft_json_double(&j, "after_compaction", z->contig[k][1]);
			ft_json_obj_end(&j);
		}
		ft_json_obj_end(&j);
		spark_json(&j, "free_bytes_trend", z->free_spark);
		spark_json(&j, "fallbacks_trend", z->fallback_spark);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_arr_begin(&j, "cgroups");
	for (i = 0; i < d->ncgroups; i++) {
		ft_json_obj_begin_inline(&j, NULL);
		ft_json_str(&j, "cgroup", d->cgroups[i].cgroup);
		ft_json_str(&j, "name", d->cgroups[i].name);
		ft_json_double(&j, "fragmenting_fallbacks_per_second", d->cgroups[i].fallbacks);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}
