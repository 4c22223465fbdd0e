// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/procfs.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/file.h"

static const char *const src_paths[FT_SRC_NR] = {
	[FT_SRC_ZONEINFO]	= "proc/zoneinfo",
	[FT_SRC_BUDDYINFO]	= "proc/buddyinfo",
	[FT_SRC_PAGETYPEINFO]	= "proc/pagetypeinfo",
	[FT_SRC_VMSTAT]		= "proc/vmstat",
	[FT_SRC_PRESSURE]	= "proc/pressure/memory",
};

int ft_procfs_open(struct ft_procfs *p, const char *root)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->rootfd = ft_root_open(root);
	if (p->rootfd < 0)
		return p->rootfd;
	for (i = 0; i < FT_SRC_NR; i++)
		ft_file_init(&p->src[i], src_paths[i]);
	p->src[FT_SRC_PRESSURE].single = true;	/* a single_open() seq_file: one read has it all */
	return 0;
}

void ft_procfs_close(struct ft_procfs *p)
{
	int i;

	for (i = 0; i < FT_SRC_NR; i++)
		ft_file_close(&p->src[i]);
	if (p->rootfd >= 0)
		close(p->rootfd);
	p->rootfd = -1;
}

static void report(struct ft_procfs *p, int i, int err)
{
	if (err == p->reported_err[i])
		return;
	p->reported_err[i] = err;
	if (!err) {
		ft_diag(FT_DIAG_INFO, "/%s readable again", src_paths[i]);
		return;
	}
	if (i == FT_SRC_PRESSURE && (err == -ENOENT || err == -EOPNOTSUPP))
		/* a kernel without PSI (or booted psi=0): nothing to show, not a fault */
		return;
	if (i == FT_SRC_PAGETYPEINFO && (err == -EACCES || err == -EPERM))
		ft_diag(FT_DIAG_WARN, "/%s needs root: no pageblock or migratetype data",
			src_paths[i]);
	else
		ft_diag(FT_DIAG_WARN, "cannot read /%s: %s", src_paths[i], ft_file_strerror(err));
}

void ft_procfs_collect(struct ft_procfs *p, unsigned int mask, struct ft_raw *raw)
{
	int i;

	raw->t_ns = ft_now_ns();
	for (i = 0; i < FT_SRC_NR; i++) {
		struct ft_raw_source *r = &raw->src[i];

		memset(r, 0, sizeof(*r));
		if (!(mask & (1u << i)) || (i == FT_SRC_PRESSURE && p->no_psi))
			continue;
		r->fresh = true;
		r->err = ft_file_read(&p->src[i], p->rootfd);
		if (i == FT_SRC_PRESSURE && (r->err == -ENOENT || r->err == -EOPNOTSUPP))
			p->no_psi = true;
		r->buf = p->src[i].buf;
		r->len = p->src[i].len;
		report(p, i, r->err);
	}
}
