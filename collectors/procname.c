// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/procname.h"

#include <stdio.h>
#include <string.h>

#include "base/file.h"

int ft_procname_init(struct ft_procname *pn, int rootfd)
{
	memset(pn, 0, sizeof(*pn));
	pn->rootfd = rootfd;
	return rootfd < 0 ? -1 : 0;
}

void ft_procname_release(struct ft_procname *pn)
{
	pn->rootfd = -1;
}

const char *ft_procname_get(struct ft_procname *pn, int pid)
{
	unsigned int h = (unsigned int)pid % FT_PROCNAME_CACHE;
	char rel[32], comm[sizeof(pn->cache[0].comm)];
	long n;

	if (pid == 0)
		return "swapper";
	if (pn->cache[h].pid == pid && pn->cache[h].comm[0])
		return pn->cache[h].comm;
	if (pn->rootfd < 0 || pid < 0)
		return "?";
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	n = ft_file_slurp(pn->rootfd, rel, comm, sizeof(comm));
	if (n <= 0)
		return pn->cache[h].pid == pid ? pn->cache[h].comm : "?";
	comm[strcspn(comm, "\n")] = '\0';
	if (!comm[0])
		return "?";
	pn->cache[h].pid = pid;
	snprintf(pn->cache[h].comm, sizeof(pn->cache[h].comm), "%s", comm);
	return pn->cache[h].comm;
}

void ft_procname_forget(struct ft_procname *pn, int pid)
{
	unsigned int h = (unsigned int)pid % FT_PROCNAME_CACHE;

	if (pn->cache[h].pid == pid)
		pn->cache[h].pid = 0;
}
