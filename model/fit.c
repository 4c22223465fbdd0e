// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/fit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ft_fit_verdict_names[4] = { "now", "after_compaction", "no", "unknown" };

#define UNKNOWN UINT64_MAX

static uint64_t sat_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Keep the @n blocks with the smallest @key (insertion; equal keys keep PFN order). */
struct named {
	uint64_t pfn[FT_FIT_NAMED], key[FT_FIT_NAMED];
	uint32_t n;
};

static void name_block(struct named *nm, uint64_t pfn, uint64_t key)
{
	uint32_t i;

	if (nm->n == FT_FIT_NAMED && key >= nm->key[FT_FIT_NAMED - 1])
		return;
	i = nm->n < FT_FIT_NAMED ? nm->n++ : FT_FIT_NAMED - 1;
	while (i > 0 && nm->key[i - 1] > key) {
		nm->pfn[i] = nm->pfn[i - 1];
		nm->key[i] = nm->key[i - 1];
		i--;
	}
	nm->pfn[i] = pfn;
	nm->key[i] = key;
}

/* Pages the map read as free in blocks read whole, and the pages of blocks not read whole. */
static void map_free(const struct ft_pbmap_zone *z, int pb, uint64_t *free, uint64_t *unread)
{
	uint32_t b;

	*free = *unread = 0;
	for (b = 0; b < z->nr_blocks; b++) {
		if (z->blocks[b].cls == FT_PB_UNSCANNED)
			*unread += 1ull << pb;
		else
			*free += z->blocks[b].pages[FT_PG_FREE];
	}
}

/*
 * Sub-pageblock orders: each block's aligned units holding no unmovable
 * page nor hole.  Blocks reaching into the last @uhi pages of the zone may
 * be uninitialised: their units count in the upper figure only.
 */
static void units_small(const struct ft_fit_zin *in, int order, uint64_t uhi, struct ft_fit *f,
			struct named *nm)
{
	const struct ft_pbmap_zone *z = in->mz;
	int pb = in->m->order;
	uint64_t n = 1ull << (pb - order), per = 1ull << order,
	maybe_from = sat_sub(z->end_pfn, uhi);
	uint32_t b;

	for (b = 0; b < z->nr_blocks; b++) {
		const struct ft_pb_block *pb_ = &z->blocks[b];
		uint64_t unm, bad, worst, best;

		f->units += n;
		if (pb_->cls == FT_PB_UNSCANNED) {
			f->unread += n;
			f->empt_hi += n;
			continue;
		}
		unm = pb_->pages[FT_PG_UNMOVABLE];
		bad = unm + pb_->pages[FT_PG_HOLE];
		/* each bad page spoils at most one unit; packed, ceil(bad / per) */
		worst = sat_sub(n, bad);
		best = sat_sub(n, (bad + per - 1) / per);
		if (((z->first_block + b + 1) << pb) > maybe_from)
			worst = 0;
		f->empt_lo += worst;
		f->empt_hi += best;
		f->tainted += n - best;
		if (unm && !pb_->pages[FT_PG_HOLE])
			name_block(nm, (z->first_block + b) << pb, unm);
	}
}

/*
 * Orders from the pageblock's up: aligned units wholly inside the zone,
 * each of 2^(order - pb) blocks.  Units reaching into the last @ulo pages
 * of the zone are surely uninitialised, into the last @uhi maybe.  Up to
 * the buddy's largest order such a unit counts in the upper figures only
 * (the buddy initialises memory on demand, but how much of it is not
 * known: part of what reads free may be the kernel's); above, a sure one
 * not at all (alloc_contig_pages() refuses it), a maybe one in the upper.
 */
static void units_large(const struct ft_fit_zin *in, int order, uint64_t ulo, uint64_t uhi,
			struct ft_fit *f, struct named *nm)
{
	const struct ft_pbmap_zone *z = in->mz;
	int pb = in->m->order;
	uint64_t size = 1ull << order, r0 = (z->start_pfn + size - 1) >> order,
	r1 = z->end_pfn >> order;
	uint64_t per = 1ull << (order - pb), r;
	uint64_t sure_from = sat_sub(z->end_pfn, ulo), maybe_from = sat_sub(z->end_pfn, uhi);

	for (r = r0; r < r1; r++) {
		uint64_t pfn = r << order, b0 = (pfn >> pb) - z->first_block, b;
		uint64_t unm_blocks = 0, holes = 0, unread = 0, taint_pfn = 0;
		bool movable = false, sure_uninit = pfn + size > sure_from,
		maybe_uninit = pfn + size > maybe_from;
		bool in_buddy = order < in->nr_orders;

		f->units++;
		for (b = b0; b < b0 + per && b < z->nr_blocks; b++) {
			const struct ft_pb_block *pb_ = &z->blocks[b];

			if (pb_->cls == FT_PB_UNSCANNED) {
				unread++;
				continue;
			}
			if (pb_->pages[FT_PG_HOLE])
				holes++;
			if (pb_->pages[FT_PG_UNMOVABLE]) {
				if (!unm_blocks)
					taint_pfn = (z->first_block + b) << pb;
				unm_blocks++;
			}
			if (pb_->pages[FT_PG_MOVABLE])
				movable = true;
		}
		if (unm_blocks || holes) {
			f->tainted++;
			if (!holes && !unread && unm_blocks == 1)
				f->one_block++;
			if (!holes)
				name_block(nm, taint_pfn, unm_blocks);
			continue;
		}
		if (!in_buddy && sure_uninit)
			continue;	/* alloc_contig_pages() refuses it */
		if (unread) {
			f->unread++;
			f->empt_hi++;
			if (!movable)
				f->free_hi++;
			continue;
		}
		if (maybe_uninit) {
			f->empt_hi++;
			f->free_hi += !movable;
			continue;
		}
		f->empt_lo++;
		f->empt_hi++;
		if (!movable) {
			f->free_lo++;
			f->free_hi++;
		}
	}
}

void ft_fit_uninit(const struct ft_fit_zin *in, uint64_t *lo, uint64_t *hi)
{
	uint64_t mf, unread;

	*lo = *hi = 0;
	if (!in->m || !in->mz || !in->mz->blocks || in->m->order < 0)
		return;
	map_free(in->mz, in->m->order, &mf, &unread);
	if (mf > in->free_pages + in->drift)
		*lo = mf - in->free_pages;
	if (mf + unread > in->free_pages + in->drift)
		*hi = mf + unread - in->free_pages;
	if (*hi > in->mz->end_pfn - in->mz->start_pfn)
		*hi = in->mz->end_pfn - in->mz->start_pfn;
	*lo = min64(*lo, *hi);
}

uint64_t ft_fit_usable(const struct ft_fit_zin *in)
{
	return sat_sub(in->free_pages, in->unusable + in->wmark);
}

void ft_fit_zone(const struct ft_fit_zin *in, int order, struct ft_fit *f)
{
	uint64_t usable, ulo = 0, uhi = 0, cap_lo, cap_hi;
	struct named nm = { .n = 0 };
	int i;

	memset(f, 0, sizeof(*f));
	f->node = in->node;
	snprintf(f->zone, sizeof(f->zone), "%s", in->zone ? in->zone : "");
	f->order = order;
	f->free_pages = in->free_pages;
	f->wmark = in->wmark;
	f->unusable = in->unusable;
	f->buddy = order < in->nr_orders;
	f->map = in->m && in->mz && in->mz->blocks && in->m->order >= 0 &&
	order <= FT_FIT_MAX_ORDER;
	if (f->map) {	/* the caller's, once for every size (ft_fit_uninit()) */
		ulo = in->uninit_lo;
		uhi = in->uninit_hi;
	}
	f->uninit_lo = ulo;
	f->uninit_hi = uhi;
	/* free memory an allocation may take: above the watermark, initialised on demand */
	usable = ft_fit_usable(in);
	cap_lo = order > 62 ? 0 : usable >> order;
	cap_hi = order > 62 ? 0 : (usable + uhi) >> order;
	f->wmark_cap = cap_lo;
	if (!f->buddy) {
		/* alloc_contig_range() migrates to any node's free memory */
		cap_lo = order > 62 ? 0 : in->contig_free_lo >> order;
		cap_hi = order > 62 ? 0 : in->contig_free_hi >> order;
	}
	f->free_cap = cap_lo;

	if (f->map) {
		if (order < in->m->order)
			units_small(in, order, uhi, f, &nm);
		else
			units_large(in, order, ulo, uhi, f, &nm);
		memcpy(f->taint_pfn, nm.pfn, sizeof(nm.pfn));
		f->named = nm.n;
	}

	if (f->buddy) {
		uint64_t b = 0;

		if (in->blocks)
			for (i = order; i < in->nr_orders; i++)
				b += in->blocks[i] << (i - order);
		f->free_lists = b;
		if (!in->blocks) {
			f->now_lo = 0;
			f->now_hi = UNKNOWN;
		} else {
			f->now_lo = min64(b, cap_lo);
			f->now_hi = min64(b + (uhi >> order), cap_hi);
		}
	} else if (f->map) {
		f->now_lo = f->free_lo;
		f->now_hi = f->free_hi;
	} else {
		f->now_lo = 0;
		f->now_hi = UNKNOWN;
	}
	if (f->map) {
		f->after_lo = max64(f->now_lo, min64(f->empt_lo, cap_lo));
		f->after_hi = f->now_hi == UNKNOWN ? UNKNOWN : max64(f->now_hi,
								     min64(f->empt_hi, cap_hi));
	} else {
		f->after_lo = f->now_lo;
		f->after_hi = UNKNOWN;
	}
}

static uint64_t add_u(uint64_t a, uint64_t b)
{
	return a == UNKNOWN || b == UNKNOWN || a + b < a ? UNKNOWN : a + b;
}

void ft_fit_add(struct ft_fit *sum, const struct ft_fit *z)
{
	uint32_t i;

	sum->buddy = sum->zones ? sum->buddy && z->buddy : z->buddy;
	sum->map = sum->zones ? sum->map && z->map : z->map;
	sum->zones++;
	sum->free_pages += z->free_pages;
	sum->wmark += z->wmark;
	sum->unusable += z->unusable;
	sum->uninit_lo += z->uninit_lo;
	sum->uninit_hi += z->uninit_hi;
	sum->free_lists += z->free_lists;
	sum->wmark_cap += z->wmark_cap;
	sum->free_cap += z->free_cap;
	sum->units += z->units;
	sum->free_lo += z->free_lo;
	sum->free_hi += z->free_hi;
	sum->empt_lo += z->empt_lo;
	sum->empt_hi += z->empt_hi;
	sum->tainted += z->tainted;
	sum->unread += z->unread;
	sum->one_block += z->one_block;
	sum->now_lo = add_u(sum->now_lo, z->now_lo);
	sum->now_hi = add_u(sum->now_hi, z->now_hi);
	sum->after_lo = add_u(sum->after_lo, z->after_lo);
	sum->after_hi = add_u(sum->after_hi, z->after_hi);
	for (i = 0; i < z->named && sum->named < FT_FIT_NAMED; i++)
		sum->taint_pfn[sum->named++] = z->taint_pfn[i];
}

int ft_fit_size_parse(const char *s, long page_size)
{
	static const char units[] = "KMGTP";
	unsigned long long v;
	const char *u;
	char *end;
	int shift = 0, order = 0, ps = 0;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (*end) {
		u = strchr(units, end[0] == 'k' ? 'K' : end[0]);
		if (!u || !end[0])
			return -EINVAL;
		shift = 10 * (int)(u - units + 1);
		end++;
		/* 2M, 2MB, 2MiB, 2kB, 2KiB */
		if (!strcmp(end, "iB") || !strcmp(end, "B"))
			end += strlen(end);
		if (*end)
			return -EINVAL;
	}
	if (!v)
		return -EDOM;
	if (v & (v - 1))
		return -EDOM;
	while ((1ull << order) < v)
		order++;
	order += shift;
	if (page_size <= 0 || page_size & (page_size - 1))
		return -EINVAL;
	while ((1l << ps) < page_size)
		ps++;
	if (order < ps)
		return -EDOM;
	if (order - ps > FT_FIT_MAX_ORDER)
		return -ERANGE;
	return order - ps;
}

const char *ft_fit_size_name(int order, long page_size, char *buf, size_t sz)
{
	static const char unit[] = "KMGTPE";
	uint64_t kb = ((uint64_t)(page_size > 0 ? page_size : 4096) << order) / 1024;
	int u = 0;

	while (kb >= 1024 && !(kb % 1024) && u < 5) {
		kb /= 1024;
		u++;
	}
	snprintf(buf, sz, "%llu%c", (unsigned long long)kb, unit[u]);
	return buf;
}

/* Needs, or with @bare sizes too (count 0); see ft_fit_needs_parse(). */
static int items_parse(const char *s, long page_size, bool bare, struct ft_fit_need *out,
		       size_t *nr, char *err,
		       size_t errsz)
{
	const char *p = s, *what = bare ? "[COUNTx]SIZE" : "COUNTxSIZE";

	*nr = 0;
	if (!s || !*s) {
		snprintf(err, errsz, "nothing given (%s, e.g. %s)", what,
			 bare ? "2M or 4x1G" : "4x1G");
		return -EINVAL;
	}
	while (*p) {
		char item[64], *x, *end;
		size_t len = strcspn(p, ",");
		unsigned long long count = 0;
		const char *size;
		int order;

		if (!len || len >= sizeof(item)) {
			snprintf(err, errsz, "item %zu: %s", *nr + 1, len ? "too long" : "empty");
			return -EINVAL;
		}
		memcpy(item, p, len);
		item[len] = 0;
		x = strpbrk(item, "xX*");
		if (x) {
			*x = 0;
			errno = 0;
			count = strtoull(item, &end, 10);
			if (x == item || *end || item[0] == '-' || item[0] == '+' || errno ||
			    !count) {
				snprintf(err, errsz,
					 "item %zu: the count must be a whole number from 1 up",
					 *nr + 1);
				return -EINVAL;
			}
			size = x + 1;
		} else if (bare) {
			size = item;
		} else {
			snprintf(err, errsz, "item %zu: expected %s (e.g. 4x1G)", *nr + 1, what);
			return -EINVAL;
		}
		order = ft_fit_size_parse(size, page_size);
		if (order < 0) {
			snprintf(err, errsz, "item %zu: size '%.32s': %s", *nr + 1, size,
				 order == -EDOM ? "not a power of two of at least a page" :
				 order == -ERANGE ? "too large" : "not a size (e.g. 4K, 2M, 1G)");
			return -EINVAL;
		}
		if (*nr == FT_FIT_NEEDS_MAX) {
			snprintf(err, errsz, "more than %d items", FT_FIT_NEEDS_MAX);
			return -EINVAL;
		}
		out[*nr].count = count;
		out[*nr].order = order;
		(*nr)++;
		p += len;
		if (*p == ',') {
			p++;
			if (!*p) {
				snprintf(err, errsz, "item %zu: empty", *nr + 1);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int ft_fit_needs_parse(const char *s, long page_size, struct ft_fit_need *out, size_t *nr,
		       char *err,
		       size_t errsz)
{
	return items_parse(s, page_size, false, out, nr, err, errsz);
}

int ft_fit_interest_parse(const char *s, long page_size, struct ft_fit_need *out, size_t *nr,
			  char *err,
			  size_t errsz)
{
	return items_parse(s, page_size, true, out, nr, err, errsz);
}

int ft_fit_sizes_parse(const char *s, long page_size, int *orders, size_t max, size_t *nr,
		       char *err,
		       size_t errsz)
{
	struct ft_fit_need n[FT_FIT_NEEDS_MAX];
	size_t i, k;
	int rc = items_parse(s, page_size, true, n, &k, err, errsz);

	*nr = 0;
	if (rc)
		return rc;
	for (i = 0; i < k; i++) {
		if (n[i].count) {
			snprintf(err, errsz, "item %zu: a size, not COUNTxSIZE", i + 1);
			return -EINVAL;
		}
		if (*nr == max) {
			snprintf(err, errsz, "more than %zu sizes", max);
			return -EINVAL;
		}
		orders[(*nr)++] = n[i].order;
	}
	return 0;
}

enum ft_fit_verdict ft_fit_judge(const struct ft_fit *f, uint64_t count)
{
	if (count <= f->now_lo)
		return FT_FIT_NOW;
	if (count <= f->after_lo)
		return FT_FIT_AFTER;
	if (f->after_hi != UNKNOWN && count > f->after_hi)
		return FT_FIT_NO;
	return FT_FIT_UNKNOWN;
}

static enum ft_fit_verdict worse(enum ft_fit_verdict a, enum ft_fit_verdict b)
{
	static const int rank[4] = { 0, 1, 3, 2 };	/* now, after, no, unknown */

	return rank[a] > rank[b] ? a : b;
}

/* @f less what @taken pages took from it (blocks of its order that those pages held). */
static void left_of(const struct ft_fit *f, uint64_t taken, struct ft_fit *out)
{
	uint64_t t = f->order > 62 ? 0 : taken >> f->order;

	*out = *f;
	out->now_lo = sat_sub(f->now_lo, t);
	out->after_lo = sat_sub(f->after_lo, t);
	if (f->now_hi != UNKNOWN)
		out->now_hi = sat_sub(f->now_hi, t);
	if (f->after_hi != UNKNOWN)
		out->after_hi = sat_sub(f->after_hi, t);
}

/*
 * A sum's figures above the buddy's orders held to the free memory left for migration (@lo, @hi
 * pages).
 */
static void hold_to(struct ft_fit *f, uint64_t lo, uint64_t hi)
{
	uint64_t cl, ch;

	if (f->buddy || f->order > 62)
		return;
	cl = lo >> f->order;
	ch = hi >> f->order;
	f->after_lo = max64(f->now_lo, min64(f->after_lo, cl));
	if (f->after_hi != UNKNOWN)
		f->after_hi = max64(f->now_hi == UNKNOWN ? 0 : f->now_hi, min64(f->after_hi, ch));
}

enum ft_fit_verdict ft_fit_needs_judge(const struct ft_fit *z, size_t nz, const bool *use,
				       const struct ft_fit_need *needs, size_t nn, uint64_t free_lo,
				       uint64_t free_hi, struct ft_fit *left,
				       enum ft_fit_verdict *each)
{
	uint64_t *taken = calloc(nz ? nz : 1, sizeof(*taken)), all_taken = 0;
	size_t idx[FT_FIT_NEEDS_MAX], i, j, k;
	enum ft_fit_verdict all = FT_FIT_NOW;

	if (!taken || nn > FT_FIT_NEEDS_MAX) {
		free(taken);
		return FT_FIT_UNKNOWN;
	}
	/* largest first; equal sizes in the order given */
	for (i = 0; i < nn; i++) {
		idx[i] = i;
		for (j = i; j > 0 && needs[idx[j - 1]].order < needs[idx[j]].order; j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	}
	for (i = 0; i < nn; i++) {
		const struct ft_fit_need *nd = &needs[idx[i]];
		struct ft_fit *sum = &left[idx[i]], l;
		uint64_t want, compacted;

		memset(sum, 0, sizeof(*sum));
		sum->node = -1;
		sum->order = nd->order;
		for (k = 0; k < nz; k++)
			if (use[k]) {
				left_of(&z[k * nn + idx[i]], taken[k], &l);
				ft_fit_add(sum, &l);
			}
		hold_to(sum, sat_sub(free_lo, all_taken), sat_sub(free_hi, all_taken));
		each[idx[i]] = ft_fit_judge(sum, nd->count);
		all = worse(all, each[idx[i]]);
		/* take the blocks: from what is free now, then from what compaction gives */
		want = min64(nd->count, sum->after_lo);
		compacted = sat_sub(want, sum->now_lo);
		for (int pass = 0; pass < 2 && want; pass++)
			for (k = 0; k < nz && want; k++) {
				uint64_t have, t;

				if (!use[k])
					continue;
				left_of(&z[k * nn + idx[i]], taken[k], &l);
				have = pass ? min64(sat_sub(l.after_lo, l.now_lo),
						    compacted) : l.now_lo;
				t = min64(have, want);
				want -= t;
				if (pass)
					compacted -= t;
				taken[k] += t << nd->order;
				all_taken += t << nd->order;
			}
	}
	free(taken);
	return all;
}

/*
 * The value of the first line of @text starting with @key (up to its colon), or NULL; its end in
 * *@end.
 */
static const char *cpu_field(const char *text, size_t len, const char *key, const char **end)
{
	const char *p = text, *stop = text + len;
	size_t k = strlen(key);

	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p)), *colon;

		if (!nl)
			nl = stop;
		if (p == nl)
			return NULL;	/* the first processor's block ends */
		colon = memchr(p, ':', (size_t)(nl - p));
		if ((size_t)(nl - p) > k && !strncmp(p, key, k) && colon &&
		    (p[k] == ' ' || p[k] == '\t' || p[k] == ':')) {
			*end = nl;
			return colon + 1;
		}
		p = nl + 1;
	}
	return NULL;
}

void ft_fit_cpuinfo(const char *text, size_t len, struct ft_fit_cpu *out)
{
	const char *v, *end;

	out->arch = FT_ARCH_UNKNOWN;
	out->pdpe1gb = -1;
	if ((v = cpu_field(text, len, "flags", &end))) {
		const char *p = v;

		out->arch = FT_ARCH_X86;
		out->pdpe1gb = 0;
		while (p + 7 <= end) {
			if (!strncmp(p, "pdpe1gb", 7) && p[-1] == ' ' &&
			    (p + 7 == end || p[7] == ' ' || p[7] == '\n')) {
				out->pdpe1gb = 1;
				break;
			}
			p++;
		}
	} else if ((v = cpu_field(text, len, "CPU architecture", &end))) {
		while (v < end && *v == ' ')
			v++;
		/* "8", the whole value (the text is not terminated: no strtol) */
		if (end - v >= 1 && v[0] == '8' && (end - v == 1 || v[1] == ' ' || v[1] == '\n'))
			out->arch = FT_ARCH_ARM64;
	}
}

bool ft_fit_hugetlb_arch(enum ft_fit_arch arch, long page_size, int order)
{
	static const struct { enum ft_fit_arch arch; long page; uint64_t kb[4]; } tab[] = {
		{ FT_ARCH_X86, 4096, { 2048, 1048576 } },
		{ FT_ARCH_ARM64, 4096, { 64, 2048, 32768, 1048576 } },
		{ FT_ARCH_ARM64, 16384, { 2048, 32768, 1048576 } },
		{ FT_ARCH_ARM64, 65536, { 2048, 524288, 16777216 } },
	};
	uint64_t kb;
	size_t i, k;

	if (page_size <= 0 || order < 0 || order > 40)
		return false;
	kb = ((uint64_t)page_size << order) / 1024;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		for (k = 0; tab[i].arch == arch && tab[i].page == page_size && k < 4; k++)
			if (tab[i].kb[k] == kb)
				return true;
	return false;
}
