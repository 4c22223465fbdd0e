// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/fits.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pageowner.h"

/* log2 of @kb KiB in pages of @page_size, or -1 when not a power of two of at least a page. */
static int kb_order(uint64_t kb, long page_size)
{
	uint64_t bytes = kb * 1024;
	int o = 0;

	if (!kb || kb >= 1ull << 40 || bytes & (bytes - 1) || page_size <= 0 ||
	    bytes < (uint64_t)page_size)
		return -1;
	while (((uint64_t)page_size << o) < bytes)
		o++;
	return o <= FT_FIT_MAX_ORDER ? o : -1;
}

static void add_size(struct ft_fits_sizes *out, int order, unsigned int src,
		     struct ft_fits_sizes *spill)
{
	size_t i;

	if (order < 0)
		return;
	for (i = 0; i < out->nr; i++)
		if (out->order[i] == order) {
			out->src[i] |= src;
			return;
		}
	if (out->nr == FT_FITS_SIZES_MAX) {
		if (spill && spill->nr < FT_FITS_SIZES_MAX)
			add_size(spill, order, src, NULL);
		return;
	}
	for (i = out->nr; i > 0 && out->order[i - 1] > order; i--) {
		out->order[i] = out->order[i - 1];
		out->src[i] = out->src[i - 1];
	}
	out->order[i] = order;
	out->src[i] = src;
	out->nr++;
}

size_t ft_fits_sizes(const struct ft_session *s, unsigned int which, const int *asked, size_t n,
		       struct ft_fits_sizes *out)
{
	struct ft_fits_sizes host = { 0 };
	long ps = s->host.page_size;
	unsigned int i;
	size_t k;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < n && k < FT_FITS_SIZES_MAX; k++)
		add_size(out, asked[k], FT_FITS_SRC_ASKED, NULL);
	/* the host's, largest first, so that the smallest go when there are too many */
	if (which & FT_FITS_SRC_HUGETLB)
		for (i = s->host.nr_huge; i-- > 0;)
			add_size(&host, kb_order(s->host.huge_kb[i], ps), FT_FITS_SRC_HUGETLB,
				 NULL);
	if (which & FT_FITS_SRC_PAGEBLOCK)
		add_size(&host, s->sample.pageblock_order, FT_FITS_SRC_PAGEBLOCK, NULL);
	if (which & FT_FITS_SRC_MTHP)
		for (i = s->host.nr_mthp; i-- > 0;)
			add_size(&host, kb_order(s->host.mthp_kb[i], ps), FT_FITS_SRC_MTHP, NULL);
	for (k = host.nr; k-- > 0;) {
		size_t j, before = out->nr;

		for (j = 0; j < before; j++)
			if (out->order[j] == host.order[k])
				break;
		if (j < before || out->nr < FT_FITS_SIZES_MAX)
			add_size(out, host.order[k], host.src[k], NULL);
	}
	return out->nr;
}

void ft_fits_init(struct ft_fits *t)
{
	memset(t, 0, sizeof(*t));
}

void ft_fits_release(struct ft_fits *t)
{
	free(t->zone);
	free(t->node);
	ft_fits_init(t);
}

long ft_fits_node_index(const struct ft_fits *t, int node)
{
	size_t i;

	for (i = 0; i < t->nr_nodes; i++)
		if (t->node[i * t->sizes.nr].node == node)
			return (long)i;
	return -1;
}

long ft_fits_size_index(const struct ft_fits *t, int order)
{
	size_t k;

	for (k = 0; k < t->sizes.nr; k++)
		if (t->sizes.order[k] == order)
			return (long)k;
	return -1;
}

/* Kernel release "6.1.0-..." before @maj.@min. */
static bool release_before(const char *rel, int maj, int min)
{
	int a = 0, b = 0;

	if (sscanf(rel, "%d.%d", &a, &b) != 2)
		return false;
	return a < maj || (a == maj && b < min);
}

/*
 * The zone's index of ZONE_MOVABLE, the highest zone a movable allocation
 * may use: its place among its node's zones in zoneinfo (every zone is
 * listed, empty ones too), else the last protection entry.
 */
static int movable_index(const struct ft_zoneinfo *zi, const struct ft_zi_zone *z)
{
	int idx = 0;
	size_t i;

	for (i = 0; i < zi->nr; i++) {
		if (zi->zones[i].node != z->node)
			continue;
		if (!strcmp(zi->zones[i].name, "Movable"))
			return idx < z->nr_protection ? idx : z->nr_protection - 1;
		idx++;
	}
	return z->nr_protection - 1;
}

/*
 * One zone's inputs: the free lists an allocation may take (the last
 * pagetypeinfo's HighAtomic and Isolate blocks left out), the watermark
 * and the highatomic pages __zone_watermark_unusable_free() subtracts:
 * the reserve's whole blocks before 6.12, its free pages since.
 */
static void zone_in(const struct ft_session *s, const struct ft_zone *j, uint64_t *blocks,
		    struct ft_fit_zin *in)
{
	const struct ft_zi_zone *z = j->zi;
	const struct ft_pagetypeinfo *pti = &s->sample.pti;
	int o, mi = movable_index(&s->sample.zoneinfo, z);
	int ha = j->pti ? ft_pagetypeinfo_type(pti, "HighAtomic") : -1;
	int iso = j->pti ? ft_pagetypeinfo_type(pti, "Isolate") : -1;

	memset(in, 0, sizeof(*in));
	in->node = z->node;
	in->zone = z->name;
	in->free_pages = z->free;
	in->wmark = z->min + (mi >= 0 && mi < z->nr_protection ? z->protection[mi] : 0);
	in->drift = FT_FIT_DRIFT_PAGES;
	if (j->bi) {
		in->nr_orders = s->sample.buddy.nr_orders;
		for (o = 0; o < in->nr_orders && o < FT_MAX_ORDERS; o++) {
			uint64_t b = j->bi->blocks[o], off = 0;

			if (ha >= 0)
				off += j->pti->free[ha][o];
			if (iso >= 0)
				off += j->pti->free[iso][o];
			blocks[o] = b > off ? b - off : 0;
		}
		in->blocks = blocks;
	}
	if (ha >= 0) {
		uint64_t n = 0;

		if (release_before(s->host.release, 6, 12)) {
			if (j->pti->has_blocks && pti->pageblock_order >= 0)
				n = j->pti->blocks[ha] << pti->pageblock_order;
		} else {
			for (o = 0; o < pti->nr_orders && o < FT_MAX_ORDERS; o++)
				n += j->pti->free[ha][o] << o;
		}
		in->unusable = n;
	}
}

static int grow(struct ft_fit **p, size_t *cap, size_t need)
{
	struct ft_fit *n;

	if (need <= *cap)
		return 0;
	n = realloc(*p, need * 2 * sizeof(**p));
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = need * 2;
	return 0;
}

/* The map's part for zone @z when the map read any of it (whole or a sample), else NULL. */
static const struct ft_pbmap_zone *map_zone(const struct ft_session *s, const struct ft_zi_zone *z)
{
	const struct ft_pbmap_zone *mz;
	int k;

	if (s->map.order < 0 || !s->map.nr)
		return NULL;
	k = ft_pbmap_zone_named(&s->map, z->node, z->name);
	if (k < 0)
		return NULL;
	mz = &s->map.zones[k];
	if (!mz->blocks || (mz->count[FT_PB_UNSCANNED] == mz->nr_blocks && !mz->sampled))
		return NULL;
	return mz;
}

/*
 * Zone @j's inputs, with the map's part where it read the zone; into @t's map counts when @count.
 */
static void zone_of(struct ft_fits *t, const struct ft_session *s, const struct ft_zone *j,
		    bool map, bool count,
		    uint64_t *blocks, struct ft_fit_zin *in)
{
	zone_in(s, j, blocks, in);
	if (!map)
		return;
	in->mz = map_zone(s, j->zi);
	in->m = in->mz ? &s->map : NULL;
	/* one walk of the zone's blocks, for every size */
	ft_fit_uninit(in, &in->uninit_lo, &in->uninit_hi);
	if (in->mz && count) {
		t->map = true;
		t->map_unread += in->mz->count[FT_PB_UNSCANNED];
	}
}

/*
 * The sums' "after compaction" above the buddy's orders held to the host's free memory (@lo, @hi
 * pages).
 */
static void contig_cap(struct ft_fit *f, uint64_t lo, uint64_t hi)
{
	if (f->buddy || f->order > 62)
		return;
	f->free_cap = lo >> f->order;
	if (f->after_lo > f->free_cap)
		f->after_lo = f->now_lo > f->free_cap ? f->now_lo : f->free_cap;
	if (f->after_hi != UINT64_MAX && f->after_hi > hi >> f->order)
		f->after_hi = f->now_hi > hi >> f->order ? f->now_hi : hi >> f->order;
}

int ft_fits_build(struct ft_fits *t, const struct ft_session *s, const struct ft_fits_sizes *sizes,
		       bool map)
{
	const struct ft_sample *sm = &s->sample;
	uint64_t free_lo = 0, free_hi = 0;
	size_t i, k, nk = sizes->nr;

	t->sizes = *sizes;
	t->page_size = s->host.page_size;
	t->nr_zones = t->nr_nodes = 0;
	t->map = false;
	t->map_unread = 0;
	memset(t->host, 0, sizeof(t->host));
	for (k = 0; k < nk; k++) {
		t->host[k].node = -1;
		t->host[k].order = sizes->order[k];
	}
	if (!ft_sample_has(sm, FT_SRC_ZONEINFO) || !ft_sample_has(sm, FT_SRC_BUDDYINFO))
		return -ENODATA;
	/*
	 * the host's free memory alloc_contig_range() may migrate to: every zone's above its
	 * watermark
	 */
	for (i = 0; i < sm->nr_zones; i++) {
		const struct ft_zone *j = &sm->zones[i];
		uint64_t blocks[FT_MAX_ORDERS];
		struct ft_fit_zin in;

		if (!j->zi || !ft_zi_populated(j->zi) || !j->bi)
			continue;
		zone_of(t, s, j, map, false, blocks, &in);
		free_lo += ft_fit_usable(&in);
		free_hi += ft_fit_usable(&in) + in.uninit_hi;
	}
	for (i = 0; i < sm->nr_zones; i++) {
		const struct ft_zone *j = &sm->zones[i];
		uint64_t blocks[FT_MAX_ORDERS] = { 0 };
		struct ft_fit_zin in;
		long n;

		if (!j->zi || !ft_zi_populated(j->zi) || !j->bi)
			continue;
		if (grow(&t->zone, &t->cap_zones, (t->nr_zones + 1) * (nk ? nk : 1)))
			return -ENOMEM;
		zone_of(t, s, j, map, true, blocks, &in);
		in.contig_free_lo = free_lo;
		in.contig_free_hi = free_hi;
		n = ft_fits_node_index(t, j->zi->node);
		if (n < 0) {
			if (grow(&t->node, &t->cap_nodes, (t->nr_nodes + 1) * (nk ? nk : 1)))
				return -ENOMEM;
			n = (long)t->nr_nodes++;
			memset(&t->node[(size_t)n * nk], 0, nk * sizeof(*t->node));
			for (k = 0; k < nk; k++) {
				t->node[(size_t)n * nk + k].node = j->zi->node;
				t->node[(size_t)n * nk + k].order = sizes->order[k];
			}
		}
		for (k = 0; k < nk; k++) {
			struct ft_fit *f = &t->zone[t->nr_zones * nk + k];

			ft_fit_zone(&in, sizes->order[k], f);
			ft_fit_add(&t->node[(size_t)n * nk + k], f);
			ft_fit_add(&t->host[k], f);
		}
		t->nr_zones++;
	}
	t->contig_free_lo = free_lo;
	t->contig_free_hi = free_hi;
	for (k = 0; k < nk; k++) {
		for (i = 0; i < t->nr_nodes; i++)
			contig_cap(&t->node[i * nk + k], free_lo, free_hi);
		contig_cap(&t->host[k], free_lo, free_hi);
	}
	return 0;
}

enum ft_fit_verdict ft_fits_judge(const struct ft_fits *t, int node,
				  const struct ft_fit_need *needs, size_t n,
				  struct ft_fits_need *out)
{
	struct ft_fit_need known[FT_FIT_NEEDS_MAX] = { 0 };
	size_t kidx[FT_FIT_NEEDS_MAX] = { 0 };	/* each known need's size in the table */
	struct ft_fit left[FT_FIT_NEEDS_MAX];
	enum ft_fit_verdict each[FT_FIT_NEEDS_MAX], all = FT_FIT_NOW;
	size_t i, nk = 0, z;
	struct ft_fit *zf = NULL;
	bool *use = NULL;

	if (n > FT_FIT_NEEDS_MAX)
		n = FT_FIT_NEEDS_MAX;
	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].need = needs[i];
		out[i].size = ft_fits_size_index(t, needs[i].order);
		out[i].verdict = FT_FIT_UNKNOWN;
		if (out[i].size >= 0) {
			kidx[nk] = (size_t)out[i].size;
			known[nk++] = needs[i];
		}
	}
	zf = calloc(t->nr_zones * nk + 1, sizeof(*zf));
	use = calloc(t->nr_zones + 1, sizeof(*use));
	if (!zf || !use) {
		free(zf);
		free(use);
		return FT_FIT_UNKNOWN;
	}
	for (z = 0; z < t->nr_zones; z++) {
		use[z] = node < 0 || ft_fits_at(t, z, 0)->node == node;
		for (i = 0; i < nk; i++)
			zf[z * nk + i] = *ft_fits_at(t, z, kidx[i]);
	}
	if (nk)
		all = ft_fit_needs_judge(zf, t->nr_zones, use, known, nk, t->contig_free_lo,
					 t->contig_free_hi, left,
					  each);
	for (i = 0, nk = 0; i < n; i++) {
		if (out[i].size < 0) {
			if (all != FT_FIT_NO)
				all = FT_FIT_UNKNOWN;
			continue;
		}
		out[i].verdict = each[nk];
		out[i].left = left[nk];
		nk++;
	}
	free(zf);
	free(use);
	return n ? all : FT_FIT_UNKNOWN;
}

void ft_fits_who(const struct ft_session *s, uint64_t pfn, struct ft_fits_who *w)
{
	const struct ft_pb_block *pb = ft_pbmap_block(&s->map, pfn);
	const struct ft_owner_look *look = ft_session_owner(s, pfn);

	memset(w, 0, sizeof(*w));
	if (pb) {
		w->fallbacks = pb->fallbacks;
		w->pid = (int)pb->pid;
	}
	if (w->pid > 0) {
		const struct ft_proc *p = ft_procs_find(&s->events.procs, w->pid);
		const char *name = ft_session_name(s, w->pid);

		snprintf(w->comm, sizeof(w->comm), "%s", p &&
			 p->comm[0] ? p->comm : name ? name : "");
		if (p)
			snprintf(w->cgroup, sizeof(w->cgroup), "%s", p->cgroup);
	}
	if (look) {
		const char *text = ft_session_owner_text(s, look);
		struct ft_po_entry e;
		size_t off = 0;
		int r;

		while ((r = ft_po_next(text, look->text_len, &off, &e)) != 0) {
			if (r < 0 || !ft_po_pins(&e))
				continue;
			char stack[64];

			snprintf(w->owner, sizeof(w->owner), "%s pid %d: %s", e.comm, e.pid,
				 ft_po_stack_text(&e, 2, stack, sizeof(stack)));
			break;
		}
	}
}

void ft_fits_trend_add(struct ft_fits_trend *tr, const struct ft_fits *t, uint64_t t_ns)
{
	size_t k, last = (tr->head + FT_FITS_TREND_LEN - 1) % FT_FITS_TREND_LEN;

	if (memcmp(&tr->sizes, &t->sizes, sizeof(tr->sizes)) || (tr->n && t_ns <= tr->t_ns[last])) {
		tr->sizes = t->sizes;
		tr->head = tr->n = 0;
	}
	tr->t_ns[tr->head] = t_ns;
	for (k = 0; k < t->sizes.nr; k++)
		tr->now[tr->head][k] = t->host[k].now_lo;
	tr->head = (tr->head + 1) % FT_FITS_TREND_LEN;
	if (tr->n < FT_FITS_TREND_LEN)
		tr->n++;
}

bool ft_fits_trend_rate(const struct ft_fits_trend *tr, size_t k, double *per_s, double *window_s)
{
	size_t first = (tr->head + FT_FITS_TREND_LEN - tr->n) % FT_FITS_TREND_LEN, i;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = (double)tr->n, t0, span, den;

	if (k >= tr->sizes.nr || tr->n < FT_FITS_TREND_MIN)
		return false;
	t0 = (double)tr->t_ns[first] / 1e9;
	span = (double)tr->t_ns[(tr->head + FT_FITS_TREND_LEN - 1) % FT_FITS_TREND_LEN] / 1e9 - t0;
	if (span < FT_FITS_TREND_MIN_S)
		return false;
	for (i = 0; i < tr->n; i++) {
		size_t j = (first + i) % FT_FITS_TREND_LEN;
		double x = (double)tr->t_ns[j] / 1e9 - t0, y = (double)tr->now[j][k];

		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	den = n * sxx - sx * sx;
	if (den <= 0)
		return false;
	*per_s = (n * sxy - sx * sy) / den;
	*window_s = span;
	return true;
}

double ft_fits_trend_eta(uint64_t now, uint64_t count, double per_s)
{
	if (now <= count)
		return 0;
	if (!(per_s < 0))
		return INFINITY;
	return (double)(now - count) / -per_s;
}
