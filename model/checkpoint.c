// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's checkpoint codec (model/checkpoint.h), struct by struct.
 *
 * What becomes of every member of struct ft_session:
 *  - its plain values are in one nested struct per owner, `state`
 *    (model/session.h: the session's, the sample's, buddyinfo's,
 *    pagetypeinfo's, the decoder's, the events', the map's, the latency
 *    ring's; a map zone's): written whole, read back whole.  They hold no pointer:
 *    tests/cli/plain.sh walks the compiler's debug info to make sure;
 *  - owned arrays: a pointer, its count and its capacity; the elements
 *    are written after their count and read into the restoring session's
 *    own storage (grown when it is short);
 *  - kept: what stays the restoring session's: its storage pointers and
 *    capacities, the decoder (formats do not change after a session
 *    starts), the host facts, the callbacks, the options, the join and
 *    the vmstat indexes that ft_sample_rejoin() rebuilds.
 * A pointer is never written and never read.  test_checkpoint checks that
 * the three place every byte of the session but padding once, so a new
 * member must be placed: in a state, as an array, or kept.
 *
 * A checkpoint is for the same build (the header holds a fingerprint of
 * the layout): the replay source keeps them in memory for its seeks.
 */
#include "model/checkpoint.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/grow.h"

#define CK_MAGIC	0x334b4346u	/* "FCK3" */

/*
 * The plain values, whole: each struct that owns some keeps them in one
 * nested struct, `state` (model/session.h), which holds no pointer
 * (tests/cli/plain.sh walks the compiler's debug info to make sure).
 */
struct ck_state {
	void *p;
	size_t len;
};

#define STATE(x)	{ &(x).state, sizeof((x).state) }

static size_t states_of(struct ft_session *s, struct ck_state *out)
{
	const struct ck_state st[] = {
		STATE(*s), STATE(s->sample), STATE(s->sample.buddy), STATE(s->sample.pti),
		STATE(s->dec), STATE(s->events), STATE(s->map), STATE(s->lat),
	};

	memcpy(out, st, sizeof(st));
	return sizeof(st) / sizeof(st[0]);
}

#define NR_STATES	8

/*
 * An owned array of plain elements: its pointer, count and capacity, and
 * the element's size; a text has a NUL after its elements.
 */
struct ck_array {
	void **ptr;
	size_t *nr, *cap;
	size_t elsz;
	bool text;
};

#define ARR(p, n, c)	{ (void **)&(p), &(n), &(c), sizeof(*(p)), false }
#define MAX_ARRAYS	(10 + FT_SRC_NR + FT_LAT_RING * FT_LAT_NR)

static size_t arrays_of(struct ft_session *s, struct ck_array *out)
{
	struct ft_sample *m = &s->sample;
	const struct ck_array fixed[] = {
		ARR(m->zoneinfo.zones, m->zoneinfo.nr, m->zoneinfo.cap),
		ARR(m->buddy.zones, m->buddy.nr, m->buddy.cap),
		ARR(m->pti.zones, m->pti.nr, m->pti.cap),
		ARR(m->vmstat.items, m->vmstat.nr, m->vmstat.cap),
		ARR(m->prev_vmstat.items, m->prev_vmstat.nr, m->prev_vmstat.cap),
		ARR(s->audits, s->nr_audits, s->cap_audits),
		ARR(s->owners.looks, s->owners.nr, s->owners.cap),
		ARR(s->owners.text, s->owners.text_len, s->owners.text_cap),
		ARR(s->owners.stacks, s->owners.stacks_len, s->owners.stacks_cap),
		ARR(s->cgroups, s->nr_cgroups, s->cap_cgroups),
	};
	size_t n = sizeof(fixed) / sizeof(fixed[0]), i, k;

	_Static_assert(sizeof(fixed) / sizeof(fixed[0]) + FT_SRC_NR + FT_LAT_RING *
		       FT_LAT_NR == MAX_ARRAYS,
		       "MAX_ARRAYS counts them");
	memcpy(out, fixed, sizeof(fixed));
	/* the /proc texts given since the last tick */
	for (i = 0; i < FT_SRC_NR; i++)
		out[n++] = (struct ck_array){ (void **)&s->pending[i].buf, &s->pending[i].len,
					      &s->pending[i].cap, 1, true };
	/* each ring tick's non-empty stall buckets, source by source */
	for (i = 0; i < FT_LAT_RING; i++)
		for (k = 0; k < FT_LAT_NR; k++)
			out[n++] = (struct ck_array)ARR(s->lat.cells[i][k].c, s->lat.cells[i][k].nr,
							s->lat.cells[i][k].cap);
	return n;
}

/*
 * For test_checkpoint: every byte of the session (or of a map zone) the
 * codec places, by where it is in the struct: a state, an owned array's
 * pointer, count and capacity, or what the restoring session keeps (its
 * storage, the decoder, the host facts, callbacks and options, the join
 * ft_sample_rejoin() rebuilds).
 */
size_t ft_checkpoint_cover(enum ft_ck_struct which, uint8_t *cover, size_t len)
{
	static struct ft_session s;	/* only its members' places are taken */
	struct ck_state st[NR_STATES];
	struct ck_array arr[MAX_ARRAYS];
	size_t over = 0, i, k, n;
	const uint8_t *base;

#define MARK(p, sz) do { size_t o_ = (size_t)((const uint8_t *)(p) - base); \
	for (k = o_; k < o_ + (sz) && k < len; k++) over += cover[k]++ > 0; } while (0)
#define KEEP(m) MARK(&s.m, sizeof(s.m))
	if (which == FT_CK_PBZONE) {
		static struct ft_pbmap_zone z;

		base = (const uint8_t *)&z;
		MARK(&z.state, sizeof(z.state));
		MARK(&z.blocks, sizeof(z.blocks));
		return over;
	}
	base = (const uint8_t *)&s;
	n = states_of(&s, st);
	for (i = 0; i < n; i++)
		MARK(st[i].p, st[i].len);
	n = arrays_of(&s, arr);
	for (i = 0; i < n; i++) {
		MARK(arr[i].ptr, sizeof(void *));
		MARK(arr[i].nr, sizeof(size_t));
		MARK(arr[i].cap, sizeof(size_t));
	}
	KEEP(host);
	KEEP(sample.zones);			/* the join, rebuilt */
	KEEP(sample.nr_zones);
	KEEP(sample.cap_zones);
	KEEP(sample.vmstat.at);			/* the known counters' indexes, rebuilt */
	KEEP(sample.prev_vmstat.at);
	KEEP(lean);				/* an option of the session */
	KEEP(tracing);
	KEEP(trace_enabled);
	/* the decoder's formats, but what it counted (its state) */
	MARK(&s.dec, (size_t)((const uint8_t *)&s.dec.state - (const uint8_t *)&s.dec));
	KEEP(syms);				/* META inputs, as the formats */
	KEEP(events.on_fallback);
	KEEP(events.on_fallback_ctx);
	KEEP(events.on_latency);
	KEEP(events.on_latency_ctx);
	KEEP(events.on_isolate);
	KEEP(events.on_isolate_ctx);
	KEEP(trq);				/* empty at a tick */
	KEEP(map.zones);			/* the map's zones: written after the arrays */
	KEEP(map.nr);
	KEEP(map.cap);
	KEEP(kpf_early);			/* empty after the first tick */
	KEEP(kpf_early_len);
	KEEP(kpf_early_cap);
#undef KEEP
#undef MARK
	return over;
}

/* FNV-1a of the layout: a checkpoint of another build is refused */
static uint64_t fingerprint(void)
{
	static struct ft_session s;
	struct ck_state st[NR_STATES];
	struct ck_array arr[MAX_ARRAYS];
	uint64_t h = 0xcbf29ce484222325ull;
	size_t v[1], i, j, n;

#define MIX(x) do { \
	v[0] = (x); \
	for (j = 0; j < sizeof(size_t); j++) { \
		h ^= (v[0] >> (8 * j)) & 0xff; \
		h *= 0x100000001b3ull; \
	} \
} while (0)
	MIX(sizeof(struct ft_session));
	MIX(sizeof(struct ft_pbmap_zone_state));
	MIX(sizeof(struct ft_pb_block));
	n = states_of(&s, st);
	for (i = 0; i < n; i++)
		MIX(st[i].len);
	n = arrays_of(&s, arr);
	for (i = 0; i < n; i++)
		MIX(arr[i].elsz);
#undef MIX
	return h;
}

struct ck_buf {
	uint8_t *p;
	size_t len, cap;
	int err;
};

static void put(struct ck_buf *b, const void *data, size_t n)
{
	if (b->err)
		return;
	if (n > SIZE_MAX - b->len ||
	    ft_grow_from((void **)&b->p, &b->cap, b->len + n, 1, 1 << 16, SIZE_MAX / 2)) {
		b->err = -ENOMEM;
		return;
	}
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void put_arr(struct ck_buf *b, const void *arr, uint64_t nr, size_t elsz)
{
	put(b, &nr, sizeof(nr));
	if (nr)
		put(b, arr, (size_t)nr * elsz);
}



static int compress(const struct ck_buf *b, void **out, size_t *len)
{
	size_t bound = ZSTD_compressBound(b->len), n = (size_t)-1;
	ZSTD_CCtx *cc;
	void *z = malloc(bound + 8);

	if (!z)
		return -ENOMEM;
	/* level 1, with a content checksum: a damaged checkpoint is refused */
	cc = ZSTD_createCCtx();
	if (cc && !ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1)) &&
	    !ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1)))
		n = ZSTD_compress2(cc, (uint8_t *)z + 8, bound, b->p, b->len);
	ZSTD_freeCCtx(cc);
	if (ZSTD_isError(n)) {
		free(z);
		return -EIO;
	}
	memcpy(z, &(uint64_t){ b->len }, 8);
	*out = z;
	*len = n + 8;
	return 0;
}

int ft_session_save(const struct ft_session *s, void **out, size_t *len)
{
	struct ck_buf b = { 0 };
	uint64_t head[2] = { CK_MAGIC, fingerprint() };
	struct ck_state st[NR_STATES];
	struct ck_array arr[MAX_ARRAYS];
	/* the descriptors point into @s; nothing is written through them here */
	struct ft_session *rs = (struct ft_session *)(uintptr_t)s;
	size_t i, n;
	int err;

	put(&b, head, sizeof(head));
	n = states_of(rs, st);
	for (i = 0; i < n; i++)
		put(&b, st[i].p, st[i].len);
	n = arrays_of(rs, arr);
	for (i = 0; i < n; i++)
		put_arr(&b, *arr[i].ptr, *arr[i].ptr ? *arr[i].nr : 0, arr[i].elsz);
	put_arr(&b, NULL, s->map.nr, 0);
	for (i = 0; i < s->map.nr; i++) {
		const struct ft_pbmap_zone *z = &s->map.zones[i];

		put(&b, &z->state, sizeof(z->state));
		put(&b, z->blocks, (size_t)z->nr_blocks * sizeof(*z->blocks));
	}
	err = b.err ? b.err : compress(&b, out, len);
	free(b.p);
	return err;
}

struct ck_rd {
	const uint8_t *p;
	size_t len, off;
};

static const void *take(struct ck_rd *r, size_t n)
{
	const void *p = r->p + r->off;

	if (r->len - r->off < n)
		return NULL;
	r->off += n;
	return p;
}

/* @n bytes into @dst (the checkpoint was walked by valid() first) */
static void take_into(struct ck_rd *r, void *dst, size_t n)
{
	const void *p = take(r, n);

	if (p && n)
		memcpy(dst, p, n);
}

static bool take_count(struct ck_rd *r, size_t elsz, uint64_t *n)
{
	const void *p = take(r, sizeof(*n));

	if (!p)
		return false;
	memcpy(n, p, sizeof(*n));
	return *n <= (r->len - r->off) / (elsz ? elsz : 1);
}

/*
 * Walk the checkpoint without writing anything: every length within the
 * blob, the map's block counts as its zones say.  So a refused checkpoint
 * changes nothing.
 */
static bool valid(struct ck_rd r, const struct ck_state *st, size_t nst, const struct ck_array *arr,
		  size_t narr)
{
	struct ft_pbmap_zone_state zs;
	size_t i;
	uint64_t n, nz;

	for (i = 0; i < nst; i++)
		if (!take(&r, st[i].len))
			return false;
	for (i = 0; i < narr; i++)
		if (!take_count(&r, arr[i].elsz, &n) || !take(&r, (size_t)n * arr[i].elsz))
			return false;
	if (!take_count(&r, sizeof(zs), &nz))
		return false;
	for (i = 0; i < nz; i++) {
		const void *p = take(&r, sizeof(zs));

		if (!p)
			return false;
		memcpy(&zs, p, sizeof(zs));
		if (!take(&r, (size_t)zs.nr_blocks * sizeof(struct ft_pb_block)))
			return false;
	}
	return r.off == r.len;
}


/* Elements into *@arr (grown to hold them and, for a text, its NUL). */
static int get_arr(struct ck_rd *r, void **arr, size_t *nr, size_t *cap, size_t elsz, bool text)
{
	uint64_t n = 0;
	size_t need;

	take_count(r, elsz, &n);
	need = (size_t)n + (text ? 1 : 0);
	if (need > *cap || !*arr) {
		void *np = realloc(*arr, need ? need * elsz : 1);

		if (!np)
			return -ENOMEM;
		*arr = np;
		*cap = need;
	}
	take_into(r, *arr, (size_t)n * elsz);
	*nr = (size_t)n;
	if (text)
		((char *)*arr)[n] = '\0';
	return 0;
}

static int get_map(struct ck_rd *r, struct ft_pbmap *m)
{
	uint64_t n = 0;
	size_t i;

	take_count(r, 0, &n);
	for (i = (size_t)n; i < m->nr; i++) {
		free(m->zones[i].blocks);
		m->zones[i].blocks = NULL;
	}
	if (n > m->cap) {
		struct ft_pbmap_zone *nz = realloc(m->zones, (size_t)n * sizeof(*nz));

		if (!nz) {
			m->nr = m->nr < n ? m->nr : (size_t)n;
			return -ENOMEM;
		}
		memset(nz + m->cap, 0, ((size_t)n - m->cap) * sizeof(*nz));
		m->zones = nz;
		m->cap = (size_t)n;
	}
	for (i = m->nr; i < n; i++)
		m->zones[i].blocks = NULL;
	m->nr = (size_t)n;
	for (i = 0; i < m->nr; i++) {
		struct ft_pbmap_zone *z = &m->zones[i];
		size_t bytes;
		void *nb;

		take_into(r, &z->state, sizeof(z->state));
		bytes = (size_t)z->nr_blocks * sizeof(*z->blocks);
		nb = realloc(z->blocks, bytes ? bytes : 1);
		if (!nb) {
			z->nr_blocks = 0;
			m->nr = i + 1;
			return -ENOMEM;
		}
		z->blocks = nb;
		take_into(r, z->blocks, bytes);
	}
	return 0;
}

static int decompress(const void *blob, size_t len, uint8_t **raw, size_t *n)
{
	uint64_t raw_len;
	size_t got;

	if (len < 8)
		return -EBADMSG;
	memcpy(&raw_len, blob, 8);
	if (raw_len < 16 || raw_len > (1ull << 34))
		return -EBADMSG;
	*raw = malloc((size_t)raw_len);
	if (!*raw)
		return -ENOMEM;
	got = ZSTD_decompress(*raw, (size_t)raw_len, (const uint8_t *)blob + 8, len - 8);
	if (ZSTD_isError(got) || got != raw_len) {
		free(*raw);
		return -EBADMSG;
	}
	*n = got;
	return 0;
}

int ft_session_restore(struct ft_session *s, const void *blob, size_t len)
{
	struct ck_rd r = { 0 };
	uint64_t head[2] = { 0 };
	struct ck_state st[NR_STATES];
	struct ck_array arr[MAX_ARRAYS];
	size_t i, nst, narr;
	uint8_t *raw;
	int err;

	err = decompress(blob, len, &raw, &r.len);
	if (err)
		return err;
	r.p = raw;
	take_into(&r, head, sizeof(head));
	nst = states_of(s, st);
	narr = arrays_of(s, arr);
	if (head[0] != CK_MAGIC || head[1] != fingerprint() || !valid(r, st, nst, arr, narr)) {
		free(raw);
		return -EBADMSG;
	}
	for (i = 0; i < nst; i++)
		take_into(&r, st[i].p, st[i].len);
	s->trq.nr = 0;			/* checkpoints are taken at ticks, when nothing waits */
	for (i = 0; !err && i < narr; i++)
		err = get_arr(&r, arr[i].ptr, arr[i].nr, arr[i].cap, arr[i].elsz, arr[i].text);
	if (!err)
		err = get_map(&r, &s->map);
	if (!err)
		err = ft_sample_rejoin(&s->sample);
	if (err) {
		/* out of memory part way: a consistent, empty-ish session */
		s->sample.valid = 0;
		s->sample.nr_zones = 0;
	}
	free(raw);
	return err;
}
