/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Multi-size THP's settings and counters, read under a root (model/thp.h has the text). */
#ifndef FT_COLLECTORS_THP_H
#define FT_COLLECTORS_THP_H

#include <stddef.h>

/*
 * Every hugepages-<size>kB directory of sys/kernel/mm/transparent_hugepage
 * under @rootfd into @buf as "<kB> <name> <value>" lines: enabled,
 * shmem_enabled and each file its stats/ directory lists.  The length,
 * or -errno (-ENOENT: no multi-size THP on this kernel).
 */
long ft_thp_read(int rootfd, char *buf, size_t sz);

#endif
