// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: page_owner text (kernel/pageowner.c) from untrusted
 * bytes, as a recording carrying it is.  Invariants: no crash; the offset
 * only moves forward and stays inside the buffer, so the loop ends; every
 * entry's strings are NUL-terminated inside their fields, its frame
 * counts agree and its block is at most its PFN; show_stacks walks the
 * same way, its top stacks are ordered and within the total, their text
 * fits; grouping by stack loses no pinned page.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/pageowner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void terminated(const char *s, size_t sz)
{
	if (!memchr(s, '\0', sz))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_po_entry e;
	size_t off = 0, prev;
	int r, i;

	do {
		prev = off;
		r = ft_po_next((const char *)data, size, &off, &e);
		if (off > size || (r != 0 && off <= prev))
			__builtin_trap();
		if (r != 1)
			continue;
		terminated(e.gfp_names, sizeof(e.gfp_names));
		terminated(e.comm, sizeof(e.comm));
		terminated(e.page_mt, sizeof(e.page_mt));
		terminated(e.block_mt, sizeof(e.block_mt));
		if (e.nr_frames < 0 || e.nr_frames > FT_PO_FRAMES || e.nr_frames > e.all_frames ||
		    (e.all_frames > e.nr_frames && e.nr_frames != FT_PO_FRAMES) ||
		    e.block > e.pfn || e.order > 64)
			__builtin_trap();
		for (i = 0; i < e.nr_frames; i++)
			terminated(e.frames[i], FT_PO_FRAME_LEN);
	} while (r != 0);
	/* show_stacks: the same walk */
	off = 0;
	do {
		uint64_t pages;

		prev = off;
		r = ft_po_stack_next((const char *)data, size, &off, &e, &pages);
		if (off > size || (r != 0 && off <= prev))
			__builtin_trap();
		if (r == 1 &&
		    (e.nr_frames < 1 || e.nr_frames > FT_PO_FRAMES || e.nr_frames > e.all_frames))
			__builtin_trap();
	} while (r != 0);
	/* the top stacks of show_stacks: at most max, most first, within the total */
	{
		struct ft_po_stack top[3];
		uint64_t total;
		size_t nr, bad,
		n = ft_po_stacks_top((const char *)data, size, top, 3, &total, &nr, &bad), k;
		char text[128];

		if (n > 3 || n > nr)
			__builtin_trap();
		for (k = 0; k < n; k++) {
			if ((k && top[k].pages > top[k - 1].pages) || top[k].pages > total)
				__builtin_trap();
			ft_po_stack_text(&top[k].e, 8, text, sizeof(text));
			if (!memchr(text, '\0', sizeof(text)))
				__builtin_trap();
		}
	}
	/* grouping: counts agree */
	{
		struct ft_po_group g[4];
		struct ft_po_tally t;
		size_t n = ft_po_group((const char *)data, size, g, 4, &t), k;
		uint64_t pages = t.other_pages;
		unsigned int count = t.other;

		if (n > 4 || t.pins > t.entries)
			__builtin_trap();
		for (k = 0; k < n; k++) {
			pages += g[k].pages;
			count += g[k].count;
			if (k && g[k].pages > g[k - 1].pages)
				__builtin_trap();
		}
		if (pages != t.pin_pages || count != t.pins)
			__builtin_trap();
	}
	return 0;
}
