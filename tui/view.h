/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A view is one screen of the TUI: a name, a draw function for the body
 * between the header and the status line, and a key handler for the keys
 * it owns.  The table of views is in ui.c.
 */
#ifndef FT_TUI_VIEW_H
#define FT_TUI_VIEW_H

#include <curses.h>
#include <stdbool.h>

struct ft_ui;

struct ft_view {
	const char *name;
	/* Draw rows [top, top + height) of stdscr. */
	void (*draw)(struct ft_ui *ui, int top, int height);
	/* true if the key was handled. */
	bool (*key)(struct ft_ui *ui, int ch);
	/* Key help lines: { key, text } pairs ending with { NULL, NULL }. */
	const char *const (*keys)[2];
};

extern const struct ft_view ft_view_overview;
extern const struct ft_view ft_view_events;
extern const struct ft_view ft_view_stalls;
extern const struct ft_view ft_view_controls;
extern const struct ft_view ft_view_map;
extern const struct ft_view ft_view_history;
extern const struct ft_view ft_view_procs;
extern const struct ft_view ft_view_help;

#endif
