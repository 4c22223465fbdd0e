/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fragtop snapshot`: one sample as a table or as JSON. */
#ifndef FT_TUI_SNAPSHOT_H
#define FT_TUI_SNAPSHOT_H

#include <stdio.h>

#include "collectors/live.h"

/* The JSON document for one sample (also used by tests and later reports). */
void ft_snapshot_json(FILE *f, const struct ft_live *l, double interval_s);
void ft_snapshot_table(FILE *f, const struct ft_live *l);

struct ft_json;
struct ft_procs;

/*
 * "processes": every process with a count, most fragmenting first, as
 * {pid, comm, exited, cgroup (null when unknown), fragmenting, extfrag,
 * ownership_changes,
 * compaction_stalls, compaction_us, reclaim_stalls, reclaim_us,
 * fragmentation_stalls, fragmentation_stall_us}, then {pid -1, comm
 * "(other)"} for rows folded away when the table was full, so the
 * counts add up to the totals.  @max: at most that many (0: all).
 */
void ft_json_processes(struct ft_json *j, const struct ft_procs *t, int max);

#endif
