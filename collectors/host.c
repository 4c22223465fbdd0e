// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/host.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/file.h"
#include "kernel/sysfile.h"
#include "model/fit.h"

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

/*
 * The sizes of @dir's hugepages-<kB>kB entries into @kb, ascending; of a
 * tree that lists more than @max, the largest (the gigantic hugetlb size
 * is what they are for).
 */
static void sizes(int rootfd, const char *dir, uint64_t *kb_out, unsigned int *nr, unsigned int max)
{
	DIR *d = ft_opendir_under(rootfd, dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		unsigned long long kb;
		unsigned int i;
		char tail;

		if (sscanf(e->d_name, "hugepages-%llukB%c", &kb, &tail) != 1 || !kb ||
		    kb >= 1ull << 40)
			continue;
		if (*nr == max) {
			if (kb <= kb_out[0])
				continue;
			memmove(kb_out, kb_out + 1, (max - 1) * sizeof(kb_out[0]));
			(*nr)--;
		}
		for (i = *nr; i > 0 && kb_out[i - 1] > kb; i--)
			kb_out[i] = kb_out[i - 1];
		kb_out[i] = kb;
		(*nr)++;
	}
	closedir(d);
}

void ft_host_open(struct ft_host *h, int rootfd, bool live)
{
	struct utsname u;
	char buf[64];
	int64_t pmd;
	long n;

	memset(h, 0, sizeof(*h));
	h->live = live;
	h->rootfd = rootfd;
	ft_file_init(&h->meminfo, "proc/meminfo");
	h->meminfo.single = true;	/* a single_open() seq_file: all of it in one read */
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
	sizes(rootfd, "sys/kernel/mm/hugepages", h->huge_kb, &h->nr_huge, FT_HOST_HUGE_MAX);
	sizes(rootfd, "sys/kernel/mm/transparent_hugepage", h->mthp_kb, &h->nr_mthp,
	      FT_HOST_MTHP_MAX);
	ft_host_refresh(h);
}

void ft_host_refresh(struct ft_host *h)
{
	uint64_t total, avail;

	/* a captured tree's meminfo is not this host's memory: live only, as before */
	if (!h->live || h->meminfo.err == -ENOENT || ft_file_read(&h->meminfo, h->rootfd))
		return;
	if (ft_sysfile_meminfo(h->meminfo.buf, h->meminfo.len, "MemTotal", &total) ||
	    ft_sysfile_meminfo(h->meminfo.buf, h->meminfo.len, "MemAvailable", &avail))
		return;
	h->mem_total_kb = total;
	h->mem_avail_kb = avail;
}

void ft_host_close(struct ft_host *h)
{
	ft_file_close(&h->meminfo);
}

void ft_host_cpu(int rootfd, struct ft_fit_cpu *c)
{
	char buf[16384];	/* the first processor's lines, its flags with them */
	long n = ft_file_slurp(rootfd, "proc/cpuinfo", buf, sizeof(buf));

	ft_fit_cpuinfo(buf, n > 0 ? (size_t)n : 0, c);
}
