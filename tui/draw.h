/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Drawing helpers shared by the views: colours, number formats, bars. */
#ifndef FT_TUI_DRAW_H
#define FT_TUI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cell.h"
#include "base/text.h"

enum ft_color {
	FT_C_NONE,
	FT_C_HEADER,
	FT_C_LABEL,
	FT_C_OK,
	FT_C_WARN,
	FT_C_BAD,
	FT_C_BOOST,
	FT_C_HEAT1,
	FT_C_HEAT2,
	FT_C_HEAT3,
	FT_C_HEAT4,
	FT_C_DIM,
	FT_C_NR
};

/* Set up colour pairs; false (and no colour) when @want is false or the terminal has none. */
bool ft_draw_init_colors(bool want);
/* Attribute for a colour; with colours off, a monochrome stand-in. */
unsigned int ft_attr(enum ft_color c);


/* Word wrap: ft_wrap_take() and ft_wrap_skip() (base/text.h). */

/* A row of a /proc/vmstat rates table: the rate's index into @v, what it counts. */
struct ft_rate_row {
	int id;
	const char *what;
};
/*
 * The views' table without tracepoints: a "from /proc/vmstat  /s"
 * header at @y, then a row per @rows entry with @v[id] per second ('-'
 * where NaN), stopping at @bottom.  Returns the row after it.
 */
int ft_draw_rate_table(int y, int bottom, const double *v, const struct ft_rate_row *rows,
		       size_t n);

struct ft_series;

/* A sparkline of the newest @w values of @s (oldest left), scaled to @max. */
void ft_sparkline(int y, int x, int w, const struct ft_series *s, double max);
/*
 * A sparkline of @n values (oldest left) scaled from @lo (empty) to @hi
 * (full); NaN is blank.  Columns whose @marks entry (may be NULL) is set
 * are drawn highlighted, a '|' where the value is empty (a control
 * change); column @cursor (-1: none) in reverse.
 */
void ft_spark(int y, int x, const double *v, int n, double lo, double hi,
	      const uint8_t *marks, int cursor);
/* A horizontal bar of @w cells. */
void ft_bar(int y, int x, int w, unsigned int attr);

/*
 * Take the terminal for curses as every console of fragtop does (the
 * locale, cbreak, no echo, the keypad, a 25 ms ESCDELAY); false, saying
 * on stderr as @who why and what to run @instead, when it cannot.
 */
bool ft_curses_open(const char *who, const char *instead);

/*
 * Key @ch for the line being typed into @buf (*@len bytes, @sz in all):
 * printable ASCII appended, Backspace removes the last.  1 for Enter,
 * -1 for Escape, 0 otherwise.  Every prompt of fragtop edits with it.
 */
int ft_prompt_key(char *buf, int *len, int sz, int ch);

/* mvaddnstr clipped to the screen width. */
void ft_put(int y, int x, unsigned int attr, const char *fmt,
	    ...) __attribute__((format(printf, 4, 5)));

#endif
