/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Facts about the host being watched: name, kernel release, page size,
 * THP PMD order (the pageblock order when pagetypeinfo is unreadable), the
 * huge page sizes (/sys/kernel/mm/hugepages: the largest is the gigantic
 * region of model/contig.h), the multi-size THP sizes, and for a live root, MemTotal/MemAvailable
 * from /proc/meminfo (held open).
 */
#ifndef FT_COLLECTORS_HOST_H
#define FT_COLLECTORS_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "base/file.h"

struct ft_host {
	char hostname[128];
	char release[128];
	long page_size;
	int pmd_order;			/* -1 if unknown */
#define FT_HOST_HUGE_MAX 8
	uint64_t huge_kb[FT_HOST_HUGE_MAX];	/* hugepages-<kB>kB sizes, ascending */
	unsigned int nr_huge;
#define FT_HOST_MTHP_MAX 16
	/* transparent_hugepage/hugepages-<kB>kB (6.8+), ascending */
	uint64_t mthp_kb[FT_HOST_MTHP_MAX];
	unsigned int nr_mthp;
	bool live;			/* root is "/" */
	int rootfd;			/* borrowed */
	struct ft_file meminfo;		/* proc/meminfo, read each tick when live */
	uint64_t mem_total_kb, mem_avail_kb;	/* 0 if unknown */
};

void ft_host_open(struct ft_host *h, int rootfd, bool live);
void ft_host_refresh(struct ft_host *h);
struct ft_fit_cpu;
/*
 * The CPU's architecture and 1 GiB page flag from proc/cpuinfo under @rootfd (model/fit.h); unknown
 * if unread.
 */
void ft_host_cpu(int rootfd, struct ft_fit_cpu *c);
void ft_host_close(struct ft_host *h);

#endif
