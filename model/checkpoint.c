// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's checkpoint codec (model/checkpoint.h), field by field.
 *
 * Three tables say what becomes of every member of struct ft_session:
 *  - saved: runs of plain fields (numbers, fixed arrays, names), written
 *    as they are and read back into the restoring session at their place;
 *  - owned arrays: a pointer, its count and its capacity; the elements
 *    are written after their count and read into the restoring session's
 *    own storage (grown when it is short);
 *  - kept: what stays the restoring session's: its storage pointers and
 *    capacities, the decoder (formats do not change after a session
 *    starts), the host facts, the callbacks, the options, the join that
 *    ft_sample_rejoin() rebuilds.
 * A pointer is never written and never read: restore writes only saved
 * bytes, at their offsets.  The map's zones (each owning its blocks) have
 * tables of their own.  test_checkpoint checks that each table covers
 * every byte of its struct but padding once, so a new member must be
 * placed in one of them.
 *
 * A checkpoint is for the same build (the header holds a fingerprint of
 * the tables): the replay source keeps them in memory for its seeks.
 */
#include "model/checkpoint.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/grow.h"

#define CK_MAGIC	0x324b4346u	/* "FCK2" */

#define SZ(T, m)	sizeof(((T *)0)->m)
/* the members from @a to @b (inclusive), in declaration order */
#define RUN(T, a, b)	{ offsetof(T, a), offsetof(T, b) + SZ(T, b) - offsetof(T, a) }
#define ONE(T, m)	RUN(T, m, m)

/* the two structures whose ranges are saved (no typedef: the macros name them) */
#define S_RUN(a, b)	RUN(struct ft_session, a, b)
#define S_ONE(m)	ONE(struct ft_session, m)
#define Z_RUN(a, b)	RUN(struct ft_pbmap_zone, a, b)
#define S_OFF(m)	offsetof(struct ft_session, m)
#define Z_OFF(m)	offsetof(struct ft_pbmap_zone, m)

/* @len bytes at @off */
struct ck_span {
	size_t off, len;
};

static const struct ck_span saved[] = {
	S_RUN(t_ns, counter_first_have),
	S_RUN(sample.t_ns, sample.src_t_ns),
	S_ONE(sample.buddy.nr_orders),
	S_RUN(sample.pti.pageblock_order, sample.pti.types),
	S_RUN(sample.prev_vmstat_t_ns, sample.pageblock_order_fallback),
	S_ONE(sample.rates),
	S_ONE(knobs),
	S_RUN(pending_err, pending_fresh),
	S_ONE(trace_err),
	S_RUN(dec.missed, dec.walked),
	S_RUN(lost, page_bytes),
	S_ONE(events.pageblock_order),
	S_RUN(events.nr_zones, events.stack_other),
	S_RUN(ev_prev, lat_ring_n),
	S_ONE(map.order),
	S_RUN(map.ram, map.epochs),
	S_RUN(map_err, names),
	S_RUN(audits_dropped, formats_repeated),
};

static const struct ck_span kept[] = {
	S_ONE(host),
	S_RUN(sample.zones, sample.cap_zones),	/* the join, rebuilt */
	S_ONE(sample.vmstat.at),		/* the indexes of known counters, rebuilt */
	S_ONE(sample.prev_vmstat.at),
	S_ONE(lean),				/* an option of the session */
	S_ONE(tracing),
	S_ONE(trace_enabled),
	S_RUN(dec.tep, dec.status_name),	/* the formats */
	S_ONE(syms),				/* META inputs, as the formats */
	S_RUN(events.on_fallback, events.on_latency_ctx),
	S_ONE(trq),				/* empty at a tick: nr_trq is set to 0 */
	S_ONE(cap_trq),
	S_RUN(kpf_early, kpf_early_cap),	/* empty after the first tick */
};

/*
 * An owned array of plain elements (@ptr, its count @nr and capacity @cap,
 * all size_t but the pointer); @rep of them, @stride apart (pending[]).
 */
struct ck_array {
	size_t ptr, nr, cap, elsz;
	int rep;
	size_t stride;
	bool text;		/* a NUL follows the elements (pending texts) */
};

#define ARR(p, n, c, T)	{ S_OFF(p), S_OFF(n), S_OFF(c), sizeof(T), 1, 0, false }

static const struct ck_array arrays[] = {
	ARR(sample.zoneinfo.zones, sample.zoneinfo.nr, sample.zoneinfo.cap, struct ft_zi_zone),
	ARR(sample.buddy.zones, sample.buddy.nr, sample.buddy.cap, struct ft_buddy_zone),
	ARR(sample.pti.zones, sample.pti.nr, sample.pti.cap, struct ft_pti_zone),
	ARR(sample.vmstat.items, sample.vmstat.nr, sample.vmstat.cap, struct ft_vmstat_item),
	ARR(sample.prev_vmstat.items, sample.prev_vmstat.nr, sample.prev_vmstat.cap,
	    struct ft_vmstat_item),
	{ S_OFF(pending[0].buf), S_OFF(pending[0].len),
	  S_OFF(pending[0].cap), 1, FT_SRC_NR, sizeof(((struct ft_session *)0)->pending[0]), true },
	ARR(audits, nr_audits, cap_audits, struct ft_session_audit),
	ARR(owners, nr_owners, cap_owners, struct ft_owner_look),
	ARR(owner_text, owner_text_len, owner_text_cap, char),
	ARR(owner_stacks, owner_stacks_len, owner_stacks_cap, char),
	/* each ring tick's non-empty stall buckets, source by source */
	{ S_OFF(lat_cells[0][0].c), S_OFF(lat_cells[0][0].nr), S_OFF(lat_cells[0][0].cap),
	  sizeof(struct ft_hist_cell), FT_LAT_RING * FT_LAT_NR, sizeof(struct ft_lat_cells), false },
};

/* the map's zones: everything but their blocks, which follow each zone */
static const struct ck_span zone_saved[] = {
	Z_RUN(node, nr_blocks),
	Z_RUN(count, scans),
};

#define NR(a)	(sizeof(a) / sizeof((a)[0]))

size_t ft_checkpoint_cover(enum ft_ck_struct which, uint8_t *cover, size_t len)
{
	size_t over = 0, i, k;
	int r;

#define MARK(o, n) do { for (k = (o); k < (o) + (n) && k < len; k++) over += cover[k]++ > 0; } while (0)
	if (which == FT_CK_PBZONE) {
		for (i = 0; i < NR(zone_saved); i++)
			MARK(zone_saved[i].off, zone_saved[i].len);
		MARK(Z_OFF(blocks), sizeof(((struct ft_pbmap_zone *)0)->blocks));
		return over;
	}
	for (i = 0; i < NR(saved); i++)
		MARK(saved[i].off, saved[i].len);
	for (i = 0; i < NR(kept); i++)
		MARK(kept[i].off, kept[i].len);
	for (i = 0; i < NR(arrays); i++)
		for (r = 0; r < arrays[i].rep; r++) {
			MARK(arrays[i].ptr + (size_t)r * arrays[i].stride, sizeof(void *));
			MARK(arrays[i].nr + (size_t)r * arrays[i].stride, sizeof(size_t));
			MARK(arrays[i].cap + (size_t)r * arrays[i].stride, sizeof(size_t));
		}
	MARK(S_OFF(nr_trq), sizeof(size_t));
	MARK(S_OFF(map.zones), sizeof(void *));
	MARK(S_OFF(map.nr), sizeof(size_t));
	MARK(S_OFF(map.cap), sizeof(size_t));
#undef MARK
	return over;
}

/* FNV-1a of the tables: a checkpoint of another build is refused */
static uint64_t fingerprint(void)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t v[4], i, j;

#define MIX(x) do { v[0] = (x); for (j = 0; j < sizeof(size_t); j++) { h ^= (v[0] >> (8 * j)) & 0xff; h *= 0x100000001b3ull; } } while (0)
	MIX(sizeof(struct ft_session));
	MIX(sizeof(struct ft_pbmap_zone));
	for (i = 0; i < NR(saved); i++) {
		MIX(saved[i].off);
		MIX(saved[i].len);
	}
	for (i = 0; i < NR(arrays); i++) {
		MIX(arrays[i].ptr);
		MIX(arrays[i].elsz);
	}
	for (i = 0; i < NR(zone_saved); i++) {
		MIX(zone_saved[i].off);
		MIX(zone_saved[i].len);
	}
	MIX(sizeof(struct ft_pb_block));
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

static void put_spans(struct ck_buf *b, const void *base, const struct ck_span *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		put(b, (const uint8_t *)base + t[i].off, t[i].len);
}

static size_t span_bytes(const struct ck_span *t, size_t n)
{
	size_t i, sum = 0;

	for (i = 0; i < n; i++)
		sum += t[i].len;
	return sum;
}

#define AT(base, off, T)	((T *)(void *)((uint8_t *)(base) + (off)))
#define CAT(base, off, T)	((const T *)(const void *)((const uint8_t *)(base) + (off)))

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
	size_t i;
	int r, err;

	put(&b, head, sizeof(head));
	put_spans(&b, s, saved, NR(saved));
	for (i = 0; i < NR(arrays); i++)
		for (r = 0; r < arrays[i].rep; r++) {
			size_t d = (size_t)r * arrays[i].stride;
			const void *p = *CAT(s, arrays[i].ptr + d, void *const);

			put_arr(&b, p, p ? *CAT(s, arrays[i].nr + d, size_t) : 0, arrays[i].elsz);
		}
	put_arr(&b, NULL, s->map.nr, 0);
	for (i = 0; i < s->map.nr; i++) {
		const struct ft_pbmap_zone *z = &s->map.zones[i];

		put_spans(&b, z, zone_saved, NR(zone_saved));
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
static bool valid(struct ck_rd r)
{
	size_t i;
	uint64_t n, nz;
	int k;

	if (!take(&r, span_bytes(saved, NR(saved))))
		return false;
	for (i = 0; i < NR(arrays); i++)
		for (k = 0; k < arrays[i].rep; k++)
			if (!take_count(&r, arrays[i].elsz, &n) || !take(&r, (size_t)n * arrays[i].elsz))
				return false;
	if (!take_count(&r, span_bytes(zone_saved, NR(zone_saved)), &nz))
		return false;
	for (i = 0; i < nz; i++) {
		const uint8_t *zs = take(&r, span_bytes(zone_saved, NR(zone_saved)));
		uint32_t nb;

		if (!zs)
			return false;
		/* nr_blocks is in the first run, at its offset within it */
		memcpy(&nb, zs + Z_OFF(nr_blocks) - zone_saved[0].off, sizeof(nb));
		if (!take(&r, (size_t)nb * sizeof(struct ft_pb_block)))
			return false;
	}
	return r.off == r.len;
}

static void get_spans(struct ck_rd *r, void *base, const struct ck_span *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		take_into(r, (uint8_t *)base + t[i].off, t[i].len);
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

		get_spans(r, z, zone_saved, NR(zone_saved));
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
	uint8_t *raw;
	size_t i;
	int err, k;

	err = decompress(blob, len, &raw, &r.len);
	if (err)
		return err;
	r.p = raw;
	take_into(&r, head, sizeof(head));
	if (head[0] != CK_MAGIC || head[1] != fingerprint() || !valid(r)) {
		free(raw);
		return -EBADMSG;
	}
	get_spans(&r, s, saved, NR(saved));
	s->nr_trq = 0;			/* checkpoints are taken at ticks, when nothing waits */
	for (i = 0; !err && i < NR(arrays); i++)
		for (k = 0; !err && k < arrays[i].rep; k++) {
			size_t d = (size_t)k * arrays[i].stride;

			err = get_arr(&r, AT(s, arrays[i].ptr + d, void *), AT(s, arrays[i].nr + d, size_t),
				      AT(s, arrays[i].cap + d, size_t), arrays[i].elsz, arrays[i].text);
		}
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
