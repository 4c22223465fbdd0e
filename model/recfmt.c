// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/recfmt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/grow.h"

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v);
					    put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v);
					    put32(p + 4, (uint32_t)(v >> 32)); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

uint32_t ft_crc32c(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t table[256];
	const uint8_t *p = buf;
	size_t i;

	if (!table[1]) {
		for (uint32_t n = 0; n < 256; n++) {
			uint32_t c = n;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0x82f63b78u ^ (c >> 1) : c >> 1;
			table[n] = c;
		}
	}
	crc = ~crc;
	for (i = 0; i < len; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

void ft_rec_filehdr_encode(const struct ft_rec_filehdr *h, uint8_t out[FT_REC_FILE_HDR])
{
	memset(out, 0, FT_REC_FILE_HDR);
	memcpy(out, FT_REC_MAGIC, 8);
	put32(out + 8, h->version);
	put32(out + 12, FT_REC_FILE_HDR);
	put64(out + 16, h->created_realtime_ns);
	put64(out + 24, h->created_mono_ns);
	put64(out + 32, h->series_id);
	put32(out + 40, h->series_seq);
	put32(out + 44, ft_crc32c(0, out, 44));
}

int ft_rec_filehdr_decode(const uint8_t in[FT_REC_FILE_HDR], struct ft_rec_filehdr *h)
{
	if (memcmp(in, FT_REC_MAGIC, 8))
		return -EINVAL;
	if (get32(in + 44) != ft_crc32c(0, in, 44))
		return -EBADMSG;
	h->version = get32(in + 8);
	if (h->version != FT_REC_VERSION || get32(in + 12) != FT_REC_FILE_HDR)
		return -EPROTONOSUPPORT;
	h->created_realtime_ns = get64(in + 16);
	h->created_mono_ns = get64(in + 24);
	h->series_id = get64(in + 32);
	h->series_seq = get32(in + 40);
	return 0;
}

void ft_rec_chunk_encode(const struct ft_rec_chunk *c, uint8_t out[FT_REC_CHUNK_HDR])
{
	put32(out, FT_REC_CHUNK_MAGIC);
	put16(out + 4, c->type);
	put16(out + 6, c->flags);
	put32(out + 8, c->seq);
	put32(out + 12, c->raw_len);
	put32(out + 16, c->stored_len);
	put32(out + 20, c->nr_records);
	put64(out + 24, c->t_first);
	put64(out + 32, c->t_last);
	put32(out + 40, c->payload_crc);
	put32(out + 44, ft_crc32c(0, out, 44));
}

int ft_rec_chunk_decode(const uint8_t in[FT_REC_CHUNK_HDR], struct ft_rec_chunk *c)
{
	if (get32(in) != FT_REC_CHUNK_MAGIC)
		return -EINVAL;
	if (get32(in + 44) != ft_crc32c(0, in, 44))
		return -EBADMSG;
	c->type = get16(in + 4);
	c->flags = get16(in + 6);
	c->seq = get32(in + 8);
	c->raw_len = get32(in + 12);
	c->stored_len = get32(in + 16);
	c->nr_records = get32(in + 20);
	c->t_first = get64(in + 24);
	c->t_last = get64(in + 32);
	c->payload_crc = get32(in + 40);
	if (c->raw_len > FT_REC_CHUNK_MAX || c->stored_len > FT_REC_CHUNK_MAX)
		return -EFBIG;
	if (!(c->flags & FT_RC_ZSTD) && c->raw_len != c->stored_len)
		return -EBADMSG;
	return 0;
}

size_t ft_rec_record_size(size_t len)
{
	return FT_REC_REC_HDR + ((len + 7) & ~(size_t)7);
}

void ft_rec_record_put(uint8_t *dst, uint16_t type, uint16_t sub, uint64_t t_ns,
		       const void *data, uint32_t len)
{
	size_t pad = ft_rec_record_size(len) - FT_REC_REC_HDR - len;

	put16(dst, type);
	put16(dst + 2, sub);
	put32(dst + 4, len);
	put64(dst + 8, t_ns);
	if (len)
		memcpy(dst + FT_REC_REC_HDR, data, len);
	memset(dst + FT_REC_REC_HDR + len, 0, pad);
}

bool ft_rec_next(const uint8_t *raw, size_t len, size_t *off, struct ft_rec_record *out, bool *bad)
{
	size_t o = *off;

	*bad = false;
	if (o >= len)
		return false;
	if (len - o < FT_REC_REC_HDR) {
		*bad = true;
		return false;
	}
	out->type = get16(raw + o);
	out->sub = get16(raw + o + 2);
	out->len = get32(raw + o + 4);
	out->t_ns = get64(raw + o + 8);
	if (out->len > len - o - FT_REC_REC_HDR) {
		*bad = true;
		return false;
	}
	out->data = raw + o + FT_REC_REC_HDR;
	o += FT_REC_REC_HDR + out->len;
	o += (8 - (o & 7)) & 7;
	*off = o > len ? len : o;
	return true;
}

/* ---- reader ---- */

static int rd(struct ft_rec_reader *r, void *buf, size_t n, uint64_t off)
{
	long got;

	if (off > r->src.size || n > r->src.size - off)
		return -ENODATA;
	got = r->src.pread(r->src.ctx, buf, n, off);
	if (got < 0)
		return (int)got;
	return (size_t)got == n ? 0 : -ENODATA;
}

static int add_ref(struct ft_rec_reader *r, uint64_t off, const struct ft_rec_chunk *c)
{
	/* never more chunks than headers fit in the file */
	int err = ft_grow_from((void **)&r->chunks, &r->cap, r->nr + 1, sizeof(*r->chunks), 64,
			       r->src.size / FT_REC_CHUNK_HDR + 1);

	if (err)
		return err == -E2BIG ? -EFBIG : err;
	r->chunks[r->nr].off = off;
	r->chunks[r->nr].c = *c;
	r->nr++;
	return 0;
}

/* Next offset >= @from holding a chunk header that decodes; 0 if none. */
static uint64_t resync(struct ft_rec_reader *r, uint64_t from)
{
	uint8_t win[65536 + FT_REC_CHUNK_HDR];
	uint64_t off = from;

	while (off + FT_REC_CHUNK_HDR <= r->src.size) {
		size_t n = sizeof(win), i;
		long got;

		if (n > r->src.size - off)
			n = (size_t)(r->src.size - off);
		got = r->src.pread(r->src.ctx, win, n, off);
		if (got < FT_REC_CHUNK_HDR)
			return 0;
		for (i = 0; i + FT_REC_CHUNK_HDR <= (size_t)got; i++) {
			struct ft_rec_chunk c;

			if (win[i] == 'F' && !ft_rec_chunk_decode(win + i, &c))
				return off + i;
		}
		off += (uint64_t)got - FT_REC_CHUNK_HDR + 1;
	}
	return 0;
}

static int linear_scan(struct ft_rec_reader *r)
{
	uint64_t off = FT_REC_FILE_HDR;
	uint8_t h[FT_REC_CHUNK_HDR];
	int err;

	r->nr = 0;
	while (off + FT_REC_CHUNK_HDR <= r->src.size) {
		struct ft_rec_chunk c;

		err = rd(r, h, sizeof(h), off);
		if (err)
			return err;
		if (ft_rec_chunk_decode(h, &c)) {
			uint64_t next = resync(r, off + 1);

			if (!next) {
				r->skipped_bytes += r->src.size - off;
				snprintf(r->why, sizeof(r->why),
					 "damaged data from byte %llu to the end",
					 (unsigned long long)off);
				break;
			}
			r->resyncs++;
			r->skipped_bytes += next - off;
			snprintf(r->why, sizeof(r->why), "skipped %llu damaged bytes at %llu",
				 (unsigned long long)(next - off), (unsigned long long)off);
			off = next;
			continue;
		}
		if (c.stored_len > r->src.size - off - FT_REC_CHUNK_HDR) {
			r->truncated = true;
			snprintf(r->why, sizeof(r->why),
				 "the file ends inside chunk %u (cut at byte %llu)",
				 c.seq, (unsigned long long)r->src.size);
			break;
		}
		if (c.type == FT_RC_INDEX || c.type == FT_RC_END) {
			/* bookkeeping only */
		} else {
			if (c.type != FT_RC_META && c.type != FT_RC_DATA)
				r->unknown++;
			err = add_ref(r, off, &c);
			if (err)
				return err;
		}
		off += FT_REC_CHUNK_HDR + c.stored_len;
	}
	if (off < r->src.size && off + FT_REC_CHUNK_HDR > r->src.size && !r->truncated) {
		r->truncated = true;
		snprintf(r->why, sizeof(r->why), "the file ends inside a chunk header");
	}
	return 0;
}

/* Load an INDEX or END chunk's payload (stored uncompressed) at @off. */
static int small_chunk(struct ft_rec_reader *r, uint64_t off, uint16_t type, struct ft_rec_chunk *c,
		       uint8_t **payload)
{
	uint8_t h[FT_REC_CHUNK_HDR];
	uint8_t *p;
	int err;

	err = rd(r, h, sizeof(h), off);
	if (err)
		return err;
	err = ft_rec_chunk_decode(h, c);
	if (err)
		return err;
	if (c->type != type || (c->flags & FT_RC_ZSTD))
		return -EBADMSG;
	p = malloc(c->stored_len ? c->stored_len : 1);
	if (!p)
		return -ENOMEM;
	err = rd(r, p, c->stored_len, off + FT_REC_CHUNK_HDR);
	if (!err && ft_crc32c(0, p, c->stored_len) != c->payload_crc)
		err = -EBADMSG;
	if (err) {
		free(p);
		return err;
	}
	*payload = p;
	return 0;
}

/* The table from END -> last INDEX -> previous INDEX ...  0 or -errno. */
static int index_chain(struct ft_rec_reader *r)
{
	struct ft_rec_chunk c;
	uint64_t end_off, idx, nr_chunks, total = 0;
	uint8_t *p;
	size_t n, i;
	int err;

	if (r->src.size < FT_REC_FILE_HDR + FT_REC_CHUNK_HDR + FT_REC_END_PAYLOAD)
		return -ENODATA;
	end_off = r->src.size - FT_REC_CHUNK_HDR - FT_REC_END_PAYLOAD;
	err = small_chunk(r, end_off, FT_RC_END, &c, &p);
	if (err)
		return err;
	if (c.stored_len != FT_REC_END_PAYLOAD) {
		free(p);
		return -EBADMSG;
	}
	idx = get64(p);
	nr_chunks = get64(p + 8);
	free(p);
	if (nr_chunks > r->src.size / FT_REC_CHUNK_HDR)
		return -EBADMSG;
	r->nr = 0;
	if (r->cap < nr_chunks) {
		struct ft_rec_chunk_ref *t = realloc(r->chunks,
						     (nr_chunks ? nr_chunks : 1) * sizeof(*t));

		if (!t)
			return -ENOMEM;
		r->chunks = t;
		r->cap = nr_chunks;
	}
	/* walk back; entries are filled from the end of the table */
	while (idx) {
		uint64_t prev;

		if (idx >= end_off)
			return -EBADMSG;
		err = small_chunk(r, idx, FT_RC_INDEX, &c, &p);
		if (err)
			return err;
		if (c.stored_len < 8 || (c.stored_len - 8) % FT_REC_INDEX_ENTRY) {
			free(p);
			return -EBADMSG;
		}
		prev = get64(p);
		n = (c.stored_len - 8) / FT_REC_INDEX_ENTRY;
		if (n > nr_chunks - total || prev >= idx) {
			free(p);
			return -EBADMSG;
		}
		for (i = 0; i < n; i++) {
			const uint8_t *e = p + 8 + i * FT_REC_INDEX_ENTRY;
			struct ft_rec_chunk_ref *ref = &r->chunks[nr_chunks - total - n + i];

			memset(ref, 0, sizeof(*ref));
			ref->off = get64(e);
			ref->c.t_first = get64(e + 8);
			ref->c.t_last = get64(e + 16);
			ref->c.seq = get32(e + 24);
			ref->c.type = get16(e + 28);
			ref->c.flags = get16(e + 30);
			ref->c.nr_records = get32(e + 32);
			if (ref->off < FT_REC_FILE_HDR || ref->off >= idx) {
				free(p);
				return -EBADMSG;
			}
			if (ref->c.type != FT_RC_META && ref->c.type != FT_RC_DATA)
				r->unknown++;
		}
		total += n;
		free(p);
		idx = prev;
	}
	if (total != nr_chunks)
		return -EBADMSG;
	r->nr = (size_t)nr_chunks;
	return 0;
}

int ft_rec_open(struct ft_rec_reader *r, struct ft_rec_src src)
{
	uint8_t h[FT_REC_FILE_HDR];
	int err;

	memset(r, 0, sizeof(*r));
	r->src = src;
	r->prev_idx = SIZE_MAX;
	if (src.size < FT_REC_FILE_HDR || rd(r, h, sizeof(h), 0)) {
		snprintf(r->why, sizeof(r->why), "too short to be a fragtop recording");
		return -EINVAL;
	}
	err = ft_rec_filehdr_decode(h, &r->hdr);
	if (err) {
		snprintf(r->why, sizeof(r->why), "%s",
			 err == -EINVAL ? "not a fragtop recording (bad magic)" :
			 err == -EBADMSG ? "the file header is damaged (CRC)" :
			 "made by a newer fragtop (unknown format version)");
		return err;
	}
	if (!index_chain(r)) {
		r->clean = true;
		return 0;
	}
	r->unknown = 0;
	return linear_scan(r);
}

void ft_rec_close(struct ft_rec_reader *r)
{
	free(r->chunks);
	free(r->stored);
	free(r->raw);
	free(r->prev);
	ZSTD_freeDCtx(r->dctx);
	memset(r, 0, sizeof(*r));
}

static int grow(uint8_t **buf, size_t *cap, size_t need)
{
	uint8_t *p;

	if (need <= *cap)
		return 0;
	p = realloc(*buf, need);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = need;
	return 0;
}

/* Previous DATA chunk before @i, or SIZE_MAX. */
static size_t prev_data(const struct ft_rec_reader *r, size_t i)
{
	while (i-- > 0)
		if (r->chunks[i].c.type == FT_RC_DATA)
			return i;
	return SIZE_MAX;
}

/* Read, check and decompress chunk @i alone; its prefix must be in r->prev. */
static int load_one(struct ft_rec_reader *r, size_t i, const uint8_t **raw, size_t *len)
{
	struct ft_rec_chunk_ref *ref = &r->chunks[i];
	struct ft_rec_chunk c;
	uint8_t h[FT_REC_CHUNK_HDR];
	size_t n;
	int err;

	err = rd(r, h, sizeof(h), ref->off);
	if (err)
		return err;
	if (ft_rec_chunk_decode(h, &c) || c.seq != ref->c.seq || c.type != ref->c.type)
		return -EBADMSG;
	ref->c = c;
	err = grow(&r->stored, &r->stored_cap, c.stored_len ? c.stored_len : 1);
	if (err)
		return err;
	err = rd(r, r->stored, c.stored_len, ref->off + FT_REC_CHUNK_HDR);
	if (err)
		return err == -ENODATA ? -EBADMSG : err;
	if (ft_crc32c(0, r->stored, c.stored_len) != c.payload_crc)
		return -EBADMSG;
	if (!(c.flags & FT_RC_ZSTD)) {
		*raw = r->stored;
		*len = c.stored_len;
		return 0;
	}
	err = grow(&r->raw, &r->raw_cap, c.raw_len ? c.raw_len : 1);
	if (err)
		return err;
	if (!r->dctx && !(r->dctx = ZSTD_createDCtx()))
		return -ENOMEM;
	ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_and_parameters);
	if (c.flags & FT_RC_PREFIX) {
		if (r->prev_idx != prev_data(r, i))
			return -EBADMSG;
		if (ZSTD_isError(ZSTD_DCtx_refPrefix(r->dctx, r->prev, r->prev_len)))
			return -EBADMSG;
	}
	n = ZSTD_decompressDCtx(r->dctx, r->raw, c.raw_len, r->stored, c.stored_len);
	if (ZSTD_isError(n) || n != c.raw_len)
		return -EBADMSG;
	*raw = r->raw;
	*len = c.raw_len;
	return 0;
}

/* Keep a DATA chunk's raw payload as the prefix of the next one. */
static int keep_prev(struct ft_rec_reader *r, size_t i, const uint8_t *raw, size_t len)
{
	int err = grow(&r->prev, &r->prev_cap, len ? len : 1);

	if (err)
		return err;
	memcpy(r->prev, raw, len);
	r->prev_len = len;
	r->prev_idx = i;
	return 0;
}

int ft_rec_load(struct ft_rec_reader *r, size_t i, const uint8_t **raw, size_t *len)
{
	size_t chain[FT_REC_CHAIN_MAX], n = 0, j;
	int err;

	if (i >= r->nr)
		return -ERANGE;
	if (r->chunks[i].c.type != FT_RC_DATA)
		return load_one(r, i, raw, len);
	/* the DATA chunks from the last key chunk (or the cached one) up to @i */
	for (j = i; ; j = prev_data(r, j)) {
		if (n == FT_REC_CHAIN_MAX)
			return -EBADMSG;
		chain[n++] = j;
		if (!(r->chunks[j].c.flags & FT_RC_PREFIX) || prev_data(r, j) == r->prev_idx)
			break;
		if (prev_data(r, j) == SIZE_MAX)
			return -EBADMSG;	/* a prefix chain with no key chunk */
	}
	while (n--) {
		err = load_one(r, chain[n], raw, len);
		if (err) {
			r->prev_idx = SIZE_MAX;
			return err;
		}
		err = keep_prev(r, chain[n], *raw, *len);
		if (err)
			return err;
	}
	return 0;
}

size_t ft_rec_find(const struct ft_rec_reader *r, uint64_t t_ns)
{
	size_t lo = 0, hi = r->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->chunks[mid].c.t_last < t_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo < r->nr && r->chunks[lo].c.type != FT_RC_DATA)
		lo++;
	return lo;
}

const char *ft_rec_type_name(unsigned int type)
{
	static const char *const names[] = {
		[FT_RR_HOST] = "HOST", [FT_RR_TICK] = "TICK", [FT_RR_PROC] = "PROC",
		[FT_RR_KNOB] = "KNOB",
		[FT_RR_TRACE_FMT] = "TRACE_FMT", [FT_RR_TRACE_PAGE] = "TRACE_PAGE",
		[FT_RR_AUDIT] = "AUDIT",
		[FT_RR_TRACE_LOST] = "TRACE_LOST", [FT_RR_IOMEM] = "IOMEM", [FT_RR_KPF] = "KPF",
		[FT_RR_NAME] = "NAME", [FT_RR_BOOST] = "BOOST", [FT_RR_CGROUP] = "CGROUP",
		[FT_RR_GROUP] = "GROUP",
		[FT_RR_SOURCE] = "SOURCE", [FT_RR_THP] = "THP", [FT_RR_KSYM] = "KSYM",
		[FT_RR_OWNER] = "OWNER",
		[FT_RR_CGROUPS] = "CGROUPS", [FT_RR_SMAPS] = "SMAPS", [FT_RR_KMSG] = "KMSG",
	};

	return type < sizeof(names) / sizeof(names[0]) && names[type] ? names[type] : "?";
}
