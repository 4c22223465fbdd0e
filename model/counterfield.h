/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's cumulative counters, one row each (below's field
 * registry, as model/zonefield.h is for zones): the key that report's
 * JSON totals and export's columns use, the unit, a sentence of help, and
 * where the value comes from: a traced event count (model/events.h), a
 * field of the traced events, one /proc/vmstat counter, or the sum of the
 * vmstat counters that share a prefix.  report, compare and export read
 * every counter through ft_counters_read(), and `fragtop fields` prints
 * the rows, so a new counter is a row here.
 */
#ifndef FT_MODEL_COUNTERFIELD_H
#define FT_MODEL_COUNTERFIELD_H

#include <stddef.h>
#include <stdint.h>

#include "model/session.h"
#include "kernel/tracedec.h"
#include "kernel/vmstat.h"

enum ft_cf {
	FT_CF_EXTFRAG, FT_CF_FRAGMENTING, FT_CF_OWNERSHIP,
	FT_CF_THP_ALLOC, FT_CF_THP_FALLBACK,
	FT_CF_COMPACT_STALL, FT_CF_COMPACT_SUCCESS, FT_CF_COMPACT_FAIL,
	FT_CF_RECLAIMS, FT_CF_KSWAPD_WAKES, FT_CF_FRAG_STALLS, FT_CF_KCOMPACTD_WAKES,
	FT_CF_VM_FRAG_STALL,		/* /proc/vmstat fragment_stall: the kernel's own count */
	FT_CF_DIRECT_COMPACT,		/* direct compaction stalls, traced (model/events.h) */
	FT_CF_BG_COMPACT,		/* background zone compactions, traced */
	FT_CF_DIRECT_ATTEMPTS,		/* try_to_compact_pages traced */
	FT_CF_DIRECT_SILENT,		/* direct stalls with no zone result (SUCCESS untraced) */
	/* compaction's cost (vmstat): all of it, then kcompactd's part */
	FT_CF_MIGRATE_SCANNED, FT_CF_FREE_SCANNED, FT_CF_ISOLATED,
	FT_CF_DAEMON_WAKES, FT_CF_DAEMON_MIGRATE_SCANNED, FT_CF_DAEMON_FREE_SCANNED,
	FT_CF_PGSCAN_KSWAPD,		/* pages kswapd scanned */
	/* allocstall_*: direct reclaim entries, every zone type summed */
	FT_CF_ALLOCSTALLS,
	FT_CF_NR
};

enum ft_cf_src {
	FT_CF_TRACED,		/* .metric: a count of traced events (FT_M_*) */
	FT_CF_EVENTS,		/* .events: a field of the traced events */
	FT_CF_VMSTAT,		/* .vm: one /proc/vmstat counter (indexed when parsed) */
	FT_CF_VMSTAT_SUM,	/* .vmstat: every counter with that prefix, summed */
};

struct ft_counter_field {
	const char *key;	/* report JSON totals; export's column unless it names its own */
	const char *unit;	/* "events", "stalls", "pages", "wakeups" */
	const char *help;	/* one sentence */
	enum ft_cf_src src;
	int metric;		/* FT_CF_TRACED */
	size_t events;		/* FT_CF_EVENTS: offsetof(struct ft_events, a uint64_t) */
	enum ft_trace_event event;	/* FT_CF_EVENTS: the tracepoint that counts it */
	enum ft_vm vm;		/* FT_CF_VMSTAT */
	const char *vmstat;	/* FT_CF_VMSTAT_SUM: the prefix */
};

extern const struct ft_counter_field ft_counter_fields[FT_CF_NR];

/*
 * Every counter of the session's current tick into @v, 0 where absent;
 * returns a mask of the rows present (1u << FT_CF_*): traced rows while
 * the session traces, vmstat rows the kernel has (each found through the
 * index the parse made: no name is looked up here).
 */
uint32_t ft_counters_read(const struct ft_session *s, int64_t v[FT_CF_NR]);

/* The rows read from /proc/vmstat, as a mask. */
uint32_t ft_counters_vmstat_mask(void);

/* Where row @c comes from, for `fragtop fields`: "vmstat:compact_stall", "trace:kmem:...". */
void ft_counter_source(enum ft_cf c, char *buf, size_t sz);

#endif
