/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doctor's verdict per interval of still knobs (analysis/verdict.h) as
 * text and JSON, and its timeline: when each rule was active over the
 * recording.  Formats only.
 */
#ifndef FT_RENDER_VERDICT_H
#define FT_RENDER_VERDICT_H

#include <stdio.h>

#include "analysis/verdict.h"
#include "base/json.h"

/* Where the knobs changed and who changed them, each interval's findings, then what was checked. */
void ft_render_verdict_text(FILE *f, const struct ft_verdict *v, const char *indent);

/*
 * "intervals" (each with its knobs, who opened it, the rules fired),
 * "findings" (each with its "interval", "knobs" and the "whole_window"'s
 * same figures), "checked" and "not_checked" (over every interval), into
 * an open object.
 */
void ft_render_verdict_json(struct ft_json *j, const struct ft_verdict *v);

/* doctor's text: a line of what was judged and how many findings, then the verdict's text. */
void ft_render_doctor_text(FILE *f, const struct ft_verdict *v, const char *source);

/* doctor --json: "source", "window" and the verdict's members, as one object. */
void ft_render_doctor_json(FILE *f, const struct ft_verdict *v, const char *source);

/* doctor --timeline: for each rule, the stretches of the recording it was active in. */
void ft_render_timeline_text(FILE *f, const struct ft_verdict *v, const char *source);
void ft_render_timeline_json(FILE *f, const struct ft_verdict *v, const char *source);

#endif
