/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/buddyinfo: free blocks per order, per populated zone. */
#ifndef FT_KERNEL_BUDDYINFO_H
#define FT_KERNEL_BUDDYINFO_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/mm.h"

struct ft_buddy_zone {
	int node;
	char name[FT_ZONE_NAME_LEN];
	uint64_t blocks[FT_MAX_ORDERS];	/* free blocks of order i */
};

struct ft_buddyinfo_state {
	int nr_orders;			/* same for every line */
};

struct ft_buddyinfo {
	struct ft_buddy_zone *zones;	/* owned; reused across parses */
	size_t nr, cap;
	union {
		struct ft_buddyinfo_state;	/* its members by name (-fms-extensions) */
		/* the same, whole: what a checkpoint saves */
		struct ft_buddyinfo_state state;
	};
};

/* 0, -EINVAL (malformed, ragged order columns), -ENODATA, -E2BIG, -ENOMEM. */
int ft_buddyinfo_parse(const char *buf, size_t len, struct ft_buddyinfo *out);
void ft_buddyinfo_release(struct ft_buddyinfo *bi);

const struct ft_buddy_zone *ft_buddyinfo_find(const struct ft_buddyinfo *bi,
					      int node, const char *zone);

#endif
