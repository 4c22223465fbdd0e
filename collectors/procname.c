// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/procname.h"

#include <libproc2/pids.h>
#include <stdio.h>
#include <string.h>

static enum pids_item items[] = { PIDS_CMD };

int ft_procname_init(struct ft_procname *pn)
{
	memset(pn, 0, sizeof(*pn));
	return procps_pids_new(&pn->info, items, 1) < 0 ? -1 : 0;
}

void ft_procname_release(struct ft_procname *pn)
{
	if (pn->info)
		procps_pids_unref(&pn->info);
	pn->info = NULL;
}

const char *ft_procname_get(struct ft_procname *pn, int pid)
{
	unsigned int h = (unsigned int)pid % FT_PROCNAME_CACHE;
	struct pids_fetch *f;
	unsigned int these = (unsigned int)pid;

	if (pid == 0)
		return "swapper";
	if (pn->cache[h].pid == pid && pn->cache[h].comm[0])
		return pn->cache[h].comm;
	if (!pn->info)
		return "?";
	f = procps_pids_select(pn->info, &these, 1, PIDS_SELECT_PID);
	if (!f || !f->counts || f->counts->total < 1)
		return pn->cache[h].pid == pid ? pn->cache[h].comm : "?";
	pn->cache[h].pid = pid;
	snprintf(pn->cache[h].comm, sizeof(pn->cache[h].comm), "%s",
		 PIDS_VAL(0, str, f->stacks[0], pn->info));
	return pn->cache[h].comm;
}

void ft_procname_forget(struct ft_procname *pn, int pid)
{
	unsigned int h = (unsigned int)pid % FT_PROCNAME_CACHE;

	if (pn->cache[h].pid == pid)
		pn->cache[h].pid = 0;
}
