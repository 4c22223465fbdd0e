// SPDX-License-Identifier: GPL-2.0-or-later
#include "controls/compact.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/beneath.h"

/* run/fragtop/compact.stamp under the root, made if need be: a regular file, or -errno. */
static int stamp_open(int rootfd)
{
	int run = ft_run_dir(rootfd, true), fd;

	if (run < 0)
		return run;
	fd = ft_open_beneath(run, "compact.stamp", O_RDWR | O_CREAT, 0600);
	close(run);
	if (fd < 0)
		return fd;
	if (ft_owned_file(fd)) {
		close(fd);
		return -EBADFD;
	}
	return fd;
}

int ft_compact_nodes(struct ft_ctl *c, const int *nodes, size_t n, uint64_t now_s, uint64_t *ago_s)
{
	char buf[32];
	unsigned long long last = 0;
	ssize_t got;
	size_t i;
	int fd, len;

	*ago_s = 0;
	if (c->read_only)
		return -EPERM;
	fd = stamp_open(c->rootfd);
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX)) {
		int err = -errno;

		close(fd);
		return err;
	}
	got = pread(fd, buf, sizeof(buf) - 1, 0);
	if (got > 0) {
		buf[got] = '\0';
		last = strtoull(buf, NULL, 10);
	}
	/* a stamp from the future is of another boot (a --root tree kept across one) */
	if (got > 0 && last <= now_s && now_s - last < FT_COMPACT_EVERY_S) {
		*ago_s = now_s - last;
		close(fd);	/* the lock goes with it */
		return -EAGAIN;
	}
	len = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)now_s);
	if (ftruncate(fd, 0) || pwrite(fd, buf, (size_t)len, 0) != len) {
		int err = -errno;

		close(fd);
		return err;
	}
	for (i = 0; i < n; i++) {
		char v[16];

		snprintf(v, sizeof(v), "%d", nodes[i]);
		ft_ctl_set(c, "compact_node", v);
	}
	close(fd);
	return 0;
}
