/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The findings (analysis/findings.h) as text and JSON: `fragtop doctor`,
 * report's findings section.  Formats only: every figure is the input's.
 */
#ifndef FT_RENDER_FINDINGS_H
#define FT_RENDER_FINDINGS_H

#include <stdio.h>

#include "analysis/findings.h"
#include "base/json.h"

/*
 * @text after @indent and @lead (its label, or blanks), wrapped at 80
 * columns at blanks to the column after @lead, as report's text is.
 */
void ft_render_wrapped(FILE *f, const char *indent, const char *lead, const char *text);

/* Each finding in full, then what was checked; @indent before every line. */
void ft_render_findings_text(FILE *f, const struct ft_findings *fs, const char *indent);

/* "findings" (a list) and "checked" (rule names), and "not_checked", into an open object. */
void ft_render_findings_json(struct ft_json *j, const struct ft_findings *fs);

/*
 * One finding of @fs in full; @whole (or NULL): the whole window's same
 * figures, printed beside and said to be so (render/verdict.c).
 */
void ft_render_finding_text(FILE *f, const struct ft_findings *fs, const struct ft_finding *fd,
			    const char *in,
			    const struct ft_findings *whole);
/* One finding as an object; @extra (or NULL) adds members of its own before it closes. */
void ft_render_finding_json(struct ft_json *j, const struct ft_findings *fs,
			    const struct ft_finding *fd,
			    void (*extra)(struct ft_json *j, const void *ctx), const void *ctx);
/*
 * "checked: ..." and "not checked: ... (needs ...)" for rule flags @checked, @missing
 * (FT_FIND_RULES each).
 */
void ft_render_findings_checked_text(FILE *f, const bool *checked, const enum ft_fx *missing,
				     const char *in);
void ft_render_findings_checked_json(struct ft_json *j, const bool *checked,
				     const enum ft_fx *missing);

/*
 * doctor --rules: a rule a line, its severity, thresholds and the figures
 * it needs (docs/runbook.md has a section each).
 */
void ft_render_rules_text(FILE *f);

#endif
