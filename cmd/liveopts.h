/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options of the four commands that start a live source (the TUI,
 * snapshot, record, exporter), bound to one struct, and the one function
 * that opens the source from them.
 */
#ifndef FT_CMD_LIVEOPTS_H
#define FT_CMD_LIVEOPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd/cli.h"
#include "collectors/live.h"

struct ft_liveopts {
	const char *root;		/* --root (default /) */
	double pti_interval;		/* --pagetypeinfo-interval; 0 without the row: every tick */
	bool no_trace;			/* --no-trace */
	uint64_t trace_kb;		/* --trace-buffer-kb */
	uint64_t boost_hz;		/* --boost-hz, used only when given */
	bool boost_given;
	double map_cpu;			/* --map-cpu, % of a core, used only when given */
	bool map_cpu_given;
	uint64_t map_rate;		/* --map-rate, PFNs a second; 0: no cap */
	bool map_force;			/* --map-force: scan even a risky DEBUG_VM kernel */
	bool stacks;			/* --stacks */
	uint64_t stacks_per_sec;	/* --stacks-per-sec */
	bool cgroups;			/* record --cgroups: the memory cgroups every tick */
	double smaps_interval;		/* --smaps-interval (0: off), used only when given */
	bool smaps_given;
};

/*
 * Open @l under o->root with the pagetypeinfo cadence, the boost sampler
 * and the map's budget the options give.  0, or 1 after saying why on
 * stderr.
 */
int ft_liveopts_open(struct ft_live *l, const struct ft_liveopts *o);
/*
 * Start tracing unless --no-trace, and the kernel stacks with --stacks (a
 * failure is the source's to say, through ft_diag).
 */
void ft_liveopts_trace(struct ft_live *l, const struct ft_liveopts *o);

#endif
