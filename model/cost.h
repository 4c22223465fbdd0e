/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cost account (base/cost.h) as a SOURCE input (FT_RS_COST), and what
 * the session keeps of it: the newest snapshot and the one of the tick
 * before, whose difference is what one tick cost.  Pure.
 *
 * The record: u32 sources (FT_COST_NR when written), u32 counts per
 * source (3: opens, reads, bytes), then those counts as u64 source by
 * source, then u64 heap bytes.  A reader takes the sources it knows and
 * skips the rest, so sources added at the end keep old files readable.
 */
#ifndef FT_MODEL_COST_H
#define FT_MODEL_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cost.h"

#define FT_COST_REC_LEN	(8 + FT_COST_NR * 24 + 8)

/* What the session knows of the source's cost. */
struct ft_cost_seen {
	bool known;			/* a COST input arrived */
	uint64_t ticks;			/* COST inputs applied */
	/* the newest and the one before (prev valid when ticks > 1) */
	struct ft_cost now, prev;
	uint64_t t_ns, prev_t_ns;
};

/* @c into @b (at least FT_COST_REC_LEN bytes); the length written, 0 if it does not fit. */
size_t ft_costrec_encode(const struct ft_cost *c, uint8_t *b, size_t sz);

/* A COST record into @out (sources it lacks are 0).  0, or -EINVAL for a malformed one. */
int ft_costrec_decode(const uint8_t *b, size_t len, struct ft_cost *out);

/* Take a decoded snapshot at time @t_ns: what was the newest becomes prev. */
void ft_costrec_push(struct ft_cost_seen *s, const struct ft_cost *c, uint64_t t_ns);

/*
 * What the last tick cost: now - prev (false before two snapshots, or
 * when a count went back: another process's file in a series).
 */
bool ft_costrec_tick(const struct ft_cost_seen *s, struct ft_cost *out);

#endif
