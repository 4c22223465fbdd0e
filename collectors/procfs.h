/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live /proc collector: zoneinfo, buddyinfo, pagetypeinfo, vmstat and
 * pressure/memory under a root directory, kept open, read into raw
 * buffers for the model.  Does I/O only; never parses.
 */
#ifndef FT_COLLECTORS_PROCFS_H
#define FT_COLLECTORS_PROCFS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/file.h"
#include "model/sample.h"

struct ft_procfs {
	int rootfd;
	struct ft_file src[FT_SRC_NR];
	int reported_err[FT_SRC_NR];	/* last error told to ft_diag() */
	/*
	 * No PSI in this kernel (pressure/memory absent, or booted psi=0):
	 * said once, then not looked for again (it cannot come at run time)
	 */
	bool no_psi;
};

/* 0 or -errno (root not a readable directory). */
int ft_procfs_open(struct ft_procfs *p, const char *root);
void ft_procfs_close(struct ft_procfs *p);

/*
 * Read the sources whose bit is set in @mask (1 << FT_SRC_*) and describe
 * them in @raw; the others are marked not fresh.  Buffers stay owned by @p
 * and valid until the next call.  A source that cannot be read is reported
 * once through ft_diag() (again only if its error changes).
 */
void ft_procfs_collect(struct ft_procfs *p, unsigned int mask, struct ft_raw *raw);

#endif
