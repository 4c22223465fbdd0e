/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CSV as RFC 4180 wants it, one quoting rule for export and compare. */
#ifndef FT_OUT_CSV_H
#define FT_OUT_CSV_H

#include <stdio.h>

/*
 * @s as a field: quoted (inner quotes doubled) when it holds a comma, a
 * quote, a line break or blanks at an edge, else as it is.  Names come
 * from recordings and must not shift the columns.
 */
void ft_render_csv_field(FILE *f, const char *s);
/*
 * A number as ",N" with every digit it needs (ft_json_fmt_double), or "," alone for NaN (no value).
 */
void ft_render_csv_num(FILE *f, double v);

#endif
