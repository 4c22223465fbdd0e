/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounds shared by the parsers.  They are generous on purpose: the kernel
 * prints NR_PAGE_ORDERS columns (11 on x86-64, up to 14 or so on arm64
 * with 64K pages) and at most 7 migratetypes today.  Input beyond them is
 * rejected with -E2BIG rather than truncated silently.
 */
#ifndef FT_KERNEL_MM_H
#define FT_KERNEL_MM_H

#include <stddef.h>

#include "base/grow.h"	/* ft_grow(), for the parsers' tables */

#define FT_MAX_ORDERS		20
#define FT_MAX_MTYPES		8
#define FT_ZONE_NAME_LEN	16
#define FT_MTYPE_NAME_LEN	16
#define FT_MAX_PROTECTION	8
/* 1024 nodes (x86-64 MAX_NUMNODES) times 6 zone types. */
#define FT_MAX_ZONES		6144


struct ft_span;

/*
 * Consume "Node N, zone NAME" (NAME may carry a trailing ',') from the
 * front of @line, leaving the rest.  0 or -EINVAL.
 */
int ft_parse_node_zone(struct ft_span *line, int *node, char *name, size_t namesz);

#endif
