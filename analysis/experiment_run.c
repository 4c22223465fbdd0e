// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An experiment's recording as it ran (analysis/experiment.h: struct
 * ft_exp_run): its blocks from the recording's own changes of the knob,
 * each kept or voided by FT_EXP_VOID_RULE, and which guard rails the
 * session can judge.  The live experiment and `--judge` both take their
 * blocks from ft_exp_run_of(), so their verdicts are one.
 */
#include "analysis/experiment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "model/counterfield.h"

void ft_exp_guard_inputs(const struct ft_exp_guards *g, const struct ft_session *s,
			 int state[FT_EXP_G_NR],
			 const char *why[FT_EXP_G_NR])
{
	int64_t c[FT_CF_NR];
	uint32_t have = ft_counters_read(s, c);
	bool in[FT_EXP_G_NR] = {
		[FT_EXP_G_PRESSURE] = ft_sample_has(&s->sample, FT_SRC_PRESSURE) &&
		s->sample.psi.full.have,
		[FT_EXP_G_STALL_P99] = s->tracing,
		[FT_EXP_G_ALLOC_FAILURES] = s->kmsg.known && !s->kmsg.err,
		[FT_EXP_G_THP_FALLBACK] = (have & (1u << FT_CF_THP_ALLOC)) &&
		(have & (1u << FT_CF_THP_FALLBACK)),
	};
	static const char *const lacks[FT_EXP_G_NR] = {
		[FT_EXP_G_PRESSURE] =
			"no memory pressure (/proc/pressure/memory's full line: PSI off?)",
		[FT_EXP_G_STALL_P99] = "no tracing (--no-trace, not root, or no tracefs)",
		[FT_EXP_G_ALLOC_FAILURES] =
			"the kernel log is not read (/dev/kmsg: root, or dmesg_restrict=0)",
		[FT_EXP_G_THP_FALLBACK] = "no THP fault counters in /proc/vmstat",
	};
	int i;

	for (i = 0; i < FT_EXP_G_NR; i++) {
		state[i] = isnan(g->limit[i]) ? 0 : in[i] ? 1 : -1;
		why[i] = state[i] == 0 ? "turned off (--guard NAME=off)" : state[i] < 0 ?
			lacks[i] : "";
	}
}

/* The block of @r holding time @t (seconds), or -1. */
static int block_at(const struct ft_exp_run *r, double t)
{
	int i;

	for (i = 0; i < r->nb; i++)
		if (t > r->blocks[i].from_s && t <= r->blocks[i].to_s)
			return i;
	return -1;
}

static void void_block(struct ft_exp_run *r, int i, const char *why)
{
	struct ft_exp_block *b = &r->blocks[i];

	if (i < 0 || b->voided)
		return;
	b->voided = true;
	snprintf(b->why, sizeof(b->why), "%s", why);
}

/* The value's index in @r, added when new; -1 past FT_EXP_VALUES. */
static int value_index(struct ft_exp_run *r, const char *v)
{
	int k;

	for (k = 0; k < r->nv && strcmp(r->val[k], v); k++)
		;
	if (k == r->nv) {
		if (r->nv == FT_EXP_VALUES)
			return -1;
		snprintf(r->val[r->nv++], sizeof(r->val[0]), "%s", v);
	}
	return k;
}

/* The recording's own sets of the knob (the first naming it), the plan's period. */
static int changes_of(const struct ft_report *rep, struct ft_exp_run *r,
		      const struct ft_session_audit **c)
{
	const struct ft_session *s = rep->s;
	size_t i;
	int n = 0;

	r->period = NAN;
	for (i = 0; i < s->nr_audits && n <= FT_EXP_BLOCKS; i++) {
		const struct ft_session_audit *a = &s->audits[i];
		const char *p;

		if (!strcmp(a->how, FT_EXP_PLAN_HOW) && (p = strstr(a->msg, "period=")))
			r->period = strtod(p + 7, NULL);
		if (strcmp(a->outcome, "ok") || strcmp(a->how, "set") ||
		    (a->by[0] && strcmp(a->by, "experiment")))
			continue;
		if (!r->knob[0])
			snprintf(r->knob, sizeof(r->knob), "%s", a->knob);
		if (!strcmp(a->knob, r->knob))
			c[n++] = a;
	}
	return n;
}

/* Void what FT_EXP_VOID_RULE voids: outside changes and re-assertions within, a block cut short. */
static void void_disturbed(const struct ft_report *rep, struct ft_exp_run *r)
{
	const struct ft_session *s = rep->s;
	char why[160];
	size_t i;
	int k;

	for (k = 0; k < rep->nr_outside; k++) {
		const struct ft_session_audit *o = &rep->outside[k];
		double t = ft_report_secs(rep, o->t_ns);

		if (strcmp(o->knob, r->knob))
			continue;
		snprintf(why, sizeof(why), "%.150s", o->msg);
		void_block(r, block_at(r, t), why);
	}
	for (i = 0; i < s->nr_audits; i++) {
		const struct ft_session_audit *a = &s->audits[i];
		double t = ft_report_secs(rep, a->t_ns);

		if (strcmp(a->how, "reassert") || strcmp(a->knob, r->knob))
			continue;
		snprintf(why, sizeof(why),
			 "the knob read %.31s at +%.1f s, written by someone else; the experiment "
			 "wrote %.31s back", a->old, t, a->new);
		void_block(r, block_at(r, t), why);
	}
	for (k = 0; !isnan(r->period) && k < r->nb; k++) {
		struct ft_exp_block *b = &r->blocks[k];

		if (b->to_s - b->from_s >= r->period - 0.5)
			continue;
		snprintf(why, sizeof(why),
			 "cut short at +%.1f s (%.1f of %g s): the experiment stopped", b->to_s,
			 b->to_s - b->from_s, r->period);
		void_block(r, k, why);
	}
}

int ft_exp_run_of(const char *file, const char *knob, struct ft_exp_run *r, char *why, size_t sz)
{
	struct ft_report *rep = calloc(1, sizeof(*rep));
	const struct ft_session_audit **c = calloc(FT_EXP_BLOCKS + 1, sizeof(*c));
	int n, k, err = -1;

	memset(r, 0, sizeof(*r));
	if (knob)
		snprintf(r->knob, sizeof(r->knob), "%s", knob);
	if (!rep || !c || ft_report_build(rep, file, NULL)) {
		snprintf(why, sz, "%s: cannot be read", file);
		goto out;
	}
	n = changes_of(rep, r, c);
	if (n < 3) {
		snprintf(why, sz, "%s: %d changes of %s: not an experiment's recording", file, n,
			 r->knob[0] ? r->knob : "a knob");
		goto out;
	}
	snprintf(r->orig, sizeof(r->orig), "%s", c[0]->old);
	snprintf(r->last, sizeof(r->last), "%s", c[n - 1]->new);
	for (k = 0; k + 1 < n; k++) {
		int v = value_index(r, c[k]->new);

		if (v < 0) {
			snprintf(why, sz, "%s: more than %d values of %s", file, FT_EXP_VALUES,
				 r->knob);
			goto out;
		}
		r->sched[k] = v;
		r->blocks[k] = (struct ft_exp_block){ .value = v,
						      .from_s = ft_report_secs(rep, c[k]->t_ns),
						      .to_s = ft_report_secs(rep, c[k + 1]->t_ns) };
	}
	r->nb = n - 1;
	void_disturbed(rep, r);
	err = 0;
out:
	if (rep)
		ft_report_release(rep);
	free(rep);
	free(c);
	return err;
}
