/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The session's pieces as JSON (base/json.h): snapshot, report and compare write them alike. */
#ifndef FT_OUT_SESSION_JSON_H
#define FT_OUT_SESSION_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/cgrows.h"
#include "analysis/report.h"
#include "kernel/cgroup.h"

struct ft_json;
struct ft_hist;
struct ft_extfrag_counts;

/*
 * A latency histogram at @key: percentiles read from its log-linear
 * buckets (at most 6.25% above the true value, "exact": false) and the
 * non-empty buckets as {lo_us, hi_us, count}.
 */
void ft_render_session_hist(struct ft_json *j, const char *key, const struct ft_hist *h);
/* {total, fragmenting, change_ownership} of the fallbacks @c counts. */
void ft_render_session_extfrag_counts(struct ft_json *j, const struct ft_extfrag_counts *c);

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
void ft_render_session_processes(struct ft_json *j, const struct ft_procs *t, int max);

/*
 * "self": process @pid's rows of @t (fragtop's own footprint, as report's
 * "self"), null when @pid is not known (0).
 */
void ft_render_session_self(struct ft_json *j, const struct ft_procs *t, int pid);

/* "self" from its counts and share, already summed (report's ft_rep_selfcost). */
void ft_render_session_self_counts(struct ft_json *j, int pid, const uint64_t own[FT_PC_NR],
				   double share);

struct ft_session;
struct ft_events;

/*
 * "compaction": the split model/events.h describes, of @ev since the
 * start: {exact (try_to_compact_pages traced), direct
 * {stalls (as compact_stall counts them), attempts (null when not exact),
 * silent_success, compactions (begin/end pairs), outcomes {status: n}},
 * background {compactions, outcomes, by_node [{node (null: not known),
 * compactions, ms, kcompactd_wakes}]}}.
 */
void ft_render_session_compaction(struct ft_json *j, const struct ft_session *s,
				  const struct ft_events *ev);

/*
 * @key: the boost sampler's figures of the @nr zones of @b (zoneinfo
 * order) over a stretch: peak (pages), boosted_fraction (0..1 of the
 * reads), episodes, samples (reads); zones not present left out.
 */
void ft_render_session_boost_zones(struct ft_json *j, const char *key, const struct ft_zoneinfo *zi,
				   const struct ft_boost_tick *b, int nr);

/*
 * @key: background compaction by node, [{node (null: not known),
 * compactions, ms, kcompactd_wakes}] of @bg (FT_EV_NODES + 1, the last
 * the unknown node), the nodes that had any.
 */
void ft_render_session_bg_nodes(struct ft_json *j, const char *key, const struct ft_bg_node *bg);

/*
 * "thp_sizes": multi-size THP by size, [{size_kb, enabled, shmem_enabled
 * (the selected words; null where the size has no such file), stats
 * {counter: value, as the kernel's stats/ lists them}}], null without any.
 */
void ft_render_session_thp(struct ft_json *j, const struct ft_session *s);
struct ft_thp_size;
/* A size's {size_kb, enabled, shmem_enabled} keys (the selected words, null where absent). */
void ft_render_session_thp_settings(struct ft_json *j, const struct ft_thp_size *z);

/*
 * "cost": what the source that made the session cost (model/cost.h),
 * null without a COST input: {ticks, heap_bytes, total {files_opened,
 * reads, bytes_read}, last_tick (the same, null before two ticks),
 * by_source [{source, files_opened, reads, bytes_read, last_tick}]}.
 */
void ft_render_session_cost(struct ft_json *j, const struct ft_session *s);

/*
 * "page_allocation_failures": the kernel log's since the source started
 * (kernel/kmsg.h): read or why not, the count by order, the newest; null
 * when the source said nothing of the log (an older recording).
 */
void ft_render_session_kmsg(struct ft_json *j, const struct ft_session *s);
/*
 * The counts of page allocation failures inside an open object (the
 * session's, or a report's window's): total, by_order (the orders with
 * any), log_records_lost, and the newest failure when @newest.
 */
void ft_render_session_kmsg_counts(struct ft_json *j, uint64_t total,
				   const uint64_t by_order[FT_KMSG_ORDERS],
				   uint64_t lost, const struct ft_kmsg_fail *newest);

/*
 * "by_cgroup": the traced per-process counts summed by cgroup
 * (analysis/cgrows.h), each row's path, name (with @c's pods; NULL:
 * none) and counters; they add up to the totals, the processes folded
 * away included (a row named "other", path null).  @rows NULL: null.
 * With @rep (a report's window), each row's memory stall over it and
 * the share its direct compaction makes (ft_report_cgroup_stall()).
 */
void ft_render_session_by_cgroup(struct ft_json *j, const struct ft_cgrows *rows,
				 const struct ft_cgroups *c,
				 const struct ft_report *rep);

/* --cost-log's line: {"tick", "what", "cost"} on one line of @f. */
void ft_render_session_cost_line(FILE *f, const struct ft_session *s, const char *what);

#endif
