/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A float in a fixed cell of a table: "%.Nf" when it fits the cell's
 * width, fewer decimals or three significant digits ("1.8e+19") when it
 * does not, "-" for NaN (not known), "inf"/"-inf", and '#'s (as a
 * spreadsheet does) only when not even one digit of the exponent form
 * fits.  A figure a recording or a server made up (1e308, a counter that
 * went backwards over a nanosecond) then never pushes the columns after
 * it out of place.
 */
#ifndef FT_BASE_CELL_H
#define FT_BASE_CELL_H

#include <stddef.h>
#include <stdint.h>

/*
 * @v in at most @width columns (@width < @sz), @prec decimals when they
 * fit; returns @buf.
 */
const char *ft_cell(char *buf, size_t sz, double v, int width, int prec);

/* @v and a '%' in at most @width columns (the sign included), as ft_cell(). */
const char *ft_cell_pct(char *buf, size_t sz, double v, int width, int prec);

/*
 * An index from a float: @v rounded down, clamped to [@lo, @hi]; NaN
 * gives @lo.  A figure a recording made up (1e308, -inf) then never
 * indexes past an array or a bar, and no float-to-int conversion
 * overflows.
 */
int ft_cell_index(double v, int lo, int hi);

/*
 * A count in @width columns when whole, else with a unit in at most 5
 * ("123", "12.3k", "1.23M", up to "E"), past that as ft_cell() in
 * @width; "-" when NaN.
 */
void ft_fmt_count(char *buf, size_t sz, double v, int width);
/* A rate: as ft_fmt_count. */
void ft_fmt_rate(char *buf, size_t sz, double v, int width);
/* Pages of @page_size bytes as "1.66G", "512M", "16K" (at most 6 columns). */
void ft_fmt_pages(char *buf, size_t sz, uint64_t pages, long page_size);
/*
 * A percentage in at most 5 columns, cut rather than rounded up so that
 * only a whole is 100: "100", "99.9" (for 99.96), "9.99", "0.05"; "-"
 * when NaN; past 5 columns as ft_cell().
 */
void ft_fmt_pct(char *buf, size_t sz, double v);

#endif
