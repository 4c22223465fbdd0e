/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `fragtop record`'s loop for the commands that watch the host for a
 * while and then read what they recorded (doctor): the same inputs, the
 * same file, so a live answer and one from a recording are the same code.
 */
#ifndef FT_CMD_RECORD_H
#define FT_CMD_RECORD_H

#include <stdint.h>

#include "cmd/liveopts.h"

struct ft_record_args {
	struct ft_liveopts live;
	const char *output;		/* overwritten if it exists */
	/* seconds: the tick, and how long (Ctrl-C ends it sooner) */
	double interval, duration;
	double map_interval;		/* a map scan every so many seconds; 0: none */
	uint64_t owner_blocks;		/* page_owner looks after each scan */
	/*
	 * After each tick: false stops the recording (experiment: its blocks
	 * and guards).  At the end, before the last tick and the file's close
	 * (experiment: the knob put back, recorded).  NULL: nothing.
	 */
	bool (*on_tick)(void *ctx, struct ft_live *l);
	void (*on_end)(void *ctx, struct ft_live *l);
	void *ctx;
};

/* Record to a->output until a->duration or SIGINT/SIGTERM, quietly.  0, or 1 after saying why. */
int ft_record_headless(const struct ft_record_args *a);

#endif
