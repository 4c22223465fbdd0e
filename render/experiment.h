/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `fragtop experiment`'s answer (and --judge's), as text and JSON: the
 * knob, its values and order, the blocks run and voided, the guards that
 * judged it, how it ended, each metric per value against the baseline,
 * and the recommendation.  Formats only: analysis/experiment.h measures.
 */
#ifndef FT_RENDER_EXPERIMENT_H
#define FT_RENDER_EXPERIMENT_H

#include <stdio.h>

#include "analysis/experiment.h"

/* @r NULL: too few blocks to test (each value needs two). */
void ft_render_experiment_text(FILE *f, const struct ft_exp_outcome *e,
			       const struct ft_exp_result *r);
/* One object; @file the recording. */
void ft_render_experiment_json(FILE *f, const struct ft_exp_outcome *e,
			       const struct ft_exp_result *r,
			       const char *file);

#endif
