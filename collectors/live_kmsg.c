// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Page allocation failures from the kernel log: /dev/kmsg opened at its
 * end when the live source opens (what was logged before fragtop started
 * is not this session's), drained before each tick, each record that is
 * a page allocation failure (kernel/kmsg.h) a KMSG input as read; nothing
 * else of the log is kept or recorded.  A SOURCE input before each tick
 * says whether the log is read and how many records it overwrote unread.
 * Root or dmesg_restrict=0 is needed; a captured tree (--root) has no log.
 * Counted as the cost account's "kmsg".
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/cost.h"
#include "base/file.h"
#include "collectors/live_int.h"
#include "kernel/kmsg.h"
#include "model/recfmt.h"

/* Records read a tick at most: a log flooding faster than this is drained over ticks. */
#define KMSG_PER_TICK	1024

void ft_live_kmsg_open(struct ft_live *l)
{
	struct ft_live_kmsg *k = &l->kmsg;

	k->fd = -1;
	if (strcmp(l->root, "/")) {
		k->err = -ENOENT;	/* a captured tree has no log to follow */
		return;
	}
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ft_cost_open(FT_COST_KMSG);
	if (k->fd < 0) {
		k->err = -errno;
		return;
	}
	if (lseek(k->fd, 0, SEEK_END) < 0) {	/* from now on */
		k->err = -errno;
		close(k->fd);
		k->fd = -1;
	}
}

void ft_live_kmsg_read(struct ft_live *l, uint64_t t_ns)
{
	struct ft_live_kmsg *k = &l->kmsg;
	uint8_t state[12];
	int32_t e;
	int n;

	/* nothing new (the usual tick): no read */
	for (n = 0; k->fd >= 0 && n < KMSG_PER_TICK && (n || ft_fds_readable(&k->fd, 1)); n++) {
		char rec[8192];
		ssize_t r = read(k->fd, rec, sizeof(rec));
		struct ft_kmsg_fail f;
		const char *nl;
		size_t len;

		/* overwritten before we read it: the next is there */
		if (r < 0 && errno == EPIPE) {
			k->lost++;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno != EAGAIN) {
			k->err = -errno;
			close(k->fd);
			k->fd = -1;
		}
		if (r <= 0)
			break;
		ft_cost_read(FT_COST_KMSG, (size_t)r);
		len = (size_t)r;
		if ((nl = memchr(rec, '\n', len)))
			/* the message; not its continuation lines */
			len = (size_t)(nl - rec) + 1;
		if (len < FT_KMSG_TEXT && !ft_kmsg_parse(rec, len, &f))
			ft_live_emit(l, FT_RR_KMSG, 0, t_ns, rec, len);
	}
	e = k->err;
	memcpy(state, &e, 4);
	memcpy(state + 4, &k->lost, 8);
	ft_live_emit(l, FT_RR_SOURCE, FT_RS_KMSG, t_ns, state, sizeof(state));
}

void ft_live_kmsg_close(struct ft_live *l)
{
	if (l->kmsg.fd >= 0)
		close(l->kmsg.fd);
	l->kmsg.fd = -1;
}
