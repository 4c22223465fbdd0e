/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fragtop snapshot`: one sample as a table or as JSON. */
#ifndef FT_TUI_SNAPSHOT_H
#define FT_TUI_SNAPSHOT_H

#include <stdio.h>

#include "collectors/live.h"

/* The JSON document for one sample (also used by tests and later reports). */
void ft_snapshot_json(FILE *f, const struct ft_live *l, double interval_s);
void ft_snapshot_table(FILE *f, const struct ft_live *l);

#endif
