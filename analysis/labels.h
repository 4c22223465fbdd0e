/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pageblock labels against contents (Weiner's table): for every block
 * page_owner was read for (the session's owner looks), the migratetype
 * the kernel labels it with ("Block N type X" in each entry) against
 * what the map found in it (its class at the last whole read).  A block
 * labelled Movable that holds unmovable pages is one the labels hide:
 * they are listed first, most unmovable pages first.  Only blocks both
 * read by page_owner and the map are counted; page_owner is read for
 * the blocks under the map's cursor and for mixed blocks, so the table
 * is of those blocks, not of the zone.
 */
#ifndef FT_ANALYSIS_LABELS_H
#define FT_ANALYSIS_LABELS_H

#include <stddef.h>
#include <stdint.h>

#include "model/pageblock.h"
#include "model/session.h"

#define FT_LABELS_MT	8	/* labels kept (the kernel has 6 or fewer) */
#define FT_LABELS_HIDDEN 16	/* Movable-labelled blocks with unmovable pages listed */

struct ft_labels {
	size_t blocks;			/* blocks counted: a label and a whole map read */
	size_t no_label;		/* looked at, no entry to take a label from (all free) */
	size_t unread;			/* labelled, but the map has not read the block whole */
	int nr_mt;
	char mt[FT_LABELS_MT][16];	/* the labels seen, in first-seen order */
	uint32_t n[FT_LABELS_MT][FT_PB_NR];	/* [label][the map's class] */
	size_t hidden;			/* labelled Movable, holding unmovable pages */
	int nr_list;
	struct ft_label_hidden {
		uint64_t pfn;		/* the block's first PFN */
		uint32_t unmovable;	/* its unmovable pages (the map's) */
		enum ft_pb cls;
	} list[FT_LABELS_HIDDEN];
};

/* Build @out from @s's owner looks (the newest look of a block counts) and map. */
void ft_labels_build(const struct ft_session *s, struct ft_labels *out);

#endif
