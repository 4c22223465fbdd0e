// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/kpageflags.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/file.h"

#define MAX_WORDS	(1u << 20)	/* 8 MiB per batch at most */

int ft_kpf_open(struct ft_kpf *k, int rootfd)
{
	*k = (struct ft_kpf){ .flags_fd = -1, .count_fd = -1 };
	k->flags_fd = ft_open_under(rootfd, "proc/kpageflags", O_RDONLY);
	if (k->flags_fd < 0) {
		k->err = k->flags_fd;
		k->flags_fd = -1;
		return k->err;
	}
	/* optional: without it a flagless page counts as unmovable */
	k->count_fd = ft_open_under(rootfd, "proc/kpagecount", O_RDONLY);
	if (k->count_fd < 0)
		k->count_fd = -1;
	return 0;
}

void ft_kpf_close(struct ft_kpf *k)
{
	if (k->flags_fd >= 0)
		close(k->flags_fd);
	if (k->count_fd >= 0)
		close(k->count_fd);
	free(k->flags);
	free(k->counts);
	*k = (struct ft_kpf){ .flags_fd = -1, .count_fd = -1 };
}

/* @n words from PFN @pfn; past the end of the file they read as NOPAGE. */
static int read_words(int fd, uint64_t pfn, uint64_t *out, size_t n)
{
	size_t got = 0;

	if (pfn > (UINT64_MAX >> 4) || n > MAX_WORDS)
		return -EOVERFLOW;
	while (got < n) {
		ssize_t r = pread(fd, (char *)(out + got), (n - got) * 8, (off_t)((pfn + got) * 8));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		if (r % 8)
			return -EIO;
		got += (size_t)r / 8;
	}
	for (; got < n; got++)
		out[got] = 1ull << FT_KPF_NOPAGE;
	return 0;
}

static int grow(struct ft_kpf *k, size_t words)
{
	uint64_t *f, *c;

	if (words <= k->cap)
		return 0;
	f = realloc(k->flags, words * 8);
	if (!f)
		return -ENOMEM;
	k->flags = f;
	c = realloc(k->counts, words * 8);
	if (!c)
		return -ENOMEM;
	k->counts = c;
	k->cap = words;
	return 0;
}

/* @nb blocks of zone @zi from @block on, into the map (or the emit hook).  PFNs read or -errno. */
static long scan_at(struct ft_kpf *k, const struct ft_pbmap *m, size_t zi, uint32_t block, uint32_t nb)
{
	const struct ft_pbmap_zone *z = &m->zones[zi];
	uint64_t pfn0, i;
	size_t words;
	int err;

	if (!k->emit)
		return -EINVAL;
	words = (size_t)nb << m->order;
	err = grow(k, words);
	if (err)
		return err;
	pfn0 = (z->first_block + block) << m->order;
	err = read_words(k->flags_fd, pfn0, k->flags, words);
	if (err)
		return err;
	/*
	 * kpagecount only where a page of this zone's RAM has no flag at all
	 * (a page on a per-CPU free list, or a kernel page): a few hundred
	 * short runs per host, not the whole range.
	 */
	for (i = 0; i < words; i++)
		k->counts[i] = UINT64_MAX;
	for (i = 0; i < words && k->count_fd >= 0; i++) {
		uint64_t j;

		if (k->flags[i] || pfn0 + i < z->start_pfn || pfn0 + i >= z->end_pfn ||
		    !ft_ram_has(&m->ram, pfn0 + i))
			continue;
		for (j = i + 1; j < words && !k->flags[j]; j++)
			;
		if (read_words(k->count_fd, pfn0 + i, k->counts + i, j - i))
			break;
		k->count_reads++;
		i = j;
	}
	/* the live source turns the batch into a session input, which feeds the session's map */
	k->emit(k->emit_ctx, zi, pfn0, words, k->flags, k->counts);
	k->pfns += words;
	return (long)words;
}

/* One batch at the cursor; advances it.  PFNs read or -errno. */
static long scan_batch(struct ft_kpf *k, const struct ft_pbmap *m)
{
	const struct ft_pbmap_zone *z;
	uint32_t nb, per_batch;
	long n;

	if (k->zone >= m->nr) {
		k->zone = 0;
		k->block = 0;
	}
	z = &m->zones[k->zone];
	if (k->block >= z->nr_blocks)
		k->block = 0;
	per_batch = MAX_WORDS >> m->order;
	if (per_batch > FT_KPF_BATCH_BLOCKS)
		per_batch = FT_KPF_BATCH_BLOCKS;
	if (!per_batch)
		per_batch = 1;
	nb = z->nr_blocks - k->block < per_batch ? z->nr_blocks - k->block : per_batch;
	n = scan_at(k, m, k->zone, k->block, nb);
	if (n < 0)
		return n;
	k->block += nb;
	if (k->block >= z->nr_blocks) {
		k->block = 0;
		k->zone = (k->zone + 1) % m->nr;
	}
	return n;
}

long ft_kpf_scan_block(struct ft_kpf *k, const struct ft_pbmap *m, size_t zone, uint32_t block)
{
	if (k->flags_fd < 0)
		return k->err ? k->err : -EBADF;
	if (zone >= m->nr || m->order < 0 || block >= m->zones[zone].nr_blocks)
		return -EINVAL;
	long n;

	k->rescan = true;
	n = scan_at(k, m, zone, block, 1);
	k->rescan = false;
	return n;
}

long ft_kpf_scan(struct ft_kpf *k, const struct ft_pbmap *m, uint64_t budget)
{
	uint64_t done = 0;

	if (k->flags_fd < 0)
		return k->err ? k->err : -EBADF;
	if (!m->nr || m->order < 0)
		return 0;
	while (done < budget) {
		long n = scan_batch(k, m);

		if (n < 0)
			return n;
		done += (uint64_t)n;
	}
	return (long)done;
}

int ft_kpf_scan_all(struct ft_kpf *k, const struct ft_pbmap *m)
{
	size_t z;

	if (k->flags_fd < 0)
		return k->err ? k->err : -EBADF;
	k->zone = 0;
	k->block = 0;
	for (z = 0; z < m->nr; z++) {
		uint64_t scans = m->zones[z].scans;

		while (m->zones[z].scans == scans) {
			long n = scan_batch(k, m);

			if (n < 0)
				return (int)n;
		}
	}
	return 0;
}
