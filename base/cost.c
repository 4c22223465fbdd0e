// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/cost.h"

#include <malloc.h>
#include <string.h>

const char *const ft_cost_src_names[FT_COST_NR] = {
	[FT_COST_ZONEINFO] = "zoneinfo",
	[FT_COST_BUDDYINFO] = "buddyinfo",
	[FT_COST_PAGETYPEINFO] = "pagetypeinfo",
	[FT_COST_VMSTAT] = "vmstat",
	[FT_COST_MEMINFO] = "meminfo",
	[FT_COST_KNOBS] = "knobs",
	[FT_COST_THP] = "thp",
	[FT_COST_KPAGEFLAGS] = "kpageflags",
	[FT_COST_PAGE_OWNER] = "page_owner",
	[FT_COST_PID] = "pid",
	[FT_COST_TRACE] = "trace",
	[FT_COST_OTHER] = "other",
	[FT_COST_CGROUP] = "cgroups",
	[FT_COST_PRESSURE] = "pressure",
	[FT_COST_SMAPS] = "smaps", [FT_COST_KMSG] = "kmsg",
};

static struct ft_cost_counts counts[FT_COST_NR];

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

enum ft_cost_src ft_cost_src_of(const char *rel)
{
	static const struct {
		const char *prefix;
		enum ft_cost_src src;
	} map[] = {
		{ "proc/zoneinfo", FT_COST_ZONEINFO },
		{ "proc/buddyinfo", FT_COST_BUDDYINFO },
		{ "proc/pagetypeinfo", FT_COST_PAGETYPEINFO },
		{ "proc/vmstat", FT_COST_VMSTAT },
		{ "proc/meminfo", FT_COST_MEMINFO },
		{ "proc/sys/", FT_COST_KNOBS },
		{ "sys/kernel/mm/transparent_hugepage/hugepages-", FT_COST_THP },
		{ "sys/kernel/mm/transparent_hugepage/", FT_COST_KNOBS },
		/* the listing of the sizes */
		{ "sys/kernel/mm/transparent_hugepage", FT_COST_THP },
		{ "sys/devices/system/node/", FT_COST_KNOBS },
		{ "proc/kpage", FT_COST_KPAGEFLAGS },
		{ "proc/iomem", FT_COST_KPAGEFLAGS },
		{ "sys/kernel/debug/page_owner", FT_COST_PAGE_OWNER },
		{ "sys/kernel/tracing", FT_COST_TRACE },
		{ "sys/kernel/debug/tracing", FT_COST_TRACE },
		{ "sys/fs/cgroup", FT_COST_CGROUP },
		{ "proc/pressure/", FT_COST_PRESSURE },
		{ "var/log/pods", FT_COST_CGROUP },
	};
	size_t i;

	while (*rel == '/')
		rel++;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (starts(rel, map[i].prefix))
			return map[i].src;
	if (starts(rel, "proc/") && rel[5] >= '0' && rel[5] <= '9') {
		size_t n = strlen(rel);

		if (n > 13 && !strcmp(rel + n - 13, "/smaps_rollup"))
			return FT_COST_SMAPS;
		return FT_COST_PID;
	}
	return FT_COST_OTHER;
}

void ft_cost_open(enum ft_cost_src src)
{
	if ((unsigned int)src < FT_COST_NR)
		__atomic_fetch_add(&counts[src].opens, 1, __ATOMIC_RELAXED);
}

void ft_cost_read(enum ft_cost_src src, size_t bytes)
{
	if ((unsigned int)src >= FT_COST_NR)
		return;
	__atomic_fetch_add(&counts[src].reads, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&counts[src].bytes, (uint64_t)bytes, __ATOMIC_RELAXED);
}

void ft_cost_get(struct ft_cost *out)
{
	struct mallinfo2 mi = mallinfo2();
	size_t i;

	for (i = 0; i < FT_COST_NR; i++) {
		out->src[i].opens = __atomic_load_n(&counts[i].opens, __ATOMIC_RELAXED);
		out->src[i].reads = __atomic_load_n(&counts[i].reads, __ATOMIC_RELAXED);
		out->src[i].bytes = __atomic_load_n(&counts[i].bytes, __ATOMIC_RELAXED);
	}
	out->heap = (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
}

void ft_cost_long_running(void)
{
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

struct ft_cost_counts ft_cost_total(const struct ft_cost *c)
{
	struct ft_cost_counts t = { 0 };
	size_t i;

	for (i = 0; i < FT_COST_NR; i++) {
		t.opens += c->src[i].opens;
		t.reads += c->src[i].reads;
		t.bytes += c->src[i].bytes;
	}
	return t;
}
