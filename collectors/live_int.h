/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live source's own interface between its files (collectors/live*.c):
 * one file per concern of struct ft_live, and what each offers the others.
 * Nothing outside collectors/live*.c includes this.
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
/* Events lost so far: the ring buffers' overruns and the records the decoder missed. */
uint64_t ft_live_trace_lost(struct ft_live *l);
/* Drain the trace buffers into the session now. */
void ft_live_trace_drain(struct ft_live *l, uint64_t now);

/* collectors/live_names.c */
/* Name the tasks behind the drain's events while they live (NAME inputs). */
void ft_live_names_take(struct ft_live *l);
/* Forget the names of processes gone for a while. */
void ft_live_names_reap(struct ft_live *l);

/* collectors/live_boost.c */
/* A boost may follow what the drain brought: a fragmenting fallback, or a zone last seen boosted. */
bool ft_live_boost_may_follow(struct ft_live *l);
/* The exporter's way: a read after a drain, at most hz a second. */
void ft_live_boost_read_on_trace(struct ft_live *l, bool sign);

/* collectors/live_owner.c */
/* Look at the queued blocks' page_owner within the map's budget (@borrow: seconds it may run ahead). */
void ft_live_owner_poll(struct ft_live *l, uint64_t c0, double borrow);

/* collectors/live_smaps.c */
/* Read the asked processes' smaps_rollup that are due (SMAPS inputs). */
void ft_live_smaps_read(struct ft_live *l, uint64_t t_ns);

/* collectors/live_stacks.c */
/* --stacks' state: a SOURCE input each tick, so each file of a series has it. */
void ft_live_stacks_emit_status(struct ft_live *l, uint64_t t_ns);
/* Name the frames of the stacks the session interned since the last call (KSYM inputs). */
void ft_live_stacks_name(struct ft_live *l);
/* Give the stacktrace trigger its count again, once a second. */
void ft_live_stacks_rearm(struct ft_live *l);

#endif
