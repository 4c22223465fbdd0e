/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One live source of samples: the procfs collector, host facts and knob
 * values under a root, feeding a model sample each tick.  pagetypeinfo is
 * expensive (the kernel walks every free list under zone->lock with
 * interrupts off), so it is read at its own, slower cadence.
 */
#ifndef FT_COLLECTORS_LIVE_H
#define FT_COLLECTORS_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/host.h"
#include "collectors/kpageflags.h"
#include "collectors/procfs.h"
#include "collectors/procname.h"
#include "collectors/tracefs.h"
#include "controls/knobs.h"
#include "model/events.h"
#include "model/pageblock.h"
#include "model/sample.h"
#include "model/series.h"

#define FT_LIVE_MAX_KNOBS 32

/* What the recorder taps: the raw inputs as they are read. */
struct ft_live_tap {
	void (*tick)(void *ctx, const struct ft_raw *raw);
	void (*trace_page)(void *ctx, int cpu, const void *buf, size_t len);
	void (*kpf_batch)(void *ctx, size_t zone, uint64_t pfn, size_t words, const uint64_t *flags,
			  const uint64_t *counts);
};

struct ft_live {
	char root[4096];
	struct ft_procfs procfs;
	struct ft_host host;
	struct ft_sample sample;
	uint64_t pti_interval_ns;	/* 0: every tick */
	uint64_t pti_last_ns;		/* 0: never read */
	struct ft_knob_value knobs[FT_LIVE_MAX_KNOBS];	/* index of ft_knobs[] */
	unsigned long ticks;
	const struct ft_live_tap *tap;	/* NULL: nobody records */
	void *tap_ctx;
	bool replay;			/* fed by ft_live_apply(), not by /proc */

	/* tracepoints: events accumulate from ft_live_trace_start() on */
	struct ft_trace trace;
	bool tracing;
	int trace_err;			/* why not tracing (0 if tracing or not asked) */
	struct ft_events events;
	uint64_t lost;			/* last ft_trace_lost() */
	/* names of the processes behind fallbacks, taken while they live */
	struct ft_procname procname;
	/* per-tick rates of the event counters, and their history */
	uint64_t ev_prev[FT_M_NR];
	uint64_t ev_prev_t_ns;
	double ev_rate[FT_M_NR];		/* per second over the last tick; NAN before */
	struct ft_series ev_series[FT_M_NR];
	struct ft_extfrag_counts zone_prev[FT_EV_ZONES];
	double zone_extfrag_rate[FT_EV_ZONES], zone_frag_rate[FT_EV_ZONES];

	/*
	 * The pageblock map: laid out from zoneinfo every tick (cheap), so
	 * fallbacks mark their blocks from the start; scanned from
	 * /proc/kpageflags only while map_scan is set, map_budget PFNs a tick.
	 */
	struct ft_pbmap map;
	struct ft_kpf kpf;
	bool map_scan;
	int map_err;			/* why the map cannot be scanned (0: fine) */
	uint64_t map_rate;		/* PFNs per second while scanning */
	uint64_t map_last_ns;		/* last ft_live_map_poll() that scanned */
	uint64_t map_scan_ns, map_scan_pfns;	/* time spent and PFNs read, ever */
	char *iomem;			/* /proc/iomem as read for the map (the recorder's) */
	size_t iomem_len;
};

/* PFNs per second: 4 GiB of 4K pages, ~60 ms of kernel time per second here. */
#define FT_LIVE_MAP_RATE	(1u << 20)

/* Fallback rates of a zone over the last tick (NAN when not tracing). */
void ft_live_zone_extfrag_rate(const struct ft_live *l, int node, const char *zone,
			       double *total, double *fragmenting);

/* 0 or -errno (the root cannot be opened). */
int ft_live_open(struct ft_live *l, const char *root, double pti_interval_s);
void ft_live_close(struct ft_live *l);

/*
 * Collect and update the sample.  @force_pti reads pagetypeinfo now
 * whatever its cadence.  Returns ft_sample_update()'s result.
 */
int ft_live_tick(struct ft_live *l, bool force_pti);

/*
 * The part of a tick after collection: update the sample from @raw (live
 * or replayed bytes) and everything derived from it.  A live tick is
 * ft_procfs_collect() + this.
 */
int ft_live_apply(struct ft_live *l, const struct ft_raw *raw);

/*
 * Replay: open a live without a root (host facts come from the
 * recording), set up the trace decoder from recorded texts ("header_page"
 * first, then "system/event" formats) and feed recorded sub-buffers.
 */
void ft_live_open_replay(struct ft_live *l);
int ft_live_replay_trace_text(struct ft_live *l, const char *name, const char *buf, size_t len);
void ft_live_replay_trace_page(struct ft_live *l, int cpu, const void *buf, size_t len);
/* Recorded /proc/iomem text and kpageflags batches: the map in replay. */
void ft_live_replay_iomem(struct ft_live *l, const char *buf, size_t len);
void ft_live_replay_kpf(struct ft_live *l, size_t zone, const void *data, size_t len);
/* A recorded knob file's text. */
void ft_live_replay_knob(struct ft_live *l, size_t idx, const char *buf, size_t len);

/*
 * Start tracing into a private instance (stale ones of dead fragtops are
 * removed first).  On failure tracing stays off, the reason is in
 * l->trace_err and reported once through ft_diag(); everything else works.
 */
int ft_live_trace_start(struct ft_live *l, size_t buffer_kb);

/* Re-read every knob's value into l->knobs (each tick does; a control change too). */
void ft_live_read_knobs(struct ft_live *l);

/* Read and aggregate what the trace buffers hold (also done by each tick). */
void ft_live_trace_poll(struct ft_live *l);

/*
 * Start (or stop) scanning the pageblock map each tick.  Opens
 * /proc/kpageflags and reads /proc/iomem on first use; on failure returns
 * -errno, also kept in l->map_err, and says why once through ft_diag().
 */
int ft_live_map_enable(struct ft_live *l, bool on);

/*
 * Scan the share of the map due since the last call (map_rate PFNs per
 * second, at most one second's worth); called by each tick and between
 * ticks so that a pass moves smoothly.  Does nothing unless enabled.
 */
void ft_live_map_poll(struct ft_live *l);

/* Scan every zone now (the 'R' key, `snapshot --map`).  0 or -errno. */
int ft_live_map_scan_all(struct ft_live *l);

/* Seconds since pagetypeinfo was last parsed, or -1 if never. */
double ft_live_pti_age(const struct ft_live *l, uint64_t now_ns);

#endif
