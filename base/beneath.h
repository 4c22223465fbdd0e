/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every file fragtop writes under a root (the host's /, or a --root
 * tree a user may own) is opened here: never through a symbolic link nor
 * out of the root (openat2 RESOLVE_BENEATH, O_NOFOLLOW where the kernel
 * lacks it), a regular file owned by root (or by the user running
 * fragtop, in a tree of their own) that no one else can write.
 */
#ifndef FT_BASE_BENEATH_H
#define FT_BASE_BENEATH_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * @rel under @dirfd, never through a symbolic link nor out of it; @mode for O_CREAT. An fd or
 * -errno.
 */
int ft_open_beneath(int dirfd, const char *rel, int flags, mode_t mode);

/*
 * run/fragtop under @rootfd, made (0700) if need be and @create: a
 * directory fd, or -errno (-EPERM: not owned by root or by us, or
 * writable by others; -ENOENT: none, and not @create).
 */
int ft_run_dir(int rootfd, bool create);

/*
 * @fd is a regular file owned by root or by the effective user, not
 * writable by group or others: 0, or -EPERM (owner, mode) / -EBADFD (not
 * a regular file: a FIFO, a device) / -errno.
 */
int ft_owned_file(int fd);

#endif
