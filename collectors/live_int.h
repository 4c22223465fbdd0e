/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live source's own interface between its files (collectors/live*.c):
 * one file per part of struct ft_live, and what each offers the hub and
 * the others, who never touch its member.  Nothing outside
 * collectors/live*.c includes this, but the unit tests that drive a part
 * alone.
 */
#ifndef FT_COLLECTORS_LIVE_INT_H
#define FT_COLLECTORS_LIVE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/live.h"

/* collectors/live.c */
/* Every read becomes an input: the tap sees it, then the session applies it. */
void ft_live_emit(struct ft_live *l, uint16_t type, uint16_t sub, uint64_t t_ns, const void *data,
		 size_t len);
/* The trace's or the map's status (FT_RS_TRACE, FT_RS_MAP) as a SOURCE input: -errno, or 0. */
void ft_live_emit_status(struct ft_live *l, enum ft_rs what, int err);
/* Event @i's format as a FORMAT input to @fn (the session, or a recording's META). */
void ft_live_emit_format(struct ft_live *l, int i, ft_input_fn fn, void *ctx);
/* header_page, then every event's format: the order the decoder needs. */
void ft_live_emit_formats(struct ft_live *l, ft_input_fn fn, void *ctx);

/* collectors/live_trace.c */
/* Tracing is on (ft_live_trace_start() succeeded). */
bool ft_live_trace_on(const struct ft_live *l);
/* The tick's share: drain, then the lost count (a TRACE_LOST input); the tasks gone forgotten. */
void ft_live_trace_tick(struct ft_live *l, uint64_t t_ns);
/* The formats to @fn (a recording's META), --stacks' too. */
void ft_live_trace_meta(struct ft_live *l, ft_input_fn fn, void *ctx);
/* The stacktrace trigger on fragmenting fallbacks (below @order), at most @per_sec; 0 or -errno. */
int ft_live_trace_stacks_on(struct ft_live *l, int order, unsigned int per_sec);
/* ... its count given again; 0 or -errno. */
int ft_live_trace_stacks_rearm(struct ft_live *l);
void ft_live_trace_free(struct ft_live *l);
/* Events lost so far: the ring buffers' overruns and the records the decoder missed. */
uint64_t ft_live_trace_lost(struct ft_live *l);
/* Drain the trace buffers into the session now. */
void ft_live_trace_drain(struct ft_live *l, uint64_t now);

/* collectors/live_names.c */
/* Tasks are named from now on (tracing started). */
void ft_live_names_start(struct ft_live *l);
void ft_live_names_free(struct ft_live *l);
/* Name the tasks behind the drain's events while they live (NAME inputs). */
void ft_live_names_take(struct ft_live *l);
/* Forget the names of processes gone for a while. */
void ft_live_names_reap(struct ft_live *l);

/* collectors/live_boost.c */
/* The sampler's file, lock and wake-up; @hz reads a second (0: off). */
void ft_live_boost_init(struct ft_live *l, unsigned int hz);
/* Tracing started: fallbacks wake the sampler, so it idles slower. */
void ft_live_boost_traced(struct ft_live *l);
/* After a drain: a boost may follow what it brought (a read, or the full rate). */
void ft_live_boost_after_drain(struct ft_live *l);
/* The tick's share: the BOOST input, what the sampler saw since the last. */
void ft_live_boost_tick(struct ft_live *l, uint64_t t_ns);
void ft_live_boost_free(struct ft_live *l);
/*
 * A boost may follow what the drain brought: a fragmenting fallback, or a zone last seen boosted.
 */
bool ft_live_boost_may_follow(struct ft_live *l);
/* The exporter's way: a read after a drain, at most hz a second. */
void ft_live_boost_read_on_trace(struct ft_live *l, bool sign);

/* collectors/live_map.c */
void ft_live_map_init(struct ft_live *l);
/* CPU the scan's budget still allows in a poll that began at thread time @c0 (< 0: overspent). */
double ft_live_map_budget_left(const struct ft_live *l, uint64_t c0);
/* The scan's cost and lag as a SOURCE input, while it scans. */
void ft_live_map_emit_status(struct ft_live *l, uint64_t t_ns);
/* /proc/iomem as read for the map, to @fn (a recording's META). */
void ft_live_map_meta(struct ft_live *l, ft_input_fn fn, void *ctx);
void ft_live_map_free(struct ft_live *l);

/* collectors/live_owner.c */
/* The map's cursor asked for a look that waits. */
bool ft_live_owner_cursor_waiting(const struct ft_live *l);
/* page_owner is open for looks. */
bool ft_live_owner_open(const struct ft_live *l);
/* page_owner's state as a SOURCE input, once it was tried. */
void ft_live_owner_emit_status(struct ft_live *l, uint64_t t_ns);
void ft_live_owner_free(struct ft_live *l);
/*
 * Look at the queued blocks' page_owner within the map's budget (@borrow: seconds it may run
 * ahead).
 */
void ft_live_owner_poll(struct ft_live *l, uint64_t c0, double borrow);

/* collectors/live_smaps.c */
void ft_live_smaps_init(struct ft_live *l);
/* The kernel log: opened at its end (live host only), drained before each tick, closed. */
void ft_live_kmsg_open(struct ft_live *l);
void ft_live_kmsg_read(struct ft_live *l, uint64_t t_ns);
void ft_live_kmsg_close(struct ft_live *l);
void ft_live_changes_open(struct ft_live *l);
void ft_live_changes_read(struct ft_live *l, uint64_t t_ns);
void ft_live_changes_close(struct ft_live *l);
/* Read the asked processes' smaps_rollup that are due (SMAPS inputs). */
void ft_live_smaps_read(struct ft_live *l, uint64_t t_ns);

/* collectors/live_stacks.c */
void ft_live_stacks_free(struct ft_live *l);
/* --stacks' state: a SOURCE input each tick, so each file of a series has it. */
void ft_live_stacks_emit_status(struct ft_live *l, uint64_t t_ns);
/* Name the frames of the stacks the session interned since the last call (KSYM inputs). */
void ft_live_stacks_name(struct ft_live *l);
/* Give the stacktrace trigger its count again, once a second. */
void ft_live_stacks_rearm(struct ft_live *l);

#endif
