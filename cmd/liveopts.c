// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/liveopts.h"

#include <stdio.h>
#include <string.h>

#include "controls/journal.h"

int ft_liveopts_open(struct ft_live *l, const struct ft_liveopts *o)
{
	const char *root = o->root ? o->root : "/";
	int err;

	/*
	 * the change journal made before the source opens it: another fragtop's first change is
	 * read
	 */
	ft_ctl_journal_make(root);
	err = ft_live_open(l, root, o->pti_interval);

	if (err) {
		fprintf(stderr, "fragtop: cannot open root %s: %s\n", root, strerror(-err));
		return 1;
	}
	l->map.rate = o->map_rate;
	if (o->map_force)
		ft_live_map_force(l);
	if (o->map_cpu_given)
		l->map.cpu = o->map_cpu / 100;
	if (o->boost_given)
		ft_live_boost_set(l, (unsigned int)o->boost_hz);
	if (o->smaps_given)
		l->smaps.every_ns = (uint64_t)(o->smaps_interval * 1e9);
	if (o->cgroups)
		ft_live_want(l, l->wants | FT_LIVE_WANT_CGROUPS);
	return 0;
}

void ft_liveopts_trace(struct ft_live *l, const struct ft_liveopts *o)
{
	if (o->no_trace) {
		if (o->stacks)
			fprintf(stderr, "fragtop: --stacks needs the tracepoints: ignored with "
					"--no-trace\n");
		return;
	}
	ft_live_trace_start(l, (size_t)o->trace_kb);
	if (o->stacks)
		ft_live_stacks_start(l, (unsigned int)o->stacks_per_sec);
}
