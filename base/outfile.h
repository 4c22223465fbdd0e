/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way fragtop creates an output file (a recording, a plot).  It
 * runs as root, often in /tmp: so it never writes through a symbolic link
 * (a planted /tmp/x -> /etc/shadow must not be truncated), creates a
 * recording 0600 (it holds root-only data: pagetypeinfo, kpageflags,
 * physical addresses) and other output under the umask, and refuses an
 * existing file unless told to replace it. Replacing writes a new file beside it and renames it
 * over the old name: a link at that name is replaced, never followed, and the
 * old file's readers keep their copy.
 */
#ifndef FT_BASE_OUTFILE_H
#define FT_BASE_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <stddef.h>

/*
 * Create @path for writing.  Returns the fd, or -errno: -EEXIST when it
 * exists and @replace is false, -ELOOP when it is a symbolic link and
 * @replace is false, -EISDIR for a directory; with @replace, what
 * creating a file beside it or renaming it over @path says (-EPERM: a
 * sticky directory protects another user's file there).
 */
int ft_outfile_create(const char *path, bool replace);
/*
 * The same for an output anyone may read (a plot, a report): @mode (0666)
 * under the process's umask, as any program's output file, rather than
 * 0600.
 */
int ft_outfile_create_mode(const char *path, bool replace, mode_t mode);

/*
 * One line on why ft_outfile_create() failed, for an operator;
 * @how_to_replace ("--force") is named where it would help, or NULL.
 */
const char *ft_outfile_strerror(int err, const char *how_to_replace, char *buf, size_t sz);

/*
 * A file written whole or not at all (node_exporter's textfile collector
 * reads it at any moment): a temp file beside @path, 0600 while written;
 * ft_atomic_commit() flushes it to disk, gives it @mode and renames it
 * over @path (a link there is replaced, not followed).  The directory is
 * opened once and everything after goes through that descriptor: if the
 * directory is moved or swapped for a link meanwhile, the file still
 * lands in the directory that was opened, and no temp file is left
 * anywhere.
 */
struct ft_atomic {
	FILE *f;		/* write here */
	int dirfd;		/* the directory of @path, as opened */
	char *name;		/* @path's last component (owned) */
	char tmp[32];		/* the temp file's name in it */
};

int ft_atomic_open(struct ft_atomic *a, const char *path);
/* As ft_atomic_open(), with open(2) flags for the directory (O_NOFOLLOW: not a link). */
int ft_atomic_open_in(struct ft_atomic *a, const char *path, int dir_flags);
/* 0 or -errno (then the temp file is gone and @path untouched). */
int ft_atomic_commit(struct ft_atomic *a, const char *path, mode_t mode);
void ft_atomic_abort(struct ft_atomic *a);

#endif
