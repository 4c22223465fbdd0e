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
 * "processes": every row of @t with a count (processes, or threads: the
 * caller's table), most fragmenting first, as {pid, tgid (null when not
 * known), threads (rows summed in it), comm, exited, cgroup (null when
 * unknown), fragmenting, extfrag,
 * ownership_changes,
 * compaction_stalls, compaction_us, reclaim_stalls, reclaim_us,
 * fragmentation_stalls, fragmentation_stall_us}, then {pid -1, comm
 * "(other)"} for rows folded away when the table was full, so the
 * counts add up to the totals.  @max: at most that many (0: all).
 */
void ft_json_processes(struct ft_json *j, const struct ft_procs *t, int max);

struct ft_session;
struct ft_events;

/*
 * "compaction": the split model/events.h describes, from @now minus @base
 * (NULL: since the start): {exact (try_to_compact_pages traced), direct
 * {stalls (as compact_stall counts them), attempts (null when not exact),
 * silent_success, compactions (begin/end pairs), outcomes {status: n}},
 * background {compactions, outcomes, by_node [{node (null: not known),
 * compactions, ms, kcompactd_wakes}]}}.
 */
void ft_json_compaction(struct ft_json *j, const struct ft_session *s, const struct ft_events *now,
			const struct ft_events *base);

struct ft_bg_node;
/* @key: [{node (null: not known), compactions, ms, kcompactd_wakes}], @now - @base (NULL: 0), nodes that had any. */
void ft_json_bg_nodes(struct ft_json *j, const char *key, const struct ft_bg_node *now,
		      const struct ft_bg_node *base);

#endif
