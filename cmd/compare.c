// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop compare`: groups of recordings, metric by metric, like the
 * tables of the kernel patches behind fragtop (mmtests' compare): per group
 * the mean and standard deviation over its runs (min and max below three
 * runs), per group after the first its change against the first and a
 * mark where Welch's t-test says the difference is significant at 95%.
 * Rates are per second, so runs of different lengths compare.  Text fits
 * 80 columns (paste it into a patch mail); --json and --csv for scripts.
 *
 *   fragtop compare base=a1.ftr,a2.ftr,a3.ftr patched=b1.ftr,b2.ftr,b3.ftr
 *   fragtop compare A.ftr B.ftr
 *   fragtop compare warm=s.ftr@0..32 boosted=s.ftr@33..
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "out/csv.h"
#include "analysis/report.h"
#include "model/stats.h"
#include "cmd/cli.h"

#define MAX_GROUPS	8
#define MAX_RUNS	64
#define ALPHA		0.05

enum row {
	R_DURATION,
	R_FRAG, R_FRAG_S, R_EXTFRAG, R_EXTFRAG_S, R_OWNERSHIP,
	R_THP_OK, R_COMPACT, R_COMPACT_OK, R_DIRECT_COMPACT, R_BG_COMPACT, R_RECLAIMS, R_KSWAPD, R_KCOMPACTD, R_FRAG_STALLS,
	R_BOOST_PEAK, R_BOOSTED, R_BOOST_EPISODES,
	R_LAT0,			/* then p50, p99, max for each latency source */
	R_NR = R_LAT0 + 3 * FT_LAT_NR
};

static const struct {
	const char *name, *key, *unit;
} rows[R_NR] = {
	[R_DURATION] = { "duration s", "duration_s", "s" },
	[R_FRAG] = { "fragmenting fallbacks", "extfrag_fragmenting", "" },
	[R_FRAG_S] = { "  per second", "extfrag_fragmenting_per_s", "/s" },
	[R_EXTFRAG] = { "all fallbacks", "extfrag", "" },
	[R_EXTFRAG_S] = { "  per second", "extfrag_per_s", "/s" },
	[R_OWNERSHIP] = { "ownership changes", "extfrag_change_ownership", "" },
	[R_THP_OK] = { "THP fault success %", "thp_fault_success_pct", "%" },
	[R_COMPACT] = { "compaction stalls", "compact_stall", "" },
	[R_COMPACT_OK] = { "compaction success %", "compact_success_pct", "%" },
	[R_DIRECT_COMPACT] = { "direct compactions", "direct_compaction_stalls", "" },
	[R_BG_COMPACT] = { "bg compactions", "background_compactions", "" },
	[R_RECLAIMS] = { "direct reclaims", "direct_reclaims", "" },
	[R_KSWAPD] = { "kswapd wakes", "kswapd_wakes", "" },
	[R_KCOMPACTD] = { "kcompactd wakes", "kcompactd_wakes", "" },
	[R_FRAG_STALLS] = { "fragmentation stalls", "fragmentation_stalls", "" },
	[R_BOOST_PEAK] = { "boost peak (pages)", "boost_peak_pages", "" },
	[R_BOOSTED] = { "boosted %", "boosted_pct", "%" },
	[R_BOOST_EPISODES] = { "boost episodes", "boost_episodes", "" },
};

static const char *const lat_short[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = "compaction", [FT_LAT_RECLAIM] = "reclaim", [FT_LAT_FRAG_STALL] = "frag stall",
	[FT_LAT_BG_COMPACTION] = "bg compact",
};
static const char *const pct_name[3] = { "p50", "p99", "max" };

struct run {
	char *file;
	struct ft_rep_window w;
	double v[R_NR];
};

struct group {
	char name[32];
	int nr;
	struct run run[MAX_RUNS];
	struct ft_stats st[R_NR];
};

static double pct_of(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

/* The metrics of one report. */
static void measure(const struct ft_report *r, double *v)
{
	const int64_t *x = r->first.c, *y = r->last.c;
	double d = (double)(r->last.t_ns - r->first.t_ns) / 1e9;
	bool tr = r->rp.session.tracing;
	int i, s;

	for (i = 0; i < R_NR; i++)
		v[i] = NAN;
	v[R_DURATION] = d;
	if (tr) {
		v[R_FRAG] = (double)(y[FT_RC_FRAGMENTING] - x[FT_RC_FRAGMENTING]);
		v[R_EXTFRAG] = (double)(y[FT_RC_EXTFRAG] - x[FT_RC_EXTFRAG]);
		v[R_FRAG_S] = d > 0 ? v[R_FRAG] / d : NAN;
		v[R_EXTFRAG_S] = d > 0 ? v[R_EXTFRAG] / d : NAN;
		v[R_OWNERSHIP] = (double)(y[FT_RC_OWNERSHIP] - x[FT_RC_OWNERSHIP]);
		v[R_KSWAPD] = (double)(y[FT_RC_KSWAPD_WAKES] - x[FT_RC_KSWAPD_WAKES]);
		v[R_KCOMPACTD] = (double)(y[FT_RC_KCOMPACTD_WAKES] - x[FT_RC_KCOMPACTD_WAKES]);
		v[R_RECLAIMS] = (double)(y[FT_RC_RECLAIMS] - x[FT_RC_RECLAIMS]);
		v[R_DIRECT_COMPACT] = (double)(y[FT_RC_DIRECT_COMPACT] - x[FT_RC_DIRECT_COMPACT]);
		v[R_BG_COMPACT] = (double)(y[FT_RC_BG_COMPACT] - x[FT_RC_BG_COMPACT]);
	}
	v[R_THP_OK] = pct_of(y[FT_RC_THP_ALLOC] - x[FT_RC_THP_ALLOC],
			     y[FT_RC_THP_ALLOC] - x[FT_RC_THP_ALLOC] + y[FT_RC_THP_FALLBACK] - x[FT_RC_THP_FALLBACK]);
	v[R_COMPACT] = (double)(y[FT_RC_COMPACT_STALL] - x[FT_RC_COMPACT_STALL]);
	v[R_COMPACT_OK] = pct_of(y[FT_RC_COMPACT_SUCCESS] - x[FT_RC_COMPACT_SUCCESS],
				 y[FT_RC_COMPACT_STALL] - x[FT_RC_COMPACT_STALL]);
	if (r->lat_present[FT_LAT_FRAG_STALL])
		v[R_FRAG_STALLS] = (double)(y[FT_RC_FRAG_STALLS] - x[FT_RC_FRAG_STALLS]);
	if (r->boost_nr) {
		uint64_t peak = 0, eps = 0, samples = 0, boosted = 0;

		for (i = 0; i < r->boost_nr; i++) {
			const struct ft_boost_tick *b = &r->boost_zone[i];

			peak = b->peak > peak ? b->peak : peak;
			eps += b->episodes;
			samples += b->samples;
			boosted += b->boosted;
		}
		v[R_BOOST_PEAK] = (double)peak;
		v[R_BOOST_EPISODES] = (double)eps;
		v[R_BOOSTED] = samples ? 100.0 * (double)boosted / (double)samples : NAN;
	}
	for (s = 0; s < FT_LAT_NR; s++) {
		struct ft_rep_lat l;

		if (!r->lat_present[s] || ft_report_latency(r, s, &r->first, &r->last, &l) || !l.count)
			continue;
		v[R_LAT0 + 3 * s] = (double)l.p50_us;
		v[R_LAT0 + 3 * s + 1] = (double)l.p99_us;
		v[R_LAT0 + 3 * s + 2] = (double)l.max_us;
	}
}

static void row_name(int r, char *buf, size_t sz)
{
	if (r < R_LAT0)
		snprintf(buf, sz, "%s", rows[r].name);
	else
		snprintf(buf, sz, "%s %s us", lat_short[(r - R_LAT0) / 3], pct_name[(r - R_LAT0) % 3]);
}

static void row_key(int r, char *buf, size_t sz)
{
	static const char *const *const keys = ft_lat_names;
	static const char *const p[3] = { "p50_us", "p99_us", "max_us" };

	if (r < R_LAT0)
		snprintf(buf, sz, "%s", rows[r].key);
	else
		snprintf(buf, sz, "latency_%s_%s", keys[(r - R_LAT0) / 3], p[(r - R_LAT0) % 3]);
}

/* "NAME=FILE[,FILE...]" or "FILE"; a FILE may end in "@FROM..TO". */
static int parse_group(char *arg, struct group *g, int index, const struct ft_rep_window *dflt)
{
	char *eq = strchr(arg, '='), *files = arg, *save = NULL, *f;

	/* a name is what comes before '=', if it is not part of a path */
	if (eq && eq > arg && !memchr(arg, '/', (size_t)(eq - arg)) && eq - arg < (long)sizeof(g->name)) {
		snprintf(g->name, sizeof(g->name), "%.*s", (int)(eq - arg), arg);
		files = eq + 1;
	} else {
		const char *base = strrchr(arg, '/');

		snprintf(g->name, sizeof(g->name), "%.31s", base ? base + 1 : arg);
		if (!g->name[0])
			snprintf(g->name, sizeof(g->name), "group%d", index + 1);
	}
	for (f = strtok_r(files, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		struct run *r;
		char *at = strrchr(f, '@');

		if (g->nr == MAX_RUNS) {
			fprintf(stderr, "fragtop: compare: at most %d runs a group\n", MAX_RUNS);
			return -E2BIG;
		}
		r = &g->run[g->nr++];
		r->file = f;
		r->w = *dflt;
		if (at && strstr(at, "..")) {
			char *dots = strstr(at, "..");

			*at = '\0';
			*dots = '\0';
			r->w.from = at[1] ? at + 1 : NULL;
			r->w.to = dots[2] ? dots + 2 : NULL;
		}
	}
	if (!g->nr) {
		fprintf(stderr, "fragtop: compare: group '%s' has no recording\n", g->name);
		return -EINVAL;
	}
	return 0;
}

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

static double change_pct(const struct ft_stats *base, const struct ft_stats *g)
{
	return base->n && g->n && base->mean != 0 ? (g->mean - base->mean) * 100 / fabs(base->mean) : NAN;
}

/* Welch's p of group @g against the first; NAN when a group has fewer than 2 runs. */
static double p_value(const struct ft_stats *base, const struct ft_stats *g)
{
	struct ft_welch w;

	return ft_welch(base, g, &w) ? w.p : NAN;
}

/*
 * Columns (80): the metric (22), the first group (19), another group (19),
 * the change with its mark (10).  More groups: one block each against the
 * first.
 */
static void print_text(struct group *g, int ng)
{
	int k, r;

	for (k = 1; k < ng; k++) {
		char na[48], nb[48];

		if (k > 1)
			printf("\n");
		snprintf(na, sizeof(na), "%s (n=%d)", g[0].name, g[0].nr);
		snprintf(nb, sizeof(nb), "%s (n=%d)", g[k].name, g[k].nr);
		printf("%-22s %19.19s %19.19s %10s\n", "", na, nb, "change");
		for (r = 0; r < R_NR; r++) {
			char name[40], a[64], b[64], ch[24];
			double c, p;

			if (!g[0].st[r].n && !g[k].st[r].n)
				continue;	/* absent from both (no sampler, no such event) */
			row_name(r, name, sizeof(name));
			fmt_cell(a, sizeof(a), &g[0].st[r]);
			fmt_cell(b, sizeof(b), &g[k].st[r]);
			c = change_pct(&g[0].st[r], &g[k].st[r]);
			p = p_value(&g[0].st[r], &g[k].st[r]);
			if (isnan(c))
				snprintf(ch, sizeof(ch), "-");
			else
				snprintf(ch, sizeof(ch), "%+.1f%%%s", c, !isnan(p) && p < ALPHA ? "*" : " ");
			printf("%-22.22s %19.19s %19.19s %10s\n", name, a, b, ch);
		}
	}
	printf("\nmean ±sd over n runs (mean min-max for 2, the value for 1); rates per\n"
	       "second; * Welch's t-test p < %.2f against %s (needs 2+ runs a group)\n", ALPHA, g[0].name);
	for (k = 0; k < ng; k++) {
		int i;

		printf("%s:\n", g[k].name);
		for (i = 0; i < g[k].nr; i++) {
			const struct run *ru = &g[k].run[i];

			printf("  %s%s%s%s%s\n", ru->file, ru->w.from || ru->w.to ? "@" : "",
			       ru->w.from ? ru->w.from : "", ru->w.from || ru->w.to ? ".." : "",
			       ru->w.to ? ru->w.to : "");
		}
	}
}

static void print_json(struct group *g, int ng)
{
	struct ft_json j;
	int k, r, i;

	ft_json_init(&j, stdout, true);
	ft_json_obj_begin(&j, NULL);
	ft_json_str(&j, "test", "welch");
	ft_json_double(&j, "alpha", ALPHA);
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
	for (r = 0; r < R_NR; r++) {
		char key[64], name[40];

		row_key(r, key, sizeof(key));
		row_name(r, name, sizeof(name));
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "metric", key);
		ft_json_str(&j, "label", name[0] == ' ' ? name + 2 : name);
		ft_json_arr_begin(&j, "groups");
		for (k = 0; k < ng; k++) {
			const struct ft_stats *s = &g[k].st[r];
			double p = k ? p_value(&g[0].st[r], s) : NAN;

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
				ft_json_double(&j, "change_pct", change_pct(&g[0].st[r], s));
				ft_json_double(&j, "p_value", p);
				if (isnan(p))
					ft_json_null(&j, "significant");
				else
					ft_json_bool(&j, "significant", p < ALPHA);
			}
			ft_json_obj_end(&j);
		}
		ft_json_arr_end(&j);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

static void print_csv(struct group *g, int ng)
{
	int k, r;

	printf("metric,group,n,mean,sd,min,max,change_pct,p_value,significant\n");
	for (r = 0; r < R_NR; r++) {
		char key[64];

		row_key(r, key, sizeof(key));
		for (k = 0; k < ng; k++) {
			const struct ft_stats *s = &g[k].st[r];
			double p = k ? p_value(&g[0].st[r], s) : NAN;

			printf("%s,", key);
			ft_csv_field(stdout, g[k].name);
			printf(",%zu", s->n);
			ft_csv_num(stdout, s->mean);
			ft_csv_num(stdout, s->sd);
			ft_csv_num(stdout, s->min);
			ft_csv_num(stdout, s->max);
			ft_csv_num(stdout, k ? change_pct(&g[0].st[r], s) : NAN);
			ft_csv_num(stdout, p);
			printf(",%s\n", isnan(p) ? "" : p < ALPHA ? "yes" : "no");
		}
	}
}

static struct {
	bool json, csv;
	struct ft_rep_window window;	/* for every FILE without @FROM..TO */
} o;

static const struct ft_opt compare_opts[] = {
	FT_OPT_JSON(o.json),
	{ "csv", 0, FT_OPT_FLAG, NULL, "print CSV: one line per metric and group", .var = &o.csv },
	FT_OPT_FROM(o.window.from),
	FT_OPT_TO(o.window.to),
};

static int run_compare(int argc, char **argv)
{
	static struct group g[MAX_GROUPS];
	struct ft_report *rep;
	int err, first, ng, k, i, r;

	err = ft_cli_parse(&ft_cmd_compare, argc, argv, &first);
	if (err >= 0)
		return err;
	ng = argc - first;
	if (ng < 2)
		return ft_cli_usage_error(&ft_cmd_compare, "two groups (or two recordings) expected");
	if (ng > MAX_GROUPS)
		return ft_cli_usage_error(&ft_cmd_compare, "at most %d groups", MAX_GROUPS);
	if (o.json && o.csv)
		return ft_cli_usage_error(&ft_cmd_compare, "--json or --csv, not both");
	memset(g, 0, sizeof(g));
	for (k = 0; k < ng; k++)
		if (parse_group(argv[first + k], &g[k], k, &o.window))
			return 2;
	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return 1;
	/* one report at a time: each is large, only its metrics are kept */
	for (k = 0; k < ng; k++) {
		for (i = 0; i < g[k].nr; i++) {
			err = ft_report_build(rep, g[k].run[i].file, &g[k].run[i].w);
			if (!err)
				measure(rep, g[k].run[i].v);
			ft_report_release(rep);
			if (err) {
				free(rep);
				return 1;
			}
		}
		for (r = 0; r < R_NR; r++) {
			double vals[MAX_RUNS];

			for (i = 0; i < g[k].nr; i++)
				vals[i] = g[k].run[i].v[r];
			ft_stats_of(vals, (size_t)g[k].nr, &g[k].st[r]);
		}
	}
	free(rep);
	if (o.json)
		print_json(g, ng);
	else if (o.csv)
		print_csv(g, ng);
	else
		print_text(g, ng);
	return 0;
}

const struct ft_cmd ft_cmd_compare = {
	.name = "compare",
	.args = "GROUP GROUP...",
	.summary = "compare groups of recordings: mean, sd, change, significance",
	.about = "A GROUP is NAME=FILE[,FILE...] or a single FILE; a FILE may end in\n"
		 "@FROM..TO (seconds or HH:MM[:SS], either may be left out) to take a\n"
		 "stretch of it.  Per group and metric: the mean and standard deviation\n"
		 "over its runs (min-max for two, the value for one), and for each group\n"
		 "after the first the change against the first, marked * where Welch's\n"
		 "t-test gives p < 0.05.  Rates are per second.",
	FT_CMD_OPTS(compare_opts),
	.run = run_compare,
};
