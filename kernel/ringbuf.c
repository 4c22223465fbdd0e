// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/ringbuf.h"

#include <errno.h>
#include <string.h>

#define COMMIT_MASK	((1u << 27) - 1)
#define MISSED		(1ull << 31)
#define MISSED_STORED	(1ull << 30)
#define TS_SHIFT	27
/* an absolute time stamp holds 59 bits: the top 5 are the page's */
#define TS_MSB		(0x1full << 59)

/* enum ring_buffer_type of include/linux/ring_buffer.h */
enum { TYPE_DATA_MAX = 28, TYPE_PADDING = 29, TYPE_TIME_EXTEND = 30, TYPE_TIME_STAMP = 31 };

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

int ft_rb_load(struct ft_rb_page *pg, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t commit;

	memset(pg, 0, sizeof(*pg));
	if (len < FT_RB_HEADER)
		return -EINVAL;
	memcpy(&pg->ts, p, 8);
	memcpy(&commit, p + 8, 8);
	pg->size = (uint32_t)commit & COMMIT_MASK;
	if (pg->size > len - FT_RB_HEADER)
		return -EINVAL;
	pg->data = p + FT_RB_HEADER;
	if (commit & MISSED) {
		pg->lost = -1;
		if ((commit & MISSED_STORED) && pg->size + 8 <= len - FT_RB_HEADER)
			memcpy(&pg->lost, pg->data + pg->size, 8);
	}
	return 0;
}

const unsigned char *ft_rb_next(struct ft_rb_page *pg, uint32_t *size, uint64_t *ts)
{
	while (pg->next < pg->size) {
		uint32_t at = pg->next, left = pg->size - at, h, type_len, delta, len;
		const unsigned char *e = pg->data + at;

		if (left < 4)
			break;
		h = u32_at(e);
		type_len = h & 31;
		delta = h >> 5;
		if (type_len > TYPE_DATA_MAX || type_len == 0) {	/* a second word */
			if (left < 8)
				break;
			len = u32_at(e + 4);
		} else {
			len = 0;
		}
		switch (type_len) {
		case TYPE_PADDING:		/* an event discarded: its length follows */
			pg->ts += delta;
			if (len > left - 4)
				goto end;
			pg->next = at + 4 + len;
			continue;
		case TYPE_TIME_EXTEND:
			pg->ts += ((uint64_t)len << TS_SHIFT) + delta;
			pg->next = at + 8;
			continue;
		/* absolute (rb_fix_abs_ts()): the top bits from where the walk is */
		case TYPE_TIME_STAMP: {
			uint64_t abs = ((uint64_t)len << TS_SHIFT) + delta;

			if (pg->ts & TS_MSB) {
				abs |= pg->ts & TS_MSB;
				if (abs < pg->ts)
					abs += 1ull << 59;
			}
			pg->ts = abs;
			pg->next = at + 8;
			continue;
		}
		case 0:			/* a long data event: its length, then the data */
			if (len < 4 || ((len - 4 + 3) & ~3u) > left - 8)
				goto bad;
			pg->ts += delta;
			pg->next = at + 8 + ((len - 4 + 3) & ~3u);
			*size = (len - 4 + 3) & ~3u;
			*ts = pg->ts;
			return e + 8;
		default:		/* 1..28: type_len words of data */
			if (type_len * 4 > left - 4)
				goto bad;
			pg->ts += delta;
			pg->next = at + 4 + type_len * 4;
			*size = type_len * 4;
			*ts = pg->ts;
			return e + 4;
		}
	}
end:
	pg->next = pg->size;
	return NULL;
bad:
	pg->bad = true;
	pg->next = pg->size;
	return NULL;
}
