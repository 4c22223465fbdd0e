/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session: everything fragtop knows about the host it watches, built
 * from inputs only.  An input is a record, the very struct a recording
 * holds (model/RECORDING.md): a /proc text, a knob file, a trace
 * sub-buffer, a kpageflags batch, a trace format, a control change, a
 * name.  The live source reads them from the kernel, the replay source
 * from a file; both hand them to ft_session_apply(), the one function that
 * changes a session, so live and replay are the same code past the read.
 *
 * Pure: bytes in, state out.  Time is the inputs' time (CLOCK_MONOTONIC
 * of the machine that read them), never the clock of the machine that
 * shows them.
 *
 * Ownership: struct ft_session owns its parts (the sample, the decoder
 * and events, the reorder queue, the latency ring, the history rings,
 * direct compaction's cost, the map, the page_owner store, the host
 * facts; each with a header of its own) and its audit list. Its checkpoints (model/checkpoint.h)
 * are self-contained zstd blobs that bring it back in a session opened from the same formats.
 */
#ifndef FT_MODEL_SESSION_H
#define FT_MODEL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/thp.h"
#include "model/boost.h"
#include "kernel/cgroup.h"
#include "model/cost.h"
#include "model/direct.h"
#include "model/events.h"
#include "model/history.h"
#include "kernel/hostfacts.h"
#include "kernel/kmsg.h"
#include "model/knob.h"
#include "model/latring.h"
#include "kernel/ksyms.h"
#include "model/contig.h"
#include "model/owners.h"
#include "model/pageblock.h"
#include "model/recfmt.h"
#include "model/sample.h"
#include "model/series.h"
#include "kernel/tracedec.h"
#include "model/trq.h"

#define FT_SESSION_MAX_KNOBS	48
#define FT_SESSION_NAMES	1024	/* pid -> command, newest kept */
#define FT_SESSION_SMAPS	256	/* pid -> smaps_rollup's anon and huge anon, newest kept */
#define FT_SESSION_MAX_AUDITS	65536	/* control changes kept; more are counted */
#define FT_SESSION_BAD_KEPT	8	/* malformed inputs said in full; more are counted */
/* bytes of map input held for the first tick, at most */
#define FT_SESSION_KPF_EARLY	(64u << 20)

/*
 * A PROC or KNOB input's sub with this bit: the file could not be read,
 * and the data is its int32 -errno (a non-root pagetypeinfo shows "needs
 * root", an absent knob "absent").
 */
#define FT_INPUT_ERR	0x8000

/* A control change, from an AUDIT input. */
struct ft_session_audit {
	uint64_t t_ns;			/* the input's time */
	uint64_t tick;			/* ticks applied before it */
	char knob[FT_KNOB_TEXT], old[FT_KNOB_TEXT], new[FT_KNOB_TEXT];
	char how[16], outcome[16];
	char msg[192];
	/*
	 * Who wrote (the audit's "by": "set", "tui", "experiment"...; "" in
	 * older recordings), and for a claim of another fragtop process (how
	 * and outcome "claim", model/journal.h) its pid and uid.
	 */
	char by[16];
	int pid;
	uint32_t uid;
};

/*
 * A note, not a change this recording's fragtop made: another fragtop
 * process's claim (model/journal.h) or an experiment's plan.
 */
static inline bool ft_session_audit_note(const struct ft_session_audit *a)
{
	return !__builtin_strcmp(a->how, "claim") || !__builtin_strcmp(a->how, "plan");
}

struct ft_session_name {
	int pid;			/* 0: free */
	char comm[32];
};

/* A process's smaps_rollup (SMAPS input): its anonymous memory and the part in huge pages. */
struct ft_session_smaps {
	int32_t pid;			/* 0: empty */
	uint64_t t_ns;			/* when it was read */
	struct ft_smaps v;
};

/*
 * The session's plain values: every number, ring and table it keeps by
 * value.  A checkpoint saves them whole; no pointer may be among them
 * (tests/cli/plain.sh reads the compiler's debug info to make sure).
 */
struct ft_session_state {
	/* the clock: time of the newest input, and of the newest tick */
	uint64_t t_ns;
	uint64_t tick_t_ns, tick_rt_ns;	/* CLOCK_MONOTONIC and CLOCK_REALTIME */
	uint64_t first_t_ns, first_rt_ns;	/* of the first tick */
	uint64_t ticks;
	/*
	 * Each counter of model/counterfield.h at the first tick that had
	 * /proc/vmstat (index FT_CF_*; first_have: the rows present then,
	 * 0 before it): what "since the start" subtracts.  Not kept by a lean
	 * session.
	 */
	int64_t counter_first[32];
	uint32_t counter_first_have;

	struct ft_knob_value knobs[FT_SESSION_MAX_KNOBS];	/* index of ft_knobs[] */
	int pending_err[FT_SRC_NR];	/* -errno of a source that could not be read */
	bool pending_fresh[FT_SRC_NR];	/* given since the last tick */
	int trace_err;			/* why not (SOURCE input), 0 if tracing or not asked */
	uint64_t lost;			/* from the LOST input */
	uint64_t pages, page_bytes;	/* trace sub-buffers applied */
	/* per-tick rates of the event counters, and their history */
	uint64_t ev_prev[FT_M_NR];
	uint64_t ev_prev_t_ns;
	double ev_rate[FT_M_NR];		/* per second over the last tick; NAN before */
	struct ft_series ev_series[FT_M_NR];
	struct ft_extfrag_counts zone_prev[FT_EV_ZONES];
	double zone_extfrag_rate[FT_EV_ZONES], zone_frag_rate[FT_EV_ZONES];
	/* the isolate records joined with the map (model/events.h) */
	struct ft_futile futile;
	/* what direct compaction scanned (model/direct.h) */
	struct ft_direct direct;
	int map_err;			/* why no map data (SOURCE input), 0 if fine */
	/*
	 * pageblocks the zones spanned when the map refused them (past FT_PBMAP_MAX_BLOCKS: no real
	 * host), 0: never
	 */
	uint64_t map_refused;
	/* the reading fragtop's process (SOURCE input): its own rows; 0 unknown */
	int self_pid;
	/* the kernel config check's finding (SOURCE input), "" none */
	char map_check[320];
	bool have_iomem;
	/* the live map scan's cost and lag (SOURCE input); known: one arrived */
	struct ft_mapscan {
		bool known;
		double cpu;		/* the share of a core it may use */
		uint64_t rescans, rescans_late, lag_max_ns;
		/* of the rescans, those the budget put off a look */
		uint64_t rescans_deferred;
	} mapscan;
	/* the stacktrace trigger (--stacks; SOURCE input); known: one arrived */
	struct ft_stacks_src {
		bool known;
		int err;		/* why it is off, 0: on */
		uint32_t per_sec;	/* stacks a second at most: later fallbacks go without */
	} stacks_src;
	/* page_owner (SOURCE input); known: one arrived */
	struct ft_owner_src {
		bool known;
		int err;		/* why it cannot be read, 0: it can */
		uint64_t looks;		/* OWNER inputs applied, ever */
		uint64_t stacks_t_ns;	/* the last show_stacks input's time, 0: none */
		bool stacks_cut;	/* its text was cut */
	} owner_src;
	/* page allocation failures in the kernel log (KMSG and SOURCE inputs, kernel/kmsg.h) */
	struct ft_kmsg kmsg;
	/* what the source has cost (SOURCE input, model/cost.h) */
	struct ft_cost_seen cost;
	/* /proc/meminfo (SOURCE input); 0: not known */
	uint64_t mem_total_kb, mem_avail_kb;
	/*
	 * Multi-size THP (THP inputs, kernel/thp.h): the last tick's and the
	 * one before, for rates; thp_ticks 0: none on this kernel.
	 */
	struct ft_thp thp, thp_prev;
	uint64_t thp_t_ns, thp_prev_t_ns, thp_ticks;

	/*
	 * The boost sampler's, from BOOST inputs, by zone in zoneinfo order:
	 * the last tick's and the sum since the start.  boost_nr 0: no sampler.
	 */
	int boost_nr;
	struct ft_boost_tick boost[FT_BOOST_ZONES];
	struct ft_boost_tick boost_total[FT_BOOST_ZONES];
	uint64_t boost_ticks;
	bool boost_fresh;		/* a BOOST input since the last tick */

	struct ft_history hist;		/* the history rings (model/history.h) */
	uint8_t mark_pending;		/* a knob changed since the last tick */

	/* pid -> command, from NAME inputs (a direct-mapped table) */
	struct ft_session_name names[FT_SESSION_NAMES];
	/* pid -> smaps_rollup, from SMAPS inputs (direct-mapped) */
	struct ft_session_smaps smaps[FT_SESSION_SMAPS];
	uint64_t audits_dropped;	/* past FT_SESSION_MAX_AUDITS */

	uint64_t bad_inputs;		/* malformed inputs skipped */
	/* the first FT_SESSION_BAD_KEPT of them: what, and where (report -v) */
	struct ft_session_bad {
		uint64_t tick;		/* ticks applied before it */
		uint16_t type, sub;	/* the record's */
		uint32_t len;
		char why[48];
	} bad[FT_SESSION_BAD_KEPT];
	uint64_t formats_repeated;	/* format inputs skipped: the event had one */
};

struct ft_session {
	union {
		struct ft_session_state;	/* its members by name (-fms-extensions) */
		struct ft_session_state state;	/* the same, whole: what a checkpoint saves */
	};
	struct ft_host_facts host;
	struct ft_sample sample;
	/* /proc texts given since the last tick (a tick may span chunks) */
	struct {
		char *buf;
		size_t len, cap;
	} pending[FT_SRC_NR];
	/*
	 * Report mode: zoneinfo, buddyinfo and pagetypeinfo (the costly
	 * parses, which a report reads only for zone ranges and the pageblock
	 * order) are applied every lean-th tick; vmstat, pressure, knobs
	 * and trace pages every tick.  0: every source every tick.
	 */
	unsigned int lean;

	/* tracepoints: on from the first format input */
	bool tracing;
	unsigned int trace_enabled;	/* bit per enum ft_trace_event with a format */
	struct ft_tracedec dec;
	/* names of the kernel addresses in stacks (KSYM inputs, META: a file's own) */
	struct ft_symnames syms;
	struct ft_events events;
	struct ft_trq trq;		/* a tick's records, put in time order (model/trq.h) */
	struct ft_latring lat;		/* stall histograms tick by tick (model/latring.h) */
	/* the pageblock map: laid out from zoneinfo, filled by KPF inputs */
	struct ft_pbmap map;
	/* control changes, in input order */
	struct ft_session_audit *audits;
	size_t nr_audits, cap_audits;
	struct ft_owners owners;	/* page_owner looks and show_stacks (model/owners.h) */
	/* the memory cgroups (CGROUPS input): made at the first, nr_cgroups 1 from then on */
	struct ft_cgroups *cgroups;
	size_t nr_cgroups, cap_cgroups;

	/*
	 * KPF inputs that came before the first tick laid the zones out (a
	 * recorder's first look at the map may come first): copies, applied
	 * at that tick.  Empty from then on.
	 */
	uint8_t *kpf_early;		/* each: a u64 length, its struct ft_rec_record's
					 * type, sub and t_ns, then the data (owned) */
	size_t kpf_early_len, kpf_early_cap;
};

void ft_session_init(struct ft_session *s);

/*
 * How a session is kept, fixed when it is made (not its contents, which
 * change only through ft_session_apply()): report mode (lean, above), and
 * a hook handed every stall latency as it is counted (report's exact
 * percentiles).
 */
struct ft_session_opts {
	unsigned int lean;
	void (*on_latency)(void *ctx, enum ft_lat_source src, uint64_t us);
	void *on_latency_ctx;
};
void ft_session_init_opts(struct ft_session *s, const struct ft_session_opts *o);
void ft_session_release(struct ft_session *s);

/*
 * Apply one input.  Unknown types are skipped (a newer recording); a
 * malformed input is counted in bad_inputs and changes nothing else.
 * Returns 1 when the input was a tick (the state is complete for it),
 * else 0.
 */
int ft_session_apply(struct ft_session *s, const struct ft_rec_record *in);

/* A format for @ev was given (the event exists on the recorded kernel). */
static inline bool ft_session_has_event(const struct ft_session *s, enum ft_trace_event ev)
{
	return s->trace_enabled & (1u << ev);
}

/* The kernel stacks of fallbacks were taken (--stacks: the kernel_stack format was given). */
static inline bool ft_session_has_stacks(const struct ft_session *s)
{
	return s->tracing && s->dec.stack_type >= 0;
}

/* The newest page_owner look at the block starting at PFN @pfn, or NULL. */
static inline const struct ft_owner_look *ft_session_owner(const struct ft_session *s, uint64_t pfn)
{
	return ft_owners_find(&s->owners, pfn);
}

/* A look's text (the pinning allocations, kernel/pageowner.h), untrusted. */
static inline const char *ft_session_owner_text(const struct ft_session *s,
						const struct ft_owner_look *o)
{
	return ft_owners_text(&s->owners, o);
}

/* Command of @pid from the NAME inputs, or NULL. */
const char *ft_session_name(const struct ft_session *s, int pid);

/* Process @pid's last smaps_rollup (SMAPS input), or NULL: none read (or pushed out). */
const struct ft_session_smaps *ft_session_smaps(const struct ft_session *s, int pid);

/* Fallback rates of a zone over the last tick (NAN when not tracing). */
void ft_session_zone_extfrag_rate(const struct ft_session *s, int node, const char *zone,
				  double *total, double *fragmenting);

/*
 * The sampler's view of zoneinfo zone @zi_index over the last tick, or
 * NULL without a sampler (or for a zone it did not see).
 */
const struct ft_boost_tick *ft_session_boost(const struct ft_session *s, size_t zi_index);

/*
 * Stall latencies of @src over the ticks within the last @secs seconds
 * (0: since the start) into @out.  Returns the seconds it covers: less
 * than asked when the session, or the ring of FT_LAT_RING ticks, is
 * shorter.
 */
double ft_session_lat_window(const struct ft_session *s, enum ft_lat_source src, double secs,
			     struct ft_hist *out);

/* The newest tick's stall latencies of @src into @out; false (and @out empty) before a tick. */
static inline bool ft_session_lat_last(const struct ft_session *s, enum ft_lat_source src,
				       struct ft_hist *out)
{
	return ft_latring_last(&s->lat, src, out);
}

/* The history rings' values (ft_history_get()). */
static inline void ft_session_history(const struct ft_session *s, int zi, enum ft_zh_metric m,
				      unsigned long back, int n, double *out, uint8_t *marks,
				      uint64_t *t_ns)
{
	ft_history_get(&s->hist, zi, m, back, n, out, marks, t_ns);
}

/* Seconds between the newest tick and the last pagetypeinfo parse, -1 if never. */
double ft_session_pti_age(const struct ft_session *s);

/*
 * The gigantic region order (model/contig.h) from the host's hugetlb sizes
 * and the map's pageblock order: -1 when the host offers no size above
 * the pageblock, or the recording predates hugepage_kb.
 */
int ft_session_contig_order(const struct ft_session *s);

/*
 * Map zone @k's gigantic regions (ft_contig_zone()), with the free page
 * count of the last zoneinfo for that zone.  The number of regions.
 */
uint32_t ft_session_contig(const struct ft_session *s, size_t k, struct ft_contig_zone *c,
			   struct ft_contig_region *out, size_t cap);


#endif
