// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/counterfield.h"

#include <stdio.h>
#include <string.h>

#include "model/events.h"
#include "kernel/tracedec.h"

_Static_assert(FT_CF_NR <= 32, "a present mask of 32 bits");
_Static_assert(FT_CF_NR <= sizeof(((struct ft_session *)0)->counter_first) / sizeof(int64_t),
	       "a first value per counter in the session");

#define TRACED(m) .src = FT_CF_TRACED, .metric = (m)
#define EVENTS(f, e) .src = FT_CF_EVENTS, .events = offsetof(struct ft_events, f), .event = (e)
#define VMSTAT(id) .src = FT_CF_VMSTAT, .vm = (id)

const struct ft_counter_field ft_counter_fields[FT_CF_NR] = {
	[FT_CF_EXTFRAG] = { "extfrag", "events",
		"Allocator fallbacks to another migratetype (mm_page_alloc_extfrag).",
		TRACED(FT_M_EXTFRAG) },
	[FT_CF_FRAGMENTING] = { "extfrag_fragmenting", "events",
		"Fallbacks of a block smaller than a pageblock: the ones that mix pageblocks.",
		TRACED(FT_M_FRAGMENTING) },
	[FT_CF_OWNERSHIP] = { "extfrag_change_ownership", "events",
		"Fallbacks that took the whole pageblock over.", TRACED(FT_M_OWNERSHIP) },
	[FT_CF_THP_ALLOC] = { "thp_fault_alloc", "faults",
		"PMD-sized THP faults that got a huge page.", VMSTAT(FT_VM_THP_FAULT_ALLOC) },
	[FT_CF_THP_FALLBACK] = { "thp_fault_fallback", "faults",
		"PMD-sized THP faults that fell back to small pages.",
		VMSTAT(FT_VM_THP_FAULT_FALLBACK) },
	[FT_CF_COMPACT_STALL] = { "compact_stall", "stalls",
		"Direct compactions, the kernel's count.", VMSTAT(FT_VM_COMPACT_STALL) },
	[FT_CF_COMPACT_SUCCESS] = { "compact_success", "stalls",
		"Direct compactions after which the allocation succeeded.",
		VMSTAT(FT_VM_COMPACT_SUCCESS) },
	[FT_CF_COMPACT_FAIL] = { "compact_fail", "stalls",
		"Direct compactions after which it did not.", VMSTAT(FT_VM_COMPACT_FAIL) },
	[FT_CF_RECLAIMS] = { "direct_reclaims", "stalls",
		"Direct reclaims that ended (mm_vmscan_direct_reclaim_end).",
		TRACED(FT_M_RECLAIM) },
	[FT_CF_KSWAPD_WAKES] = { "kswapd_wakes", "wakeups",
		"kswapd wake-ups (mm_vmscan_kswapd_wake).", TRACED(FT_M_KSWAPD_WAKE) },
	[FT_CF_FRAG_STALLS] = { "fragmentation_stalls", "stalls",
		"Fragmentation stalls (mm_fragmentation_stall, the seeds' patch).",
		TRACED(FT_M_FRAG_STALL) },
	[FT_CF_KCOMPACTD_WAKES] = { "kcompactd_wakes", "wakeups",
		"kcompactd wake-ups (mm_compaction_kcompactd_wake).", TRACED(FT_M_KCOMPACTD_WAKE) },
	[FT_CF_VM_FRAG_STALL] = { "vmstat_fragment_stall", "stalls",
		"Fragmentation stalls, the kernel's count (vmstat fragment_stall).",
		VMSTAT(FT_VM_FRAGMENT_STALL) },
	[FT_CF_DIRECT_COMPACT] = { "direct_compaction_stalls", "stalls",
		"Direct compaction stalls, traced, kcompactd's runs left out.",
		TRACED(FT_M_COMPACTION) },
	[FT_CF_BG_COMPACT] = { "background_compactions", "compactions",
		"Zone compactions by kcompactd or proactive compaction, traced.",
		TRACED(FT_M_BG_COMPACTION) },
	[FT_CF_DIRECT_ATTEMPTS] = { "direct_compaction_attempts", "calls",
		"try_to_compact_pages calls traced.", EVENTS(direct_attempts, FT_EV_COMPACT_TRY) },
	[FT_CF_DIRECT_SILENT] = { "direct_compaction_silent_success", "stalls",
		"Direct stalls with no zone result, counted by defer_reset alone.",
		EVENTS(direct_silent, FT_EV_COMPACT_DEFER_RESET) },
	[FT_CF_MIGRATE_SCANNED] = { "compact_migrate_scanned", "pages",
		"Pages compaction's migration scanner looked at.",
		VMSTAT(FT_VM_COMPACT_MIGRATE_SCANNED) },
	[FT_CF_FREE_SCANNED] = { "compact_free_scanned", "pages",
		"Pages compaction's free scanner looked at.", VMSTAT(FT_VM_COMPACT_FREE_SCANNED) },
	[FT_CF_ISOLATED] = { "compact_isolated", "pages",
		"Pages compaction isolated.", VMSTAT(FT_VM_COMPACT_ISOLATED) },
	[FT_CF_DAEMON_WAKES] = { "compact_daemon_wake", "wakeups",
		"kcompactd wake-ups, the kernel's count.", VMSTAT(FT_VM_COMPACT_DAEMON_WAKE) },
	[FT_CF_DAEMON_MIGRATE_SCANNED] = { "compact_daemon_migrate_scanned", "pages",
		"Of the migration scanner's pages, kcompactd's.",
		VMSTAT(FT_VM_COMPACT_DAEMON_MIGRATE_SCANNED) },
	[FT_CF_DAEMON_FREE_SCANNED] = { "compact_daemon_free_scanned", "pages",
		"Of the free scanner's pages, kcompactd's.",
		VMSTAT(FT_VM_COMPACT_DAEMON_FREE_SCANNED) },
	[FT_CF_PGSCAN_KSWAPD] = { "pgscan_kswapd", "pages",
		"Pages kswapd scanned.", VMSTAT(FT_VM_PGSCAN_KSWAPD) },
	[FT_CF_ALLOCSTALLS] = { "allocstall", "stalls",
		"Direct reclaim entries, every zone type's allocstall_* summed.",
		.src = FT_CF_VMSTAT_SUM, .vmstat = "allocstall_" },
};

uint32_t ft_counters_read(const struct ft_session *s, int64_t v[FT_CF_NR])
{
	const struct ft_vmstat *vm = &s->sample.vmstat;
	bool have_vm = ft_sample_has(&s->sample, FT_SRC_VMSTAT);
	uint64_t m[FT_M_NR] = { 0 };
	uint32_t present = 0;
	size_t c, i;

	if (s->tracing)
		ft_events_metrics(&s->events, m);
	for (c = 0; c < FT_CF_NR; c++) {
		const struct ft_counter_field *f = &ft_counter_fields[c];
		uint64_t u;

		v[c] = 0;
		switch (f->src) {
		case FT_CF_TRACED:
		case FT_CF_EVENTS:
			if (!s->tracing)
				break;
			if (f->src == FT_CF_TRACED)
				u = m[f->metric];
			else
				memcpy(&u, (const char *)&s->events + f->events, sizeof(u));
			v[c] = (int64_t)u;
			present |= 1u << c;
			break;
		case FT_CF_VMSTAT:
			if (have_vm && ft_vmstat_value(vm, f->vm, &v[c]))
				present |= 1u << c;
			else
				v[c] = 0;
			break;
		case FT_CF_VMSTAT_SUM:
			for (i = 0; have_vm && i < vm->nr; i++)
				if (!strncmp(vm->items[i].name, f->vmstat, strlen(f->vmstat))) {
					v[c] += vm->items[i].value;
					present |= 1u << c;
				}
			break;
		}
	}
	return present;
}

uint32_t ft_counters_vmstat_mask(void)
{
	uint32_t mask = 0;
	size_t c;

	for (c = 0; c < FT_CF_NR; c++)
		if (ft_counter_fields[c].src == FT_CF_VMSTAT ||
		    ft_counter_fields[c].src == FT_CF_VMSTAT_SUM)
			mask |= 1u << c;
	return mask;
}

void ft_counter_source(enum ft_cf c, char *buf, size_t sz)
{
	const struct ft_counter_field *r = &ft_counter_fields[c];
	const struct ft_trace_event_def *e;

	switch (r->src) {
	case FT_CF_TRACED:
	case FT_CF_EVENTS:
		e =
			&ft_trace_events[r->src == FT_CF_TRACED ? ft_ev_metric_event[r->metric] :
					 r->event];
		snprintf(buf, sz, "trace:%s:%s", e->system, e->event);
		break;
	case FT_CF_VMSTAT:
		snprintf(buf, sz, "vmstat:%s", ft_vm_names[r->vm]);
		break;
	case FT_CF_VMSTAT_SUM:
		snprintf(buf, sz, "vmstat:%s*", r->vmstat);
		break;
	}
}
