/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compaction asked for by `fragtop preflight --compact`: the nodes'
 * compact_node triggers through struct ft_ctl (validated, written, an
 * audit entry each, in the system log for the real root), at most once a
 * minute whoever asks.  The last time is kept under the root in
 * run/fragtop/compact.stamp (tmpfs on a host: a reboot forgets it), read
 * and written under an exclusive lock, so two preflights started at once
 * compact once.
 */
#ifndef FT_CONTROLS_COMPACT_H
#define FT_CONTROLS_COMPACT_H

#include <stddef.h>
#include <stdint.h>

#include "controls/control.h"

#define FT_COMPACT_EVERY_S	60

/*
 * Compact each of @nodes (@n of them) now.  0 when every write was made
 * (each one's outcome is an audit entry of @c), -EAGAIN when the last
 * compaction was less than FT_COMPACT_EVERY_S ago (*@ago_s says how long;
 * nothing written), -EPERM for a read-only @c, or another -errno when the
 * stamp cannot be kept (nothing written).  @now_s: CLOCK_BOOTTIME seconds.
 */
int ft_compact_nodes(struct ft_ctl *c, const int *nodes, size_t n, uint64_t now_s, uint64_t *ago_s);

#endif
