/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every front end does about signals. */
#ifndef FT_TUI_OPTIONS_H
#define FT_TUI_OPTIONS_H

/* SIGINT, SIGTERM and SIGHUP call @fn: every front end stops cleanly on them. */
void ft_opt_catch_stop_signals(void (*fn)(int));

#endif
