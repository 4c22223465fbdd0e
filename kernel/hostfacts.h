/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Facts about the watched host, from the HOST input ("key=value" lines,
 * model/RECORDING.md): its name and kernel, the page size, the PMD and
 * pageblock orders, the hugetlb and multi-size THP sizes.
 *
 * Pure and plain.  A checkpoint keeps the restoring session's: the HOST
 * input comes before any tick.
 */
#ifndef FT_KERNEL_HOSTFACTS_H
#define FT_KERNEL_HOSTFACTS_H

#include <stddef.h>
#include <stdint.h>

struct ft_host_facts {
	char hostname[128];
	char release[128];
	long page_size;
	int pmd_order;			/* -1 if unknown */
	int pageblock_order;		/* pageblock_order=, else pmd_order; -1 if unknown */
	uint64_t huge_kb[8];		/* hugetlb sizes (hugepage_kb=), ascending */
	unsigned int nr_huge;		/* 0: none, or a recording made before they were */
	uint64_t mthp_kb[16];		/* multi-size THP sizes (mthp_kb=), ascending */
	/* 0: none (before 6.8), or a recording made before they were */
	unsigned int nr_mthp;
	char text[2048];		/* the HOST input as given ("key=value\n") */
};

/* Facts before a HOST input: 4 KiB pages, orders unknown. */
void ft_hostfacts_init(struct ft_host_facts *h);

/* The HOST input's @len bytes (untrusted: a value out of range is not taken). */
void ft_hostfacts_parse(struct ft_host_facts *h, const char *text, size_t len);

/* The value of @key ("release") into @buf, "" if absent; returns @buf. */
const char *ft_hostfacts_get(const struct ft_host_facts *h, const char *key, char *buf, size_t sz);

#endif
