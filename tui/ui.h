/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live terminal UI: main loop, views, keys, status line. */
#ifndef FT_TUI_UI_H
#define FT_TUI_UI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "collectors/live.h"

struct ft_view;

struct ft_ui {
	struct ft_live live;
	double interval;		/* seconds between ticks */
	double pti_interval;		/* seconds between pagetypeinfo reads */
	bool paused;
	bool color;
	bool quit;
	const struct ft_view *view;	/* current */
	const struct ft_view *prev_view;	/* to go back from help */
	int scroll;			/* first line of the scrolled body */
	char scroll_info[64];		/* set by the view, shown in the status line */
	char status[256];		/* last diagnostic */
	int status_level;
	uint64_t status_t_ns;
};

int ft_cmd_top(int argc, char **argv);
void ft_ui_usage(FILE *f);

/* Show a message in the status line (also the diag hook's target). */
void ft_ui_status(struct ft_ui *ui, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
