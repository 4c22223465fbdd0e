// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/host.h"

#include <libproc2/meminfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/file.h"
#include "model/sysfile.h"

static void read_line(int rootfd, const char *rel, char *dst, size_t sz,
		      const char *fallback)
{
	char buf[128];
	long n = ft_file_slurp(rootfd, rel, buf, sizeof(buf));

	if (n > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(dst, sz, "%s", buf);
	} else {
		snprintf(dst, sz, "%s", fallback);
	}
}

void ft_host_open(struct ft_host *h, int rootfd, bool live)
{
	struct utsname u;
	char buf[64];
	int64_t pmd;
	long n;

	memset(h, 0, sizeof(*h));
	h->live = live;
	h->page_size = sysconf(_SC_PAGESIZE);
	if (live && !uname(&u)) {
		snprintf(h->hostname, sizeof(h->hostname), "%s", u.nodename);
		snprintf(h->release, sizeof(h->release), "%s", u.release);
	} else {
		read_line(rootfd, "proc/sys/kernel/hostname", h->hostname,
			  sizeof(h->hostname), "?");
		read_line(rootfd, "proc/sys/kernel/osrelease", h->release,
			  sizeof(h->release), "?");
	}
	h->pmd_order = -1;
	n = ft_file_slurp(rootfd, "sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
			  buf, sizeof(buf));
	if (n > 0 && !ft_sysfile_parse_int(buf, (size_t)n, &pmd) && pmd > 0 &&
	    h->page_size > 0) {
		int order = 0;

		while ((h->page_size << order) < pmd && order < 30)
			order++;
		h->pmd_order = order;
	}
	if (live && procps_meminfo_new(&h->meminfo) < 0)
		h->meminfo = NULL;
	ft_host_refresh(h);
}

void ft_host_refresh(struct ft_host *h)
{
	if (!h->meminfo)
		return;
	h->mem_total_kb = MEMINFO_GET(h->meminfo, MEMINFO_MEM_TOTAL, ul_int);
	h->mem_avail_kb = MEMINFO_GET(h->meminfo, MEMINFO_MEM_AVAILABLE, ul_int);
}

void ft_host_close(struct ft_host *h)
{
	if (h->meminfo)
		procps_meminfo_unref(&h->meminfo);
	h->meminfo = NULL;
}
