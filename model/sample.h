/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sample of the kernel's memory state, built from the raw bytes a
 * collector (live or replay) hands over.  Parses each source, keeps the
 * previous vmstat for rates, and joins the per-zone records of zoneinfo,
 * buddyinfo and pagetypeinfo by (node, zone).
 */
#ifndef FT_MODEL_SAMPLE_H
#define FT_MODEL_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/buddyinfo.h"
#include "kernel/cgroup.h"
#include "kernel/mm.h"
#include "kernel/pagetypeinfo.h"
#include "model/rates.h"
#include "kernel/vmstat.h"
#include "kernel/zoneinfo.h"

enum ft_source {
	FT_SRC_ZONEINFO,
	FT_SRC_BUDDYINFO,
	FT_SRC_PAGETYPEINFO,
	FT_SRC_VMSTAT,
	FT_SRC_PRESSURE,	/* /proc/pressure/memory; absent without CONFIG_PSI or with psi=0 */
	FT_SRC_NR
};

extern const char *const ft_source_names[FT_SRC_NR];

/* What a collector produced for one source in one tick. */
struct ft_raw_source {
	bool fresh;		/* read this tick; otherwise keep the old state */
	int err;		/* 0, or -errno of the read */
	const char *buf;	/* borrowed until ft_sample_update() returns */
	size_t len;
};

struct ft_raw {
	uint64_t t_ns;		/* CLOCK_MONOTONIC at collection */
	struct ft_raw_source src[FT_SRC_NR];
};

/* The join of one zone.  Pointers are valid until the next update. */
struct ft_zone {
	const struct ft_zi_zone *zi;
	const struct ft_buddy_zone *bi;	/* NULL: empty zone or no buddyinfo */
	const struct ft_pti_zone *pti;	/* NULL: no pagetypeinfo */
	int unusable[FT_MAX_ORDERS];	/* thousandths, valid with bi */
	int fragidx[FT_MAX_ORDERS];
};

/* A sample's plain values (a checkpoint saves them whole). */
struct ft_sample_state {
	uint64_t t_ns;
	/* per source: parsed and current (bit), last error (0 if fine) */
	unsigned int valid;
	int err[FT_SRC_NR];
	uint64_t src_t_ns[FT_SRC_NR];	/* when each source was last parsed */
	uint64_t prev_vmstat_t_ns;
	bool has_prev;
	int nr_orders;			/* from buddyinfo, else pagetypeinfo */
	/* from pagetypeinfo, else the caller's fallback (-1 if unknown) */
	int pageblock_order;
	int pageblock_order_fallback;
	struct ft_rates rates;
	struct ft_psi psi;		/* the host's memory pressure (FT_SRC_PRESSURE) */
	/* ms stalled a second between the last two reads of it (some, full); NAN before two */
	double psi_some_ms, psi_full_ms;
};

struct ft_sample {
	union {
		struct ft_sample_state;	/* its members by name (-fms-extensions) */
		struct ft_sample_state state;	/* the same, whole: what a checkpoint saves */
	};
	struct ft_zoneinfo zoneinfo;
	struct ft_buddyinfo buddy;
	struct ft_pagetypeinfo pti;
	struct ft_vmstat vmstat;
	struct ft_vmstat prev_vmstat;	/* for rates */

	struct ft_zone *zones;		/* zoneinfo order, every zone: the join */
	size_t nr_zones, cap_zones;
};

void ft_sample_init(struct ft_sample *s);
void ft_sample_release(struct ft_sample *s);

/*
 * Parse the fresh sources of @raw and rebuild the join.  A source that
 * fails to parse is marked invalid with its error; the others still
 * update.  Returns 0 if zoneinfo is valid (the minimum to show
 * anything), else its error.
 */
int ft_sample_update(struct ft_sample *s, const struct ft_raw *raw);

/* Rebuild the per-zone join after the parsed sources were replaced (a checkpoint). */
int ft_sample_rejoin(struct ft_sample *s);

/*
 * Name of migratetype number @mt: pagetypeinfo prints the types in the
 * kernel's enum order, so its column order names them; "mt<N>" without it.
 */
const char *ft_sample_mt_name(const struct ft_sample *s, int mt, char *buf, size_t sz);

static inline bool ft_sample_has(const struct ft_sample *s, enum ft_source src)
{
	return s->valid & (1u << src);
}

#endif
