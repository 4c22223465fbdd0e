// SPDX-License-Identifier: GPL-2.0-or-later
#include "tui/draw.h"

#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "model/series.h"

/*
 * Whether colours are on is the terminal's state, kept where curses keeps
 * the palette: pair FT_C_NR, never drawn with, is two colours while they
 * are on and one colour on itself while they are off (or no pair at all
 * before start_color()).  So no file of tui/ holds it.
 */
static bool colors_on(void)
{
	short fg, bg;

	return COLOR_PAIRS > FT_C_NR && pair_content(FT_C_NR, &fg, &bg) == OK && fg != bg;
}

bool ft_draw_init_colors(bool want)
{
	if (COLOR_PAIRS > FT_C_NR)
		init_pair(FT_C_NR, COLOR_BLACK, COLOR_BLACK);	/* off, until all is set below */
	if (!want || !has_colors())
		return false;
	start_color();
	if (COLOR_PAIRS <= FT_C_NR)
		return false;
	use_default_colors();
	init_pair(FT_C_HEADER, COLOR_BLACK, COLOR_CYAN);
	init_pair(FT_C_LABEL, COLOR_CYAN, -1);
	init_pair(FT_C_OK, COLOR_GREEN, -1);
	init_pair(FT_C_WARN, COLOR_YELLOW, -1);
	init_pair(FT_C_BAD, COLOR_RED, -1);
	init_pair(FT_C_BOOST, COLOR_MAGENTA, -1);
	init_pair(FT_C_HEAT1, COLOR_BLUE, -1);
	init_pair(FT_C_HEAT2, COLOR_CYAN, -1);
	init_pair(FT_C_HEAT3, COLOR_GREEN, -1);
	init_pair(FT_C_HEAT4, COLOR_YELLOW, -1);
	init_pair(FT_C_DIM, COLOR_WHITE, -1);
	init_pair(FT_C_NR, COLOR_WHITE, COLOR_BLACK);	/* on */
	return true;
}

unsigned int ft_attr(enum ft_color c)
{
	if (colors_on()) {
		switch (c) {
		case FT_C_NONE:
			return A_NORMAL;
		case FT_C_HEADER:
			return COLOR_PAIR(c) | A_BOLD;
		case FT_C_HEAT4:
		case FT_C_BAD:
			return COLOR_PAIR(c) | A_BOLD;
		case FT_C_DIM:
			return COLOR_PAIR(c) | A_DIM;
		default:
			return COLOR_PAIR(c);
		}
	}
	switch (c) {
	case FT_C_HEADER:
		return A_REVERSE;
	case FT_C_BAD:
	case FT_C_HEAT4:
	case FT_C_LABEL:
		return A_BOLD;
	case FT_C_BOOST:
		return A_UNDERLINE;
	case FT_C_DIM:
		return A_DIM;
	default:
		return A_NORMAL;
	}
}

void ft_put(int y, int x, unsigned int attr, const char *fmt, ...)
{
	char buf[1024], safe[4096];
	va_list ap;
	int room = COLS - x, n;

	if (y < 0 || y >= LINES || room <= 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* every string on screen passes the sanitiser: names from a recording or a tree too */
	ft_sanitize_line(buf, n < 0 ? 0 : (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1,
			 safe,
			 sizeof(safe));
	attron((int)attr);
	mvaddnstr(y, x, safe, room);
	attroff((int)attr);
}

/*
 * The locale's codeset, asked each time (no state at file or function scope in tui/; it is cheap)
 */
static bool utf8(void)
{
	return !strcmp(nl_langinfo(CODESET), "UTF-8");
}

void ft_sparkline(int y, int x, int w, const struct ft_series *s, double max)
{
	double v[FT_SERIES_LEN];
	int i;

	if (w > FT_SERIES_LEN)
		w = FT_SERIES_LEN;
	for (i = 0; i < w; i++)
		v[i] = ft_series_get(s, (unsigned long)(w - 1 - i));
	ft_spark(y, x, v, w, 0, max > 0 ? max : 0, NULL, -1);
}

void ft_spark(int y, int x, const double *v, int n, double lo, double hi,
	      const uint8_t *marks, int cursor)
{
	static const char *const blocks[] = { " ", "\u2581", "\u2582", "\u2583", "\u2584",
		"\u2585", "\u2586", "\u2587", "\u2588" };
	static const char ascii[] = " .:-=+*#%";
	int i;

	if (y < 0 || y >= LINES)
		return;
	for (i = 0; i < n && x + i < COLS; i++) {
		unsigned int attr = A_NORMAL;
		int level = 0;

		if (!isnan(v[i])) {
			if (hi > lo)
				level = ft_cell_index(ceil((v[i] - lo) / (hi - lo) * 8), 0, 8);
			else
				level = v[i] > 0 ? 4 : 0;
		} else {
			attr = ft_attr(FT_C_DIM);
		}
		if (marks && marks[i])
			attr = ft_attr(FT_C_WARN) | A_BOLD;
		if (i == cursor)
			attr |= A_REVERSE;
		attron((int)attr);
		if (marks && marks[i] && !level)
			mvaddch(y, x + i, '|');
		else if (isnan(v[i]))
			mvaddch(y, x + i, ' ');
		else if (utf8())
			mvaddstr(y, x + i, blocks[level]);
		else
			mvaddch(y, x + i, (chtype)ascii[level]);
		attroff((int)attr);
	}
}

void ft_bar(int y, int x, int w, unsigned int attr)
{
	int i;

	if (y < 0 || y >= LINES)
		return;
	attron((int)attr);
	for (i = 0; i < w && x + i < COLS; i++) {
		if (utf8())
			mvaddstr(y, x + i, "\u2588");
		else
			mvaddch(y, x + i, '#');
	}
	attroff((int)attr);
}

int ft_draw_rate_table(int y, int bottom, const double *v, const struct ft_rate_row *rows, size_t n)
{
	char buf[32];

	if (y < bottom)
		ft_put(y++, 0, ft_attr(FT_C_LABEL), "%-48s %8s", "from /proc/vmstat", "/s");
	for (size_t k = 0; k < n && y < bottom; k++) {
		double r = v[rows[k].id];

		ft_fmt_rate(buf, sizeof(buf), r, 8);
		ft_put(y, 2, A_NORMAL, "%-46s", rows[k].what);
		ft_put(y++, 49,
		       isnan(r) ? ft_attr(FT_C_DIM) : r > 0 ? ft_attr(FT_C_WARN) : A_NORMAL, "%8s",
		       isnan(r) ? "-" : buf);
	}
	return y;
}

bool ft_curses_open(const char *who, const char *instead)
{
	const char *term = getenv("TERM");

	setlocale(LC_ALL, "");
	/* a terminal that cannot address the cursor draws nothing: say so */
	if (!term || !*term || !strcmp(term, "dumb")) {
		fprintf(stderr, "%s: the terminal (TERM=%s) cannot run the TUI; %s\n", who,
			term ? term : "", instead);
		return false;
	}
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "%s: cannot initialise the terminal (TERM=%s); %s\n", who, term,
			instead);
		return false;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	/*
	 * No typeahead check while drawing: ncurses polled the terminal
	 * about five times a screen to see whether a key had come.
	 */
	typeahead(-1);
	/*
	 * Escape alone closes a prompt; ncurses waits ESCDELAY (1 s) for the
	 * rest of a sequence, and sampling waits with it.  25 ms as htop,
	 * unless the operator set ESCDELAY.
	 */
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	return true;
}

int ft_prompt_key(char *buf, int *len, int sz, int ch)
{
	if (ch == '\n' || ch == KEY_ENTER)
		return 1;
	if (ch == 27)
		return -1;
	if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && *len > 0) {
		buf[--*len] = '\0';
	} else if (ch >= 32 && ch < 127 && *len < sz - 1) {
		buf[(*len)++] = (char)ch;
		buf[*len] = '\0';
	}
	return 0;
}
