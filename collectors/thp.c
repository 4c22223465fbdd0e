// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/thp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"

#define THP_DIR "sys/kernel/mm/transparent_hugepage"

/* "<kb> <name> <first line of rel>\n" at @n of @buf; the new length (unchanged when rel is absent). */
static size_t add(int rootfd, char *buf, size_t sz, size_t n, unsigned int kb, const char *name,
		  const char *rel)
{
	char v[256];
	long r = ft_file_slurp(rootfd, rel, v, sizeof(v));
	char *nl;
	int w;

	if (r <= 0)
		return n;
	v[r < (long)sizeof(v) ? r : (long)sizeof(v) - 1] = '\0';
	nl = strchr(v, '\n');
	if (nl)
		*nl = '\0';
	w = snprintf(buf + n, sz - n, "%u %s %s\n", kb, name, v);
	return w > 0 && (size_t)w < sz - n ? n + (size_t)w : n;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Every counter of one size's stats/ directory, by name (readdir's order is the filesystem's). */
static size_t add_stats(int rootfd, char *buf, size_t sz, size_t n, unsigned int kb, const char *dir)
{
	static char names[64][48];
	char rel[512], name[96];
	struct dirent *e;
	size_t nr = 0, i;
	DIR *d;

	snprintf(rel, sizeof(rel), "%.200s/stats", dir);
	d = ft_opendir_under(rootfd, rel);
	if (!d)
		return n;
	while ((e = readdir(d)) && nr < sizeof(names) / sizeof(names[0]))
		if (e->d_name[0] != '.' && strlen(e->d_name) < sizeof(names[0]))
			snprintf(names[nr++], sizeof(names[0]), "%s", e->d_name);
	closedir(d);
	qsort(names, nr, sizeof(names[0]), by_name);
	for (i = 0; i < nr; i++) {
		snprintf(name, sizeof(name), "stats/%.40s", names[i]);
		snprintf(rel, sizeof(rel), "%.200s/stats/%.40s", dir, names[i]);
		n = add(rootfd, buf, sz, n, kb, name, rel);
	}
	return n;
}

long ft_thp_read(int rootfd, char *buf, size_t sz)
{
	struct dirent *e;
	size_t n = 0;
	int sizes = 0;
	DIR *d;

	if (!sz)
		return -EINVAL;
	buf[0] = '\0';
	d = ft_opendir_under(rootfd, THP_DIR);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char dir[128], rel[192];
		unsigned int kb;
		char tail;

		if (sscanf(e->d_name, "hugepages-%ukB%c", &kb, &tail) != 1 || !kb)
			continue;
		if (strlen(e->d_name) > 48)
			continue;
		snprintf(dir, sizeof(dir), THP_DIR "/%.48s", e->d_name);
		snprintf(rel, sizeof(rel), "%s/enabled", dir);
		n = add(rootfd, buf, sz, n, kb, "enabled", rel);
		snprintf(rel, sizeof(rel), "%s/shmem_enabled", dir);
		n = add(rootfd, buf, sz, n, kb, "shmem_enabled", rel);
		n = add_stats(rootfd, buf, sz, n, kb, dir);
		sizes++;
	}
	closedir(d);
	return sizes ? (long)n : -ENOENT;
}
