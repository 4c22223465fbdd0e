/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line values shared by the front ends, checked with one message style. */
#ifndef FT_TUI_OPTIONS_H
#define FT_TUI_OPTIONS_H

#include <stddef.h>

/* Seconds in [lo, hi]; 0, or -1 after telling stderr why. */
int ft_opt_seconds(const char *opt, const char *arg, double lo, double hi, double *out);
/* --trace-buffer-kb: KiB in [4, 4 GiB]; 0, or -1 after telling stderr why. */
int ft_opt_buffer_kb(const char *arg, size_t *out);

/* SIGINT, SIGTERM and SIGHUP call @fn: every front end stops cleanly on them. */
void ft_opt_catch_stop_signals(void (*fn)(int));

#endif
