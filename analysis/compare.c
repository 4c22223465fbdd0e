// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/compare.h"

#include "model/contig.h"
#include "model/fit.h"
#include "kernel/thp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double ft_cmp_change_pct(const struct ft_stats *base, const struct ft_stats *g)
{
	return base->n && g->n &&
	base->mean != 0 ? (g->mean - base->mean) * 100 / fabs(base->mean) : NAN;
}


double ft_cmp_change_points(const struct ft_stats *base, const struct ft_stats *g)
{
	return base->n && g->n ? g->mean - base->mean : NAN;
}

double ft_cmp_p_value(const struct ft_stats *base, const struct ft_stats *g)
{
	struct ft_welch w;

	return ft_welch(base, g, &w) ? w.p : NAN;
}

/* The run's most fragmenting stack groups, a second. */
static void measure_stacks(const struct ft_report *rep, struct ft_cmp_run *ru)
{
	double s = ft_measure_secs(rep);
	struct ft_stack_group *sg;
	struct ft_cmp_stack *st;
	uint64_t other, unstacked;
	size_t n, i;

	ru->have_stacks = rep->stack_first != NULL;
	if (!ru->have_stacks || !(sg = calloc(FT_CMP_RUN_STACKS, sizeof(*sg))))
		return;
	n = ft_report_stacks(rep, sg, FT_CMP_RUN_STACKS, &other, &unstacked);
	if (n > FT_CMP_RUN_STACKS)
		n = FT_CMP_RUN_STACKS;
	st = calloc(n ? n : 1, sizeof(*st));
	if (!st) {
		free(sg);
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(st[i].key, sizeof(st[i].key), "%s", sg[i].key);
		st[i].per_s = s > 0 ? (double)sg[i].fragmenting / s : NAN;
	}
	free(sg);
	free(ru->stacks);	/* a run measured again keeps no earlier array */
	ru->stacks = st;
	ru->nr_stacks = (int)n;
}

/*
 * The run's most fragmenting cgroups, a second, by name (rows of one name,
 * a pod's containers' scopes apart, summed).
 */
static void measure_cgroups(struct ft_report *rep, struct ft_cmp_run *ru)
{
	const struct ft_cgroups *c = rep->cgroups;
	double s = ft_measure_secs(rep);
	char name[FT_CG_PATH], key[FT_STACK_KEY];
	struct ft_cmp_stack *cg;
	int i, k, n = 0;

	ru->have_cgroups = rep->procs && !ft_report_by_cgroup(rep) && rep->cgrows;
	if (!ru->have_cgroups || !(cg = calloc(FT_CMP_RUN_STACKS, sizeof(*cg))))
		return;
	for (i = 0; i < rep->cgrows->nr; i++) {
		const struct ft_cgrow *r = &rep->cgrows->r[i];

		if (r->other || !r->path[0] || !r->c[FT_PC_FRAGMENTING])
			continue;
		ft_cgroup_name(r->path, c ? c->pods : NULL, c ? c->nr_pods : 0, name, sizeof(name));
		/* a name longer than a key keeps its tail and a hash of it all: two stay two */
		ft_cgroup_path_key(name, strlen(name), key, sizeof(key));
		for (k = 0; k < n && strcmp(cg[k].key, key); k++)
			;
		if (k == n) {
			if (k == FT_CMP_RUN_STACKS)
				/* rows come most fragmenting first: the rest are smaller */
				continue;
			memcpy(cg[n++].key, key, sizeof(key));
		}
		cg[k].per_s += s > 0 ? (double)r->c[FT_PC_FRAGMENTING] / s : NAN;
	}
	free(ru->cgroups);	/* a run measured again keeps no earlier array */
	ru->cgroups = cg;
	ru->nr_cgroups = n;
}

/* A keyed list of runs: their stacks or their cgroups. */
static bool run_has(const struct ft_cmp_run *ru, bool cg)
{
	return cg ? ru->have_cgroups : ru->have_stacks;
}

static int run_nr(const struct ft_cmp_run *ru, bool cg)
{
	return cg ? ru->nr_cgroups : ru->nr_stacks;
}

static const struct ft_cmp_stack *run_list(const struct ft_cmp_run *ru, bool cg)
{
	return cg ? ru->cgroups : ru->stacks;
}

static double run_key(const struct ft_cmp_run *ru, const char *key, bool cg)
{
	int i;

	if (!run_has(ru, cg))
		return NAN;
	for (i = 0; i < run_nr(ru, cg); i++)
		if (!strcmp(run_list(ru, cg)[i].key, key))
			return run_list(ru, cg)[i].per_s;
	return 0;	/* not among its most fragmenting: counted as none */
}

static void keyed(const struct ft_cmp_group *g, int ng, bool cg, struct ft_cmp_stacks *out);

void ft_cmp_stacks(const struct ft_cmp_group *g, int ng, struct ft_cmp_stacks *out)
{
	keyed(g, ng, false, out);
}

void ft_cmp_cgroups(const struct ft_cmp_group *g, int ng, struct ft_cmp_stacks *out)
{
	keyed(g, ng, true, out);
}

static void keyed(const struct ft_cmp_group *g, int ng, bool cg, struct ft_cmp_stacks *out)
{
	int k, i, s, r;

	memset(out, 0, sizeof(*out));
	/*
	 * the keys with the most fallbacks a second summed over every run (a run's mean weighs
	 * alike)
	 */
	for (k = 0; k < ng; k++)
		for (i = 0; i < g[k].nr; i++)
			for (s = 0; s < run_nr(&g[k].run[i], cg); s++) {
				const char *key = run_list(&g[k].run[i], cg)[s].key;
				double sum = 0;
				int kk, ii, at;

				for (r = 0; r < out->nr && strcmp(out->key[r], key); r++)
					;
				if (r < out->nr)
					continue;	/* summed already */
				for (kk = 0; kk < ng; kk++)
					for (ii = 0; ii < g[kk].nr; ii++) {
						double v = run_key(&g[kk].run[ii], key, cg);

						if (!isnan(v))
							sum += v / g[kk].nr;
					}
				/*
				 * insertion into the top FT_CMP_STACKS, kept in v[0][row][0] as the
				 * sort key
				 */
				for (at = out->nr; at > 0 && out->v[0][at - 1][0] < sum; at--)
					;
				if (at >= FT_CMP_STACKS)
					continue;
				r = out->nr < FT_CMP_STACKS ? out->nr++ : FT_CMP_STACKS - 1;
				for (; r > at; r--) {
					memcpy(out->key[r], out->key[r - 1], sizeof(out->key[r]));
					out->v[0][r][0] = out->v[0][r - 1][0];
				}
				snprintf(out->key[at], sizeof(out->key[at]), "%s", key);
				out->v[0][at][0] = sum;
			}
	for (k = 0; k < ng; k++)
		for (r = 0; r < out->nr; r++) {
			for (i = 0; i < g[k].nr; i++)
				out->v[k][r][i] = run_key(&g[k].run[i], out->key[r], cg);
			ft_stats_of(out->v[k][r], (size_t)g[k].nr, &out->st[k][r]);
		}
}

void ft_cmp_release(struct ft_cmp_group *g, int ng)
{
	for (int k = 0; k < ng; k++)
		for (int i = 0; i < g[k].nr; i++) {
			free(g[k].run[i].stacks);
			g[k].run[i].stacks = NULL;
			g[k].run[i].nr_stacks = 0;
			free(g[k].run[i].cgroups);
			g[k].run[i].cgroups = NULL;
			g[k].run[i].nr_cgroups = 0;
		}
}

/* fragtop doctor's rules over the run.  0 or -ENOMEM. */
static int measure_findings(struct ft_report *rep, struct ft_cmp_run *ru)
{
	int err = ft_report_findings(rep, NULL, 0);

	if (!err) {
		memcpy(ru->checked, rep->findings->checked, sizeof(ru->checked));
		memcpy(ru->fired, rep->findings->fired, sizeof(ru->fired));
	}
	return err;
}

void ft_cmp_findings(const struct ft_cmp_group *g, int ng, struct ft_cmp_findings *out)
{
	int r, k, i;

	memset(out, 0, sizeof(*out));
	for (r = 0; r < FT_FIND_RULES; r++) {
		struct ft_cmp_finding *f = &out->f[out->nr];
		bool differ = false;

		/* a rule that did not differ left its counts here */
		memset(f, 0, sizeof(*f));
		f->rule = &ft_find_rules[r];
		for (k = 0; k < ng; k++) {
			double vals[FT_CMP_MAX_RUNS];

			for (i = 0; i < g[k].nr; i++) {
				if (!g[k].run[i].checked[r])
					continue;
				vals[f->checked[k]++] = g[k].run[i].fired[r];
				f->fired[k] += g[k].run[i].fired[r];
			}
			ft_stats_of(vals, (size_t)f->checked[k], &f->st[k]);
			/*
			 * shares compared as fractions: fired[k] / checked[k] against the first
			 * group's
			 */
			if (k && f->checked[k] && f->checked[0] &&
			    (int64_t)f->fired[k] * f->checked[0] != (int64_t)f->fired[0] *
				    f->checked[k])
				differ = true;
		}
		if (differ)
			out->nr++;
	}
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
			if (!err) {
				measure_stacks(rep, &g[k].run[i]);
				measure_cgroups(rep, &g[k].run[i]);
				ft_measure_report(rep, g[k].run[i].v);
				err = measure_findings(rep, &g[k].run[i]);
			}
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
