/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every front end does about signals. */
#ifndef FT_CMD_SIGNALS_H
#define FT_CMD_SIGNALS_H

#include <signal.h>

/*
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT call @fn: every front end stops
 * cleanly on them (SIGQUIT as SIGTERM: no core, and what fragtop changed
 * put back, an experiment's knob first).
 */
void ft_catch_stop_signals(void (*fn)(int));

/*
 * The common case: SIGINT, SIGTERM, SIGHUP and SIGQUIT set one flag, which the TUI's
 * loop and prompts watch (struct ft_ui's stop).  Returns the flag.
 */
const volatile sig_atomic_t *ft_catch_stop(void);
/* The signal that asked to stop, or 0. */
int ft_stop_signal(void);

/*
 * ^Z for the TUI (struct ft_ui's tstp and on_tstp): the handler sets the
 * flag, the loop puts the terminal back as the shell had it and stops.
 */
extern volatile sig_atomic_t ft_tstp_flag;
void ft_on_tstp(int sig);

#endif
