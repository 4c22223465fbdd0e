/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fragtop's own cost, counted where it is spent: files opened (and
 * directories listed), read calls and bytes read, per source, and the
 * heap in use.  Every read of a root goes through base/file.c, which
 * counts it; the few reads that do not (kpageflags, page_owner, the trace
 * buffers) count themselves.  The counts are process-wide and only grow;
 * threads add to them with relaxed atomics (the boost sampler reads
 * zoneinfo on its own thread).
 *
 * The counts are what the account is for: unlike a time, they are the
 * same on every run of the same work, so a test can hold a budget on them
 * (tests/cli/cost.sh).  The live source hands a snapshot over with each
 * tick (a SOURCE input, model/cost.h), so the setup view, `snapshot
 * --json`, a recording and the exporter all see the same figures.
 */
#ifndef FT_BASE_COST_H
#define FT_BASE_COST_H

#include <stddef.h>
#include <stdint.h>

/* The order is the recording's (model/RECORDING.md): new sources go at the end. */
enum ft_cost_src {
	FT_COST_ZONEINFO,	/* proc/zoneinfo: the tick's and the boost sampler's */
	FT_COST_BUDDYINFO,
	FT_COST_PAGETYPEINFO,
	FT_COST_VMSTAT,
	FT_COST_MEMINFO,
	FT_COST_KNOBS,		/* proc/sys/vm/..., the THP top-level settings, node compact */
	FT_COST_THP,		/* the per-size tree: hugepages-<size>kB/... */
	FT_COST_KPAGEFLAGS,	/* kpageflags, kpagecount, iomem: the pageblock map */
	FT_COST_PAGE_OWNER,	/* page_owner and its show_stacks */
	FT_COST_PID,		/* proc/PID/...: the names behind events */
	FT_COST_TRACE,		/* the trace buffers and the instance's files */
	FT_COST_OTHER,		/* host facts, kallsyms, anything else */
	/* added at the end, so older recordings' counts stay where they were */
	FT_COST_CGROUP,		/* the memory cgroups, their pressure, /var/log/pods */
	FT_COST_PRESSURE,	/* the host's /proc/pressure/memory: the overview's every tick */
	/* proc/PID/smaps_rollup: the processes view's THP% (walks page tables) */
	FT_COST_SMAPS,
	FT_COST_KMSG,		/* /dev/kmsg: the kernel log, for page allocation failures */
	FT_COST_NR
};

/* What one source cost: files opened or listed, read calls, bytes read. */
struct ft_cost_counts {
	uint64_t opens, reads, bytes;
};

struct ft_cost {
	struct ft_cost_counts src[FT_COST_NR];
	uint64_t heap;		/* bytes malloc has handed out and not had back (mallinfo2) */
};

/* The source's key ("zoneinfo", "thp", ...): JSON, metrics labels, the setup view. */
extern const char *const ft_cost_src_names[FT_COST_NR];

/* The source a path under the root belongs to ("proc/zoneinfo", "proc/42/comm"). */
enum ft_cost_src ft_cost_src_of(const char *rel);

void ft_cost_open(enum ft_cost_src src);
void ft_cost_read(enum ft_cost_src src, size_t bytes);

/* Everything counted so far, and the heap now. */
void ft_cost_get(struct ft_cost *out);

/*
 * For a process that runs for days (the live TUI, record, the exporter):
 * malloc's mmap threshold fixed at 128 kB.  glibc otherwise raises it to
 * the size of each large block freed, so that a burst's buffers (the trace
 * queue, its sort keys) come back from the heap's top, which it then keeps:
 * a workload's peak stays resident through the quiet after it.  No-op off
 * glibc.
 */
void ft_cost_long_running(void);

/* Opens, reads and bytes of every source summed. */
struct ft_cost_counts ft_cost_total(const struct ft_cost *c);

#endif
