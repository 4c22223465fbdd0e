/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live terminal UI: main loop, views, keys. */
#ifndef FT_TUI_UI_H
#define FT_TUI_UI_H

#include <stdio.h>

int ft_cmd_top(int argc, char **argv);
void ft_ui_usage(FILE *f);

#endif
