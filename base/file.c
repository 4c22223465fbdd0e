// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/file.h"

#include "base/cost.h"
#include "base/grow.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ft_open_under(), its open counted as @src's. */
static int open_under(int rootfd, const char *rel, int flags, enum ft_cost_src src)
{
	struct open_how how = {
		.flags = (__u64)(unsigned int)(flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	int fd;

	ft_cost_open(src);
	fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)		/* before 5.6: at least not the last component */
		fd = openat(rootfd, rel, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	/* a FIFO, socket or device in a tree would block or never end */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EBADFD;
	}
	/* the O_NONBLOCK was for the open; reads and writes block as usual */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int ft_open_under(int rootfd, const char *rel, int flags)
{
	return open_under(rootfd, rel, flags, ft_cost_src_of(rel));
}

DIR *ft_opendir_under(int rootfd, const char *rel)
{
	struct open_how how = {
		.flags = (__u64)(unsigned int)(O_RDONLY | O_DIRECTORY | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd;
	DIR *d;

	ft_cost_open(ft_cost_src_of(rel));
	fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)
		fd = openat(rootfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

const char *ft_file_strerror(int err)
{
	switch (-err) {
	case EBADFD:
		return "not a regular file (a FIFO or device in the tree?)";
	case ELOOP:
		return "reached through a symbolic link; not followed";
	case EXDEV:
		return "outside the root; not followed";
	default:
		return strerror(-err);
	}
}

void ft_file_init(struct ft_file *f, const char *rel)
{
	f->rel = rel;
	f->cost = ft_cost_src_of(rel);
	f->single = false;
	f->fd = -1;
	f->err = 0;
	f->buf = NULL;
	f->len = f->cap = 0;
}

/*
 * Room for more: a /proc text starts at 16 KiB, an attribute (a knob, a
 * THP counter: a few bytes, dozens of them held) at 256, doubling when full.
 */
static int file_grow(struct ft_file *f)
{
	int err = ft_grow_from((void **)&f->buf, &f->cap, f->cap + 1, 1, f->single ? 256 : 16384,
			       FT_FILE_MAX);

	return err == -E2BIG ? -EFBIG : err;
}

int ft_file_read(struct ft_file *f, int rootfd)
{
	int err;

	f->len = 0;
	if (f->fd < 0) {
		f->fd = open_under(rootfd, f->rel, O_RDONLY, f->cost);
		if (f->fd < 0)
			return f->err = f->fd;
	}
	for (;;) {
		ssize_t n;

		if (f->len == f->cap) {
			err = file_grow(f);
			if (err)
				return f->err = err;
		}
		n = pread(f->fd, f->buf + f->len, f->cap - f->len, (off_t)f->len);
		ft_cost_read(f->cost, n > 0 ? (size_t)n : 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			/* A file replaced under us (fixture trees): reopen next time. */
			close(f->fd);
			f->fd = -1;
			return f->err = err;
		}
		if (n == 0)
			break;
		/*
		 * A short read is not the end: a seq_file hands out at most its
		 * own buffer (a page at first) per read, so /proc/vmstat came
		 * back 44 bytes short on 6.18 and /proc/zoneinfo without its
		 * second node on a 2-node 6.1.  Only a read of 0 is the end; at
		 * the offset where the last read stopped it costs a seq_file no
		 * walk from the start.
		 */
		f->len += (size_t)n;
		/* an attribute's whole value comes in one read that did not fill the buffer */
		if (f->single && f->len < f->cap)
			break;
	}
	return f->err = 0;
}

void ft_file_close(struct ft_file *f)
{
	enum ft_cost_src cost = f->cost;
	bool single = f->single;

	if (f->fd >= 0)
		close(f->fd);
	free(f->buf);
	ft_file_init(f, f->rel);
	f->cost = cost;		/* what the owner set stays */
	f->single = single;
}

long ft_file_slurp(int rootfd, const char *rel, char *buf, size_t sz)
{
	enum ft_cost_src src = ft_cost_src_of(rel);
	size_t len = 0;
	int fd, err;

	if (!sz)
		return -EINVAL;
	fd = ft_open_under(rootfd, rel, O_RDONLY);
	if (fd < 0)
		return fd;
	while (len < sz - 1) {
		ssize_t n = read(fd, buf + len, sz - 1 - len);

		ft_cost_read(src, n > 0 ? (size_t)n : 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
	return (long)len;
}

int ft_root_open(const char *root)
{
	int fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int ft_fds_readable(const int *fds, int n)
{
	struct pollfd p[64];
	int i, k = 0, r;

	if (n > 64)
		return n;	/* more than one look covers: read them */
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			p[k++] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	if (!k)
		return 0;
	do
		r = poll(p, (nfds_t)k, 0);
	while (r < 0 && errno == EINTR);
	return r < 0 ? k : r;
}
