// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int ft_open_beneath(int dirfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (__u64)(unsigned int)(flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK),
		.mode = flags & O_CREAT ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS)
		fd = openat(dirfd, rel, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW,
			    mode);
	return fd < 0 ? -errno : fd;
}

/* Owned by root or by us, and no one else may write it. */
static int owned(const struct stat *st)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return -EPERM;
	return st->st_mode & (S_IWGRP | S_IWOTH) ? -EPERM : 0;
}

int ft_owned_file(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EBADFD;
	return owned(&st);
}

int ft_run_dir(int rootfd, bool create)
{
	struct stat st;
	int run, fd, err;

	if (create && mkdirat(rootfd, "run", 0755) && errno != EEXIST)
		return -errno;
	run = ft_open_beneath(rootfd, "run", O_RDONLY | O_DIRECTORY, 0);
	if (run < 0)
		return run;
	if (create && mkdirat(run, "fragtop", 0700) && errno != EEXIST) {
		err = -errno;
		close(run);
		return err;
	}
	fd = ft_open_beneath(run, "fragtop", O_RDONLY | O_DIRECTORY, 0);
	close(run);
	if (fd < 0)
		return fd;
	err = fstat(fd, &st) ? -errno : owned(&st);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}
