// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

void ft_file_init(struct ft_file *f, const char *rel)
{
	f->rel = rel;
	f->fd = -1;
	f->err = 0;
	f->buf = NULL;
	f->len = f->cap = 0;
}

static int file_grow(struct ft_file *f)
{
	size_t ncap = f->cap ? f->cap * 2 : 16384;
	char *p;

	if (f->cap >= FT_FILE_MAX)
		return -EFBIG;
	p = realloc(f->buf, ncap);
	if (!p)
		return -ENOMEM;
	f->buf = p;
	f->cap = ncap;
	return 0;
}

int ft_file_read(struct ft_file *f, int rootfd)
{
	int err;

	f->len = 0;
	if (f->fd < 0) {
		f->fd = openat(rootfd, f->rel, O_RDONLY | O_CLOEXEC);
		if (f->fd < 0)
			return f->err = -errno;
	}
	for (;;) {
		ssize_t n;

		if (f->len == f->cap) {
			err = file_grow(f);
			if (err)
				return f->err = err;
		}
		n = pread(f->fd, f->buf + f->len, f->cap - f->len, (off_t)f->len);
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
		f->len += (size_t)n;
	}
	return f->err = 0;
}

void ft_file_close(struct ft_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->buf);
	ft_file_init(f, f->rel);
}

long ft_file_slurp(int rootfd, const char *rel, char *buf, size_t sz)
{
	size_t len = 0;
	int fd, err;

	if (!sz)
		return -EINVAL;
	fd = openat(rootfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < sz - 1) {
		ssize_t n = read(fd, buf + len, sz - 1 - len);

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
