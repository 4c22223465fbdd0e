/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exporter's own process figures (kernel/selfstat.h), read per scrape:
 * /proc/self/stat and /proc/self/fd held open, read and listed again (a
 * scrape opens nothing), the fd limit.  /proc/stat's boot time is read once.  Counted in the cost
 * account as "other".
 */
#ifndef FT_COLLECTORS_SELF_H
#define FT_COLLECTORS_SELF_H

#include <stdint.h>

#include "kernel/selfstat.h"

struct ft_self {
	int stat_fd;		/* /proc/self/stat, -1 before the first read */
	void *fd_dir;		/* /proc/self/fd, held open (a DIR *) and listed again */
	uint64_t btime;		/* 0: unknown */
	long hz, page_size;
};

void ft_self_init(struct ft_self *s);
/* @out now; out->known is false when /proc/self/stat could not be read. */
void ft_self_read(struct ft_self *s, struct ft_selfstat *out);
void ft_self_close(struct ft_self *s);

#endif
