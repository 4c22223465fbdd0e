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

/* Each finding in full, then what was checked; @indent before every line. */
void ft_render_findings_text(FILE *f, const struct ft_findings *fs, const char *indent);

/* "findings" (a list) and "checked" (rule names), and "not_checked", into an open object. */
void ft_render_findings_json(struct ft_json *j, const struct ft_findings *fs);

#endif
