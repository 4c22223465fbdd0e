/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel text file under the root, kept open and re-read with pread
 * from offset 0.  The buffer is owned by the struct and reused.
 */
#ifndef FT_BASE_FILE_H
#define FT_BASE_FILE_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/cost.h"

/* Refuse to slurp more than this from one kernel file. */
#define FT_FILE_MAX	(64u << 20)

struct ft_file {
	const char *rel;	/* path relative to the root, borrowed */
	/* what its opens and reads count as (from rel; may be set after init) */
	enum ft_cost_src cost;
	/*
	 * One read at offset 0 returns all of it that fits the buffer: a
	 * sysfs attribute, a sysctl, a single_open() seq_file (meminfo).  A
	 * multi-record seq_file (zoneinfo, vmstat) hands out a page a read
	 * and needs the read that returns 0.  Set after ft_file_init().
	 */
	bool single;
	int fd;			/* -1 when not open */
	int err;		/* last open/read error, 0 if fine */
	char *buf;
	size_t len, cap;
};

void ft_file_init(struct ft_file *f, const char *rel);
/* Open if needed and read the whole file.  0 or -errno (also in f->err). */
int ft_file_read(struct ft_file *f, int rootfd);
void ft_file_close(struct ft_file *f);

/*
 * One-shot read of a small file into @buf (NUL-terminated, at most
 * @sz - 1 bytes).  Returns the length or -errno.
 */
long ft_file_slurp(int rootfd, const char *rel, char *buf, size_t sz);

/*
 * Open @rel under @rootfd the one way fragtop opens a file of a root
 * (/proc, /sys, a captured tree), to read or to write: never through a
 * symbolic link nor out of the root (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS; O_NOFOLLOW before Linux 5.6), without blocking on
 * the open, and only a regular file (-EBADFD for a FIFO, socket or
 * device).  @flags: O_RDONLY or O_WRONLY (| O_TRUNC).  fd or -errno.
 */
int ft_open_under(int rootfd, const char *rel, int flags);

/*
 * Directory @rel under @rootfd, as ft_open_under() opens files (beneath
 * the root, no symbolic link): a DIR to readdir() and closedir(), or NULL
 * with errno set.
 */
DIR *ft_opendir_under(int rootfd, const char *rel);

/* ft_open_under()'s and the reads' errors in words ("not a regular file ..."). */
const char *ft_file_strerror(int err);

/* Open @root as a directory for the *at() calls.  fd or -errno. */
int ft_root_open(const char *root);

/*
 * How many of @fds (@n of them; -1 entries skipped) have something to
 * read now, asked without waiting (poll, timeout 0): a held descriptor
 * that has nothing is then not read, and no read fails with EAGAIN.
 * Any error counts them all readable (the read says what it is).
 */
int ft_fds_readable(const int *fds, int n);

#endif
