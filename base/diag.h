/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one diagnostics hook.  Library code reports here; the front end
 * decides where it goes (stderr for headless commands, the status line in
 * the TUI).
 */
#ifndef FT_BASE_DIAG_H
#define FT_BASE_DIAG_H

enum ft_diag_level { FT_DIAG_INFO, FT_DIAG_WARN, FT_DIAG_ERR };

typedef void (*ft_diag_fn)(void *ctx, enum ft_diag_level level, const char *msg);

/* NULL restores the default (stderr). */
void ft_diag_set_hook(ft_diag_fn fn, void *ctx);

__attribute__((format(printf, 2, 3)))
void ft_diag(enum ft_diag_level level, const char *fmt, ...);

#endif
