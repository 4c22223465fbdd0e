// SPDX-License-Identifier: GPL-2.0-or-later
#include "controls/compact.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* @rel under @dirfd, never through a symbolic link nor out of it; @mode for O_CREAT. */
static int open_beneath(int dirfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (__u64)(unsigned int)(flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK),
		.mode = flags & O_CREAT ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS)
		fd = openat(dirfd, rel, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW, mode);
	return fd < 0 ? -errno : fd;
}

/* run/fragtop/compact.stamp under the root, made if need be: a regular file, or -errno. */
static int stamp_open(int rootfd)
{
	struct stat st;
	int run, fd;

	if (mkdirat(rootfd, "run", 0755) && errno != EEXIST)
		return -errno;
	run = open_beneath(rootfd, "run", O_RDONLY | O_DIRECTORY, 0);
	if (run < 0)
		return run;
	if (mkdirat(run, "fragtop", 0700) && errno != EEXIST) {
		fd = -errno;
		close(run);
		return fd;
	}
	fd = open_beneath(run, "fragtop/compact.stamp", O_RDWR | O_CREAT, 0600);
	close(run);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
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
