// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/pageblock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

#define BIT(n) (1ull << (n))

const char *const ft_pg_names[FT_PG_NR] = { "free", "movable", "unmovable", "hole" };
const char *const ft_pb_names[FT_PB_NR] = {
	"unscanned", "free", "movable", "unmovable", "mixed", "hole",
};
const char ft_pb_letters[FT_PB_NR + 1] = "?fmuxh";

static const uint64_t hole_bits = BIT(FT_KPF_NOPAGE) | BIT(FT_KPF_OFFLINE);
static const uint64_t kernel_bits = BIT(FT_KPF_SLAB) | BIT(FT_KPF_PGTABLE) | BIT(FT_KPF_RESERVED);
static const uint64_t user_bits = BIT(FT_KPF_LRU) | BIT(FT_KPF_ANON) | BIT(FT_KPF_MMAP) |
	BIT(FT_KPF_THP) | BIT(FT_KPF_HUGE) | BIT(FT_KPF_KSM) | BIT(FT_KPF_SWAPBACKED) |
	BIT(FT_KPF_SWAPCACHE) | BIT(FT_KPF_UNEVICTABLE) | BIT(FT_KPF_MLOCKED) |
	BIT(FT_KPF_DIRTY) | BIT(FT_KPF_WRITEBACK) | BIT(FT_KPF_UPTODATE) |
	BIT(FT_KPF_MAPPEDTODISK);

enum ft_pg ft_page_class(uint64_t flags, uint64_t count)
{
	if (flags & hole_bits)
		return FT_PG_HOLE;
	if (flags & BIT(FT_KPF_BUDDY))
		return FT_PG_FREE;
	if (flags & kernel_bits)
		return FT_PG_UNMOVABLE;
	if (flags & user_bits)
		return FT_PG_MOVABLE;
	/* no flag at all and nobody holds it: on a per-CPU free list */
	if (!flags && count == 0)
		return FT_PG_FREE;
	return FT_PG_UNMOVABLE;
}

int ft_iomem_parse(const char *buf, size_t len, long page_size, struct ft_ram *ram)
{
	struct ft_cursor c;
	struct ft_span line;
	bool nonzero = false;
	int shift = 0;

	memset(ram, 0, sizeof(*ram));
	while (page_size > 1 && !(page_size & 1)) {
		page_size >>= 1;
		shift++;
	}
	if (page_size != 1 || shift < 9)
		return -EINVAL;
	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		uint64_t a = 0, b = 0;
		const char *p = line.p, *end = line.p + line.len;
		int digits;

		if (!line.len || line.p[0] == ' ')	/* nested resources */
			continue;
		for (digits = 0; p < end && *p != '-'; p++, digits++) {
			int v = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' &&
			*p <= 'f' ? *p - 'a' + 10 : -1;

			if (v < 0 || digits >= 16)
				return -EINVAL;
			a = a << 4 | (uint64_t)v;
		}
		if (p == end || !digits)
			return -EINVAL;
		for (p++, digits = 0; p < end && *p != ' '; p++, digits++) {
			int v = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' &&
			*p <= 'f' ? *p - 'a' + 10 : -1;

			if (v < 0 || digits >= 16)
				return -EINVAL;
			b = b << 4 | (uint64_t)v;
		}
		if (!digits || b < a)
			return -EINVAL;
		if (end - p < 13 || memcmp(p, " : System RAM", 13) || end - p != 13)
			continue;
		if (a || b)
			nonzero = true;
		if (ram->nr == sizeof(ram->start) / sizeof(ram->start[0]))
			return -E2BIG;
		ram->start[ram->nr] = (a >> shift) + ((a & ((1ull << shift) - 1)) != 0);
		ram->end[ram->nr] = b == UINT64_MAX ? b >> shift : (b + 1) >> shift;
		/* a range smaller than a page holds no whole page */
		if (ram->start[ram->nr] < ram->end[ram->nr])
			ram->nr++;
	}
	ram->known = nonzero && ram->nr;
	if (!ram->known)
		ram->nr = 0;
	return 0;
}

bool ft_ram_has(const struct ft_ram *ram, uint64_t pfn)
{
	size_t i;

	if (!ram->known)
		return true;
	for (i = 0; i < ram->nr; i++)
		if (pfn >= ram->start[i] && pfn < ram->end[i])
			return true;
	return false;
}

/* Is all of [start, end) inside one RAM range? */
static bool ram_covers(const struct ft_ram *ram, uint64_t start, uint64_t end)
{
	size_t i;

	if (!ram->known)
		return true;
	for (i = 0; i < ram->nr; i++)
		if (start >= ram->start[i] && end <= ram->end[i])
			return true;
	return false;
}

void ft_pbmap_init(struct ft_pbmap *m)
{
	memset(m, 0, sizeof(*m));
	m->order = -1;
}

static void zone_free(struct ft_pbmap_zone *z)
{
	free(z->blocks);
	z->blocks = NULL;
}

void ft_pbmap_release(struct ft_pbmap *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		zone_free(&m->zones[i]);
	free(m->zones);
	ft_pbmap_init(m);
}

int ft_pbmap_layout(struct ft_pbmap *m, const struct ft_zoneinfo *zi, int order, uint64_t *blocks)
{
	struct ft_pbmap_zone *nz = NULL;
	size_t i, j, n = 0;
	uint64_t all = 0;

	if (order < 0 || order > 20)
		return -EINVAL;
	for (i = 0; i < zi->nr; i++) {
		const struct ft_zi_zone *src = &zi->zones[i];

		if (!(src->has & FT_ZI_START_PFN) || !src->spanned)
			continue;
		n++;
		if (src->spanned > UINT64_MAX - src->start_pfn)
			all = UINT64_MAX;
		else if (all != UINT64_MAX)
			all += ((src->start_pfn + src->spanned - 1) >> order) -
				(src->start_pfn >> order) + 1;
	}
	if (blocks)
		*blocks = all;
	if (all > FT_PBMAP_MAX_BLOCKS)
		return -E2BIG;
	/* every tick asks; nearly always nothing moved: keep it all */
	if (n == m->nr && order == m->order) {
		for (i = 0, j = 0; i < zi->nr; i++) {
			const struct ft_zi_zone *src = &zi->zones[i];

			if (!(src->has & FT_ZI_START_PFN) || !src->spanned)
				continue;
			if (m->zones[j].node != src->node || strcmp(m->zones[j].name, src->name) ||
			    m->zones[j].start_pfn != src->start_pfn ||
			    m->zones[j].end_pfn - m->zones[j].start_pfn != src->spanned)
				break;
			j++;
		}
		if (j == n)
			return 0;
	}
	nz = calloc(n ? n : 1, sizeof(*nz));	/* never NULL on success, even for no zone */
	if (!nz)
		return -ENOMEM;
	for (i = 0, n = 0; i < zi->nr; i++) {
		const struct ft_zi_zone *src = &zi->zones[i];
		struct ft_pbmap_zone *z;
		uint64_t last;

		if (!(src->has & FT_ZI_START_PFN) || !src->spanned)
			continue;
		z = &nz[n++];
		z->node = src->node;
		memcpy(z->name, src->name, sizeof(z->name));
		z->start_pfn = src->start_pfn;
		if (src->spanned > UINT64_MAX - src->start_pfn)
			goto toobig;
		z->end_pfn = src->start_pfn + src->spanned;
		z->first_block = z->start_pfn >> order;
		last = (z->end_pfn - 1) >> order;
		if (last - z->first_block + 1 > UINT32_MAX / 2)
			goto toobig;
		z->nr_blocks = (uint32_t)(last - z->first_block + 1);
		/* same zone, same span, same order: keep what was scanned */
		for (j = 0; j < m->nr; j++) {
			struct ft_pbmap_zone *o = &m->zones[j];

			if (o->blocks && o->node == z->node && !strcmp(o->name, z->name) &&
			    o->start_pfn == z->start_pfn && o->end_pfn == z->end_pfn &&
			    m->order == order) {
				*z = *o;
				o->blocks = NULL;
				break;
			}
		}
		if (!z->blocks) {
			z->blocks = calloc(z->nr_blocks, sizeof(*z->blocks));
			if (!z->blocks)
				goto nomem;
			z->count[FT_PB_UNSCANNED] = z->nr_blocks;
			z->epoch = ++m->epochs;
		}
	}
	for (j = 0; j < m->nr; j++)
		zone_free(&m->zones[j]);
	free(m->zones);
	m->zones = nz;
	m->nr = m->cap = n;
	m->order = order;
	return 0;
toobig:
	for (j = 0; j < n; j++)
		zone_free(&nz[j]);
	free(nz);
	return -E2BIG;
nomem:
	for (j = 0; j < n; j++)
		zone_free(&nz[j]);
	free(nz);
	return -ENOMEM;
}

static enum ft_pb block_class(const uint32_t *pages)
{
	if (pages[FT_PG_MOVABLE] && pages[FT_PG_UNMOVABLE])
		return FT_PB_MIXED;
	if (pages[FT_PG_UNMOVABLE])
		return FT_PB_UNMOVABLE;
	if (pages[FT_PG_MOVABLE])
		return FT_PB_MOVABLE;
	if (pages[FT_PG_FREE])
		return FT_PB_FREE;
	return FT_PB_HOLE;
}

/* Pages @pfn .. @pfn + @n of zone @z added to @pages, @thp and @heads. */
static void count_run(const struct ft_pbmap *m, const struct ft_pbmap_zone *z, uint64_t pfn,
		      size_t n,
		      const uint64_t *f, const uint64_t *c, uint32_t *pages, uint32_t *thp,
		      uint32_t *heads)
{
	uint32_t pg[FT_PG_NR] = { 0 }, t = 0, h = 0;	/* locals: no aliasing in the hot loop */
	size_t i;

	if (pfn >= z->start_pfn && pfn + n <= z->end_pfn && ram_covers(&m->ram, pfn, pfn + n)) {
		/* the common case: the whole run is RAM of this zone */
		for (i = 0; i < n; i++) {
			pg[ft_page_class(f[i], c ? c[i] : UINT64_MAX)]++;
			if (f[i] & BIT(FT_KPF_THP) && !(f[i] & hole_bits)) {
				t++;
				h += !!(f[i] & BIT(FT_KPF_COMPOUND_HEAD));
			}
		}
	} else {
		for (i = 0; i < n; i++) {
			enum ft_pg k;

			if (pfn + i < z->start_pfn || pfn + i >= z->end_pfn ||
			    !ft_ram_has(&m->ram, pfn + i))
				k = FT_PG_HOLE;
			else
				k = ft_page_class(f[i], c ? c[i] : UINT64_MAX);
			pg[k]++;
			if (k != FT_PG_HOLE && f[i] & BIT(FT_KPF_THP)) {
				t++;
				h += !!(f[i] & BIT(FT_KPF_COMPOUND_HEAD));
			}
		}
	}
	for (i = 0; i < FT_PG_NR; i++)
		pages[i] += pg[i];
	*thp += t;
	*heads += h;
}

void ft_pbmap_feed(struct ft_pbmap *m, size_t zi, uint32_t block, uint32_t nblocks,
		   const uint64_t *flags, const uint64_t *counts, bool rescan)
{
	struct ft_pbmap_zone *z;
	uint64_t per = 1ull << m->order;
	uint32_t b;

	if (zi >= m->nr)
		return;
	z = &m->zones[zi];
	for (b = 0; b < nblocks && block + b < z->nr_blocks; b++) {
		struct ft_pb_block *pb = &z->blocks[block + b];
		uint64_t pfn0 = (z->first_block + block + b) << m->order;
		uint32_t pages[FT_PG_NR] = { 0 }, thp = 0, heads = 0;
		enum ft_pb cls;

		count_run(m, z, pfn0, per, flags + b * per, counts ? counts + b * per : NULL, pages,
			  &thp,
			  &heads);
		cls = block_class(pages);
		if (pb->cls == FT_PB_UNSCANNED && pb->scls != FT_PB_UNSCANNED)
			z->sampled--;
		pb->scls = FT_PB_UNSCANNED;
		z->count[pb->cls]--;
		if (pb->cls == FT_PB_MIXED)
			z->pollution -= pb->pages[FT_PG_UNMOVABLE];
		memcpy(pb->pages, pages, sizeof(pages));
		z->thp += (uint64_t)thp - pb->thp;
		z->thp_folios += (uint64_t)heads - pb->thp_folios;
		pb->thp = thp;
		pb->thp_folios = heads;
		pb->cls = (uint8_t)cls;
		z->count[cls]++;
		if (cls == FT_PB_MIXED)
			z->pollution += pages[FT_PG_UNMOVABLE];
	}
	/* the zone's last block: a pass (scanners go in block order) */
	if (nblocks && block + nblocks >= z->nr_blocks && !rescan)
		z->scans++;
}

uint64_t ft_pb_sample_pfn(int order, uint64_t block_pfn, size_t words, unsigned int spot)
{
	uint64_t quarter = (1ull << order) / FT_PB_SAMPLE_SPOTS, run = words / FT_PB_SAMPLE_SPOTS;

	/* each run in the middle of its quarter of the block */
	return block_pfn + spot * quarter + (quarter - run) / 2;
}

bool ft_pbmap_sample(struct ft_pbmap *m, size_t zi, uint32_t block, size_t words,
		     const uint64_t *flags,
		     const uint64_t *counts)
{
	uint32_t pages[FT_PG_NR] = { 0 }, thp = 0, heads = 0;
	struct ft_pbmap_zone *z;
	struct ft_pb_block *pb;
	size_t run = words / FT_PB_SAMPLE_SPOTS;
	unsigned int s;

	if (zi >= m->nr || m->order < 2 || !words || words % FT_PB_SAMPLE_SPOTS ||
	    run > (1ull << m->order) / FT_PB_SAMPLE_SPOTS || block >= m->zones[zi].nr_blocks)
		return false;
	z = &m->zones[zi];
	pb = &z->blocks[block];
	if (pb->cls != FT_PB_UNSCANNED)
		return true;	/* a whole read says more */
	for (s = 0; s < FT_PB_SAMPLE_SPOTS; s++)
		count_run(m, z,
			  ft_pb_sample_pfn(m->order, (z->first_block + block) << m->order, words,
					   s), run,
			  flags + s * run, counts ? counts + s * run : NULL, pages, &thp, &heads);
	if (pb->scls == FT_PB_UNSCANNED)
		z->sampled++;
	pb->scls = (uint8_t)block_class(pages);
	return true;
}

int ft_pbmap_zone_of(const struct ft_pbmap *m, uint64_t pfn)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		if (pfn >= m->zones[i].start_pfn && pfn < m->zones[i].end_pfn)
			return (int)i;
	return -1;
}

struct ft_pb_block *ft_pbmap_block(const struct ft_pbmap *m, uint64_t pfn)
{
	int z = ft_pbmap_zone_of(m, pfn);
	uint64_t b;
	size_t i;

	if (m->order < 0)
		return NULL;
	b = pfn >> m->order;
	if (z >= 0)
		return &m->zones[z].blocks[b - m->zones[z].first_block];
	for (i = 0; i < m->nr; i++)
		if (b >= m->zones[i].first_block &&
		    b - m->zones[i].first_block < m->zones[i].nr_blocks)
			return &m->zones[i].blocks[b - m->zones[i].first_block];
	return NULL;
}

int ft_pbmap_zone_named(const struct ft_pbmap *m, int node, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		if (m->zones[i].node == node && !strcmp(m->zones[i].name, name))
			return (int)i;
	return -1;
}

bool ft_pbmap_mark(struct ft_pbmap *m, uint64_t pfn, int pid, uint64_t now_ns)
{
	struct ft_pb_block *pb = ft_pbmap_block(m, pfn);

	if (!pb)
		return false;
	pb->fallbacks++;
	pb->pid = pid > 0 ? (uint32_t)pid : 0;
	pb->mark_ns = now_ns;
	return true;
}

size_t ft_pbmap_encode(const struct ft_pbmap_zone *z, char *buf, size_t sz)
{
	size_t need = 0;
	uint32_t i = 0;

	if (sz)
		buf[0] = '\0';
	while (i < z->nr_blocks) {
		uint32_t j = i;
		char run[16];
		int n;

		while (j < z->nr_blocks && z->blocks[j].cls == z->blocks[i].cls)
			j++;
		n = snprintf(run, sizeof(run), "%u%c", j - i, ft_pb_letters[z->blocks[i].cls]);
		if (sz && need + (size_t)n < sz)
			memcpy(buf + need, run, (size_t)n + 1);
		else if (sz && need < sz)
			buf[need] = '\0';
		need += (size_t)n;
		i = j;
	}
	return need;
}
