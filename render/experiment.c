// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/experiment.h"

#include <stdio.h>

#include "analysis/compare.h"
#include "base/json.h"

void ft_render_experiment_text(FILE *f, const struct ft_exp_outcome *e,
			       const struct ft_exp_result *r)
{
	int k, m, i;

	fprintf(f, "fragtop experiment: %s, values", e->knob->name);
	for (k = 0; k < e->nv; k++)
		fprintf(f, " %c=%s", 'A' + k, e->val[k]);
	fprintf(f, " (%s was %s)\norder: %s%s:", e->knob->name, e->orig,
		ft_exp_order_names[e->order],
	       e->order == FT_EXP_RANDOM ? "" : "");
	if (e->order == FT_EXP_RANDOM)
		fprintf(f, " (seed %llu)", (unsigned long long)e->seed);
	for (i = 0; i < e->nb; i++)
		fprintf(f, " %c", 'A' + e->sched[i]);
	fprintf(f, ", %.0f s a block; %d of %d blocks run\n", e->period, e->done, e->nb);
	if (e->started) {	/* a live run: which guards judged it */
		fprintf(f, "guard rails:");
		for (i = 0; i < FT_EXP_G_NR; i++)
			fprintf(f, "%s %s %s", i ? "," : "", ft_exp_guard_names[i],
				e->gstate[i] > 0 ? "on" : "OFF");
		fprintf(f, "%s\n", e->disturbed ? "" : "; nobody else wrote the knob");
		for (i = 0; i < FT_EXP_G_NR; i++)
			if (e->gstate[i] <= 0)
				fprintf(f, "  %s off: %s\n", ft_exp_guard_names[i], e->gwhy[i]);
	}
	for (i = 0, k = 0; i < e->done; i++)
		k += e->blocks[i].voided;
	if (k || e->disturbed)
		fprintf(f, "%d block%s void (%s):\n", k, k == 1 ? "" : "s", FT_EXP_VOID_RULE);
	for (i = 0; i < e->done; i++)
		if (e->blocks[i].voided)
			fprintf(f, "  block %d (%c=%s, +%.0f..+%.0f s): %s\n", i + 1,
				'A' + e->blocks[i].value,
			       e->val[e->blocks[i].value], e->blocks[i].from_s, e->blocks[i].to_s,
			       e->blocks[i].why);
	if (e->breach >= 0)
		fprintf(f, "stopped: %s at +%.1f s; %s\n", e->breach_why, e->breach_t,
			e->restore_msg);
	else if (!e->ended_all)
		fprintf(f, "stopped early; %s\n", e->restore_msg);
	else
		fprintf(f, "ended; %s\n", e->restore_msg);
	if (!r) {
		fprintf(f, "\nrecommend: none: too few blocks to test (each value needs two)\n");
		return;
	}
	for (m = 0; m < r->nm; m++) {
		char key[64];

		ft_cmp_row_key(r->metric[m], key, sizeof(key));
		fprintf(f, "\n%s (%s is better)\n", key,
			ft_exp_lower_better(r->metric[m]) ? "lower" : "higher");
		for (k = 0; k < r->nv; k++) {
			const struct ft_stats *st = &r->g[k].st[r->metric[m]];

			if (!st->n) {
				fprintf(f, "  %c=%-12s not measured (the recording lacks the row's "
					   "input)\n", 'A' + k,
				       e->val[k]);
				continue;
			}
			fprintf(f, "  %c=%-12s n %2zu  mean %12.4g  sd %10.4g", 'A' + k, e->val[k],
				st->n, st->mean, st->sd);
			if (k == r->base)
				fprintf(f, "  (baseline)\n");
			else
				fprintf(f, "  %+8.1f%%  p %.3g%s\n", r->change[k][m], r->p[k][m],
				       r->p[k][m] < FT_CMP_ALPHA ? " *" : "");
		}
	}
	for (k = 0; k < r->nv; k++)
		if (r->guard_worse[k])
			fprintf(f, "guard metric: %c=%s: %s\n", 'A' + k, e->val[k],
				r->guard_why[k]);
	if (r->recommend >= 0)
		fprintf(f, "\nrecommend: %s=%s: %s\n", e->knob->name, e->val[r->recommend], r->why);
	else
		fprintf(f, "\nrecommend: none: %s\n", r->why);
	fprintf(f, "Welch's t-test per metric against the baseline, * p < %.2f; the recording has "
		   "every change\n",
	       FT_CMP_ALPHA);
}

void ft_render_experiment_json(FILE *f, const struct ft_exp_outcome *e,
			       const struct ft_exp_result *r,
				const char *file)
{
	struct ft_json j;
	int k, m, i;

	ft_json_init(&j, f, true);
	ft_json_obj_begin(&j, NULL);
	ft_json_str(&j, "knob", e->knob->name);
	ft_json_str(&j, "original", e->orig);
	ft_json_arr_begin_inline(&j, "values");
	for (k = 0; k < e->nv; k++)
		ft_json_str(&j, NULL, e->val[k]);
	ft_json_arr_end(&j);
	ft_json_str(&j, "baseline", e->val[r ? r->base : e->base]);
	ft_json_str(&j, "order", ft_exp_order_names[e->order]);
	if (e->order == FT_EXP_RANDOM)
		ft_json_u64(&j, "seed", e->seed);
	ft_json_double(&j, "period_s", e->period);
	ft_json_str(&j, "recording", file);
	ft_json_arr_begin(&j, "blocks");
	for (i = 0; i < e->done; i++) {
		ft_json_obj_begin_inline(&j, NULL);
		ft_json_str(&j, "value", e->val[e->blocks[i].value]);
		ft_json_double(&j, "from_s", e->blocks[i].from_s);
		ft_json_double(&j, "to_s", e->blocks[i].to_s);
		ft_json_bool(&j, "void", e->blocks[i].voided);
		if (e->blocks[i].voided)
			ft_json_str(&j, "why", e->blocks[i].why);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_str(&j, "void_rule", FT_EXP_VOID_RULE);
	if (e->started) {
		ft_json_i64(&j, "disturbances", e->disturbed);
		ft_json_arr_begin(&j, "guards");
		for (i = 0; i < FT_EXP_G_NR; i++) {
			ft_json_obj_begin_inline(&j, NULL);
			ft_json_str(&j, "guard", ft_exp_guard_names[i]);
			ft_json_double(&j, "limit", e->guards.limit[i]);
			ft_json_bool(&j, "active", e->gstate[i] > 0);
			if (e->gstate[i] <= 0)
				ft_json_str(&j, "why_off", e->gwhy[i]);
			ft_json_obj_end(&j);
		}
		ft_json_arr_end(&j);
	} else {
		ft_json_null(&j, "guards");	/* --judge: the recording does not say */
	}
	ft_json_i64(&j, "blocks_planned", e->nb);
	if (e->breach >= 0) {
		ft_json_obj_begin(&j, "stopped");
		ft_json_str(&j, "guard", ft_exp_guard_names[e->breach]);
		ft_json_str(&j, "why", e->breach_why);
		ft_json_double(&j, "at_s", e->breach_t);
		ft_json_obj_end(&j);
	} else {
		ft_json_null(&j, "stopped");
	}
	ft_json_bool(&j, "completed", e->ended_all);
	ft_json_bool(&j, "restored", e->restored);
	ft_json_str(&j, "restore", e->restore_msg);
	ft_json_arr_begin(&j, "metrics");
	for (m = 0; r && m < r->nm; m++) {
		char key[64];

		ft_cmp_row_key(r->metric[m], key, sizeof(key));
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "metric", key);
		ft_json_bool(&j, "lower_is_better", ft_exp_lower_better(r->metric[m]));
		ft_json_arr_begin(&j, "values");
		for (k = 0; k < r->nv; k++) {
			const struct ft_stats *st = &r->g[k].st[r->metric[m]];

			ft_json_obj_begin_inline(&j, NULL);
			ft_json_str(&j, "value", e->val[k]);
			ft_json_u64(&j, "n", st->n);
			ft_json_double(&j, "mean", st->mean);
			ft_json_double(&j, "sd", st->sd);
			ft_json_double(&j, "change_pct", r->change[k][m]);
			ft_json_double(&j, "p_value", r->p[k][m]);
			ft_json_obj_end(&j);
		}
		ft_json_arr_end(&j);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	if (r && r->recommend >= 0)
		ft_json_str(&j, "recommend", e->val[r->recommend]);
	else
		ft_json_null(&j, "recommend");
	ft_json_str(&j, "why", r ? r->why : "too few blocks to test");
	ft_json_obj_end(&j);
	ft_json_end(&j);
}
