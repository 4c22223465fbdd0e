// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's checkpoint codec (model/checkpoint.h): the struct and
 * every array it owns, one after another, zstd-compressed with a content
 * checksum.  Plain fields are copied whole; what the session owns
 * (arrays, the decoder, host facts, callbacks) stays the restoring
 * session's and the arrays are read into its storage.  A checkpoint is
 * for the same build only (the header holds the struct's size).
 */
#include "model/checkpoint.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/grow.h"

#define CK_MAGIC	0x4b435446u	/* "FTCK" */

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

static void put_arr(struct ck_buf *b, const void *arr, size_t nr, size_t elsz)
{
	uint64_t n = nr;

	put(b, &n, sizeof(n));
	put(b, arr, nr * elsz);
}

int ft_session_save(const struct ft_session *s, void **out, size_t *len)
{
	struct ck_buf b = { 0 };
	uint32_t head[2] = { CK_MAGIC, (uint32_t)sizeof(*s) };
	size_t i, bound, n;
	void *z;

	put(&b, head, sizeof(head));
	put(&b, s, sizeof(*s));
	put_arr(&b, s->sample.zoneinfo.zones, s->sample.zoneinfo.nr, sizeof(*s->sample.zoneinfo.zones));
	put_arr(&b, s->sample.buddy.zones, s->sample.buddy.nr, sizeof(*s->sample.buddy.zones));
	put_arr(&b, s->sample.pti.zones, s->sample.pti.nr, sizeof(*s->sample.pti.zones));
	put_arr(&b, s->sample.vmstat.items, s->sample.vmstat.nr, sizeof(*s->sample.vmstat.items));
	put_arr(&b, s->sample.prev_vmstat.items, s->sample.prev_vmstat.nr,
		sizeof(*s->sample.prev_vmstat.items));
	for (i = 0; i < FT_SRC_NR; i++)
		put_arr(&b, s->pending[i].buf, s->pending[i].buf ? s->pending[i].len : 0, 1);
	put_arr(&b, s->map.zones, s->map.nr, sizeof(*s->map.zones));
	for (i = 0; i < s->map.nr; i++)
		put_arr(&b, s->map.zones[i].blocks, s->map.zones[i].nr_blocks,
			sizeof(*s->map.zones[i].blocks));
	put_arr(&b, s->audits, s->nr_audits, sizeof(*s->audits));
	if (b.err) {
		free(b.p);
		return b.err;
	}
	bound = ZSTD_compressBound(b.len);
	z = malloc(bound + 8);
	if (!z) {
		free(b.p);
		return -ENOMEM;
	}
	{
		/* level 1, with a content checksum: a damaged checkpoint is refused */
		ZSTD_CCtx *cc = ZSTD_createCCtx();

		n = cc ? 0 : (size_t)-1;
		if (cc && (ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1)) ||
			   ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1))))
			n = (size_t)-1;
		if (cc && !n)
			n = ZSTD_compress2(cc, (uint8_t *)z + 8, bound, b.p, b.len);
		ZSTD_freeCCtx(cc);
	}
	free(b.p);
	if (ZSTD_isError(n)) {
		free(z);
		return -EIO;
	}
	memcpy(z, &(uint64_t){ b.len }, 8);
	*out = z;
	*len = n + 8;
	return 0;
}

struct ck_rd {
	const uint8_t *p;
	size_t len, off;
};

static int get(struct ck_rd *r, void *dst, size_t n)
{
	if (r->len - r->off < n)
		return -EBADMSG;
	if (n)
		memcpy(dst, r->p + r->off, n);
	r->off += n;
	return 0;
}

/* An array into *@arr (realloc'd), its count into *@nr. */
static int get_arr(struct ck_rd *r, void **arr, size_t *nr, size_t *cap, size_t elsz)
{
	uint64_t n;
	void *np;

	if (get(r, &n, sizeof(n)) || n > (r->len - r->off) / (elsz ? elsz : 1))
		return -EBADMSG;
	if (n > *cap || !*arr) {
		np = realloc(*arr, n ? n * elsz : 1);
		if (!np)
			return -ENOMEM;
		*arr = np;
		*cap = n;
	}
	*nr = n;
	return get(r, *arr, n * elsz);
}

int ft_session_restore(struct ft_session *s, const void *blob, size_t len)
{
	struct ft_session *ck = NULL;
	struct ck_rd r = { 0 };
	uint64_t raw_len;
	uint32_t head[2];
	uint8_t *raw = NULL;
	size_t i, n, dummy;
	int err = -EBADMSG;

	if (len < 8)
		return -EBADMSG;
	memcpy(&raw_len, blob, 8);
	if (raw_len < sizeof(head) + sizeof(*s) || raw_len > (1ull << 34))
		return -EBADMSG;
	raw = malloc(raw_len);
	ck = malloc(sizeof(*ck));
	if (!raw || !ck) {
		err = -ENOMEM;
		goto out;
	}
	n = ZSTD_decompress(raw, raw_len, (const uint8_t *)blob + 8, len - 8);
	if (ZSTD_isError(n) || n != raw_len)
		goto out;
	r.p = raw;
	r.len = n;
	if (get(&r, head, sizeof(head)) || head[0] != CK_MAGIC || head[1] != sizeof(*s) ||
	    get(&r, ck, sizeof(*ck)))
		goto out;

	/*
	 * Plain fields come from the checkpoint; owned storage, the decoder,
	 * the host facts and the callbacks stay this session's.
	 */
	{
		struct ft_session keep = *s;

		*s = *ck;
		s->host = keep.host;
		s->dec = keep.dec;
		s->tracing = keep.tracing;
		s->trace_enabled = keep.trace_enabled;
		s->dec.missed = ck->dec.missed;
		s->dec.missed_unknown = ck->dec.missed_unknown;
		s->dec.bad = ck->dec.bad;
		s->dec.walked = ck->dec.walked;
		s->events.on_fallback = keep.events.on_fallback;
		s->events.on_fallback_ctx = s;
		s->events.on_latency = keep.events.on_latency;
		s->events.on_latency_ctx = keep.events.on_latency_ctx;
		s->sample.zoneinfo.zones = keep.sample.zoneinfo.zones;
		s->sample.zoneinfo.cap = keep.sample.zoneinfo.cap;
		s->sample.buddy.zones = keep.sample.buddy.zones;
		s->sample.buddy.cap = keep.sample.buddy.cap;
		s->sample.pti.zones = keep.sample.pti.zones;
		s->sample.pti.cap = keep.sample.pti.cap;
		s->sample.vmstat.items = keep.sample.vmstat.items;
		s->sample.vmstat.cap = keep.sample.vmstat.cap;
		s->sample.prev_vmstat.items = keep.sample.prev_vmstat.items;
		s->sample.prev_vmstat.cap = keep.sample.prev_vmstat.cap;
		s->sample.zones = keep.sample.zones;
		s->sample.cap_zones = keep.sample.cap_zones;
		for (i = 0; i < FT_SRC_NR; i++) {
			s->pending[i].buf = keep.pending[i].buf;
			s->pending[i].cap = keep.pending[i].cap;
		}
		/* the map's zones are rebuilt below: free the old blocks first */
		for (i = 0; i < keep.map.nr; i++)
			free(keep.map.zones[i].blocks);
		s->map.zones = keep.map.zones;
		s->map.cap = keep.map.cap;
		s->map.nr = 0;
		s->audits = keep.audits;
		s->cap_audits = keep.cap_audits;
		/* checkpoints are taken at ticks, when nothing waits */
		s->trq = keep.trq;
		s->cap_trq = keep.cap_trq;
		s->nr_trq = 0;
	}
	err = get_arr(&r, (void **)&s->sample.zoneinfo.zones, &s->sample.zoneinfo.nr,
		      &s->sample.zoneinfo.cap, sizeof(*s->sample.zoneinfo.zones));
	if (!err)
		err = get_arr(&r, (void **)&s->sample.buddy.zones, &s->sample.buddy.nr,
			      &s->sample.buddy.cap, sizeof(*s->sample.buddy.zones));
	if (!err)
		err = get_arr(&r, (void **)&s->sample.pti.zones, &s->sample.pti.nr,
			      &s->sample.pti.cap, sizeof(*s->sample.pti.zones));
	if (!err)
		err = get_arr(&r, (void **)&s->sample.vmstat.items, &s->sample.vmstat.nr,
			      &s->sample.vmstat.cap, sizeof(*s->sample.vmstat.items));
	if (!err)
		err = get_arr(&r, (void **)&s->sample.prev_vmstat.items, &s->sample.prev_vmstat.nr,
			      &s->sample.prev_vmstat.cap, sizeof(*s->sample.prev_vmstat.items));
	for (i = 0; !err && i < FT_SRC_NR; i++) {
		err = get_arr(&r, (void **)&s->pending[i].buf, &s->pending[i].len, &s->pending[i].cap, 1);
		if (!err && s->pending[i].cap <= s->pending[i].len) {
			char *nb = realloc(s->pending[i].buf, s->pending[i].len + 1);

			if (!nb) {
				err = -ENOMEM;
				break;
			}
			s->pending[i].buf = nb;
			s->pending[i].cap = s->pending[i].len + 1;
		}
		if (!err)
			s->pending[i].buf[s->pending[i].len] = '\0';
	}
	if (!err)
		err = get_arr(&r, (void **)&s->map.zones, &s->map.nr, &s->map.cap,
			      sizeof(*s->map.zones));
	for (i = 0; i < s->map.nr; i++)
		s->map.zones[i].blocks = NULL;	/* the checkpoint's pointers mean nothing here */
	for (i = 0; !err && i < s->map.nr; i++) {
		size_t cap = 0;

		err = get_arr(&r, (void **)&s->map.zones[i].blocks, &dummy, &cap,
			      sizeof(*s->map.zones[i].blocks));
		if (!err && dummy != s->map.zones[i].nr_blocks)
			err = -EBADMSG;
	}
	if (!err)
		err = get_arr(&r, (void **)&s->audits, &s->nr_audits, &s->cap_audits,
			      sizeof(*s->audits));
	if (!err)
		err = ft_sample_rejoin(&s->sample);
	if (err) {
		/* leave a consistent, empty-ish session rather than dangling arrays */
		for (i = 0; i < s->map.nr; i++)
			if (!s->map.zones[i].blocks)
				s->map.zones[i].nr_blocks = 0;
		s->sample.valid = 0;
		s->sample.nr_zones = 0;
		s->nr_audits = s->nr_audits <= s->cap_audits ? s->nr_audits : 0;
	}
out:
	free(raw);
	free(ck);
	return err;
}
