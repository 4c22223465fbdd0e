/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Builds raw ring-buffer sub-buffers the way the kernel lays them out
 * (header_page: u64 timestamp, long commit, data; each event a 32-bit
 * header of type_len:5, time_delta:27 then its payload), with payloads laid
 * out from real format files.  For the tracepoint tests and benches.
 */
#ifndef FT_TESTS_TRACEBUF_H
#define FT_TESTS_TRACEBUF_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TB_PAGE 4096

struct tracebuf {
	unsigned char page[TB_PAGE];
	size_t len;		/* bytes of data after the 16-byte header */
};

static inline void tb_init(struct tracebuf *tb, uint64_t ts)
{
	memset(tb, 0, sizeof(*tb));
	memcpy(tb->page, &ts, 8);
}

/*
 * Append one event; 0, or -1 if the page is full.  Up to 112 bytes the
 * length is in the header's type_len; longer (a kernel stack), type_len 0
 * and a 32-bit length word (the data's length plus its own 4) first.
 */
static inline int tb_add(struct tracebuf *tb, uint32_t delta_ns, const void *payload, size_t n)
{
	size_t padded = (n + 3) & ~(size_t)3, word = padded > 28 * 4 ? 4 : 0;
	unsigned char *at = tb->page + 16 + tb->len;
	uint32_t hdr, big = (uint32_t)(padded + 4);

	if (16 + tb->len + 4 + word + padded > TB_PAGE)
		return -1;
	hdr = (uint32_t)(word ? 0 : padded / 4) | (delta_ns << 5);
	memcpy(at, &hdr, 4);
	if (word)
		memcpy(at + 4, &big, 4);
	memset(at + 4 + word, 0, padded);
	memcpy(at + 4 + word, payload, n);
	tb->len += 4 + word + padded;
	return 0;
}

/* Finish: write the commit word; @missed > 0 stores a missed-events count. */
static inline size_t tb_finish(struct tracebuf *tb, uint64_t missed)
{
	uint64_t commit = tb->len;

	if (missed) {
		commit |= 1ull << 31 | 1ull << 30;	/* RB_MISSED_EVENTS | RB_MISSED_STORED */
		memcpy(tb->page + 16 + tb->len, &missed, 8);
	}
	memcpy(tb->page + 8, &commit, 8);
	return TB_PAGE;
}

/* offset and size of @field in a format text, or -1 */
static inline int tb_field(const char *format, const char *field, int *size)
{
	char key[96];
	const char *p;

	snprintf(key, sizeof(key), " %s;\toffset:", field);
	p = strstr(format, key);
	if (!p)
		return -1;
	p += strlen(key);
	if (size)
		*size = atoi(strstr(p, "size:") + 5);
	return atoi(p);
}

static inline int tb_id(const char *format)
{
	const char *p = strstr(format, "\nID: ");

	return p ? atoi(p + 5) : -1;
}

/* Set @field of payload @rec (laid out by @format) to @v. */
static inline void tb_set(unsigned char *rec, const char *format, const char *field, int64_t v)
{
	int size = 0, off = tb_field(format, field, &size);

	if (off < 0 || size <= 0 || size > 8)
		abort();
	memcpy(rec + off, &v, (size_t)size);	/* little-endian */
}

#endif
