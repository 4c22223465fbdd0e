/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --cost-log FILE (the TUI, record, exporter): after each tick, one JSON
 * line of what this fragtop has cost (render/session_json.h's "cost": files
 * opened, reads and bytes per source, the last tick's and since the
 * start, the heap), with the tick's number and what was on screen.  For
 * an operator who wants the figures over a day, and for
 * tests/cli/cost.sh, which holds budgets on them.
 */
#ifndef FT_CMD_COSTLOG_H
#define FT_CMD_COSTLOG_H

#include <stdio.h>

struct ft_session;

struct ft_costlog {
	FILE *f;		/* NULL: no log */
};

/* The option row, bound to @v (const char *). */
#define FT_OPT_COST_LOG(v) { "cost-log", 0, FT_OPT_STR, "FILE", \
	"after each tick, append a JSON line of what fragtop has cost\n" \
	"(files opened, reads, bytes per source; heap) to FILE, a new\n" \
	"file (an existing one is refused)", .var = &(v) }

/*
 * Create @path for the lines (0600; refused if it exists or is a link). 0, or 1 after saying why.
 */
int ft_costlog_open(struct ft_costlog *c, const char *path);
/* A line for the session's newest tick; @what: the mode and view ("top overview", "record"). */
void ft_costlog_tick(struct ft_costlog *c, const struct ft_session *s, const char *what);
void ft_costlog_close(struct ft_costlog *c);

#endif
