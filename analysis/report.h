/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A report: a recording replayed to its end (lean: zone texts once a
 * minute) and summed up like the tables of the kernel patches that
 * motivate fragtop, overall and per interval between control changes.
 * Used by `report`, `compare` and the benches; printed by cmd/report.c.
 */
#ifndef FT_ANALYSIS_REPORT_H
#define FT_ANALYSIS_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/cgrows.h"
#include "analysis/findings.h"
#include "analysis/fits.h"
#include "model/counterfield.h"
#include "kernel/pageowner.h"
#include "model/session.h"
#include "model/stacks.h"

struct ft_replay;
struct ft_verdict;

/* The counters whose difference over an interval is reported: model/counterfield.h. */

struct ft_rep_point {			/* the counters at one tick */
	uint64_t t_ns;
	int64_t c[FT_CF_NR];
	struct ft_hist lat[FT_LAT_NR];
	size_t lat_n[FT_LAT_NR];	/* raw latencies kept so far (ft_report.raw) */
	struct ft_bg_node bg[FT_EV_NODES + 1];	/* background compaction by node */
	/* the host's memory pressure totals (us; /proc/pressure/memory), when the tick had them */
	bool psi, psi_full;
	uint64_t psi_some_us, psi_full_us;
	/*
	 * page allocation failures in the kernel log so far, by order, when it was read
	 * (kernel/kmsg.h)
	 */
	bool kmsg;
	uint64_t kmsg_fail[FT_KMSG_ORDERS];
	uint64_t kmsg_lost;
};

/*
 * The memory stall between two points and the share of it direct
 * compaction's traced time makes: the kernel counts a direct compaction
 * inside the memory stall (psi_memstall_enter() around it, docs/design/session.md).
 * The traced time sums every task's, PSI's some counts wall time while
 * any task stalls: tasks that compact at once can make the share pass 1.
 */
struct ft_report;

struct ft_rep_memstall {
	uint64_t some_us, full_us;	/* full_us: UINT64_MAX when the kernel has no full line */
	double compaction_us;		/* NAN: direct compaction was not traced */
	/* compaction_us / some_us; NAN without either, or no stall */
	double share;
};

/*
 * Cgroup @path's memory stall over the window (its memory.pressure some
 * total's growth, v2) and the share of it @compaction_us (its tasks'
 * traced direct compaction) makes; one made within the window stalled
 * from 0.  0, or -ENODATA: no pressure for it at the end, or at the
 * start where it was there.
 */
int ft_report_cgroup_stall(const struct ft_report *rep, const char *path, uint64_t compaction_us,
			   struct ft_rep_memstall *out);

/* 0, or -ENODATA when either point lacks the pressure totals (or they went back). */
int ft_report_memstall(const struct ft_report *rep, const struct ft_rep_point *from,
		       const struct ft_rep_point *to,
		       struct ft_rep_memstall *out);

/*
 * A level over the ticks of a stretch (not a count): free memory's share
 * in whole free pageblocks, host-wide from /proc/vmstat (6.15+).  n 0:
 * the kernel has no such counter.
 */
struct ft_rep_level {
	uint64_t n;
	double sum, min, max, last;
};

/* Stall latency figures of one source over a stretch of the recording. */
struct ft_rep_lat {
	uint64_t count;
	double mean_us;
	uint64_t p50_us, p90_us, p99_us, p999_us, max_us;
	bool exact;			/* from the raw values, not the histogram */
};

/*
 * The report's figures, computed once when it is built (analysis/
 * report_model.c) for every renderer: render/ formats them and computes
 * nothing, so text and JSON cannot disagree.  A figure the recording
 * cannot give is absent (a have flag false, or NAN), never 0.
 */

/* A stretch (the window, or an interval between control changes). */
struct ft_rep_stretch {
	double from_s, to_s, secs;	/* seconds into the recording, and its length */
	int64_t d[FT_CF_NR];		/* each counter's growth */
	double rate[FT_CF_NR];		/* ... a second; NAN for a stretch of no time */
	/* the recording's kernel counts it (else d means nothing) */
	bool have[FT_CF_NR];
	double thp_success;		/* THP faults served / tried, 0..1; NAN without faults */
	/* compact_success / compact_stall, 0..1; NAN without stalls */
	double compact_success;
	/* zone compactions run in direct stalls (the latency table's count) */
	uint64_t direct_zone_runs;
	/* background compaction by node; [FT_EV_NODES]: unknown */
	struct ft_bg_node bg[FT_EV_NODES + 1];
	struct ft_hist lat[FT_LAT_NR];	/* each source's stall latencies in it */
	/* ... their percentiles (exact where every value was kept) */
	struct ft_rep_lat pct[FT_LAT_NR];
	/* the source was traced, and its percentiles could be had */
	bool pct_known[FT_LAT_NR];
	bool mem_known;			/* both ends had the memory pressure totals */
	struct ft_rep_memstall mem;	/* the memory stall over it */
};

/*
 * Compaction's cost as mmtests reports it: what both scanners looked at
 * and isolated (all compaction, vmstat), then per direct stall (struct
 * ft_rep_direct_cost: kcompactd's and compact_memory's left out) and per
 * kcompactd wake.  have: the kernel has the scanners' counters.
 */
struct ft_rep_cost {
	bool have;
	int64_t migrate, free, isolated;
	double direct_migrate, direct_free;	/* per direct stall; NAN without stalls */
	/* pages scanned per direct success; NAN without one */
	double direct_per_success;
	int64_t wakes, kcompactd_migrate, kcompactd_free;
	double wake_migrate, wake_free;		/* per kcompactd wake; NAN without wakes */
};

/*
 * Futile compaction over the window (model/events.h): its growth, and the futile share of each
 * scanner.
 */
struct ft_rep_futile {
	bool traced;			/* the isolate events were traced */
	struct ft_futile d;
	double share[FT_ISO_WHO_NR][FT_ISO_SCANNER_NR];	/* NAN: nothing read in map-read blocks */
};

/*
 * Multi-size THP over the window: each size's settings as at its end and
 * each counter's growth (a level, nr_*, as at the end); known false where
 * an end lacks the counter or it went back.  anon: the anonymous faults
 * a size served and fell back, its splits and the success share.
 */
struct ft_rep_thp {
	bool have;			/* the recording has THP inputs in the window */
	struct ft_thp d;
	bool known[FT_THP_SIZES][FT_THP_STATS];
	struct ft_rep_thp_anon {
		bool have;		/* both fault counters known */
		uint64_t alloc, fallback, split;
		double success;		/* alloc / (alloc + fallback), 0..1; NAN without faults */
	} anon[FT_THP_SIZES];
};

/*
 * Page allocation failures in the kernel log over the window (KMSG
 * inputs, kernel/kmsg.h): known when both ends read the log.  The newest
 * failure the recording holds is kept for its task and gfp.
 */
struct ft_rep_kmsg {
	bool known;
	int err;			/* why the log was not read (the end's), 0 */
	uint64_t failures, lost;
	uint64_t by_order[FT_KMSG_ORDERS];
	int max_order;			/* -1: none */
	bool have_newest;
	struct ft_kmsg_fail newest;	/* untrusted comm and gfp */
};

/*
 * What the recording fragtop cost a tick over the window (its COST inputs), in all and by source.
 */
struct ft_rep_selfcost {
	/*
	 * fragtop's own traced footprint: its rows over the window (with tracing and its pid known)
	 */
	bool own_known;
	int pid;
	uint64_t own[FT_PC_NR];
	double own_frag_share;		/* of every fragmenting fallback traced, 0..1; NAN: none */
	uint64_t ticks;			/* ticks that had a COST input; 0: none (no rate below) */
	uint64_t heap;			/* bytes, at the window's end */
	struct ft_rep_cost_rate {
		double opens, reads, bytes;	/* a tick; NAN under two ticks */
	} all, src[FT_COST_NR];
};

/*
 * Fragmenting fallbacks by kernel stack (--stacks): every group, most
 * first; the text lists the first FT_REP_STACKS_SHOWN and sums the rest.
 * The shares are of all (the window's fragmenting fallbacks, or what the
 * groups add up to when that is more).
 */
#define FT_REP_STACKS_SHOWN	10
struct ft_rep_stacks {
	bool have;			/* the recording took stacks */
	unsigned int per_sec;		/* at most this many a second */
	int err;			/* the trigger's refusal, 0 */
	struct ft_stack_group *g;	/* owned */
	size_t nr;
	uint64_t other, unstacked;	/* past the kernel's table; without a stack */
	uint64_t rest;			/* beyond the first FT_REP_STACKS_SHOWN groups */
	uint64_t all;
	/* of all, % */
	double share[FT_REP_STACKS_SHOWN], share_rest, share_other, share_unstacked;
};

/* Fallbacks of one zone of the session's table over the window, or of none (outside: node -1). */
struct ft_rep_zone_fb {
	int node;
	char zone[FT_ZONE_NAME_LEN];
	bool outside;			/* the fallbacks outside every zone */
	uint64_t total, fragmenting;
};

struct ft_rep_interval {
	struct ft_rep_point from, to;
	struct ft_rep_level in_blocks;
	int64_t boost;			/* watermark_boost_factor in it; -1 unknown */
	char opened_by[160];		/* the change that started it; "" for the first */
	/* who made that change (model/knobwatch.h ft_knob_change_who()) */
	char by[96];
	struct ft_boost_tick boost_zone[FT_BOOST_ZONES];	/* the sampler's, summed */
};

/*
 * What direct compaction scanned over the window, per stall: the
 * session's account (struct ft_direct_cost, model/session.h) at the last
 * tick less the baseline's.  known is false when the recording cannot
 * tell compaction asked through compact_memory from direct compaction
 * (no tracing, or no try_to_compact_pages traced): then nothing was left
 * out and such compaction may be in the figures.
 */
struct ft_rep_direct_cost {
	bool known;
	int64_t migrate, free;		/* pages the two scanners looked at */
	int64_t stalls, success;	/* compact_stall, compact_success over the same ticks */
	uint64_t ticks;			/* ticks counted (after the baseline) */
	uint64_t ticks_out;		/* ticks left out */
	int64_t stalls_out;		/* compact_stall in them */
};

/* Sizes a report always has figures for, compare's rows (in KiB): 2M, 4M, 32M, 1G. */
#define FT_REP_FIT_SIZES	4
extern const uint64_t ft_rep_fit_kb[FT_REP_FIT_SIZES];

/*
 * Will it fit over the window (analysis/fits.h): the host's figures at
 * each sample whose zone files were read (a report reads them once a
 * minute: struct ft_session_opts' lean), the smallest "now" and "after
 * compaction" of each size and when they were seen, and the last.  The
 * sizes are the recording host's (hugetlb, multi-size THP, pageblock)
 * and ft_rep_fit_kb's.  after_known: some sample had the map.
 */
struct ft_rep_fits {
	uint64_t samples;
	struct ft_fits_sizes sizes;
	uint64_t now_min[FT_FITS_SIZES_MAX], after_min[FT_FITS_SIZES_MAX];
	uint64_t now_min_t_ns[FT_FITS_SIZES_MAX], after_min_t_ns[FT_FITS_SIZES_MAX];
	bool after_known[FT_FITS_SIZES_MAX];
	struct ft_fit last[FT_FITS_SIZES_MAX];
	uint64_t seen_t_ns;		/* the buddyinfo sample last taken */
	struct ft_fits *table;		/* owned: one sample's */
};

#define FT_REP_MAX_INTERVALS 256
#define FT_REP_MAX_OUTSIDE 256

/* The recording a report was made from, as its file said. */
struct ft_rep_file {
	char path[4096];
	bool clean;			/* closed cleanly (its index read) */
	bool truncated;			/* cut short: read up to the last complete chunk */
	uint64_t chunks;		/* chunks in the file */
	uint64_t bad_chunks;		/* damaged chunks skipped */
	uint64_t resyncs;		/* times the reader found its way again past damage */
};

struct ft_report {
	/*
	 * The replay, at the end of the recording: analysis/report.c's alone
	 * (owned; renderers never see a source, render/ includes no
	 * collectors/ header).  Renderers read the session it built through
	 * s, and the file through file.
	 */
	struct ft_replay *rp;
	const struct ft_session *s;
	struct ft_rep_file file;
	struct ft_rep_point first, last;
	bool have_first;
	struct ft_rep_direct_cost direct;
	/* the session's, at the window's ends */
	struct ft_direct_cost direct_first, direct_last;
	/* the same for futile compaction (model/events.h) */
	struct ft_futile futile_first, futile_last;
	double from_s, to_s;		/* the window, seconds from the first tick (to: INFINITY) */
	uint64_t start_t_ns;		/* the recording's first tick */
	uint64_t ticks;			/* in the window */
	int64_t boost_first;
	struct ft_rep_interval iv[FT_REP_MAX_INTERVALS];
	int nr_iv;
	bool lat_present[FT_LAT_NR];
	/*
	 * Knob changes made outside this recording's fragtop (`fragtop set`,
	 * sysctl, a script), seen as a new value at a tick: listed with the
	 * recorded control changes, how "outside", outcome "seen".
	 */
	struct ft_session_audit outside[FT_REP_MAX_OUTSIDE];
	int nr_outside;
	uint64_t outside_dropped;
	/* the boost sampler over the whole recording (after the first tick), by zoneinfo zone */
	int boost_nr;			/* 0: no sampler in the recording */
	struct ft_boost_tick boost_zone[FT_BOOST_ZONES];
	/*
	 * Multi-size THP at the window's first tick that had it and at its
	 * last: the per-size counts in the window are their difference.
	 */
	bool have_thp;
	struct ft_thp thp_first, thp_last;
	/*
	 * What the recording fragtop cost (its COST inputs, model/cost.h) at
	 * the window's first tick that had one and at its last; cost_ticks:
	 * ticks that had one.
	 */
	uint64_t cost_ticks;
	struct ft_cost cost_first, cost_last;
	/* nr_free_pages_blocks / nr_free_pages, % (vmstat, 6.15+), every tick of the window */
	struct ft_rep_level in_blocks;
	uint32_t vm_seen;		/* 1 << counter: /proc/vmstat had it at the last tick */
	/*
	 * Every stall latency (us) in arrival order, for exact percentiles;
	 * past FT_REP_MAX_RAW a source, raw_full is set and the figures come
	 * from the histogram (within 6.25%).
	 */
	/* per process from the first tick to the last (ft_procs_sub); NULL without tracing */
	struct ft_procs *procs;
	struct ft_procs *procs_first;	/* the table at the first tick */
	struct ft_cgrows *cgrows;	/* procs by cgroup (ft_report_by_cgroup()); NULL before */
	/*
	 * The memory cgroups and pods at the window's end (record --cgroups),
	 * for names, and at its start, for each cgroup's memory stall over
	 * the window (ft_report_cgroup_stall()); NULL: none
	 */
	struct ft_cgroups *cgroups, *cgroups_first;
	uint32_t *raw[FT_LAT_NR];
	/*
	 * Fallbacks by zone (the session's zone table; [nr_zones]: outside
	 * every zone) at the window's first tick and its last.
	 */
	struct ft_extfrag_counts zone_first[FT_EV_ZONES + 1], zone_last[FT_EV_ZONES + 1];
	/*
	 * --stacks: the counts by kernel stack at the window's ends (model/stacks.h); NULL without
	 */
	struct ft_stack_base *stack_first, *stack_last;
	size_t nr_raw[FT_LAT_NR], cap_raw[FT_LAT_NR];
	bool raw_full[FT_LAT_NR];
	struct ft_rep_fits fits;
	/* the figures (analysis/report_model.c), made once the window is known */
	struct ft_rep_stretch *all;	/* the window; owned */
	struct ft_rep_stretch *iv_fig;	/* each interval's (nr_iv); owned */
	struct ft_rep_cost cost;
	struct ft_rep_futile futile;
	struct ft_rep_thp thp;
	struct ft_rep_selfcost self;
	struct ft_rep_kmsg kmsg;
	struct ft_rep_stacks stacks;
	int nr_zone_fb;			/* every zone, then the outside row; 0 without tracing */
	struct ft_rep_zone_fb zone_fb[FT_EV_ZONES + 1];
	/*
	 * fragtop doctor's rules over the window (ft_report_findings(), analysis/findings.h); NULL
	 * before
	 */
	struct ft_findings *findings;
	/*
	 * ... judged per interval of still knobs (analysis/verdict.h), as
	 * doctor judges them: borrowed, set by the caller that built it
	 * (`report`), which the renderers show instead of the above; NULL
	 */
	const struct ft_verdict *verdict;
	/*
	 * The knobs as at the window's last tick (the session is a tick past
	 * the window when it ended before the recording), for the rules to
	 * read (analysis/findings.h, ft_find_knobs_read()).
	 */
	struct ft_knob_value knobs_end[FT_SESSION_MAX_KNOBS];
};

#define FT_REP_MAX_RAW	(16u << 20)	/* 64 MiB a source */

/*
 * Stall latency of @src between two points of @rep (first/last, or an
 * interval's from/to): exact when every value in between was kept.
 * 0 or -ENOMEM.
 */
int ft_report_latency(const struct ft_report *rep, enum ft_lat_source src,
		      const struct ft_rep_point *from, const struct ft_rep_point *to,
		      struct ft_rep_lat *out);

/*
 * A stretch of a recording: seconds from its first tick, or a clock time
 * ("HH:MM" or "HH:MM:SS", local time, the first such time at or after the
 * recording's start).  Unset ends: the recording's.
 */
struct ft_rep_window {
	const char *from, *to;		/* as given; NULL: the start, the end */
};

/*
 * A tick's time is when its sample was read, a little off the cadence's
 * (19.998 s for the 20 s tick; an older recorder drifted 2 ms a tick):
 * a window's ends take the ticks nearest them, those within half the
 * recording's interval (the gap between its first two ticks), or
 * FT_REP_WINDOW_SLACK before the second tick is seen.  So [8, 10] is the
 * ticks stamped 7.998 to 9.998, both ends included, and two windows that
 * meet share the tick at their meeting, the later one's baseline.
 */
#define FT_REP_WINDOW_SLACK	0.05
#define FT_REP_WINDOW_SHARE	0.5

/*
 * Where a tick @t seconds into a recording lies against the window
 * [@from, @to] (seconds, both included, @slack either side): -1 before
 * it, 0 in it, 1 past it.  The window's first tick is its baseline, so
 * its figures run from the tick at @from to the tick at @to.
 */
int ft_report_window_where(double t, double from, double to, double slack);

/*
 * The same for the ticks of one recording shown in order, the slack
 * learnt from its first two: report, compare, export, plot and replay's
 * seek cut their windows with it alike.
 */
struct ft_rep_cut {
	double from, to;		/* seconds from the first tick; to: INFINITY */
	double slack, t_first;
	unsigned int seen;
};

void ft_report_cut_init(struct ft_rep_cut *c, double from, double to);
int ft_report_cut_where(struct ft_rep_cut *c, double t);

/* A level's mean over its ticks; NAN when it has none. */
double ft_report_level_mean(const struct ft_rep_level *lv);

/*
 * Parse a window end into seconds from the first tick, given the
 * recording's start (CLOCK_REALTIME ns, 0 if unknown).  0, or -EINVAL
 * with a message in @why.
 */
int ft_report_window_secs(const char *arg, uint64_t start_rt_ns, double *secs, char *why,
			  size_t sz);

/*
 * Fallbacks in zone @k of the session's table over the window (@k ==
 * nr_zones: those outside every zone).  The rows and the outside one sum
 * to the window's total.
 */
struct ft_extfrag_counts ft_report_zone_extfrag(const struct ft_report *rep, int k);

/*
 * Who owns the pinned pages of mixed blocks: the page_owner looks the
 * recording holds at the window's end (the newest of each block), of the
 * blocks the map found mixed or, where it did not read them, whose look
 * has both pinning and other allocations; their pinning allocations
 * grouped by stack, most pages first (ft_po_group_more()).  *@blocks gets
 * the mixed blocks counted, *@looks every look.
 */
size_t ft_report_owners(const struct ft_report *rep, struct ft_po_group *out, size_t max,
			struct ft_po_tally *t, size_t *blocks, size_t *looks);

#define FT_REP_OWNER_GROUPS	256	/* stacks told apart; more are counted as "other" */
#define FT_REP_OWNER_STACKS	5	/* show_stacks' stacks a report lists */
#define FT_REP_OWNERS_SHOWN	10	/* pinning stacks the text lists; the rest summed */

/*
 * The page owners' part of a report, computed once for every renderer
 * (text and JSON): the pinning allocations of mixed blocks by stack
 * (ft_report_owners()) and the show_stacks top the recording last has.
 */
struct ft_rep_owners {
	bool known;			/* page_owner was looked at (else nothing below) */
	int err;			/* what opening it said, 0 */
	struct ft_po_group *groups;	/* most pages first; owned */
	size_t nr;
	struct ft_po_tally tally;
	size_t blocks, looks;		/* mixed blocks counted, every look */
	/* page_owner_stacks/show_stacks (6.9+): the last the recording holds */
	bool have_stacks;
	bool stacks_cut;
	uint64_t stacks_t_ns;
	size_t nr_top, nr_stacks, bad;
	struct ft_po_stack top[FT_REP_OWNER_STACKS];
	uint64_t stacks_pages;		/* FT_PO_PAGES_SATURATED: past 2^64, no shares */
	/* the figures the renderers print, made once here */
	double group_pct[FT_REP_OWNERS_SHOWN];	/* the first groups' share of the pinned pages, % */
	/* the groups past FT_REP_OWNERS_SHOWN and those past the table */
	uint64_t rest_pages;
	double rest_pct;
	bool has_rest;
	/* of every page show_stacks counted, %; NAN: saturated */
	double top_pct[FT_REP_OWNER_STACKS];
	/* the stack also pins pages of mixed blocks (a group) */
	bool top_pins[FT_REP_OWNER_STACKS];
};

/* Fill @o from the report.  0, or -ENOMEM (then o->groups is NULL and nr 0). */
int ft_report_owners_model(const struct ft_report *rep, struct ft_rep_owners *o);
void ft_report_owners_free(struct ft_rep_owners *o);

/*
 * The window's fragmenting fallbacks grouped by kernel stack
 * (ft_stack_groups()), or 0 groups without --stacks in the recording.
 */
size_t ft_report_stacks(const struct ft_report *rep, struct ft_stack_group *out, size_t max,
			uint64_t *other, uint64_t *unstacked);

/*
 * Replay @path to its end (or @w's, NULL: the whole recording).  The
 * baseline is the first tick at or after the window's start; the last
 * tick is the last one at or before its end.  0 or -errno (with a
 * message on stderr).
 */
int ft_report_build(struct ft_report *rep, const char *path, const struct ft_rep_window *w);
/* Stretch @from..@to's figures into @out.  0, or -ENOMEM (percentiles then not known). */
int ft_report_stretch(const struct ft_report *rep, const struct ft_rep_point *from,
		      const struct ft_rep_point *to,
		      struct ft_rep_stretch *out);
void ft_report_release(struct ft_report *rep);
/* The window's process rows: its threads summed by process.  0 or -ENOMEM. */
int ft_report_by_process(struct ft_report *rep);
/*
 * The window's process rows summed by cgroup into rep->cgrows (analysis/cgrows.h). 0 or -ENOMEM.
 */
int ft_report_by_cgroup(struct ft_report *rep);

/* Seconds from the recording's first tick (whatever the window) to @t. */
double ft_report_secs(const struct ft_report *rep, uint64_t t);
/* The window's length in seconds. */
double ft_report_duration(const struct ft_report *rep);
/* A control change at @t_ns is inside the window (after its baseline tick). */
bool ft_report_in_window(const struct ft_report *rep, uint64_t t_ns);
/*
 * The control changes in time order: the recording's own and the knob
 * changes seen from outside it; *@ia and *@io start at 0.  NULL at the end.
 */
const struct ft_session_audit *ft_report_next_change(const struct ft_report *rep, int *ia, int *io);
/* THP counter @name of size @z over the window; false when an end lacks it (or it went back). */
bool ft_report_thp_delta(const struct ft_report *rep, const struct ft_thp_size *z, const char *name,
			 uint64_t *d);
/*
 * fragtop's own cost a tick over the window: (@last - @first) / ticks between; NAN under 2 ticks.
 */
double ft_report_cost_per_tick(const struct ft_report *rep, uint64_t first, uint64_t last);
/* @part of @whole in percent; NAN when @whole is not above 0. */
double ft_report_pct(int64_t part, int64_t whole);

#endif
