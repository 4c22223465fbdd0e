/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fragtop snapshot`'s renderers: one sample of a session, as JSON or a table. */
#ifndef FT_RENDER_SNAPSHOT_H
#define FT_RENDER_SNAPSHOT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "analysis/cgrows.h"
#include "model/session.h"

/* What a snapshot prints: the session, and what its source says beside it. */
struct ft_snapshot_in {
	const struct ft_session *session;
	const char *root;		/* the tree read ("/" live) */
	bool map_scan;			/* --map: the pageblock map was asked for */
	int map_err;			/* its scan's -errno, 0 */
	const char *trace_error;	/* why tracing failed (the source says it), NULL */
	double interval_s;		/* the rates' interval; 0: one sample, no rates */
	time_t now;			/* "time" */
	/* the traced counts by cgroup (analysis/cgrows.h), NULL: not traced */
	const struct ft_cgrows *cgrows;
};

void ft_render_snapshot_json(FILE *f, const struct ft_snapshot_in *in);
void ft_render_snapshot_table(FILE *f, const struct ft_snapshot_in *in);

#endif
