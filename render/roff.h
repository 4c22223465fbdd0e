/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text for the man page (roff) and the guide (Markdown): what the option
 * tables (cmd/cli.c) and the TUI's key tables (cmd/keys.c walks them) are
 * written as.  Formats only.
 */
#ifndef FT_RENDER_ROFF_H
#define FT_RENDER_ROFF_H

#include <stdbool.h>
#include <stdio.h>

/*
 * @s as roff text: backslashes and hyphens escaped, a line's leading '.' or '\'' made text,
 * newlines spaces.
 */
void ft_roff_text(FILE *f, const char *s);

/* A key table's title: a man page's .SS (@roff), or a Markdown table's heading and header. */
void ft_roff_keys_title(FILE *f, bool roff, const char *title);
/* One key and what it does: a man page's .TP, or a Markdown table's row ('|' escaped). */
void ft_roff_keys_row(FILE *f, bool roff, const char *label, const char *help);

#endif
