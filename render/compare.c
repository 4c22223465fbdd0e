// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop compare` printed: the measured groups (analysis/compare.h) as
 * text that fits 80 columns (paste it into a patch mail), JSON or CSV.
 */
#include "render/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "model/stats.h"
#include "render/csv.h"

/* A number in at most 8 columns. */
static void fmt8(char *buf, size_t sz, double v)
{
	if (isnan(v))
		snprintf(buf, sz, "-");
	else if (fabs(v) < 1e5 && v != floor(v))
		snprintf(buf, sz, "%.1f", v);
	else if (fabs(v) < 1e8)
		snprintf(buf, sz, "%.0f", v);
	else
		snprintf(buf, sz, "%.2e", v);
}

/* "mean ±sd" (3 runs or more), "mean (min-max)" (2), "value" (1): at most 19 columns. */
static void fmt_cell(char *buf, size_t sz, const struct ft_stats *s)
{
	char a[16], b[16], c[16];

	fmt8(a, sizeof(a), s->mean);
	if (s->n >= 3) {
		fmt8(b, sizeof(b), s->sd);
		snprintf(buf, sz, "%s ±%s", a, b);
	} else if (s->n == 2) {
		fmt8(b, sizeof(b), s->min);
		fmt8(c, sizeof(c), s->max);
		snprintf(buf, sz, "%s %s-%s", a, b, c);
		if (strlen(buf) > 19)
			snprintf(buf, sz, "%s", a);
	} else {
		snprintf(buf, sz, "%s", a);
	}
}

/* @text after a label ending at column @indent - 1, wrapped at " < " to 80 columns. */
static void print_key(int indent, const char *text)
{
	int col = indent;

	while (*text) {
		const char *lt = strstr(text + 1, " < ");
		int n = lt ? (int)(lt - text) : (int)strlen(text);

		if (col > indent && col + n > 80) {
			printf("\n%*s", indent, "");
			col = indent;
			if (*text == ' ')
				text++, n--;
		}
		printf("%.*s", n, text);
		col += n;
		text += n;
	}
	printf("\n");
}

/* @v with @unit ("%", " pt"), one decimal and the significance mark; "-" for NAN, never "-0.0". */
static const char *change_text(char *buf, size_t sz, double v, const char *unit, bool significant)
{
	if (isnan(v))
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%+.1f%s%s", fabs(v) < 0.05 ? 0.0 : v, unit,
			 significant ? "*" : " ");
	return buf;
}

const char *ft_render_compare_change(char *buf, size_t sz, double change_pct, bool significant)
{
	return change_text(buf, sz, change_pct, "%", significant);
}

const char *ft_render_compare_points(char *buf, size_t sz, double points, bool significant)
{
	return change_text(buf, sz, points, " pt", significant);
}

/*
 * One row: its label, the first group, group @k, the change: relative,
 * or in points for a percentage (@pts: 63.9 to 30.3 is -33.6 pt, not -52.6%).
 * Columns (80): the metric (22), the first group (19), another group (19),
 * the change with its mark (10).  More groups: one block each against the
 * first.
 */
static void text_row(const char *name, const struct ft_stats *a, const struct ft_stats *b, bool pts)
{
	char ca[64], cb[64], ch[24];
	double p = ft_cmp_p_value(a, b);
	bool sig = !isnan(p) && p < FT_CMP_ALPHA;

	fmt_cell(ca, sizeof(ca), a);
	fmt_cell(cb, sizeof(cb), b);
	if (pts)
		ft_render_compare_points(ch, sizeof(ch), ft_cmp_change_points(a, b), sig);
	else
		ft_render_compare_change(ch, sizeof(ch), ft_cmp_change_pct(a, b), sig);
	printf("%-22.22s %19.19s %19.19s %10s\n", name, ca, cb, ch);
}

/*
 * The groups' column heads: "NAME (n=N)" when every one fits in 19
 * columns, else a letter each ("A (n=1)"), named in full under the table.
 */
static bool heads_lettered(const struct ft_cmp_group *g, int ng)
{
	char b[160];
	int k;

	for (k = 0; k < ng; k++) {
		snprintf(b, sizeof(b), "%s (n=%d)", g[k].name, g[k].nr);
		if (strlen(b) > 19)
			return true;
	}
	return false;
}

static const char *head(const struct ft_cmp_group *g, int k, bool lettered, bool with_n, char *buf,
			size_t sz)
{
	char name[8];

	if (lettered)
		snprintf(name, sizeof(name), "%c", 'A' + k);
	if (with_n)
		snprintf(buf, sz, "%s (n=%d)", lettered ? name : g[k].name, g[k].nr);
	else
		snprintf(buf, sz, "%s", lettered ? name : g[k].name);
	return buf;
}

/* Fragmenting fallbacks a second by kernel stack (runs recorded with --stacks). */
static void print_text_stacks(const struct ft_cmp_group *g, int ng,
			      const struct ft_cmp_stacks *stacks,
			      bool lettered)
{
	char ha[160], hb[160];
	int k, r;

	if (!stacks->nr)
		return;
	printf("\nfragmenting fallbacks/s by kernel stack (runs recorded with --stacks)\n");
	for (k = 1; k < ng; k++)
		for (r = 0; r < stacks->nr; r++) {
			char name[24];

			snprintf(name, sizeof(name), "  stack %d", r + 1);
			if (ng > 2 && r == 0)
				printf("%-22s %19.19s %19.19s\n", "",
				       head(g, 0, lettered, false, ha, sizeof(ha)),
				       head(g, k, lettered, false, hb, sizeof(hb)));
			text_row(name, &stacks->st[0][r], &stacks->st[k][r], false);
		}
	for (r = 0; r < stacks->nr; r++) {
		printf("  stack %-2d ", r + 1);
		print_key(11, stacks->key[r]);
	}
}

/* Fragmenting fallbacks a second by cgroup, named (long names numbered, each whole below). */
static void print_text_cgroups(const struct ft_cmp_group *g, int ng, const struct ft_cmp_stacks *cg,
			       bool lettered)
{
	char ha[160], hb[160];
	bool keyed = false;
	int k, r;

	if (!cg->nr)
		return;
	/* a name longer than the label column: every row by number, the names whole under them */
	for (r = 0; r < cg->nr; r++)
		keyed |= strlen(cg->key[r]) > 20;
	printf("\nfragmenting fallbacks/s by cgroup\n");
	for (k = 1; k < ng; k++)
		for (r = 0; r < cg->nr; r++) {
			char name[24];

			if (ng > 2 && r == 0)
				printf("%-22s %19.19s %19.19s\n", "",
				       head(g, 0, lettered, false, ha, sizeof(ha)),
				       head(g, k, lettered, false, hb, sizeof(hb)));
			if (keyed)
				snprintf(name, sizeof(name), "  cgroup %d", r + 1);
			else
				snprintf(name, sizeof(name), "  %s", cg->key[r]);
			text_row(name, &cg->st[0][r], &cg->st[k][r], false);
		}
	for (r = 0; keyed && r < cg->nr; r++)
		printf("  cgroup %-2d %s\n", r + 1, cg->key[r]);
}

/* The rules that fired in a different share of runs: each group's fired of checked. */
static void print_text_findings(const struct ft_cmp_group *g, int ng,
				const struct ft_cmp_findings *fd,
				bool lettered)
{
	int r, k;

	if (!fd->nr)
		return;
	printf("\nfindings that differ: runs where the rule fired, of the runs it judged\n");
	for (r = 0; r < fd->nr; r++) {
		printf("  %-20s", fd->f[r].rule->name);
		for (k = 0; k < ng; k++) {
			char na[160];

			printf("  %s %d/%d", head(g, k, lettered, false, na, sizeof(na)),
			       fd->f[r].fired[k],
			       fd->f[r].checked[k]);
		}
		printf("\n");
	}
}

/* The comparison as text of 80 columns on stdout. */
void ft_render_compare_text(const struct ft_cmp_group *g, int ng, const struct ft_cmp_extra *x)
{
	const struct ft_cmp_stacks *stacks = x->stacks, *cgroups = x->cgroups;
	bool lettered = heads_lettered(g, ng);
	int k, r;

	for (k = 1; k < ng; k++) {
		char na[160], nb[160];

		if (k > 1)
			printf("\n");
		printf("%-22s %19.19s %19.19s %10s\n", "",
		       head(g, 0, lettered, true, na, sizeof(na)),
		       head(g, k, lettered, true, nb, sizeof(nb)), "change");
		for (r = 0; r < FT_CMP_NR; r++) {
			char name[40];

			if (!g[0].st[r].n && !g[k].st[r].n)
				continue;	/* absent from both (no sampler, no such event) */
			ft_cmp_row_name(r, name, sizeof(name));
			text_row(name, &g[0].st[r], &g[k].st[r], ft_cmp_row_is_pct(r));
		}
	}
	print_text_stacks(g, ng, stacks, lettered);
	print_text_cgroups(g, ng, cgroups, lettered);
	print_text_findings(g, ng, x->findings, lettered);
	printf("\nmean ±sd over n runs (mean min-max for 2, the value for 1); rates per\n"
	       "second; the change relative, a percentage's in points (pt); * Welch's\n"
	       "t-test p < %.2f against %s (needs 2+ runs a group)\n", FT_CMP_ALPHA,
	       lettered ? "A" : g[0].name);
	for (k = 0; k < ng; k++) {
		int i;

		if (lettered)
			printf("%c = %s:\n", 'A' + k, g[k].name);
		else
			printf("%s:\n", g[k].name);
		for (i = 0; i < g[k].nr; i++) {
			const struct ft_cmp_run *ru = &g[k].run[i];

			printf("  %s%s%s%s%s\n", ru->file, ru->w.from || ru->w.to ? "@" : "",
			       ru->w.from ? ru->w.from : "", ru->w.from || ru->w.to ? ".." : "",
			       ru->w.to ? ru->w.to : "");
		}
	}
}

/*
 * @arr: fragmenting fallbacks a second per key (a kernel stack, a cgroup), each group's statistics.
 */
static void json_keyed(struct ft_json *j, const struct ft_cmp_group *g, int ng, const char *arr,
		       const char *keyname,
		       const struct ft_cmp_stacks *stacks)
{
	int k, r, i;

	ft_json_arr_begin(j, arr);
	for (r = 0; r < stacks->nr; r++) {
		ft_json_obj_begin(j, NULL);
		ft_json_str(j, keyname, stacks->key[r]);
		ft_json_arr_begin(j, "groups");
		for (k = 0; k < ng; k++) {
			const struct ft_stats *s = &stacks->st[k][r];
			double p = k ? ft_cmp_p_value(&stacks->st[0][r], s) : NAN;

			ft_json_obj_begin(j, NULL);
			ft_json_u64(j, "n", s->n);
			ft_json_double(j, "mean", s->mean);
			ft_json_double(j, "sd", s->sd);
			ft_json_arr_begin_inline(j, "runs");
			for (i = 0; i < g[k].nr; i++)
				ft_json_double(j, NULL, stacks->v[k][r][i]);
			ft_json_arr_end(j);
			if (k) {
				ft_json_double(j, "change_pct",
					       ft_cmp_change_pct(&stacks->st[0][r], s));
				ft_json_double(j, "p_value", p);
			}
			ft_json_obj_end(j);
		}
		ft_json_arr_end(j);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/*
 * "findings": the rules that fired in a different share of runs, each group's fired and checked
 * runs.
 */
static void json_findings(struct ft_json *j, int ng, const struct ft_cmp_findings *fd)
{
	int r, k;

	ft_json_arr_begin(j, "findings");
	for (r = 0; r < fd->nr; r++) {
		ft_json_obj_begin(j, NULL);
		ft_json_str(j, "rule", fd->f[r].rule->name);
		ft_json_arr_begin(j, "groups");
		for (k = 0; k < ng; k++) {
			ft_json_obj_begin_inline(j, NULL);
			ft_json_i64(j, "fired", fd->f[r].fired[k]);
			ft_json_i64(j, "checked", fd->f[r].checked[k]);
			ft_json_double(j, "share", fd->f[r].st[k].mean);
			ft_json_obj_end(j);
		}
		ft_json_arr_end(j);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* The comparison as one JSON object on stdout. */
void ft_render_compare_json(const struct ft_cmp_group *g, int ng, const struct ft_cmp_extra *x)
{
	const struct ft_cmp_stacks *stacks = x->stacks, *cgroups = x->cgroups;
	struct ft_json j;
	int k, r, i;

	ft_json_init(&j, stdout, true);
	ft_json_obj_begin(&j, NULL);
	ft_json_str(&j, "test", "welch");
	ft_json_double(&j, "alpha", FT_CMP_ALPHA);
	ft_json_arr_begin(&j, "groups");
	for (k = 0; k < ng; k++) {
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "name", g[k].name);
		ft_json_arr_begin(&j, "runs");
		for (i = 0; i < g[k].nr; i++) {
			ft_json_obj_begin_inline(&j, NULL);
			ft_json_str(&j, "file", g[k].run[i].file);
			if (g[k].run[i].w.from)
				ft_json_str(&j, "from", g[k].run[i].w.from);
			else
				ft_json_null(&j, "from");
			if (g[k].run[i].w.to)
				ft_json_str(&j, "to", g[k].run[i].w.to);
			else
				ft_json_null(&j, "to");
			ft_json_obj_end(&j);
		}
		ft_json_arr_end(&j);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_arr_begin(&j, "rows");
	for (r = 0; r < FT_CMP_NR; r++) {
		char key[64], name[40];

		ft_cmp_row_key(r, key, sizeof(key));
		ft_cmp_row_name(r, name, sizeof(name));
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "metric", key);
		ft_json_str(&j, "label", name[0] == ' ' ? name + 2 : name);
		ft_json_arr_begin(&j, "groups");
		for (k = 0; k < ng; k++) {
			const struct ft_stats *s = &g[k].st[r];
			double p = k ? ft_cmp_p_value(&g[0].st[r], s) : NAN;

			ft_json_obj_begin(&j, NULL);
			ft_json_u64(&j, "n", s->n);
			ft_json_double(&j, "mean", s->mean);
			ft_json_double(&j, "sd", s->sd);
			ft_json_double(&j, "min", s->min);
			ft_json_double(&j, "max", s->max);
			ft_json_arr_begin_inline(&j, "runs");
			for (i = 0; i < g[k].nr; i++)
				ft_json_double(&j, NULL, g[k].run[i].v[r]);
			ft_json_arr_end(&j);
			if (k) {
				ft_json_double(&j, "change_pct", ft_cmp_change_pct(&g[0].st[r], s));
				ft_json_double(&j, "change_points", ft_cmp_row_is_pct(r) ?
					       ft_cmp_change_points(&g[0].st[r], s) : NAN);
				ft_json_double(&j, "p_value", p);
				if (isnan(p))
					ft_json_null(&j, "significant");
				else
					ft_json_bool(&j, "significant", p < FT_CMP_ALPHA);
			}
			ft_json_obj_end(&j);
		}
		ft_json_arr_end(&j);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	/* fragmenting fallbacks/s by kernel stack (--stacks) */
	json_keyed(&j, g, ng, "stacks", "stack", stacks);
	json_keyed(&j, g, ng, "cgroups", "cgroup", cgroups);	/* ... by cgroup, named */
	json_findings(&j, ng, x->findings);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

/* One CSV line: @s of group @group, against @base (NULL: the first group). */
static void csv_row(const char *metric, const char *group, const struct ft_stats *base,
		    const struct ft_stats *s, bool pct)
{
	double p = base ? ft_cmp_p_value(base, s) : NAN;

	ft_render_csv_field(stdout, metric);
	printf(",");
	ft_render_csv_field(stdout, group);
	printf(",%zu", s->n);
	ft_render_csv_num(stdout, s->mean);
	ft_render_csv_num(stdout, s->sd);
	ft_render_csv_num(stdout, s->min);
	ft_render_csv_num(stdout, s->max);
	ft_render_csv_num(stdout, base ? ft_cmp_change_pct(base, s) : NAN);
	ft_render_csv_num(stdout, base && pct ? ft_cmp_change_points(base, s) : NAN);
	ft_render_csv_num(stdout, p);
	printf(",%s\n", isnan(p) ? "" : p < FT_CMP_ALPHA ? "yes" : "no");
}

/* The comparison as CSV on stdout: one line per metric and group. */
void ft_render_compare_csv(const struct ft_cmp_group *g, int ng, const struct ft_cmp_extra *x)
{
	const struct ft_cmp_stacks *stacks = x->stacks, *cgroups = x->cgroups;
	int k, r;

	printf("metric,group,n,mean,sd,min,max,change_pct,change_points,p_value,significant\n");
	for (r = 0; r < FT_CMP_NR; r++) {
		char key[64];

		ft_cmp_row_key(r, key, sizeof(key));
		for (k = 0; k < ng; k++)
			csv_row(key, g[k].name, k ? &g[0].st[r] : NULL, &g[k].st[r],
				ft_cmp_row_is_pct(r));
	}
	for (r = 0; r < stacks->nr; r++) {
		char key[FT_STACK_KEY + 8];

		snprintf(key, sizeof(key), "stack:%s", stacks->key[r]);
		for (k = 0; k < ng; k++)
			csv_row(key, g[k].name, k ? &stacks->st[0][r] : NULL, &stacks->st[k][r],
				false);
	}
	for (r = 0; r < cgroups->nr; r++) {
		char key[FT_STACK_KEY + 8];

		snprintf(key, sizeof(key), "cgroup:%s", cgroups->key[r]);
		for (k = 0; k < ng; k++)
			csv_row(key, g[k].name, k ? &cgroups->st[0][r] : NULL, &cgroups->st[k][r],
				false);
	}
	/* a differing finding: each checked run 1 (fired) or 0, so the mean is the share fired */
	for (r = 0; r < x->findings->nr; r++) {
		const struct ft_cmp_finding *f = &x->findings->f[r];
		char key[64];

		snprintf(key, sizeof(key), "finding:%s", f->rule->name);
		for (k = 0; k < ng; k++)
			csv_row(key, g[k].name, k ? &f->st[0] : NULL, &f->st[k], false);
	}
}
