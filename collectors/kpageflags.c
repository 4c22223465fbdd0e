// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/kpageflags.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cost.h"
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
	free(k->coarse);
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

		ft_cost_read(FT_COST_KPAGEFLAGS, r > 0 ? (size_t)r : 0);

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

/* kpagecount for the flagless pages of zone RAM among @n words from @pfn (into @counts). */
static void read_counts(struct ft_kpf *k, const struct ft_pbmap *m, const struct ft_pbmap_zone *z,
			uint64_t pfn, const uint64_t *flags, uint64_t *counts, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		counts[i] = UINT64_MAX;
	for (i = 0; i < n && k->count_fd >= 0; i++) {
		if (flags[i] || pfn + i < z->start_pfn || pfn + i >= z->end_pfn ||
		    !ft_ram_has(&m->ram, pfn + i))
			continue;
		for (j = i + 1; j < n && !flags[j]; j++)
			;
		if (read_words(k->count_fd, pfn + i, counts + i, j - i))
			break;
		k->count_reads++;
		i = j;
	}
}

/* @nb blocks of zone @zi from @block on, into the map (or the emit hook).  PFNs read or -errno. */
static long scan_at(struct ft_kpf *k, const struct ft_pbmap *m, size_t zi, uint32_t block,
		    uint32_t nb)
{
	const struct ft_pbmap_zone *z = &m->zones[zi];
	uint64_t pfn0;
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
	read_counts(k, m, z, pfn0, k->flags, k->counts, words);
	/* the live source turns the batch into a session input, which feeds the session's map */
	k->emit(k->emit_ctx, zi, pfn0, words, k->flags, k->counts);
	k->pfns += words;
	return (long)words;
}

/* A sample of block @block of zone @zi (FT_PB_SAMPLE_SPOTS short runs).  PFNs read or -errno. */
static long sample_at(struct ft_kpf *k, const struct ft_pbmap *m, size_t zi, uint32_t block)
{
	const struct ft_pbmap_zone *z = &m->zones[zi];
	const size_t run = FT_PB_SAMPLE_WORDS / FT_PB_SAMPLE_SPOTS;
	uint64_t pfn0 = (z->first_block + block) << m->order;
	unsigned int s;
	int err;

	err = grow(k, FT_PB_SAMPLE_WORDS);
	if (err)
		return err;
	for (s = 0; s < FT_PB_SAMPLE_SPOTS; s++) {
		uint64_t pfn = ft_pb_sample_pfn(m->order, pfn0, FT_PB_SAMPLE_WORDS, s);

		err = read_words(k->flags_fd, pfn, k->flags + s * run, run);
		if (err)
			return err;
		read_counts(k, m, z, pfn, k->flags + s * run, k->counts + s * run, run);
	}
	k->sampling = true;
	k->emit(k->emit_ctx, zi, pfn0, FT_PB_SAMPLE_WORDS, k->flags, k->counts);
	k->sampling = false;
	k->pfns += FT_PB_SAMPLE_WORDS;
	k->samples++;
	return FT_PB_SAMPLE_WORDS;
}

/* Known already: a whole read or a sample of any block in [@b, @b + @n). */
static bool known(const struct ft_pbmap_zone *z, uint32_t b, uint32_t n)
{
	uint32_t i;

	for (i = b; i < b + n && i < z->nr_blocks; i++)
		if (z->blocks[i].cls != FT_PB_UNSCANNED || z->blocks[i].scls != FT_PB_UNSCANNED)
			return true;
	return false;
}

static uint64_t bitrev(uint64_t v, unsigned int bits)
{
	uint64_t r = 0;
	unsigned int i;

	for (i = 0; i < bits; i++, v >>= 1)
		r = (r << 1) | (v & 1);
	return r;
}

#define COARSE_STRIDE	8	/* the coarse look samples every 8th block */
#define COARSE_STEP	32	/* samples per call */
#define COARSE_LOOKS	4096	/* blocks looked at per call, sampled or not */

/*
 * The next few samples of the coarse look, if any is due: PFNs read (0
 * when every block this call looked at was known already) or -errno.
 * *@more: the coarse look goes on after this call (false: it is over,
 * whole passes from now on).  Each call looks at one block at least.
 */
static long coarse_step(struct ft_kpf *k, const struct ft_pbmap *m, bool *more)
{
	unsigned int looks = 0, done = 0;
	long pfns = 0, n;
	size_t i;

	*more = false;
	/* sampling saves nothing on blocks of fewer than 4 runs of 8 pages */
	if (!k->emit || (1ull << m->order) < 4 * FT_PB_SAMPLE_WORDS)
		return 0;
	/* first a block in every cell of the zone on screen */
	if (k->focus_bpc && k->focus < m->nr) {
		const struct ft_pbmap_zone *z = &m->zones[k->focus];
		uint32_t cells =
			(uint32_t)(((uint64_t)z->nr_blocks + k->focus_bpc - 1) / k->focus_bpc);

		if (k->focus_epoch != z->epoch) {
			k->focus_epoch = z->epoch;
			k->focus_next = 0;
		}
		while (k->focus_next < cells && done < COARSE_STEP && looks++ < COARSE_LOOKS) {
			uint32_t b = k->focus_next++ * k->focus_bpc;
			uint32_t nb = z->nr_blocks - b < k->focus_bpc ? z->nr_blocks -
				b : k->focus_bpc;

			if (known(z, b, nb))
				continue;
			n = sample_at(k, m, k->focus, b + nb / 2);
			if (n < 0)
				return n;
			pfns += n;
			done++;
		}
		if (done || k->focus_next < cells) {
			*more = true;
			return pfns;
		}
	}
	/*
	 * then every 8th block of every zone, the one on screen first, spread evenly as they come
	 */
	if (k->coarse_n < m->nr) {
		struct ft_kpf_coarse *c = realloc(k->coarse, m->nr * sizeof(*c));

		if (!c)
			return 0;
		for (i = k->coarse_n; i < m->nr; i++)
			c[i] = (struct ft_kpf_coarse){ 0 };
		k->coarse = c;
		k->coarse_n = m->nr;
	}
	for (i = 0; i < m->nr && done < COARSE_STEP && looks < COARSE_LOOKS; i++) {
		size_t f = k->focus < m->nr ? k->focus : 0, zi = i == 0 ? f : i <= f ? i - 1 : i;
		const struct ft_pbmap_zone *z = &m->zones[zi];
		struct ft_kpf_coarse *c = &k->coarse[zi];
		unsigned int bits = 0;

		if (c->epoch != z->epoch)
			*c = (struct ft_kpf_coarse){ .epoch = z->epoch };
		while ((1ull << bits) < z->nr_blocks)
			bits++;
		while (c->r < ((1ull << bits) + COARSE_STRIDE - 1) / COARSE_STRIDE &&
		       done < COARSE_STEP &&
		       looks++ < COARSE_LOOKS) {
			uint64_t b = bitrev(c->r++, bits);

			if (b >= z->nr_blocks || known(z, (uint32_t)b, 1))
				continue;
			n = sample_at(k, m, zi, (uint32_t)b);
			if (n < 0)
				return n;
			pfns += n;
			done++;
		}
		if (c->r < ((1ull << bits) + COARSE_STRIDE - 1) / COARSE_STRIDE) {
			*more = true;
			return pfns;
		}
	}
	return pfns;
}

bool ft_kpf_first_look(const struct ft_kpf *k, const struct ft_pbmap *m)
{
	const struct ft_pbmap_zone *z;

	if (!k->emit || !k->focus_bpc || k->focus >= m->nr || m->order < 0 ||
	    (1ull << m->order) < 4 * FT_PB_SAMPLE_WORDS)
		return false;
	z = &m->zones[k->focus];
	if (k->focus_epoch != z->epoch)
		return true;	/* laid out anew: the look starts again */
	return k->focus_next < (uint32_t)(((uint64_t)z->nr_blocks + k->focus_bpc - 1) /
					  k->focus_bpc);
}

void ft_kpf_focus(struct ft_kpf *k, size_t zone, uint32_t bpc)
{
	if (k->focus != zone || k->focus_bpc != bpc)
		k->focus_next = 0;
	k->focus = zone;
	k->focus_bpc = bpc;
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
		bool more;
		long n = coarse_step(k, m, &more);

		if (!n && !more)	/* the coarse look is over: whole passes */
			n = scan_batch(k, m);
		if (n < 0)
			return n;
		done += (uint64_t)n;
	}
	return (long)done;
}

void ft_kpf_rescan_begin(struct ft_kpf *k, const struct ft_pbmap *m)
{
	k->zone = 0;
	k->block = 0;
	k->rescanning = true;
	k->rescan_zone = 0;
	k->rescan_scans = m->nr ? m->zones[0].scans : 0;
}

int ft_kpf_rescan_step(struct ft_kpf *k, const struct ft_pbmap *m, uint64_t until_ns)
{
	if (!k->rescanning)
		return 1;
	if (k->flags_fd < 0) {
		k->rescanning = false;
		return k->err ? k->err : -EBADF;
	}
	/* a zone is done when its pass count moves: the cursor wrapped it whole */
	while (k->rescan_zone < m->nr) {
		long n;

		if (m->zones[k->rescan_zone].scans != k->rescan_scans) {
			if (++k->rescan_zone < m->nr)
				k->rescan_scans = m->zones[k->rescan_zone].scans;
			continue;
		}
		n = scan_batch(k, m);
		if (n < 0) {
			k->rescanning = false;
			return (int)n;
		}
		if (ft_now_ns() >= until_ns)
			return 0;
	}
	k->rescanning = false;
	return 1;
}

int ft_kpf_scan_all(struct ft_kpf *k, const struct ft_pbmap *m)
{
	int r;

	if (k->flags_fd < 0)
		return k->err ? k->err : -EBADF;
	ft_kpf_rescan_begin(k, m);
	while (!(r = ft_kpf_rescan_step(k, m, UINT64_MAX)))
		;
	return r < 0 ? r : 0;
}
