/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Facts about the host being watched: name, kernel release, page size,
 * THP PMD order (the pageblock order when pagetypeinfo is unreadable), and
 * for a live root, MemTotal/MemAvailable through libproc2.
 */
#ifndef FT_COLLECTORS_HOST_H
#define FT_COLLECTORS_HOST_H

#include <stdbool.h>
#include <stdint.h>

struct meminfo_info;

struct ft_host {
	char hostname[128];
	char release[128];
	long page_size;
	int pmd_order;			/* -1 if unknown */
	bool live;			/* root is "/" */
	struct meminfo_info *meminfo;	/* libproc2; NULL unless live */
	uint64_t mem_total_kb, mem_avail_kb;	/* 0 if unknown */
};

void ft_host_open(struct ft_host *h, int rootfd, bool live);
void ft_host_refresh(struct ft_host *h);
void ft_host_close(struct ft_host *h);

#endif
