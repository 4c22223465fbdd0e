/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Aggregation of decoded trace records: extfrag (fallback) events per zone,
 * fragmenting and ownership-changing, by migratetype pair and by process;
 * latency histograms from begin/end pairs and the stall event; compaction
 * outcomes; kcompactd and kswapd wakes; a ring of recent fallbacks.
 * Pure: records in, counters out.
 *
 * Compaction is split as the kernel counts it.  Direct compaction is what
 * an allocating task stalls in: mm_compaction_try_to_compact_pages opens
 * an attempt of that task, and the kernel counts it in compact_stall when
 * the largest of its zones' results is above COMPACT_SKIPPED
 * (__alloc_pages_direct_compact).  A zone's result shows as
 * mm_compaction_deferred (DEFERRED), mm_compaction_suitable (its ret:
 * SKIPPED and NOT_SUITABLE_ZONE do not count, SUCCESS does; CONTINUE is
 * followed by begin and end, whose status always counts), so the attempt
 * counts at its first zone result that does.  Newer kernels (6.18 here,
 * not 6.1) return from compact_zone() untraced, SUCCESS when the watermark
 * is met and SKIPPED for a costly async attempt without the free memory to
 * compact with; a SUCCESS is followed by mm_compaction_defer_reset in the
 * same attempt (so is an allocation compaction served, counted already),
 * which counts, and an attempt with neither does not.  Every other
 * compaction (kcompactd, proactive, a write to compact_memory) is
 * background, per node.  A recording made before fragtop traced
 * try_to_compact_pages has no attempts: there, compactions by a task
 * known as kcompactd (it emitted mm_compaction_kcompactd_wake, or its name
 * says so) are background and each other begin/end pair is one direct
 * stall.
 */
#ifndef FT_MODEL_EVENTS_H
#define FT_MODEL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/hist.h"
#include "kernel/mm.h"
#include "model/procs.h"
#include "kernel/tracedec.h"

#define FT_EV_MT	8
#define FT_EV_ZONES	64
#define FT_EV_RECENT	256
#define FT_EV_OPEN	1024	/* begin events awaiting their end */
#define FT_EV_FB_RING	4096	/* newest fallback PFNs, for the map's rescans */
#define FT_EV_STACKS	1024	/* kernel stacks told apart (fallbacks by stack) */
#define FT_EV_NODES	64	/* background compaction by node; more: "unknown" */
/* compactions of tasks not named yet (recordings without attempts) */
#define FT_EV_PENDING	64

enum ft_lat_source {
	FT_LAT_COMPACTION,	/* mm_compaction_begin -> end, per task */
	FT_LAT_RECLAIM,		/* mm_vmscan_direct_reclaim_begin -> end */
	FT_LAT_FRAG_STALL,	/* mm_fragmentation_stall duration */
	FT_LAT_BG_COMPACTION,	/* begin -> end of kcompactd, proactive, compact_memory */
	FT_LAT_NR
};

extern const char *const ft_lat_names[FT_LAT_NR];
/* The trace event that ends each source's stall: its format says the source exists. */
extern const enum ft_trace_event ft_lat_event[FT_LAT_NR];

/* Zone PFN ranges, from zoneinfo, to place an extfrag event. */
struct ft_zone_range {
	int node;
	char name[FT_ZONE_NAME_LEN];
	uint64_t start, end;	/* [start, end) */
};

struct ft_extfrag_counts {
	uint64_t total;
	uint64_t fragmenting;		/* fallback_order < pageblock_order */
	uint64_t change_ownership;
};

struct ft_recent_fallback {
	uint64_t ts;
	uint64_t pfn;
	int zone;			/* index into zones[], -1 unknown */
	int pid;
	char comm[16];			/* the command at the time, once named ("" before) */
	int8_t alloc_order, fallback_order, alloc_mt, fallback_mt;
	bool fragmenting, change_ownership;
};

struct ft_open_begin {
	int pid;			/* 0: free slot */
	uint64_t ts;
	uint32_t zones;			/* direct attempts: zone results seen */
	bool counted;			/* direct attempts: counted in compact_stall */
};

enum ft_compact_kind { FT_CK_DIRECT, FT_CK_BACKGROUND, FT_CK_NR };
extern const char *const ft_compact_kind_names[FT_CK_NR];

struct ft_bg_node {			/* background compaction of one node */
	uint64_t count, us;		/* begin/end pairs and their time */
	uint64_t wakes;			/* mm_compaction_kcompactd_wake */
};

/* What the events counted: plain values (a checkpoint saves them whole). */
struct ft_events_state {
	int pageblock_order;		/* for "fragmenting"; set by the caller */
	int nr_zones;
	struct ft_zone_range zones[FT_EV_ZONES];

	uint64_t records;		/* every record seen */
	uint64_t by_kind[FT_EV_NR];
	struct ft_extfrag_counts extfrag;
	struct ft_extfrag_counts extfrag_zone[FT_EV_ZONES];
	struct ft_extfrag_counts extfrag_nozone;	/* pfn outside every known zone */
	uint64_t pair[FT_EV_MT][FT_EV_MT];		/* [alloc_mt][fallback_mt] */
	/* by zone (FT_EV_ZONES: outside every zone), fragmenting or not, and pair */
	uint64_t zone_pair[FT_EV_ZONES + 1][2][FT_EV_MT][FT_EV_MT];
	struct ft_procs procs;				/* by process */

	struct ft_hist lat[FT_LAT_NR];
	uint64_t unpaired[FT_LAT_NR];			/* end without begin, or table full */
	struct ft_open_begin open[FT_LAT_NR][FT_EV_OPEN];
	/* compaction outcomes by kind and by index in the decoder's list; last: unknown */
	uint64_t compact_status[FT_CK_NR][FT_MAX_STATUS + 1];
	int compact_status_val[FT_MAX_STATUS];
	int nr_compact_status;
	/* the status values that are COMPACT_SKIPPED and COMPACT_NOT_SUITABLE_ZONE (-1000: none) */
	int status_skipped, status_not_suitable;

	/* direct compaction attempts, per task (see the top of this file) */
	bool exact_direct;		/* try_to_compact_pages is traced */
	struct ft_open_begin direct[FT_EV_OPEN];
	uint64_t direct_attempts;	/* try_to_compact_pages */
	uint64_t direct_stalls;		/* attempts the kernel counts in compact_stall */
	/* of them, counted by defer_reset alone (SUCCESS untraced) */
	uint64_t direct_silent;
	/* kcompactd threads (the pid that emitted kcompactd_wake) and their nodes */
	int nr_kcompactd;
	struct { int pid, nid; } kcompactd[FT_EV_NODES];
	struct ft_bg_node bg[FT_EV_NODES + 1];		/* by node; last: not known */
	/*
	 * Background compactions by a task not known as kcompactd: a write to
	 * compact_memory or a node's compact file.  /proc/vmstat counts their
	 * scanning with direct compaction's, not kcompactd's.
	 */
	uint64_t bg_foreign;
	/*
	 * recordings without attempts: ends of unnamed tasks, kind decided by their NAME or the
	 * tick
	 */
	int nr_pending;
	struct {
		struct ft_trace_rec r;
		uint64_t us;
	} pending[FT_EV_PENDING];

	uint64_t recent_head;				/* total ever added */
	struct ft_recent_fallback recent[FT_EV_RECENT];
	/* every fallback's PFN and time, the newest FT_EV_FB_RING (fb_head: ever added) */
	uint64_t fb_head;
	struct ft_fb_pfn {
		uint64_t pfn, ts;
	} fb_ring[FT_EV_FB_RING];
	/*
	 * Fallbacks by the kernel stack that made them, where the trace
	 * carries one (a kernel_stack record right after the event: the
	 * stacktrace trigger).  The first FT_EV_STACKS distinct stacks are
	 * told apart; the fallbacks of later ones count in stack_other.
	 */
	int nr_stacks;
	struct ft_ev_stack {
		uint64_t hash;
		int n, all;			/* frames kept, frames the record had */
		uint64_t ip[FT_STACK_DEPTH];
		struct ft_extfrag_counts fb;	/* the fallbacks it made */
	} stacks[FT_EV_STACKS];
	struct ft_extfrag_counts stack_other;
};

/*
 * Futile compaction: what the two scanners isolated (the isolate tracepoints,
 * a pageblock a record), by who ran them, joined with the pageblock map by
 * the session: pages in blocks that hold an unmovable page can never make
 * the block free.  [who][scanner]; "unknown": the block not read whole.
 */
enum ft_iso_who { FT_ISO_DIRECT, FT_ISO_KCOMPACTD, FT_ISO_OTHER, FT_ISO_WHO_NR };
enum ft_iso_scanner { FT_ISO_MIGRATE, FT_ISO_FREE, FT_ISO_SCANNER_NR };
extern const char *const ft_iso_who_names[FT_ISO_WHO_NR];	/* "direct", "kcompactd", "other" */
extern const char *const ft_iso_scanner_names[FT_ISO_SCANNER_NR];	/* "migrate", "free" */

struct ft_futile {
	uint64_t events[FT_ISO_WHO_NR][FT_ISO_SCANNER_NR];
	uint64_t scanned[FT_ISO_WHO_NR][FT_ISO_SCANNER_NR];
	uint64_t scanned_futile[FT_ISO_WHO_NR][FT_ISO_SCANNER_NR];
	uint64_t scanned_unknown[FT_ISO_WHO_NR][FT_ISO_SCANNER_NR];
	uint64_t taken[FT_ISO_WHO_NR][FT_ISO_SCANNER_NR];
	uint64_t taken_futile[FT_ISO_WHO_NR][FT_ISO_SCANNER_NR];
	uint64_t taken_unknown[FT_ISO_WHO_NR][FT_ISO_SCANNER_NR];
};

/*
 * The futile share of @b - @a (a window; @a NULL: since the start):
 * the migrate scanner's scanned pages, the free scanner's taken pages,
 * that lay in blocks holding unmovable pages, of those in blocks the map
 * had read whole.  NAN when none was.
 */
double ft_futile_share(const struct ft_futile *a, const struct ft_futile *b, enum ft_iso_who who,
		       enum ft_iso_scanner sc);

struct ft_events {
	/* told every fallback's PFN and task (the pageblock map marks it); may be NULL */
	void (*on_fallback)(void *ctx, uint64_t pfn, int pid, bool fragmenting);
	void *on_fallback_ctx;
	/* told every latency as it is counted (exact percentiles); may be NULL */
	void (*on_latency)(void *ctx, enum ft_lat_source src, uint64_t us);
	void *on_latency_ctx;
	/*
	 * told every isolate record with who ran it (the session joins it with the map); may be
	 * NULL
	 */
	void (*on_isolate)(void *ctx, const struct ft_trace_rec *r, enum ft_iso_who who);
	void *on_isolate_ctx;
	union {
		struct ft_events_state;	/* its members by name (-fms-extensions) */
		struct ft_events_state state;	/* the same, whole: what a checkpoint saves */
	};
};

void ft_events_init(struct ft_events *ev, int pageblock_order);
/* Replace the zone table (zoneinfo changed).  Counts stay. */
void ft_events_set_zones(struct ft_events *ev, const struct ft_zone_range *z, int n);
/*
 * Copy the compaction status values to count from the decoder, and
 * whether it traces try_to_compact_pages (direct attempts are exact).
 */
void ft_events_set_status(struct ft_events *ev, const struct ft_tracedec *d);

void ft_events_add(struct ft_events *ev, const struct ft_trace_rec *r);
/*
 * The id of @st in ev->stacks (1-based), a new row for a stack not seen
 * before, or FT_EV_STACKS + 1 when the table is full (stack_other).
 */
uint32_t ft_events_stack(struct ft_events *ev, const struct ft_trace_stack *st);
/* A tick closes: compactions waiting for their task's name are counted now. */
void ft_events_tick(struct ft_events *ev);
/* ft_trace_rec_fn adaptor: ctx is a struct ft_events. */
void ft_events_add_cb(void *ctx, const struct ft_trace_rec *r);

/* Counters followed per tick (rates, sparklines). */
enum ft_ev_metric {
	FT_M_EXTFRAG,
	FT_M_FRAGMENTING,
	FT_M_OWNERSHIP,
	FT_M_COMPACTION,	/* direct compaction stalls (compact_stall) */
	FT_M_RECLAIM,		/* mm_vmscan_direct_reclaim_end */
	FT_M_KSWAPD_WAKE,
	FT_M_KCOMPACTD_WAKE,
	FT_M_FRAG_STALL,
	FT_M_BG_COMPACTION,	/* background compactions ended */
	FT_M_NR
};

extern const char *const ft_ev_metric_names[FT_M_NR];
/* The trace event a metric needs, to tell "absent on this kernel" from 0. */
extern const enum ft_trace_event ft_ev_metric_event[FT_M_NR];

void ft_events_metrics(const struct ft_events *ev, uint64_t out[FT_M_NR]);

/*
 * @pid is @comm from now (a NAME input): the process table learns it, and
 * recent fallbacks of @pid not yet named take it.
 */
void ft_events_name(struct ft_events *ev, int pid, const char *comm, uint64_t t_ns);

/* @n most recent fallbacks, newest first; returns how many were copied. */
int ft_events_recent(const struct ft_events *ev, struct ft_recent_fallback *out, int n);

#endif
