// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-process huge-page coverage: /proc/PID/smaps_rollup of the
 * processes a view shows (ft_live_smaps_want()), each at most every
 * smaps.every_ns, into SMAPS inputs (u32 pid, the text).  The kernel
 * walks the process's page tables under its mmap lock to print the file,
 * so nothing else reads it: not the idle overview, not the exporter.
 * Counted as the cost account's "smaps".
 */
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "collectors/live_int.h"
#include "model/recfmt.h"

void ft_live_smaps_want(struct ft_live *l, const int *pids, int n)
{
	int i;

	l->smaps.nr = 0;
	for (i = 0; i < n && l->smaps.nr < FT_LIVE_SMAPS_MAX; i++)
		if (pids[i] > 0)
			l->smaps.pid[l->smaps.nr++] = pids[i];
}

void ft_live_smaps_read(struct ft_live *l, uint64_t t_ns)
{
	uint8_t rec[4 + FT_REC_SMAPS_TEXT];
	char rel[48];
	int i;

	if (!l->smaps.every_ns)
		return;
	for (i = 0; i < l->smaps.nr; i++) {
		int pid = l->smaps.pid[i];
		struct ft_live_smaps_seen *last = &l->smaps.last[(unsigned int)pid % 256];
		uint32_t p32 = (uint32_t)pid;
		long n;

		if (last->pid == pid && t_ns - last->t_ns < l->smaps.every_ns)
			continue;
		last->pid = pid;
		last->t_ns = t_ns;
		snprintf(rel, sizeof(rel), "proc/%d/smaps_rollup", pid);
		n = ft_file_slurp(l->procfs.rootfd, rel, (char *)rec + 4, FT_REC_SMAPS_TEXT);
		if (n <= 0)
			/* gone, a kernel thread (empty), or not ours to read: nothing to show */
			continue;
		memcpy(rec, &p32, 4);
		ft_live_emit(l, FT_RR_SMAPS, 0, t_ns, rec, 4 + (size_t)n);
	}
	l->smaps.nr = 0;	/* asked again by the next draw */
}

void ft_live_smaps_init(struct ft_live *l)
{
	l->smaps.every_ns = FT_LIVE_SMAPS_EVERY;
}
