// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/thp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/grow.h"

#define THP_DIR "sys/kernel/mm/transparent_hugepage"
#define MAX_FILES 4096		/* 16 sizes of 64 counters is 1,056 */

static int by_kb_name(const void *a, const void *b)
{
	const struct ft_thpsrc_file *x = a, *y = b;

	if (x->kb != y->kb)
		return x->kb < y->kb ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* One file of size @kb: @name under the size's directory @dir. */
static int add(struct ft_thpsrc *t, size_t *cap, uint32_t kb, const char *dir, const char *name)
{
	struct ft_thpsrc_file *f;
	int err = ft_grow((void **)&t->files, cap, t->nr + 1, sizeof(*t->files), MAX_FILES);

	if (err)
		return err;
	f = &t->files[t->nr++];
	memset(f, 0, sizeof(*f));
	f->kb = kb;
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->rel, sizeof(f->rel), THP_DIR "/%s/%s", dir, name);
	return 0;
}

/* A size's counters, as its stats/ directory lists them (absent before 6.10). */
static int add_stats(struct ft_thpsrc *t, size_t *cap, int rootfd, uint32_t kb, const char *dir)
{
	char rel[160], name[56];
	struct dirent *e;
	int err = 0, n = 0;
	DIR *d;

	snprintf(rel, sizeof(rel), THP_DIR "/%s/stats", dir);
	d = ft_opendir_under(rootfd, rel);
	if (!d)
		return 0;
	while (!err && (e = readdir(d)))
		if (e->d_name[0] != '.' && strlen(e->d_name) < 40) {
			/* more than the model keeps: counted, not read */
			if (n++ == FT_THP_SRC_MAX_STATS) {
				t->stats_left_out++;
				n--;
				continue;
			}
			snprintf(name, sizeof(name), "stats/%s", e->d_name);
			err = add(t, cap, kb, dir, name);
		}
	closedir(d);
	return err;
}

static int by_kb(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The sizes the tree lists, smallest first, at most FT_THP_SRC_MAX_SIZES
 * of them (a captured tree may hold thousands: the rest are counted in
 * t->sizes_left_out, never opened).  Their number, or -errno.
 */
static int sizes_of(struct ft_thpsrc *t, int rootfd, uint32_t *kbs)
{
	uint32_t seen[4 * FT_THP_SRC_MAX_SIZES];
	size_t n = 0, all = 0;
	struct dirent *e;
	DIR *d = ft_opendir_under(rootfd, THP_DIR);

	if (!d)
		return errno ? -errno : -ENOENT;
	while ((e = readdir(d))) {
		unsigned int kb;
		char tail;

		if (sscanf(e->d_name, "hugepages-%ukB%c", &kb, &tail) != 1 || !kb ||
		    strlen(e->d_name) > 48)
			continue;
		all++;
		/* keep the smallest: drop the largest so far */
		if (n == sizeof(seen) / sizeof(seen[0])) {
			qsort(seen, n, sizeof(seen[0]), by_kb);
			n = FT_THP_SRC_MAX_SIZES;
		}
		seen[n++] = kb;
	}
	closedir(d);
	qsort(seen, n, sizeof(seen[0]), by_kb);
	if (n > FT_THP_SRC_MAX_SIZES)
		n = FT_THP_SRC_MAX_SIZES;
	memcpy(kbs, seen, n * sizeof(seen[0]));
	t->sizes_left_out = all - n;
	return (int)n;
}

/*
 * The tree's files, sorted by size and name (readdir's order is the
 * filesystem's).  A size without enabled (8 kB: shmem only) lists it all
 * the same: a file that is not there reads as absent.
 */
static int list(struct ft_thpsrc *t, int rootfd)
{
	uint32_t kbs[FT_THP_SRC_MAX_SIZES] = { 0 };
	char dir[48];
	size_t cap = 0;
	int sizes, i, err = 0;

	sizes = sizes_of(t, rootfd, kbs);
	if (sizes < 0)
		return sizes;
	for (i = 0; !err && i < sizes; i++) {
		snprintf(dir, sizeof(dir), "hugepages-%ukB", (unsigned int)kbs[i]);
		err = add(t, &cap, kbs[i], dir, "enabled");
		if (!err)
			err = add(t, &cap, kbs[i], dir, "shmem_enabled");
		if (!err)
			err = add_stats(t, &cap, rootfd, kbs[i], dir);
	}
	if (err)
		return err;
	if (!sizes)
		return -ENOENT;
	qsort(t->files, t->nr, sizeof(*t->files), by_kb_name);
	for (size_t k = 0; k < t->nr; k++) {
		ft_file_init(&t->files[k].f, t->files[k].rel);
		t->files[k].f.single = true;	/* sysfs attributes */
	}
	return 0;
}

long ft_thpsrc_read(struct ft_thpsrc *t, int rootfd, char *buf, size_t sz)
{
	size_t n = 0, i;
	int err;

	if (!sz)
		return -EINVAL;
	buf[0] = '\0';
	if (t->list_err)
		return t->list_err;
	if (!t->listed) {
		err = list(t, rootfd);
		if (err) {
			ft_thpsrc_release(t);
			t->list_err = err == -ENOENT ? err : 0;	/* other errors: tried again */
			return err;
		}
		t->listed = true;
	}
	for (i = 0; i < t->nr; i++) {
		struct ft_thpsrc_file *f = &t->files[i];
		char *nl;
		int w;

		/* a file that is not there (8 kB's enabled) fails its open once a read */
		if (f->f.err == -ENOENT || ft_file_read(&f->f, rootfd) || !f->f.len)
			continue;
		nl = memchr(f->f.buf, '\n', f->f.len);
		w = snprintf(buf + n, sz - n, "%u %s %.*s\n", f->kb, f->name,
			     (int)((nl ? (size_t)(nl - f->f.buf) : f->f.len) > 255 ? 255 :
				   (nl ? (size_t)(nl - f->f.buf) : f->f.len)), f->f.buf);
		if (w < 0 || (size_t)w >= sz - n) {	/* full: the rest is not read */
			buf[n] = '\0';
			break;
		}
		n += (size_t)w;
	}
	t->files_left_out = t->nr - i;
	if ((t->files_left_out || t->sizes_left_out || t->stats_left_out) && !t->said) {
		t->said = true;
		ft_diag(FT_DIAG_WARN,
			"THP tree: %zu of %zu files not read (%zu bytes hold the rest), %zu size "
			"directories past the %d smallest and %zu counters past %d a size left out",
			t->files_left_out, t->nr, sz, t->sizes_left_out, FT_THP_SRC_MAX_SIZES,
			t->stats_left_out,
			FT_THP_SRC_MAX_STATS);
	}
	return (long)n;
}

void ft_thpsrc_close(struct ft_thpsrc *t)
{
	for (size_t i = 0; i < t->nr; i++)
		ft_file_close(&t->files[i].f);
}

void ft_thpsrc_release(struct ft_thpsrc *t)
{
	if (t->listed)		/* a list that failed midway has files never set up: nothing open */
		ft_thpsrc_close(t);
	free(t->files);
	memset(t, 0, sizeof(*t));
}

long ft_thpsrc_read_once(int rootfd, char *buf, size_t sz)
{
	struct ft_thpsrc t = { 0 };
	long n = ft_thpsrc_read(&t, rootfd, buf, sz);

	ft_thpsrc_release(&t);
	return n;
}
