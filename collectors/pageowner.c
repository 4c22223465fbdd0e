// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/pageowner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base/cost.h"
#include "base/file.h"
#include "base/grow.h"
#include "kernel/pageowner.h"

#define DEBUGFS_MAGIC	0x64626720
/* one allocation's text, at most (-ENOMEM: a bigger buffer) */
#define ENTRY_MAX	(1u << 20)

static int cmp_idx(const void *a, const void *b)
{
	const struct ft_pown_idx *x = a, *y = b;

	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

/* A captured file: read it whole and index its entries by PFN. */
static int load_whole(struct ft_pown *p)
{
	struct ft_po_entry *e = malloc(sizeof(*e));
	size_t cap = 0, off = 0, at, idx_cap = 0;
	int r, err = 0;

	if (!e)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (p->len + 65536 > cap) {
			err = ft_grow_from((void **)&p->text, &cap, p->len + 65536, 1, 262144,
					   FT_FILE_MAX);
			if (err) {
				err = err == -E2BIG ? -EFBIG : err;
				break;
			}
		}
		n = read(p->fd, p->text + p->len, cap - p->len);
		ft_cost_read(FT_COST_PAGE_OWNER, n > 0 ? (size_t)n : 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (!n)
			break;
		p->len += (size_t)n;
	}
	while (!err && (at = off, r = ft_po_next(p->text, p->len, &off, e)) != 0) {
		if (r < 0)
			continue;
		err = ft_grow_from((void **)&p->idx, &idx_cap, p->nr_idx + 1, sizeof(*p->idx), 64,
				   SIZE_MAX / 32);
		if (err)
			break;
		p->idx[p->nr_idx++] = (struct ft_pown_idx){ .pfn = e->pfn, .off = at };
	}
	free(e);
	if (!err && p->nr_idx)
		qsort(p->idx, p->nr_idx, sizeof(*p->idx), cmp_idx);
	return err;
}

int ft_pown_open(struct ft_pown *p, int rootfd)
{
	struct statfs sf;

	*p = (struct ft_pown){ .fd = -1 };
	p->fd = ft_open_under(rootfd, FT_POWN_PATH, O_RDONLY);
	if (p->fd < 0) {
		p->err = p->fd;
		p->fd = -1;
		return p->err;
	}
	if (fstatfs(p->fd, &sf) == 0 && sf.f_type == DEBUGFS_MAGIC)
		return 0;
	p->whole = true;
	p->err = load_whole(p);
	if (p->err) {
		int err = p->err;

		ft_pown_close(p);
		p->err = err;
	}
	return p->err;
}

void ft_pown_close(struct ft_pown *p)
{
	if (p->fd >= 0)
		close(p->fd);
	free(p->text);
	free(p->idx);
	free(p->buf);
	*p = (struct ft_pown){ .fd = -1 };
}

/* Append an entry's text to @out if there is room (else it is cut). */
static int keep(struct ft_pown_look *out, const char *t, size_t n)
{
	if (out->len + n > FT_POWN_TEXT_MAX) {
		out->cut++;
		return 0;
	}
	if (ft_grow_from((void **)&out->text, &out->cap, out->len + n, 1, 4096, FT_POWN_TEXT_MAX))
		return -ENOMEM;
	memcpy(out->text + out->len, t, n);
	out->len += n;
	return 0;
}

/* One allocation's text at or after PFN @pfn: its length, 0 past the last, or -errno. */
static long read_one(struct ft_pown *p, uint64_t pfn)
{
	size_t want = p->cap ? p->cap : 65536;

	for (;;) {
		ssize_t n;

		if (ft_grow_from((void **)&p->buf, &p->cap, want, 1, 65536, ENTRY_MAX))
			return -ENOMEM;
		n = pread(p->fd, p->buf, p->cap, (off_t)pfn);
		ft_cost_read(FT_COST_PAGE_OWNER, n > 0 ? (size_t)n : 0);
		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if (errno != ENOMEM || p->cap >= ENTRY_MAX)
			return -errno;
		want = p->cap * 2;	/* the entry did not fit */
	}
}

/* Account one parsed allocation of the block. */
static int take(struct ft_pown_look *out, const struct ft_po_entry *e, const char *t, size_t n)
{
	out->entries++;
	if (ft_po_pins(e))
		return keep(out, t, n);
	out->other_pages += e->order < 40 ? 1ull << e->order : 0;
	return 0;
}

int ft_pown_block(struct ft_pown *p, uint64_t pfn, uint32_t pages, struct ft_pown_look *out)
{
	struct ft_po_entry e;
	uint64_t end = pfn + pages, at = pfn;
	uint32_t n;
	int err;

	out->len = 0;
	out->entries = 0;
	out->other_pages = 0;
	out->cut = 0;
	out->bad = 0;
	if (p->fd < 0 && !p->whole)
		return p->err ? p->err : -EBADF;
	if (pfn > (uint64_t)INT64_MAX - pages)
		return -EOVERFLOW;
	if (p->whole) {
		size_t lo = 0, hi = p->nr_idx;

		while (lo < hi) {	/* the first entry at or past @pfn */
			size_t mid = lo + (hi - lo) / 2;

			if (p->idx[mid].pfn < pfn)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < p->nr_idx && p->idx[lo].pfn < end; lo++) {
			size_t off = p->idx[lo].off, from = off;

			if (ft_po_next(p->text, p->len, &off, &e) != 1)
				continue;
			err = take(out, &e, p->text + from, off - from);
			if (err)
				return err;
		}
		return 0;
	}
	/* at most one read per page of the block: the kernel moves on at least a page a read */
	for (n = 0; n < pages && at < end; n++) {
		long len = read_one(p, at);
		size_t off = 0;

		if (len < 0)
			return (int)len;
		if (!len)
			break;	/* past the last PFN */
		p->reads++;
		if (ft_po_next(p->buf, (size_t)len, &off, &e) != 1) {
			out->bad++;
			break;	/* no PFN to go on from */
		}
		if (e.pfn < at || e.pfn >= end)
			break;	/* the next allocation is past the block */
		err = take(out, &e, p->buf, (size_t)len);
		if (err)
			return err;
		at = e.pfn + (e.order < 20 ? 1ull << e.order : 1);
	}
	return 0;
}

const char *ft_pown_strerror(int err)
{
	switch (err) {
	case -ENOENT:
		return "no " "/" FT_POWN_PATH ": a kernel with CONFIG_PAGE_OWNER, booted with "
		       "page_owner=on, and debugfs mounted (mount -t debugfs none "
		       "/sys/kernel/debug)";
	case -EACCES:
	case -EPERM:
		return "/" FT_POWN_PATH " needs root";
	default:
		return ft_file_strerror(err);
	}
}

long ft_pown_stacks(int rootfd, char *buf, size_t sz, bool *cut)
{
	long n = ft_file_slurp(rootfd, FT_POWN_STACKS_PATH, buf, sz);

	*cut = n >= 0 && (size_t)n == sz - 1;
	return n;
}
