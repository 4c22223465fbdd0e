// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/live.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int ft_live_open(struct ft_live *l, const char *root, double pti_interval_s)
{
	int err;

	memset(l, 0, sizeof(*l));
	snprintf(l->root, sizeof(l->root), "%s", root);
	err = ft_procfs_open(&l->procfs, root);
	if (err)
		return err;
	ft_host_open(&l->host, l->procfs.rootfd, !strcmp(root, "/"));
	ft_sample_init(&l->sample);
	l->sample.pageblock_order_fallback = l->host.pmd_order;
	l->pti_interval_ns = pti_interval_s > 0 ? (uint64_t)(pti_interval_s * 1e9) : 0;
	return 0;
}

void ft_live_close(struct ft_live *l)
{
	ft_sample_release(&l->sample);
	ft_host_close(&l->host);
	ft_procfs_close(&l->procfs);
}

static void read_knobs(struct ft_live *l)
{
	size_t i;

	for (i = 0; i < ft_knobs_nr && i < FT_LIVE_MAX_KNOBS; i++)
		if (ft_knobs[i].type != FT_KNOB_TRIGGER && !ft_knobs[i].per_node)
			ft_knob_read(l->procfs.rootfd, &ft_knobs[i], &l->knobs[i]);
		else
			l->knobs[i].err = -EOPNOTSUPP;
}

int ft_live_tick(struct ft_live *l, bool force_pti)
{
	unsigned int mask = (1u << FT_SRC_ZONEINFO) | (1u << FT_SRC_BUDDYINFO) |
			    (1u << FT_SRC_VMSTAT);
	uint64_t now = ft_now_ns();
	struct ft_raw raw;
	int err;

	if (force_pti || !l->pti_last_ns || now - l->pti_last_ns >= l->pti_interval_ns) {
		mask |= 1u << FT_SRC_PAGETYPEINFO;
		l->pti_last_ns = now;
	}
	ft_procfs_collect(&l->procfs, mask, &raw);
	err = ft_sample_update(&l->sample, &raw);
	read_knobs(l);
	ft_host_refresh(&l->host);
	l->ticks++;
	return err;
}

double ft_live_pti_age(const struct ft_live *l, uint64_t now_ns)
{
	if (!ft_sample_has(&l->sample, FT_SRC_PAGETYPEINFO))
		return -1;
	return (double)(now_ns - l->sample.src_t_ns[FT_SRC_PAGETYPEINFO]) / 1e9;
}
