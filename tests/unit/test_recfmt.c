// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recording format: write with the real writer, read back through the
 * index chain and through the linear scan; cut the file at every chunk
 * boundary and in the middle of chunks; flip bytes in payloads and headers;
 * insert a chunk of an unknown type.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "collectors/recwriter.h"
#include "model/recfmt.h"

#define TICKS 200

struct mem {
	uint8_t *p;
	size_t len;
};

static long mem_pread(void *ctx, void *buf, size_t n, uint64_t off)
{
	struct mem *m = ctx;

	if (off >= m->len)
		return 0;
	if (n > m->len - off)
		n = m->len - off;
	memcpy(buf, m->p + off, n);
	return (long)n;
}

static struct ft_rec_src src_of(struct mem *m)
{
	return (struct ft_rec_src){ .pread = mem_pread, .size = m->len, .ctx = m };
}

static char path[64];
static struct mem file;
static uint64_t chunk_off[1024];
static size_t nr_chunk_off;

/* The payload of tick @i: deterministic, different sizes. */
static size_t tick_payload(int i, char *buf, size_t sz)
{
	return (size_t)snprintf(buf, sz, "Node 0, zone Normal\n  pages free %d\n%.*s", i * 7,
				i % 50,
				"................................................................");
}

/* chunks handed to the writer thread without waiting (ft_recw_push), not flushed one by one */
static bool by_push;

static void write_recording(bool clean)
{
	struct ft_recw w;
	char buf[256];
	int i;

	snprintf(path, sizeof(path), "/tmp/fragtop-rec-XXXXXX");
	i = mkstemp(path);
	assert_true(i >= 0);
	close(i);
	assert_int_equal(ft_recw_open(&w, path, true), 0);
	w.sync = false;
	assert_int_equal(ft_recw_add_meta(&w, FT_RR_HOST, 0, 1, "release=6.18\n", 13), 0);
	for (i = 0; i < TICKS; i++) {
		uint64_t t = UINT64_C(1000000000) * ((uint64_t)i + 1);
		size_t n = tick_payload(i, buf, sizeof(buf));

		assert_int_equal(ft_recw_add(&w, FT_RR_TICK, 0, t, &t, 8), 0);
		assert_int_equal(ft_recw_add(&w, FT_RR_PROC, (uint16_t)(i % 4), t, buf, n), 0);
		if (i % 2)	/* a chunk every two ticks: 100 data chunks, two indexes */
			assert_int_equal(by_push ? ft_recw_push(&w) : ft_recw_flush(&w), 0);
	}
	if (clean)
		assert_int_equal(ft_recw_close(&w), 0);
	else {
		assert_int_equal(ft_recw_flush(&w), 0);
		ft_recw_abandon(&w);
	}
	/* slurp it */
	{
		FILE *f = fopen(path, "rb");
		struct stat st;

		assert_non_null(f);
		assert_int_equal(fstat(fileno(f), &st), 0);
		free(file.p);
		file.len = (size_t)st.st_size;
		file.p = malloc(file.len);
		assert_int_equal(fread(file.p, 1, file.len, f), file.len);
		fclose(f);
		unlink(path);
	}
	/* chunk offsets by walking the headers */
	{
		uint64_t off = FT_REC_FILE_HDR;

		nr_chunk_off = 0;
		while (off + FT_REC_CHUNK_HDR <= file.len) {
			struct ft_rec_chunk c;

			assert_int_equal(ft_rec_chunk_decode(file.p + off, &c), 0);
			chunk_off[nr_chunk_off++] = off;
			off += FT_REC_CHUNK_HDR + c.stored_len;
		}
		assert_int_equal(off, file.len);
	}
}

/* Every record of every readable chunk; checks the content; returns ticks seen. */
static int read_all(struct ft_rec_reader *r, int *bad_chunks)
{
	int ticks = 0;
	size_t i;

	*bad_chunks = 0;
	for (i = 0; i < r->nr; i++) {
		const uint8_t *raw;
		size_t len, off = 0;
		struct ft_rec_record rec;
		bool bad;

		if (r->chunks[i].c.type != FT_RC_DATA && r->chunks[i].c.type != FT_RC_META)
			continue;
		if (ft_rec_load(r, i, &raw, &len)) {
			(*bad_chunks)++;
			continue;
		}
		while (ft_rec_next(raw, len, &off, &rec, &bad)) {
			if (rec.type == FT_RR_TICK) {
				uint64_t t;

				memcpy(&t, rec.data, 8);
				assert_int_equal(t, rec.t_ns);
				ticks++;
			} else if (rec.type == FT_RR_PROC) {
				char want[256];
				int tick = (int)(rec.t_ns / 1000000000ull) - 1;
				size_t n = tick_payload(tick, want, sizeof(want));

				assert_int_equal(rec.len, n);
				assert_memory_equal(rec.data, want, n);
				assert_int_equal(rec.sub, tick % 4);
			} else {
				assert_int_equal(rec.type, FT_RR_HOST);
				assert_memory_equal(rec.data, "release=6.18\n", 13);
			}
		}
		assert_false(bad);
	}
	return ticks;
}

static void test_round_trip_clean(void **state)
{
	struct ft_rec_reader r;
	int bad;

	(void)state;
	write_recording(true);
	assert_int_equal(ft_rec_open(&r, src_of(&file)), 0);
	assert_true(r.clean);
	assert_false(r.truncated);
	assert_int_equal(r.nr, 101);	/* META + 100 DATA */
	assert_int_equal(r.chunks[0].c.type, FT_RC_META);
	assert_int_equal(read_all(&r, &bad), TICKS);
	assert_int_equal(bad, 0);
	/* random access decodes the prefix chain back to a key chunk */
	{
		static const size_t order[] = { 77, 3, 100, 31, 30, 29, 1, 64 };
		size_t k;

		for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
			const uint8_t *raw;
			size_t len, off = 0;
			struct ft_rec_record rec;
			bool b;

			assert_int_equal(ft_rec_load(&r, order[k], &raw, &len), 0);
			assert_true(ft_rec_next(raw, len, &off, &rec, &b));
			/* data chunk d (file chunk d + 1) starts with tick 2d's TICK record */
			assert_int_equal(rec.type, FT_RR_TICK);
			assert_int_equal(rec.t_ns, 1000000000ull * (2 * (order[k] - 1) + 1));
		}
	}
	/* seeking: the chunk holding t = 51 s is the 26th data chunk */
	assert_int_equal(ft_rec_find(&r, 51000000000ull), 26);
	assert_int_equal(ft_rec_find(&r, 0), 1);
	assert_int_equal(ft_rec_find(&r, UINT64_MAX), r.nr);
	ft_rec_close(&r);
}

/*
 * The writer thread: 100 chunks handed over as fast as the caller can
 * (the queue holds FT_RECW_QUEUE, so the caller waits for slots) reach
 * the file in order, each whole, and close ends it cleanly.
 */
static void test_push_ahead_of_the_writer(void **state)
{
	struct ft_rec_reader r;
	size_t i;
	int bad;

	(void)state;
	by_push = true;
	write_recording(true);
	by_push = false;
	assert_int_equal(ft_rec_open(&r, src_of(&file)), 0);
	assert_true(r.clean);
	assert_int_equal(r.nr, 101);
	for (i = 1; i < r.nr; i++) {
		assert_int_equal(r.chunks[i].c.type, FT_RC_DATA);
		assert_int_equal(r.chunks[i].c.t_first, 1000000000ull * (2 * (i - 1) + 1));
	}
	assert_int_equal(read_all(&r, &bad), TICKS);
	assert_int_equal(bad, 0);
	ft_rec_close(&r);
}

/* A file as SIGKILL leaves it: no index at the end, read by the scan. */
static void test_no_end_chunk(void **state)
{
	struct ft_rec_reader r;
	int bad;

	(void)state;
	write_recording(false);
	assert_int_equal(ft_rec_open(&r, src_of(&file)), 0);
	assert_false(r.clean);
	assert_false(r.truncated);
	assert_int_equal(r.nr, 101);
	assert_int_equal(read_all(&r, &bad), TICKS);
	ft_rec_close(&r);
}

/* Cut at every chunk boundary, one byte either side, and mid-chunk. */
static void test_cut_everywhere(void **state)
{
	struct mem cut;
	size_t k;

	(void)state;
	write_recording(true);
	for (k = 0; k < nr_chunk_off; k++) {
		uint64_t cuts[4] = { chunk_off[k], chunk_off[k] + 1, chunk_off[k] - 1,
				     chunk_off[k] + FT_REC_CHUNK_HDR + 3 };
		int j;

		for (j = 0; j < 4; j++) {
			struct ft_rec_reader r;
			int bad, ticks, rc;

			cut.p = file.p;
			cut.len = cuts[j] < file.len ? (size_t)cuts[j] : file.len;
			rc = ft_rec_open(&r, src_of(&cut));
			if (cut.len < FT_REC_FILE_HDR) {
				assert_int_equal(rc, -EINVAL);
				ft_rec_close(&r);
				continue;
			}
			assert_int_equal(rc, 0);
			assert_false(r.clean);
			ticks = read_all(&r, &bad);
			assert_int_equal(bad, 0);
			/* every complete data chunk before the cut holds 2 ticks */
			{
				size_t full = 0, i;

				for (i = 0; i < nr_chunk_off; i++) {
					struct ft_rec_chunk c;

					ft_rec_chunk_decode(file.p + chunk_off[i], &c);
					if (chunk_off[i] + FT_REC_CHUNK_HDR +
					    c.stored_len <= cut.len &&
					    c.type == FT_RC_DATA)
						full++;
				}
				assert_int_equal(ticks, (int)full * 2);
			}
			assert_int_equal(r.truncated, cut.len != chunk_off[k] &&
					 cut.len > FT_REC_FILE_HDR);
			ft_rec_close(&r);
		}
	}
	/* shorter than a file header */
	{
		struct ft_rec_reader r;

		cut.len = 20;
		assert_int_equal(ft_rec_open(&r, src_of(&cut)), -EINVAL);
		assert_string_equal(r.why, "too short to be a fragtop recording");
		ft_rec_close(&r);
	}
}

/* DATA chunks after file chunk @k that hang on it through their prefix. */
static int dependants(size_t k)
{
	int n = 0;

	for (k++; k < nr_chunk_off; k++) {
		struct ft_rec_chunk c;

		ft_rec_chunk_decode(file.p + chunk_off[k], &c);
		if (c.type != FT_RC_DATA)
			continue;
		if (!(c.flags & FT_RC_PREFIX))
			break;
		n++;
	}
	return n;
}

static void test_flipped_bytes(void **state)
{
	struct ft_rec_reader r;
	struct mem m;
	int bad, ticks;

	(void)state;
	write_recording(false);
	m.len = file.len;
	m.p = malloc(m.len);
	/*
	 * A byte of chunk 10's payload: that chunk fails its CRC, and the
	 * chunks compressed against it up to the next key chunk cannot be
	 * decoded (the zstd content checksum says so); the rest reads.
	 */
	assert_true(dependants(10) > 0 && dependants(10) < FT_REC_KEY_EVERY);
	memcpy(m.p, file.p, m.len);
	m.p[chunk_off[10] + FT_REC_CHUNK_HDR + 5] ^= 0x40;
	assert_int_equal(ft_rec_open(&r, src_of(&m)), 0);
	assert_int_equal(r.nr, 101);
	ticks = read_all(&r, &bad);
	assert_int_equal(bad, 1 + dependants(10));
	assert_int_equal(ticks, TICKS - 2 * (1 + dependants(10)));
	ft_rec_close(&r);
	/* a byte of chunk 20's header: the scan resynchronises at chunk 21 */
	memcpy(m.p, file.p, m.len);
	m.p[chunk_off[20] + 9] ^= 0x01;
	assert_int_equal(ft_rec_open(&r, src_of(&m)), 0);
	assert_int_equal(r.resyncs, 1);
	assert_int_equal(r.skipped_bytes, chunk_off[21] - chunk_off[20]);
	ticks = read_all(&r, &bad);
	assert_int_equal(bad, dependants(20));
	assert_int_equal(ticks, TICKS - 2 * (1 + dependants(20)));
	ft_rec_close(&r);
	/* a key chunk's payload: its whole group goes, the groups around it read */
	{
		size_t k;
		struct ft_rec_chunk c;

		for (k = 2; k < nr_chunk_off; k++) {
			ft_rec_chunk_decode(file.p + chunk_off[k], &c);
			if (c.type == FT_RC_DATA && !(c.flags & FT_RC_PREFIX))
				break;
		}
		assert_true(k < nr_chunk_off);
		memcpy(m.p, file.p, m.len);
		m.p[chunk_off[k] + FT_REC_CHUNK_HDR + 1] ^= 0x10;
		assert_int_equal(ft_rec_open(&r, src_of(&m)), 0);
		ticks = read_all(&r, &bad);
		assert_int_equal(bad, 1 + dependants(k));
		assert_int_equal(ticks, TICKS - 2 * (1 + dependants(k)));
		ft_rec_close(&r);
	}
	/* the file header */
	memcpy(m.p, file.p, m.len);
	m.p[3] ^= 1;
	assert_int_equal(ft_rec_open(&r, src_of(&m)), -EINVAL);
	ft_rec_close(&r);
	memcpy(m.p, file.p, m.len);
	m.p[20] ^= 1;
	assert_int_equal(ft_rec_open(&r, src_of(&m)), -EBADMSG);
	assert_string_equal(r.why, "the file header is damaged (CRC)");
	ft_rec_close(&r);
	free(m.p);
}

/* A newer writer's chunk type in the middle: skipped, counted. */
static void test_unknown_chunk(void **state)
{
	struct ft_rec_chunk c = { .type = 77, .seq = 9999, .raw_len = 5, .stored_len = 5 };
	struct ft_rec_reader r;
	struct mem m;
	size_t at;
	int bad;

	(void)state;
	write_recording(false);
	at = chunk_off[30];
	m.len = file.len + FT_REC_CHUNK_HDR + 5;
	m.p = malloc(m.len);
	memcpy(m.p, file.p, at);
	c.payload_crc = ft_crc32c(0, "hello", 5);
	ft_rec_chunk_encode(&c, m.p + at);
	memcpy(m.p + at + FT_REC_CHUNK_HDR, "hello", 5);
	memcpy(m.p + at + FT_REC_CHUNK_HDR + 5, file.p + at, file.len - at);
	assert_int_equal(ft_rec_open(&r, src_of(&m)), 0);
	assert_int_equal(r.unknown, 1);
	assert_int_equal(r.nr, 102);
	assert_int_equal(read_all(&r, &bad), TICKS);
	ft_rec_close(&r);
	free(m.p);
}

static void test_header_bounds(void **state)
{
	struct ft_rec_chunk c = { .type = FT_RC_DATA, .raw_len = FT_REC_CHUNK_MAX + 1,
				  .stored_len = 10,
				  .flags = FT_RC_ZSTD };
	struct ft_rec_filehdr h = { .version = 2 };
	uint8_t b[FT_REC_CHUNK_HDR], fh[FT_REC_FILE_HDR];
	struct ft_rec_record rec;
	size_t off = 0;
	bool bad;

	(void)state;
	ft_rec_chunk_encode(&c, b);
	assert_int_equal(ft_rec_chunk_decode(b, &c), -EFBIG);
	ft_rec_filehdr_encode(&h, fh);
	assert_int_equal(ft_rec_filehdr_decode(fh, &h), -EPROTONOSUPPORT);
	/* a record claiming more than its chunk holds */
	ft_rec_record_put(b, FT_RR_PROC, 0, 1, "abcdefgh", 8);
	b[4] = 200;
	assert_false(ft_rec_next(b, 24, &off, &rec, &bad));
	assert_true(bad);
	/* the CRC-32C check value */
	assert_int_equal(ft_crc32c(0, "123456789", 9), 0xe3069283u);
}

/* The series fields: written, read back; a file before them reads as no series. */
static void test_series_header(void **state)
{
	struct ft_rec_filehdr h = { .version = FT_REC_VERSION, .created_realtime_ns = 7,
				    .series_id = 0x6f8501e6f775da49ull, .series_seq = 123456 },
				    back;
	uint8_t fh[FT_REC_FILE_HDR];

	(void)state;
	ft_rec_filehdr_encode(&h, fh);
	assert_int_equal(ft_rec_filehdr_decode(fh, &back), 0);
	assert_true(back.series_id == 0x6f8501e6f775da49ull);
	assert_int_equal(back.series_seq, 123456);
	assert_true(back.created_realtime_ns == 7);
	h.series_id = 0;
	h.series_seq = 0;
	ft_rec_filehdr_encode(&h, fh);
	/* bytes 32-43 were reserved zeros before: an older file is one without a series */
	for (int i = 32; i < 44; i++)
		assert_int_equal(fh[i], 0);
	assert_int_equal(ft_rec_filehdr_decode(fh, &back), 0);
	assert_true(back.series_id == 0 && back.series_seq == 0);
}

static int cleanup(void **state)
{
	(void)state;
	free(file.p);
	file.p = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_clean),
		cmocka_unit_test(test_push_ahead_of_the_writer),
		cmocka_unit_test(test_no_end_chunk),
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_flipped_bytes),
		cmocka_unit_test(test_unknown_chunk),
		cmocka_unit_test(test_header_bounds),
		cmocka_unit_test(test_series_header),
	};

	return cmocka_run_group_tests(tests, NULL, cleanup);
}
