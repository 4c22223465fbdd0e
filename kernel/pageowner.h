/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /sys/kernel/debug/page_owner text (CONFIG_PAGE_OWNER, booted with
 * page_owner=on), one entry per allocated page block:
 *
 *   Page allocated via order O, mask 0xM(GFP_NAMES), pid P, tgid T (COMM), ts N ns[, free_ts N ns]
 *   PFN 0xX type MT Block B type MT Flags F
 *    frame+0x1a/0x2b0
 *    ...
 *   [Page has been migrated, last migrate reason: R]
 *   [Charged ... memcg NAME | Slab cache page]
 *   (a blank line)
 *
 * as mm/page_owner.c's print_page_owner() writes it: 6.12 prints the PFN
 * in hex, 6.1 in decimal and adds free_ts.  The file offset a reader sets
 * is the PFN to start from, so one pageblock is one seek and one read.
 *
 * The text is the kernel's, and a recording that carries it is untrusted:
 * the parser reads only inside the buffer, bounds every field, and skips
 * what is not an entry up to the next blank line.  Pure: no kernel needed.
 */
#ifndef FT_KERNEL_PAGEOWNER_H
#define FT_KERNEL_PAGEOWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_PO_FRAMES	8	/* the top frames kept of a stack */
#define FT_PO_FRAME_LEN	64	/* a frame's text ("get_page_from_freelist+0x3a1/0x10d0"), cut */

struct ft_po_entry {
	uint64_t pfn;
	unsigned int order;
	uint32_t gfp;			/* the mask */
	char gfp_names[96];		/* as the kernel names it: "GFP_KERNEL|__GFP_COMP", cut */
	int pid, tgid;
	/* a task's command is at most 15 bytes; kept raw, sanitised when shown */
	char comm[17];
	uint64_t ts_ns;			/* when it was allocated (the kernel's local clock) */
	char page_mt[16];		/* the migratetype its gfp asks for: "Unmovable" */
	char block_mt[16];		/* its pageblock's */
	uint64_t block;			/* PFN >> pageblock_order */
	bool migrated;			/* "Page has been migrated" */
	int nr_frames;			/* frames kept (at most FT_PO_FRAMES) */
	int all_frames;			/* frames the kernel printed */
	char frames[FT_PO_FRAMES][FT_PO_FRAME_LEN];
	/* FNV-1a of every frame's function: equal stacks, equal ids */
	uint64_t stack_id;
};

/*
 * The next entry of @buf[0..@len) from *@off: 1 (into @e), 0 at the end of
 * the buffer, -EINVAL for text that is not an entry.  *@off moves past
 * what was read either way (after -EINVAL, to the next blank line), so a
 * caller loops until 0.  An entry cut at the buffer's end is -EINVAL.
 */
int ft_po_next(const char *buf, size_t len, size_t *off, struct ft_po_entry *e);

/* Whether @e's page is one that fragments a Movable block: unmovable or reclaimable. */
bool ft_po_pins(const struct ft_po_entry *e);

/*
 * The pinning allocations of a text (a block's, or many blocks'), grouped
 * by stack: the first entry of each stack stands for it (its order,
 * types, gfp, pid and command, frames).
 */
struct ft_po_group {
	uint64_t stack_id;
	unsigned int count;		/* allocations */
	uint64_t pages;			/* their pages, 2^order each */
	struct ft_po_entry first;
};

struct ft_po_tally {
	unsigned int entries;		/* entries parsed */
	unsigned int bad;		/* text that was not an entry */
	unsigned int pins;		/* of the entries, those that pin (ft_po_pins()) */
	uint64_t pin_pages;
	unsigned int other;		/* pinning allocations of stacks past the @max kept */
	uint64_t other_pages;
};

/*
 * Group @buf[0..@len)'s pinning entries by stack into @out (at most @max,
 * the most pages first; entries of further stacks are counted in
 * @t->other).  Returns the groups filled; @t (may be NULL) is zeroed first.
 */
size_t ft_po_group(const char *buf, size_t len, struct ft_po_group *out, size_t max,
		   struct ft_po_tally *t);

/*
 * The same over many texts (blocks): add @buf's to the @n groups in @out
 * and to @t (not zeroed), unsorted.  Returns the groups now filled.
 */
size_t ft_po_group_more(const char *buf, size_t len, struct ft_po_group *out, size_t n, size_t max,
			struct ft_po_tally *t);
/* The most pages first. */
void ft_po_group_sort(struct ft_po_group *g, size_t n);

/* A stack of show_stacks and the pages it owns. */
struct ft_po_stack {
	struct ft_po_entry e;		/* frames and stack_id only */
	uint64_t pages;
};

/* The total of ft_po_stacks_top() when the pages added up past 2^64-1: not a real figure. */
#define FT_PO_PAGES_SATURATED	UINT64_MAX

/*
 * @pages as a percentage of @total into *@pct: false (no share to print)
 * when @total is 0 or saturated.
 */
bool ft_po_share(uint64_t pages, uint64_t total, double *pct);

/*
 * The @max stacks of a show_stacks text that own the most pages, most
 * first, into @out; *@total the pages of all, *@nr how many stacks there
 * were, *@bad the text that was not one.  Returns the stacks filled.
 */
size_t ft_po_stacks_top(const char *buf, size_t len, struct ft_po_stack *out, size_t max,
			uint64_t *total, size_t *nr, size_t *bad);

/*
 * @e's stack as "a < b < c" into @buf: at most @max frames by function,
 * innermost first, past the allocator's own (ft_sym_is_allocator(); the
 * last frame is kept whatever it is).  Returns @buf.
 */
const char *ft_po_stack_text(const struct ft_po_entry *e, int max, char *buf, size_t sz);

/*
 * page_owner_stacks/show_stacks (6.9+): every stack that owns pages now,
 * " frame" lines then "nr_base_pages: N" and a blank line.  The next one
 * from *@off: 1 (@e's frames, stack_id and *@pages set; its other fields
 * zero), 0 at the end, -EINVAL for text that is not one (skipped to the
 * next blank line, as ft_po_next()).
 */
int ft_po_stack_next(const char *buf, size_t len, size_t *off, struct ft_po_entry *e,
		     uint64_t *pages);

#endif
