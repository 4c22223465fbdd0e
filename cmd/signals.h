/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every front end does about signals. */
#ifndef FT_CMD_SIGNALS_H
#define FT_CMD_SIGNALS_H

#include <signal.h>

/* SIGINT, SIGTERM and SIGHUP call @fn: every front end stops cleanly on them. */
void ft_catch_stop_signals(void (*fn)(int));

/*
 * The common case: SIGINT, SIGTERM and SIGHUP set one flag, which the TUI's
 * loop and prompts watch (struct ft_ui's stop).  Returns the flag.
 */
const volatile sig_atomic_t *ft_catch_stop(void);
/* The signal that asked to stop, or 0. */
int ft_stop_signal(void);

#endif
