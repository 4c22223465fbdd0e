/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fleet's console (`fragtop fleet` on a terminal): the host TUI's
 * look and keys over a table whose rows are hosts, and a host's
 * drill-down on Enter.  The rows come from the source's callbacks
 * (cmd/fleet.c asks Prometheus); a refresh that fails keeps the table
 * and says why on the status line.  Its state lives in one struct on
 * the loop's stack, as the host TUI's views keep theirs.
 */
#ifndef FT_TUI_FLEET_H
#define FT_TUI_FLEET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/fleet.h"

struct ft_fleetui_src {
	void *ctx;
	/*
	 * Refresh @f in place (its sort, order and filter kept); 0, or -1 with why and @f
	 * unchanged.
	 */
	int (*table)(void *ctx, struct ft_fleet *f, char *why, size_t sz);
	/* One host's drill-down; 0, or -1 with why. */
	int (*detail)(void *ctx, const char *instance, struct ft_fleet_detail *d, char *why,
		      size_t sz);
	double interval;			/* seconds between refreshes */
	const struct ft_fleet_meta *meta;	/* the last refresh's */
	/* set by SIGINT, SIGTERM, SIGHUP: the console ends */
	const volatile sig_atomic_t *stop;
};

struct ft_fleetui;

/*
 * A key of the console, as struct ft_key is the host TUI's (help and the man page are written from
 * it).
 */
struct ft_fleetui_key {
	const char *label;
	int codes[8];
	const char *help;
	void (*fn)(struct ft_fleetui *u, int ch);
};

extern const struct ft_fleetui_key ft_fleetui_keys[];

/* Run the console until q; 0, or 1 when the terminal cannot be drawn on. */
int ft_fleetui_run(const struct ft_fleetui_src *src, struct ft_fleet *f, bool color);

#endif
