/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory cgroups as the node tells them, read into one CGROUPS input
 * (kernel/cgroup.h): the hierarchy the memory controller is on (v2's
 * sys/fs/cgroup, else v1's sys/fs/cgroup/memory, also on a hybrid host),
 * each cgroup with processes or memory (memory.stat, memory.pressure on
 * v2, cgroup.procs counted), the host's /proc/pressure/memory, and the
 * pods under var/log/pods.  Every file is opened as any file of a root
 * (base/file.h: no link followed, no FIFO), and counted as the cost
 * account's "cgroups".  Bounded: FT_CGSRC_DEPTH levels, FT_CGSRC_DIRS
 * cgroups listed and FT_CGSRC_EMPTY empty ones looked at (budgets of
 * their own: empty directories cannot spend the listed ones'), and
 * FT_CGSRC_TEXT bytes; an empty cgroup's subtree is not walked (its
 * memory.stat counts it).  The directories a bound left unread are
 * counted in a "left N" line.
 */
#ifndef FT_COLLECTORS_CGROUPS_H
#define FT_COLLECTORS_CGROUPS_H

#include <stddef.h>

#define FT_CGSRC_DEPTH	16
#define FT_CGSRC_DIRS	4096
#define FT_CGSRC_EMPTY	65536
#define FT_CGSRC_TEXT	(1u << 20)

/*
 * The CGROUPS input's text under @rootfd, malloc'd into *@text. Its length, or -errno (-ENOMEM).
 */
long ft_cgsrc_read(int rootfd, char **text);

#endif
