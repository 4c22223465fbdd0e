// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/contig.h"

#include <math.h>
#include <string.h>

const char *const ft_gr_names[FT_GR_NR] = { "unknown", "free", "movable", "tainted",
					    "uninitialised" };

int ft_contig_order(long page_size, const uint64_t *sizes_kb, size_t n, int pageblock_order)
{
	uint64_t best = 0;
	int shift = 0, order = 0;
	size_t i;

	if (page_size < 1024 || page_size & (page_size - 1))
		return -1;
	while ((1l << shift) < page_size)
		shift++;
	for (i = 0; i < n; i++)
		if (sizes_kb[i] > best && sizes_kb[i] < (1ull << 40))
			best = sizes_kb[i];
	if (!best || best & (best - 1) || best * 1024 < (uint64_t)page_size)
		return -1;
	while ((1ull << (order + shift)) < best * 1024)
		order++;
	return pageblock_order >= 0 && order > pageblock_order ? order : -1;
}

/* Regions wholly inside the zone: [*first, *first + return) */
static uint32_t zone_regions(const struct ft_pbmap_zone *z, int gorder, uint64_t *first)
{
	uint64_t size = 1ull << gorder;
	uint64_t r0 = (z->start_pfn + size - 1) >> gorder, r1 = z->end_pfn >> gorder;

	*first = r0;
	return r1 > r0 && r1 - r0 < UINT32_MAX ? (uint32_t)(r1 - r0) : 0;
}

long ft_contig_region_of(const struct ft_pbmap_zone *z, int gorder, uint64_t pfn)
{
	uint64_t r0;
	uint32_t n;

	if (gorder < 0 || gorder > 40)
		return -1;
	n = zone_regions(z, gorder, &r0);
	if ((pfn >> gorder) < r0 || (pfn >> gorder) >= r0 + n)
		return -1;
	return (long)((pfn >> gorder) - r0);
}

static void name_block(struct ft_contig_region *r, uint64_t pfn)
{
	if (r->named < FT_CONTIG_NAMED)
		r->taint_pfn[r->named++] = pfn;
}

/* Region @pfn's blocks [@b0, @b0 + @nb) of zone @z, the map at pageblock @order. */
static void classify(const struct ft_pbmap_zone *z, int order, uint64_t pfn, uint32_t b0,
		     uint32_t nb,
		     struct ft_contig_region *r)
{
	uint32_t b;
	bool movable = false;

	memset(r, 0, sizeof(*r));
	r->pfn = pfn;
	/* unmovable pages first among the named blocks, then holes */
	for (b = b0; b < b0 + nb; b++) {
		const struct ft_pb_block *pb = &z->blocks[b];

		if (pb->cls == FT_PB_UNSCANNED) {
			r->unread_blocks++;
			continue;
		}
		if (pb->pages[FT_PG_UNMOVABLE]) {
			r->unmovable_blocks++;
			r->unmovable_pages += pb->pages[FT_PG_UNMOVABLE];
			name_block(r, (z->first_block + b) << order);
		}
		if (pb->pages[FT_PG_MOVABLE])
			movable = true;
	}
	for (b = b0; b < b0 + nb; b++) {
		const struct ft_pb_block *pb = &z->blocks[b];

		if (pb->cls != FT_PB_UNSCANNED && pb->pages[FT_PG_HOLE]) {
			r->hole_blocks++;
			if (!pb->pages[FT_PG_UNMOVABLE])
				name_block(r, (z->first_block + b) << order);
		}
	}
	if (r->unmovable_blocks || r->hole_blocks)
		r->cls = FT_GR_TAINTED;
	else if (r->unread_blocks)
		r->cls = FT_GR_UNKNOWN;
	else
		r->cls = movable ? FT_GR_MOVABLE : FT_GR_FREE;
}

/* Free pages the map read whole in @z. */
static uint64_t map_free(const struct ft_pbmap_zone *z)
{
	uint64_t n = 0;
	uint32_t b;

	for (b = 0; b < z->nr_blocks; b++)
		if (z->blocks[b].cls != FT_PB_UNSCANNED)
			n += z->blocks[b].pages[FT_PG_FREE];
	return n;
}

uint32_t ft_contig_zone(const struct ft_pbmap *m, const struct ft_pbmap_zone *z, int gorder,
			uint64_t kernel_free, struct ft_contig_zone *c,
			struct ft_contig_region *out,
			size_t cap)
{
	uint64_t r0, uninit_from = UINT64_MAX;
	uint32_t n, i, per;

	memset(c, 0, sizeof(*c));
	c->order = -1;
	if (m->order < 0 || gorder <= m->order || gorder > 40 || !z->blocks)
		return 0;
	c->order = gorder;
	n = zone_regions(z, gorder, &r0);
	per = 1u << (gorder - m->order);
	if (kernel_free != UINT64_MAX) {
		uint64_t mf = map_free(z);

		/* a little drift (per-CPU lists, pages freed while the scan ran) is not a region */
		if (mf > kernel_free && mf - kernel_free > (1ull << gorder) / 16) {
			c->uninit_pages = mf - kernel_free;
			uninit_from = c->uninit_pages < z->end_pfn - z->start_pfn ? z->end_pfn -
				c->uninit_pages :
										    z->start_pfn;
		}
	}
	for (i = 0; i < n; i++) {
		struct ft_contig_region r;
		uint64_t pfn = (r0 + i) << gorder;

		classify(z, m->order, pfn, (uint32_t)((pfn >> m->order) - z->first_block), per, &r);
		if (r.cls != FT_GR_TAINTED && pfn + (1ull << gorder) > uninit_from)
			r.cls = FT_GR_UNINIT;
		c->count[r.cls]++;
		if (out && i < cap)
			out[i] = r;
	}
	c->regions = n;
	c->now = c->count[FT_GR_FREE];
	c->after = c->count[FT_GR_FREE] + c->count[FT_GR_MOVABLE];
	return n;
}

void ft_amp_add(struct ft_amp *a, const struct ft_pbmap_zone *z)
{
	uint32_t b;

	for (b = 0; b < z->nr_blocks; b++) {
		const struct ft_pb_block *pb = &z->blocks[b];
		uint64_t ram = (uint64_t)pb->pages[FT_PG_FREE] + pb->pages[FT_PG_MOVABLE] +
			       pb->pages[FT_PG_UNMOVABLE];

		a->unread += pb->cls == FT_PB_UNSCANNED;
		if (pb->cls == FT_PB_UNSCANNED || !ram)
			continue;
		a->blocks++;
		a->pages += ram;
		a->unmovable += pb->pages[FT_PG_UNMOVABLE];
		a->polluted += !!pb->pages[FT_PG_UNMOVABLE];
	}
}

double ft_amp_ratio(const struct ft_amp *a)
{
	if (!a->blocks || !a->pages || !a->unmovable)
		return NAN;
	return ((double)a->polluted / (double)a->blocks) /
		((double)a->unmovable / (double)a->pages);
}

bool ft_amp_of_map(const struct ft_pbmap *m, int err, struct ft_amp *a)
{
	size_t k;

	memset(a, 0, sizeof(*a));
	for (k = 0; !err && k < m->nr; k++)
		ft_amp_add(a, &m->zones[k]);
	return !err && m->nr > 0;
}
