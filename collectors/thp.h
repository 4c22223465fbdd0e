/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Multi-size THP's settings and counters, read under a root (kernel/thp.h
 * has the text).  The tree (9 sizes, ~19 files each on 6.18) is listed
 * once: its directories cannot change while the kernel runs.  Its files
 * are then held open and read again with pread from offset 0, so a read
 * of the whole tree opens nothing; ft_thpsrc_close() gives the ~170
 * descriptors back while nobody wants the tree (the overview shows none
 * of it: the live source reads it for the THP view, a recording and a
 * scrape).
 */
#ifndef FT_COLLECTORS_THP_H
#define FT_COLLECTORS_THP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/file.h"
#include "kernel/thp.h"

struct ft_thpsrc_file {
	struct ft_file f;
	uint32_t kb;
	char name[56];		/* "enabled", "shmem_enabled" or "stats/<counter>" */
	char rel[160];		/* f.rel points here */
};

/*
 * The sizes and counters a tree may list: as many as kernel/thp.h keeps (x86-64 has 9 sizes of 18).
 */
#define FT_THP_SRC_MAX_SIZES	FT_THP_SIZES
#define FT_THP_SRC_MAX_STATS	FT_THP_STATS

struct ft_thpsrc {
	int list_err;		/* 0 listed (or not yet), -ENOENT: no multi-size THP here */
	bool listed;
	struct ft_thpsrc_file *files;	/* by size, then name: the text's order */
	size_t nr;
	size_t sizes_left_out;	/* hugepages-* directories past FT_THP_SRC_MAX_SIZES: never read */
	size_t stats_left_out;	/* stats/ files past FT_THP_SRC_MAX_STATS of a size: never read */
	size_t files_left_out;	/* the last read: files not read, the buffer being full */
	bool said;		/* what was left out: said once */
};

/*
 * Every hugepages-<size>kB directory of sys/kernel/mm/transparent_hugepage
 * (the FT_THP_SRC_MAX_SIZES smallest; more are left out, and said once)
 * under @rootfd into @buf as "<kB> <name> <value>" lines: enabled,
 * shmem_enabled and each file its stats/ directory lists, sizes smallest
 * first.  Lists the tree on the first call; opens what is not open.  When
 * @buf is full the files left are not read (t->files_left_out, said
 * once).  The length, or -errno (-ENOENT: no multi-size THP on this
 * kernel, not looked for again).
 */
long ft_thpsrc_read(struct ft_thpsrc *t, int rootfd, char *buf, size_t sz);

/* Close the files (the list is kept: they are opened again by the next read). */
void ft_thpsrc_close(struct ft_thpsrc *t);

/* Close the files and forget the list. */
void ft_thpsrc_release(struct ft_thpsrc *t);

/* One read of the tree with nothing kept: list, open, read, close. */
long ft_thpsrc_read_once(int rootfd, char *buf, size_t sz);

#endif
