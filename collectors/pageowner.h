/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reads /sys/kernel/debug/page_owner (CONFIG_PAGE_OWNER, booted with
 * page_owner=on, debugfs mounted) one pageblock at a time.  The kernel's
 * read_page_owner() takes the file offset as the PFN to start from and
 * returns one allocation per read, so a block is a pread at its first
 * PFN, then one at the PFN past each allocation, until the block ends.
 * In a captured tree the file is plain text: read once (at most
 * FT_FILE_MAX), its entries indexed by PFN, and served the same way.
 *
 * What a look keeps is the text of the allocations that pin the block
 * (unmovable, reclaimable: ft_po_pins()), as the kernel printed them, and
 * counts of the rest: that text becomes an OWNER input, parsed again by
 * whoever reads it (kernel/pageowner.h), since a recording is untrusted.
 *
 * Ownership: struct ft_pown owns its fd and buffers; a look's text is the
 * caller's struct, grown by ft_pown_block().
 */
#ifndef FT_COLLECTORS_PAGEOWNER_H
#define FT_COLLECTORS_PAGEOWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_POWN_PATH		"sys/kernel/debug/page_owner"
#define FT_POWN_TEXT_MAX	(64u << 10)	/* a look's pinning text, at most */

struct ft_pown {
	int fd;				/* -1: none */
	int err;			/* why (0: open) */
	bool whole;			/* a plain file, read whole (a captured tree) */
	char *text;			/* whole: the file */
	size_t len;
	struct ft_pown_idx {
		uint64_t pfn;
		size_t off;
	} *idx;				/* whole: its entries, by PFN */
	size_t nr_idx;
	char *buf;			/* debugfs: one allocation's text */
	size_t cap;
	uint64_t reads;			/* allocations read, ever */
};

/* One block's allocations. */
struct ft_pown_look {
	char *text;			/* the pinning ones' text (grown; the caller frees) */
	size_t len, cap;
	uint32_t entries;		/* allocations in the block */
	uint64_t other_pages;		/* pages of those that do not pin (not in the text) */
	uint32_t cut;			/* pinning ones left out: the text was full */
	uint32_t bad;			/* reads that were no entry */
};

/* Open page_owner under @rootfd.  0 or -errno (also in p->err). */
int ft_pown_open(struct ft_pown *p, int rootfd);
void ft_pown_close(struct ft_pown *p);

/*
 * The allocations that start in [@pfn, @pfn + @pages) into @out (its
 * text emptied first, not freed).  0 or -errno.
 */
int ft_pown_block(struct ft_pown *p, uint64_t pfn, uint32_t pages, struct ft_pown_look *out);

#define FT_POWN_STACKS_PATH	"sys/kernel/debug/page_owner_stacks/show_stacks"

/*
 * page_owner_stacks/show_stacks (6.9+) under @rootfd into @buf (at most
 * @sz - 1 bytes, NUL-ended; *@cut set when it filled @buf).  Its length,
 * or -errno (-ENOENT before 6.9).
 */
long ft_pown_stacks(int rootfd, char *buf, size_t sz, bool *cut);

/* What to do about an open's error, in words for the operator. */
const char *ft_pown_strerror(int err);

#endif
