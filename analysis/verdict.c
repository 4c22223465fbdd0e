// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/verdict.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One interval of @path, as a report of its own: its findings into @iv.  0 or -errno. */
static int judge_interval(const char *path, double from, double to, const struct ft_fit_need *need,
			  size_t nr_need,
			  struct ft_verdict_iv *iv)
{
	struct ft_report *rep = calloc(1, sizeof(*rep));
	char f[32], t[32];
	struct ft_rep_window w = { .from = f, .to = t };
	int err;

	if (!rep)
		return -ENOMEM;
	snprintf(f, sizeof(f), "%.6f", from);
	snprintf(t, sizeof(t), "%.6f", to);
	err = ft_report_build(rep, path, &w);
	if (!err)
		err = ft_report_by_process(rep);
	if (!err)
		err = ft_report_by_cgroup(rep);
	if (!err)
		err = ft_report_findings(rep, need, nr_need);
	if (!err) {
		iv->fs = rep->findings;
		rep->findings = NULL;
		ft_find_knobs_read(rep->knobs_end, &iv->knobs);
	}
	ft_report_release(rep);
	free(rep);
	return err;
}

int ft_verdict_build(struct ft_report *whole, const char *path, const struct ft_fit_need *need,
		     size_t nr_need,
		     struct ft_verdict *v)
{
	int err, k, n;

	memset(v, 0, sizeof(*v));
	err = ft_report_findings(whole, need, nr_need);
	if (err)
		return err;
	v->whole = whole->findings;
	whole->findings = NULL;
	v->from_s = v->whole->in.from_s;
	v->to_s = v->whole->in.to_s;
	n = whole->nr_iv > 0 ? whole->nr_iv : 1;
	if (n == 1) {		/* the knobs held still: the window is the one interval */
		v->nr = 1;
		v->iv[0] = (struct ft_verdict_iv){ .from_s = v->from_s, .to_s = v->to_s,
						   .still = true,
						   .fs = v->whole };
		ft_find_knobs_read(whole->knobs_end, &v->iv[0].knobs);
		return 0;
	}
	v->nr = n < FT_VERDICT_MAX_IV ? n : FT_VERDICT_MAX_IV;
	v->folded = n - v->nr;
	for (k = 0; k < v->nr; k++) {
		const struct ft_rep_interval *ri = &whole->iv[k];
		struct ft_verdict_iv *iv = &v->iv[k];
		const struct ft_rep_interval *end = k + 1 == v->nr ? &whole->iv[n - 1] : ri;

		iv->from_s = ft_report_secs(whole, ri->from.t_ns);
		iv->to_s = ft_report_secs(whole, end->to.t_ns);
		iv->still = end == ri;
		snprintf(iv->opened_by, sizeof(iv->opened_by), "%s", ri->opened_by);
		snprintf(iv->by, sizeof(iv->by), "%s", ri->by);
		err = judge_interval(path, iv->from_s, iv->to_s, need, nr_need, iv);
		if (err)
			return err;
	}
	return 0;
}

void ft_verdict_release(struct ft_verdict *v)
{
	int k;

	for (k = 0; k < v->nr; k++)
		if (v->iv[k].fs != v->whole)
			free(v->iv[k].fs);
	free(v->whole);
	memset(v, 0, sizeof(*v));
}

const struct ft_finding *ft_verdict_finding(const struct ft_verdict *v, int k, int r)
{
	const struct ft_findings *fs = v->iv[k].fs;
	int i;

	for (i = 0; fs && i < fs->nr; i++)
		if (fs->f[i].rule == &ft_find_rules[r])
			return &fs->f[i];
	return NULL;
}
