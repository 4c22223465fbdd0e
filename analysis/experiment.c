// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/experiment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/counterfield.h"
#include "model/stats.h"

const char *const ft_exp_order_names[2] = { "ABBA", "random" };
const char *const ft_exp_guard_names[FT_EXP_G_NR] = {
	[FT_EXP_G_PRESSURE] = "pressure", [FT_EXP_G_STALL_P99] = "stall_p99",
	[FT_EXP_G_ALLOC_FAILURES] = "alloc_failures", [FT_EXP_G_THP_FALLBACK] = "thp_fallback",
};
/* full avg10 20%; a direct compaction p99 of 500 ms; no failure; 95% of THP faults fallen back */
const double ft_exp_guard_defaults[FT_EXP_G_NR] = { 20, 500, 0, 95 };

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int ft_exp_schedule(int nv, int rounds, enum ft_exp_order order, uint64_t seed,
		    int out[FT_EXP_BLOCKS])
{
	uint64_t st = seed ? seed : 0x9e3779b97f4a7c15ull;
	int r, i, n = 0;

	if (nv < 2 || rounds < 1 || nv * rounds > FT_EXP_BLOCKS)
		return -1;
	for (r = 0; r < rounds; r++) {
		int *row = &out[n];

		for (i = 0; i < nv; i++)
			row[i] = order == FT_EXP_ABBA && (r & 1) ? nv - 1 - i : i;
		for (i = nv - 1; order == FT_EXP_RANDOM && i > 0; i--) {
			int j = (int)(xorshift(&st) % (uint64_t)(i + 1)), t = row[i];

			row[i] = row[j];
			row[j] = t;
		}
		n += nv;
	}
	return n;
}

void ft_exp_guard_begin(struct ft_exp_guard_base *b, const struct ft_session *s, bool start)
{
	int64_t c[FT_CF_NR];

	if (start) {
		b->kmsg_known = s->kmsg.known && !s->kmsg.err;
		b->kmsg_start = s->kmsg.failures;
	}
	b->direct = s->events.lat[FT_LAT_COMPACTION];
	b->have = ft_counters_read(s, c);
	b->thp_alloc = c[FT_CF_THP_ALLOC];
	b->thp_fallback = c[FT_CF_THP_FALLBACK];
}

int ft_exp_guard_check(const struct ft_exp_guards *g, const struct ft_exp_guard_base *b,
		       const struct ft_session *s,
		       char *why, size_t sz)
{
	const double *lim = g->limit;
	const struct ft_psi_line *full = &s->sample.psi.full;
	int64_t c[FT_CF_NR];
	uint32_t have = ft_counters_read(s, c) & b->have;
	struct ft_hist h;

	if (!isnan(lim[FT_EXP_G_PRESSURE]) && ft_sample_has(&s->sample, FT_SRC_PRESSURE) &&
	    full->have &&
	    full->avg10 > lim[FT_EXP_G_PRESSURE]) {
		snprintf(why, sz, "memory pressure full avg10 %.2f%%, above %g%%", full->avg10,
			 lim[FT_EXP_G_PRESSURE]);
		return FT_EXP_G_PRESSURE;
	}
	if (!isnan(lim[FT_EXP_G_STALL_P99]) && s->tracing) {
		ft_hist_sub(&h, &s->events.lat[FT_LAT_COMPACTION], &b->direct);
		if (h.count >= FT_EXP_GUARD_MIN_STALLS &&
		    (double)ft_hist_percentile(&h, 99) / 1000 > lim[FT_EXP_G_STALL_P99]) {
			snprintf(why, sz,
				 "direct compaction p99 %.1f ms over %llu stalls, above %g ms",
				 (double)ft_hist_percentile(&h, 99) / 1000,
				 (unsigned long long)h.count,
				 lim[FT_EXP_G_STALL_P99]);
			return FT_EXP_G_STALL_P99;
		}
	}
	if (!isnan(lim[FT_EXP_G_ALLOC_FAILURES]) && b->kmsg_known && s->kmsg.known &&
	    !s->kmsg.err &&
	    (double)(s->kmsg.failures - b->kmsg_start) > lim[FT_EXP_G_ALLOC_FAILURES]) {
		snprintf(why, sz, "%llu page allocation failures in the kernel log, above %g",
			 (unsigned long long)(s->kmsg.failures - b->kmsg_start),
			 lim[FT_EXP_G_ALLOC_FAILURES]);
		return FT_EXP_G_ALLOC_FAILURES;
	}
	if (!isnan(lim[FT_EXP_G_THP_FALLBACK]) && (have & (1u << FT_CF_THP_ALLOC)) &&
	    (have & (1u << FT_CF_THP_FALLBACK))) {
		double a = (double)(c[FT_CF_THP_ALLOC] - b->thp_alloc),
		f = (double)(c[FT_CF_THP_FALLBACK] - b->thp_fallback);

		if (a + f >= FT_EXP_GUARD_MIN_FAULTS &&
		    100 * f / (a + f) > lim[FT_EXP_G_THP_FALLBACK]) {
			snprintf(why, sz, "%.0f%% of %.0f THP faults fell back, above %g%%",
				 100 * f / (a + f), a + f,
				 lim[FT_EXP_G_THP_FALLBACK]);
			return FT_EXP_G_THP_FALLBACK;
		}
	}
	return -1;
}

bool ft_exp_lower_better(int r)
{
	char key[64];

	ft_cmp_row_key(r, key, sizeof(key));
	return !strstr(key, "success") && !strstr(key, "_now_min") &&
	!strstr(key, "after_compaction_min") &&
	       !strstr(key, "gigantic_available") && !strstr(key, "free_in_pageblocks");
}

int ft_exp_metric(const char *key)
{
	char k[64];
	int r;

	for (r = 0; r < FT_CMP_NR; r++) {
		ft_cmp_row_key(r, k, sizeof(k));
		if (!strcmp(k, key))
			return r;
	}
	return -1;
}

/*
 * The rows a recommendation must not make worse: direct compaction's p99, THP success, allocation
 * stalls.
 */
static const int guard_rows[] = {
	FT_CMP_LAT0 + 3 * FT_LAT_COMPACTION + 1, FT_CMP_THP_OK, FT_CMP_ALLOCSTALLS,
};

/* Is @g's mean of row @r worse than @base's at p < alpha? */
static bool worse(const struct ft_cmp_group *base, const struct ft_cmp_group *g, int r, double *p)
{
	double d = g->st[r].mean - base->st[r].mean;

	*p = ft_cmp_p_value(&base->st[r], &g->st[r]);
	return !isnan(*p) && *p < FT_CMP_ALPHA && (ft_exp_lower_better(r) ? d > 0 : d < 0);
}

/* Each value's blocks as the runs of a group, windows of the one file. */
static int groups_of(const char *file, const struct ft_exp_block *b, int nb,
		     const char *const *names, int nv,
		     struct ft_exp_result *out)
{
	int i, k;

	for (k = 0; k < nv; k++)
		snprintf(out->g[k].name, sizeof(out->g[k].name), "%s", names[k]);
	for (i = 0; i < nb; i++) {
		struct ft_cmp_group *g;
		struct ft_cmp_run *ru;
		char from[32], to[32];

		if (b[i].voided)
			continue;	/* its figures are not its value's (FT_EXP_VOID_RULE) */
		g = &out->g[b[i].value];
		ru = &g->run[g->nr++];
		snprintf(from, sizeof(from), "%.3f", b[i].from_s);
		snprintf(to, sizeof(to), "%.3f", b[i].to_s);
		ru->file = strdup(file);
		ru->w.from = strdup(from);
		ru->w.to = strdup(to);
		if (!ru->file || !ru->w.from || !ru->w.to)
			return -1;
	}
	return 0;
}

/* Each value against the base on every metric; the guard metrics of each against the base. */
static void against_base(struct ft_exp_result *out)
{
	const struct ft_cmp_group *base = &out->g[out->base];
	int k, m;
	size_t j;
	double p;

	for (k = 0; k < out->nv; k++) {
		const struct ft_cmp_group *g = &out->g[k];

		for (m = 0; m < out->nm; m++) {
			int r = out->metric[m];

			out->p[k][m] = k == out->base ? NAN : ft_cmp_p_value(&base->st[r],
									     &g->st[r]);
			out->change[k][m] = k == out->base ? NAN : ft_cmp_change_pct(&base->st[r],
				&g->st[r]);
		}
		for (j = 0; k != out->base && j < sizeof(guard_rows) / sizeof(guard_rows[0]); j++)
			if (worse(base, g, guard_rows[j], &p)) {
				char key[64];

				ft_cmp_row_key(guard_rows[j], key, sizeof(key));
				out->guard_worse[k] = true;
				snprintf(out->guard_why[k], sizeof(out->guard_why[k]),
					 "%s worse (p %.3g)", key, p);
				break;
			}
	}
}

/*
 * The value with the best mean on the first metric is recommended when
 * it is better than every other value at p < alpha and, unless it is the
 * base itself, made no guard metric worse than the base.
 */
static void decide(struct ft_exp_result *out)
{
	int r = out->metric[0], k, best = -1;
	bool lower = ft_exp_lower_better(r);
	double worst_p = 0;

	against_base(out);
	for (k = 0; k < out->nv; k++)
		if (out->g[k].st[r].n >= 2 &&
		    (best < 0 || (lower ? out->g[k].st[r].mean < out->g[best].st[r].mean :
				  out->g[k].st[r].mean > out->g[best].st[r].mean)))
			best = k;
	if (best < 0) {
		snprintf(out->why, sizeof(out->why),
			 "the metric was not measured in two blocks of each value");
		return;
	}
	for (k = 0; k < out->nv; k++) {
		double p = k == best ? 0 : ft_cmp_p_value(&out->g[k].st[r], &out->g[best].st[r]);

		if (isnan(p) || p >= FT_CMP_ALPHA) {
			snprintf(out->why, sizeof(out->why),
				 "%s, the best mean, is not better than %s at p < %.2f (p %.3g): "
				 "fewer blocks, or no effect here", out->g[best].name,
				 out->g[k].name,
				 FT_CMP_ALPHA, p);
			return;
		}
		worst_p = p > worst_p ? p : worst_p;
	}
	if (best != out->base && out->guard_worse[best]) {
		snprintf(out->why, sizeof(out->why), "%s is better, but made %s", out->g[best].name,
			 out->guard_why[best]);
		return;
	}
	out->recommend = best;
	if (best == out->base)
		snprintf(out->why, sizeof(out->why),
			 "keep its own value: every other value is worse, Welch's p <= %.3g",
			 worst_p);
	else
		snprintf(out->why, sizeof(out->why),
			 "%+.1f%% against %s, better than every other value at Welch's p <= %.3g, "
			 "no guard metric worse", out->change[best][0], out->g[out->base].name,
			 worst_p);
}

int ft_exp_judge(const char *file, const struct ft_exp_block *b, int nb, const char *const *names,
		 int nv, int base,
		 const int *metrics, int nm, struct ft_exp_result *out)
{
	memset(out, 0, sizeof(*out));
	out->nv = nv;
	out->nm = nm;
	out->base = base;
	out->recommend = -1;
	memcpy(out->metric, metrics, (size_t)nm * sizeof(*metrics));
	if (groups_of(file, b, nb, names, nv, out) || ft_cmp_measure(out->g, nv))
		return -1;
	decide(out);
	return 0;
}

void ft_exp_release(struct ft_exp_result *r)
{
	int k, i;

	for (k = 0; k < r->nv; k++)
		for (i = 0; i < r->g[k].nr; i++) {
			free(r->g[k].run[i].file);
			free((char *)r->g[k].run[i].w.from);
			free((char *)r->g[k].run[i].w.to);
		}
	ft_cmp_release(r->g, r->nv);
}
