/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live source: reads the kernel under a root (the /proc texts, knob
 * files, host facts, trace sub-buffers of a private tracefs instance,
 * kpageflags batches, process names) and hands each read as an input to
 * its session (model/session.h), the same inputs a recording holds.  The
 * recorder taps the inputs on their way.
 *
 * pagetypeinfo is expensive (the kernel walks every free list under
 * zone->lock with interrupts off), so it is read at its own, slower
 * cadence.
 *
 * Ownership: struct ft_live owns its files, its trace instance and its
 * session; views read l->session and never the source's fields.
 */
#ifndef FT_COLLECTORS_LIVE_H
#define FT_COLLECTORS_LIVE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "collectors/host.h"
#include "collectors/kpageflags.h"
#include "collectors/pageowner.h"
#include "collectors/procfs.h"
#include "collectors/procname.h"
#include "collectors/thp.h"
#include "kernel/cmdlines.h"
#include "collectors/tracefs.h"
#include "model/journal.h"
#include "kernel/ksyms.h"
#include "model/recfmt.h"
#include "model/session.h"

/* Handed every input before the session applies it (the recorder). */
typedef void (*ft_input_fn)(void *ctx, const struct ft_rec_record *in);

#define FT_LIVE_MAP_CPU		0.02	/* the map's default CPU budget: 2% of a core */
#define FT_LIVE_MAP_AIM		0.975	/* the share of it the scan's pace aims at */
#define FT_LIVE_MAP_DIRTY	4096	/* blocks queued for a rescan */
#define FT_LIVE_MAP_ZONES	64
#define FT_LIVE_MAP_LATE	1000000000ull	/* a rescan later than this (a tick) is late */
/*
 * The first look (a sample in every cell on screen) may run this many
 * seconds of the budget ahead, which the whole pass pays back by waiting:
 * its cost grows with the terminal, not the zone (3,257 cells at 120x40
 * are ~20-45 ms here), and at 2% a second's worth alone painted a 1 TiB
 * zone's first screen in 1.2-2.2 s.  It comes in slices of at most
 * FT_LIVE_MAP_SLICE_NS of CPU, keys read between them.
 */
#define FT_LIVE_OWNER_Q		64	/* blocks waiting for a page_owner look */
/* a block looked at this recently is not read again */
#define FT_LIVE_OWNER_AGAIN	5000000000ull
#define FT_LIVE_MAP_FIRST_S	10
#define FT_LIVE_MAP_SLICE_NS	30000000ull
/* the THP input's text at most (9 sizes of 20 lines are about 9 KiB) */
#define FT_LIVE_THP_TEXT	32768
/* a knob file that was not there is looked for again this often, not every tick */
#define FT_LIVE_RETRY_NS	60000000000ull

/*
 * What the readers of the session want read beyond the tick's own files
 * (zoneinfo, buddyinfo, vmstat, knobs, meminfo; pagetypeinfo at its
 * cadence): ft_live_want().  A value that was not read is not invented:
 * the session keeps the last one it was given, with its time.
 */
enum ft_live_want {
	/* the per-size THP tree: the THP view, a recording, a scrape */
	FT_LIVE_WANT_THP = 1u << 0,
	/* the per-size THP settings (17 knobs on 6.18): the controls and THP views, a recording */
	FT_LIVE_WANT_SIZE_KNOBS = 1u << 1,
	FT_LIVE_WANT_ALL = FT_LIVE_WANT_THP | FT_LIVE_WANT_SIZE_KNOBS,
	/*
	 * the memory cgroups, pressure and pods (collectors/cgroups.h): only when asked, never in
	 * ALL
	 */
	FT_LIVE_WANT_CGROUPS = 1u << 2,
};

/* The knob files, held open and read each tick. */
struct ft_live_knobs {
	int err[FT_SESSION_MAX_KNOBS];	/* the last error input given per knob */
	struct ft_file file[FT_SESSION_MAX_KNOBS];
	uint64_t retry_ns;		/* when absent knob files were last looked for */
};

/* pagetypeinfo's own cadence. */
struct ft_live_pti {
	uint64_t interval_ns;		/* 0: every tick */
	uint64_t last_ns;		/* 0: never read */
};

/* Tracepoints: inputs from ft_live_trace_start() on (collectors/live_trace.c). */
struct ft_live_trace {
	struct ft_tracefs t;
	bool on;
	uint64_t wait_ns;		/* the last trace drain (ft_live_trace_maybe_poll()) */
	bool busy;			/* it brought pages */
	uint64_t every_ns;		/* drain this often, busy or not; 0: FT_LIVE_TRACE_*_NS */
	/* the loop polls the pipes while idle (ft_live_poll_fds()) */
	bool polled;
};

/* The names of the processes behind events (collectors/live_names.c). */
struct ft_live_names {
	struct ft_procname proc;	/* taken while they live (from ft_live_trace_start() on) */
	bool started;
	/*
	 * and of those gone before /proc was read: the tracer's saved_cmdlines, read once a drain
	 * at most
	 */
	struct ft_cmdlines saved;
	bool saved_read;
	/* the tasks behind events are not named (the exporter shows none) */
	bool off;
	/* names off: rows born before this were probed for fragtop's own threads */
	uint64_t own_probed;
};

/*
 * Per-process huge-page coverage (collectors/live_smaps.c): the
 * /proc/PID/smaps_rollup of the processes a view shows, read at a slow
 * cadence (the kernel walks the process's page tables under its mmap
 * lock to print it), a SMAPS input each.
 */
#define FT_LIVE_SMAPS_MAX	128	/* processes asked for at once (the rows on screen) */
#define FT_LIVE_SMAPS_EVERY	(10ull * 1000000000ull)	/* each read again after this, by default */
struct ft_live_smaps_seen {
	int pid;
	uint64_t t_ns;			/* read last (or found gone) */
};

struct ft_live_smaps {
	uint64_t every_ns;		/* 0: off (--smaps-interval 0) */
	int nr;
	int pid[FT_LIVE_SMAPS_MAX];	/* asked for: ft_live_smaps_want() */
	struct ft_live_smaps_seen last[256];	/* direct-mapped by pid */
};

/*
 * The boost sampler (collectors/live_boost.c): each zone's boost read
 * from zoneinfo hz times a second between ticks, folded into one BOOST
 * input a tick.
 */
struct ft_live_boost {
	unsigned int hz;		/* 0: off (the default for --root) */
	bool threaded;			/* a thread reads (default); false: ft_live_boost_poll() */
	struct ft_file file;		/* proc/zoneinfo, its own buffer */
	struct ft_boost_acc acc;	/* under lock */
	uint64_t next_ns;
	uint64_t reads, ns;		/* reads and the time they took, ever */
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* heat, or the end */
	pthread_t thread;
	bool running;
	bool stop;			/* under lock */
	/*
	 * The sampler reads at the full rate while something happens (a
	 * boost seen, fallbacks traced) and for FT_LIVE_BOOST_HOT after, else
	 * at a tenth of it; each slow read counts for the ten it stands for.
	 */
	uint64_t hot_until;		/* under lock */
	/* under lock: FT_LIVE_BOOST_SLOW, or _TRACED while tracing */
	uint32_t slow;
	size_t seen_q;			/* session.trq records looked at for fallbacks */
	/*
	 * The exporter's way (ft_live_boost_on_trace()): no thread and no
	 * timer.  A read follows a trace drain that brought a fragmenting
	 * fallback or comes while a zone was last seen boosted, at most hz a
	 * second, and one comes with each tick; each stands for the time
	 * since the one before.  Idle, it costs nothing.
	 */
	bool on_trace;
	uint64_t last_ns;		/* the last read in that mode */
};

/*
 * The pageblock map (collectors/live_map.c) is laid out by the session
 * from zoneinfo every tick (cheap), so fallbacks mark their blocks from
 * the start; it is scanned from /proc/kpageflags only while scan is set,
 * within cpu of a core: first the blocks fallbacks named since the last
 * poll, then round-robin.
 */
struct ft_live_map {
	struct ft_kpf kpf;
	bool scan;
	int err;			/* why the map cannot be scanned (0: fine) */
	/* share of a core fragtop may use in all while the map is scanned (0.02: 2%) */
	double cpu;
	uint64_t rate;			/* at most this many PFNs a poll; 0: no cap */
	double allow_ns;		/* CPU time the scan may still spend (< 0: overspent) */
	uint64_t last_ns;		/* last ft_live_map_poll() that scanned */
	/* the process's CPU time when the last poll ended (0: none yet) */
	uint64_t proc_ns;
	/* CPU fragtop spent between polls, the budget charged with it, ever */
	uint64_t other_ns;
	uint64_t scan_ns, scan_pfns;	/* CPU time spent and PFNs read, ever */
	uint64_t rescan_steps;		/* the last R's slices (ft_live_map_rescan_step()) */
	/* blocks fallbacks named, to rescan first (a bit per block keeps them once) */
	struct ft_live_dirty {
		uint32_t zone, block;
		uint64_t ts;		/* the fallback's trace time */
		uint64_t poll;		/* polls when it was queued */
	} dirty[FT_LIVE_MAP_DIRTY];
	size_t dirty_n;
	uint8_t *queued[FT_LIVE_MAP_ZONES];
	uint32_t queued_n[FT_LIVE_MAP_ZONES];
	uint64_t fb_seen;		/* events.fb_head when last looked */
	uint64_t fb_missed;		/* fallbacks not queued (ring or queue full) */
	uint64_t rescans;		/* blocks rescanned because a fallback named them */
	uint64_t rescan_lag_max_ns;	/* longest fallback -> rescan */
	uint64_t rescans_late;		/* of them, later than FT_LIVE_MAP_LATE */
	uint64_t polls;			/* ft_live_map_poll() calls that scanned */
	/* rescans not in the poll that queued them: the budget was spent */
	uint64_t rescans_deferred;
	char *iomem;			/* /proc/iomem as read for the map */
	size_t iomem_len;
	uint8_t *batch;			/* a KPF input being built, kept from batch to batch */
	size_t batch_cap;
	/*
	 * the kernel's config, checked before the first scan (kernel/kconfig.h):
	 * a DEBUG_VM kernel before 6.17 keeps the map off (-ECANCELED) unless forced
	 */
	bool force;			/* --map-force, or A in the map view */
	bool checked;			/* the check ran (its finding: a MAP_CHECK input) */
};

/*
 * page_owner (collectors/live_owner.c), read for the blocks under the
 * map's cursor and for mixed blocks fallbacks named (within the map's
 * budget), or for mixed blocks after a recorded map scan (record
 * --map-interval).
 */
struct ft_live_owner {
	struct ft_pown pown;
	int state;			/* 0: not tried, 1: open, < 0: why not */
	struct ft_pown_look look;
	struct ft_live_owner_q {
		uint64_t pfn;
		uint32_t pages;
		bool cursor;		/* asked for by the view: may borrow budget */
	} q[FT_LIVE_OWNER_Q];
	size_t qn;
	/* events.fb_head when ft_live_owner_scan_mixed() last looked */
	uint64_t fb_seen;
	size_t zone;			/* ft_live_owner_scan_mixed()'s place */
	uint32_t block;
};

/*
 * --stacks (collectors/live_trace.c): the kernel stacks of fragmenting
 * fallbacks.  Each new stack the session interns has its frames named
 * from /proc/kallsyms (read when the first stack comes) in KSYM inputs,
 * once an address.
 */
struct ft_live_stacks {
	bool asked;
	int err;			/* why the trigger is off (0: on) */
	unsigned int per_sec;
	uint64_t armed_ns;		/* when the trigger's count was last given */
	int named;			/* session.events.stacks[] rows named so far */
	struct ft_kallsyms ksyms;
	int ksyms_err;			/* 1: not read yet; 0 read; -errno */
};

/*
 * The kernel log (collectors/live_kmsg.c): /dev/kmsg held open from the
 * start on, drained each tick; its page allocation failures become KMSG
 * inputs, nothing else of it is kept.
 */
struct ft_live_kmsg {
	int fd;				/* -1: not read (err says why) */
	int err;
	uint64_t lost;			/* records overwritten before they were read */
};

/*
 * The change journal (collectors/live_changes.c, model/journal.h): held
 * open from the start on, read each tick after the knobs; the lines of
 * other fragtop processes become claims (AUDIT inputs), so a knob change
 * seen can be told as `fragtop set`'s, the TUI's or an experiment's.
 */
struct ft_live_changes {
	int fd;				/* -1: none yet (looked for again once a minute) */
	int err;			/* why not: -ENOENT none yet, -EPERM not root's */
	uint64_t retry_ns;
	uint64_t since_rt_ns;		/* lines older than the source's start are not its */
	size_t nbuf;
	char buf[FT_JOURNAL_LINE];	/* a line read in part */
	bool skipping;			/* inside a line too long to be one */
};

/*
 * The live source: a hub (collectors/live.c: the /proc texts, the knobs,
 * the THP tree, the tick) and its parts, one member and one file each
 * (live_trace.c, live_names.c, live_boost.c, live_map.c, live_owner.c,
 * live_stacks.c, live_smaps.c, live_kmsg.c).  A part's members are read and written
 * by its own file only: the hub and the other parts go through its
 * functions (collectors/live_int.h: init, the tick's share, free), and a
 * lock lives in the part it guards (the boost sampler's).
 * scripts/check-layers.sh holds it.
 */
struct ft_live {
	char root[4096];
	struct ft_procfs procfs;
	struct ft_host host;
	struct ft_session session;	/* what the inputs built */
	ft_input_fn tap;		/* NULL: nobody records */
	void *tap_ctx;
	unsigned int wants;		/* enum ft_live_want bits (all, unless told) */
	struct ft_live_pti pti;
	struct ft_live_knobs knobs;
	struct ft_thpsrc thp;		/* the per-size THP tree, held open while wanted */
	struct ft_live_trace trace;
	struct ft_live_names names;
	struct ft_live_boost boost;
	struct ft_live_map map;
	struct ft_live_owner owner;
	struct ft_live_stacks stacks;
	struct ft_live_smaps smaps;
	struct ft_live_kmsg kmsg;
	struct ft_live_changes changes;
};

#define FT_LIVE_BOOST_HZ	50	/* boost reads a second by default */
#define FT_LIVE_BOOST_SLOW	10	/* ... divided by this while nothing happens */
/*
 * ... or by this while tracing: a boost only follows a fragmenting
 * fallback, and a traced one wakes the sampler to the full rate, so
 * idle it reads once a second (each read standing for fifty)
 */
#define FT_LIVE_BOOST_SLOW_TRACED	50
#define FT_LIVE_BOOST_HOT	(2ull * 1000000000ull)	/* full rate after a sign, ns */
/*
 * Trace pages drained this often, busy or idle: the tasks behind them are
 * named, and their cgroups read, within 100 ms of their first event.
 * Idle it was once a second, and a task that lived under a second after
 * a quiet spell (the adverse workload's thpalloc made 43,541 fragmenting
 * fallbacks in one) was gone before it was read.  Idle, a drain is one
 * read() a CPU that finds nothing.
 */
#define FT_LIVE_TRACE_BUSY_NS	100000000ull
#define FT_LIVE_TRACE_IDLE_NS	100000000ull


/* 0 or -errno (the root cannot be opened). */
int ft_live_open(struct ft_live *l, const char *root, double pti_interval_s);
void ft_live_close(struct ft_live *l);

/*
 * Collect one tick: the /proc texts, knob files, trace pages and names
 * up to now, then the tick input.  @force_pti reads pagetypeinfo now
 * whatever its cadence.  Returns 0 if zoneinfo is valid, else its error.
 */
int ft_live_tick(struct ft_live *l, bool force_pti);

/*
 * The boost sampler: @hz reads a second (0 turns it off).  A thread of its
 * own does the reads, sleeping between them, so the TUI's loop does not
 * wake 50 times a second; with boost_threaded false (tests) the caller
 * polls: ft_live_boost_poll() reads when one is due and
 * ft_live_boost_wait_ns() says how long until the next.
 */
void ft_live_boost_set(struct ft_live *l, unsigned int hz);
void ft_live_boost_poll(struct ft_live *l);
uint64_t ft_live_boost_wait_ns(const struct ft_live *l);

/*
 * Drain the trace pages when due: every FT_LIVE_TRACE_BUSY_NS while the
 * last drain brought pages (a task is named while it lives).  While none
 * came, a loop that polls ft_live_poll_fds() drains when one is readable
 * (and at each tick), and sleeps otherwise; one that does not, every
 * FT_LIVE_TRACE_IDLE_NS.
 */
void ft_live_trace_maybe_poll(struct ft_live *l);

/*
 * What the loop should wait on beside its terminal: the trace pipes while
 * they are idle (their first event makes them readable); none while
 * busy, when the cadence drains them.  Up to @cap into @fds (POLLIN);
 * how many.  Polling them tells the source the loop will:
 * ft_live_trace_wait_ns() then waits for them, not for a clock.
 */
int ft_live_poll_fds(struct ft_live *l, int *fds, int cap);
/* @n of ft_live_poll_fds()'s descriptors became readable: drain now. */
void ft_live_polled(struct ft_live *l, int n);

/* Something happened that boosts watermarks (fallbacks): the full rate now. */
void ft_live_boost_heat(struct ft_live *l);

/*
 * The boost sampler without a thread, for the exporter: reads only after
 * traced fragmenting fallbacks, while a zone stays boosted and at ticks,
 * at most @hz a second (0: off).  Needs tracing to see fallbacks; without
 * it the reads come with the ticks only.
 */
void ft_live_boost_on_trace(struct ft_live *l, unsigned int hz);

/* How long until a trace drain is due (UINT64_MAX: no tracing). */
uint64_t ft_live_trace_wait_ns(const struct ft_live *l);

/*
 * Sleep one slice towards @until_ns (CLOCK_MONOTONIC): at most 100 ms, less
 * if a boost read is due or a signal comes, then do what a headless loop
 * must between ticks (boost reads when due, trace pages every 100 ms).
 * Callers loop on it and look at their stop flag between calls: a signal
 * that lands outside the sleep is not lost.
 */
void ft_live_wait(struct ft_live *l, uint64_t until_ns);

/*
 * Give @fn the inputs a recording needs before the first tick it sees:
 * host facts, trace formats, iomem (what a session started mid-way lacks).
 */
void ft_live_meta(struct ft_live *l, ft_input_fn fn, void *ctx);

/*
 * The per-CPU trace buffer a live source asks for unless told, in KiB, as
 * the command line writes it: the option's default (cmd/cli.h) and the
 * benches read it here, so it is written once.
 */
extern const char ft_live_trace_kb_default[];
/* ft_live_trace_kb_default as a number. */
size_t ft_live_trace_kb(void);

/*
 * Start tracing into a private instance (stale ones of dead fragtops are
 * removed first).  On failure tracing stays off, the reason is in
 * session.trace_err and reported once through ft_diag(); everything else
 * works.
 */
int ft_live_trace_start(struct ft_live *l, size_t buffer_kb);	/* 0: the default */

/*
 * --stacks (after ft_live_trace_start()): the kernel stack of each
 * fragmenting fallback, at most @per_sec a second (later ones in a second
 * go without: sampled).  On failure the reason is in
 * session.stacks_src.err and said once through ft_diag().  0 or -errno.
 */
int ft_live_stacks_start(struct ft_live *l, unsigned int per_sec);	/* 0: the default */
/* --stacks-per-sec's default, as the command line writes it (cmd/cli.h) */
extern const char ft_live_stacks_per_sec_default[];

/* A control change ("key=value\n" lines, controls/control.h): an AUDIT input. */
void ft_live_audit(struct ft_live *l, const char *text, size_t len);

/*
 * Read from now on what @wants asks for (enum ft_live_want bits; a new
 * ft_live wants everything): what is newly wanted is read at once, an
 * input of its own, so a view that asks has it before the next tick;
 * the files of what is no longer wanted are closed.
 */
void ft_live_want(struct ft_live *l, unsigned int wants);

/* Re-read every knob (a control change; each tick does it too). */
void ft_live_read_knobs(struct ft_live *l);

/* Hand what the trace buffers hold to the session (also done by each tick). */
void ft_live_trace_poll(struct ft_live *l);

/*
 * Start (or stop) scanning the pageblock map each tick.  Opens
 * /proc/kpageflags and reads /proc/iomem on first use; on failure returns
 * -errno, also kept in l->map.err, and says why once through ft_diag().
 */
int ft_live_map_enable(struct ft_live *l, bool on);
/*
 * Scan even where the kernel's config makes kpageflags risky (the map is
 * off with -ECANCELED there): --map-force, or the map view's A.  The
 * next ft_live_map_enable() opens it.
 */
void ft_live_map_force(struct ft_live *l);

/*
 * Scan the share of the map due since the last call (map_rate PFNs per
 * second, at most one second's worth); called by each tick and between
 * ticks so that a pass moves smoothly.  Does nothing unless enabled.
 * Page owners asked for go within the same budget.  True when the map's
 * first look brought samples or page_owner a look (worth a draw now, not
 * at the next tick).
 */
bool ft_live_map_poll(struct ft_live *l);

/*
 * Milliseconds until ft_live_map_poll() has work it may do: 0 while the
 * first look, or the cursor's page_owner look, is waiting within the
 * borrowed budget, -1 otherwise (the
 * tick and the idle wake-up are soon enough).
 */
int ft_live_map_wait_ms(const struct ft_live *l);

/*
 * The map view shows zone @zone (map order) at @bpc blocks per cell: the
 * scan samples a block of each cell first (collectors/kpageflags.h).
 */
void ft_live_map_focus(struct ft_live *l, size_t zone, uint32_t bpc);

/*
 * The processes whose smaps_rollup to read (@n of @pids, the rows a view
 * shows; 0: none): each at most every smaps.every_ns, at the next ticks.
 */
void ft_live_smaps_want(struct ft_live *l, const int *pids, int n);

/*
 * Ask for a page_owner look at the block of @pages pages at PFN @pfn
 * (the map's cursor: @cursor, read first and within the first look's
 * borrowed budget; else as the budget allows).  Opens page_owner on first
 * use and says why not through a SOURCE input.  0, or -errno when
 * page_owner cannot be read (the look is not queued).
 */
int ft_live_owner_want(struct ft_live *l, uint64_t pfn, uint32_t pages, bool cursor);

/*
 * Look at up to @max blocks now (record --map-interval, after each scan):
 * first the blocks fallbacks named since the last call, then
 * mixed blocks of the map, round-robin over the zones from where the
 * last call stopped; page_owner_stacks/show_stacks too where the kernel
 * has it (6.9+).  Returns the blocks looked at, or -errno.
 */
int ft_live_owner_scan_mixed(struct ft_live *l, unsigned int max);

/* Scan every zone now (`snapshot --map`).  0 or -errno. */
int ft_live_map_scan_all(struct ft_live *l);

/*
 * The same pass a slice at a time (the 'R' key: the TUI reads its keys
 * and draws between slices): begin (0 or -errno), then steps of at most
 * @slice_ns each until one returns 1 (done) or -errno; the incremental
 * scan waits meanwhile.  rescan_steps counts the steps taken.
 */
int ft_live_map_rescan_begin(struct ft_live *l);
int ft_live_map_rescan_step(struct ft_live *l, uint64_t slice_ns);
bool ft_live_map_rescanning(const struct ft_live *l);

#endif
