/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fixed cadence: ticks fall on start + k * period, whatever the time a
 * tick takes or a key press, a prompt or a slow draw costs.  A late wake
 * runs one tick and skips the ones it missed (no burst to catch up), and
 * keeps the phase.  The live TUI, the replay TUI and `fragtop record`
 * share it, so they sample at the same instants.
 */
#ifndef FT_BASE_TICK_H
#define FT_BASE_TICK_H

#include <stdbool.h>
#include <stdint.h>

struct ft_tick {
	uint64_t period_ns;
	uint64_t next_ns;		/* when the next tick is due */
};

/* The first tick is due at @now_ns. */
void ft_tick_start(struct ft_tick *t, uint64_t period_ns, uint64_t now_ns);

/* true (and the next one scheduled) if a tick is due at @now_ns. */
bool ft_tick_due(struct ft_tick *t, uint64_t now_ns);

/* Nanoseconds until the next tick (0 if due). */
uint64_t ft_tick_left_ns(const struct ft_tick *t, uint64_t now_ns);

/* A new period from now on: the next tick one period after @now_ns. */
void ft_tick_restart(struct ft_tick *t, uint64_t period_ns, uint64_t now_ns);

#endif
