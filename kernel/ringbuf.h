/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sub-buffer of the kernel's ring buffer (a page of trace_pipe_raw),
 * walked event by event.  The layout is the kernel's
 * (kernel/trace/ring_buffer.c, include/linux/ring_buffer.h), for a 64-bit
 * little-endian host as events/header_page gives it: u64 timestamp, u64
 * commit (the data's size in its low 27 bits; bit 31 set: events were
 * missed before this page, bit 30 set: their count follows the data), the
 * data.  Each event starts with a u32 of type_len (5 bits) and time_delta
 * (27): type_len 1-28 is a data event of type_len * 4 bytes; 0 a data
 * event whose length (plus 4) is the next u32; 29 is padding (a discarded
 * event) of the next u32's length; 30 extends the time delta by the next
 * u32 << 27; 31 is an absolute time stamp of the same form, its top 5
 * bits those of the time where the walk is (the kernel's rb_fix_abs_ts()).
 *
 * The walk is libtraceevent's kbuffer's, written for this one layout: the
 * same records, time stamps and lost counts (checked page by page against
 * kbuffer on every kept recording), at a fraction of the cost (no
 * byte-swapping indirection, no call a field).  Every length is checked
 * against the page: a malformed page ends the walk, said by ft_rb_next()'s
 * bad flag.  Pure.
 */
#ifndef FT_KERNEL_RINGBUF_H
#define FT_KERNEL_RINGBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_RB_HEADER	16		/* timestamp and commit */

struct ft_rb_page {
	const unsigned char *data;	/* the page's data, after the header */
	uint32_t size;			/* its bytes (the commit's low bits) */
	uint32_t next;			/* where the walk goes on, from data */
	uint64_t ts;			/* the time stamp where the walk is */
	int64_t lost;			/* events missed before the page; -1: some, not counted */
	bool bad;			/* the walk met a length past the page */
};

/* Take the @len bytes of a sub-buffer at @buf.  0, or -EINVAL (too short, data past @len). */
int ft_rb_load(struct ft_rb_page *pg, const void *buf, size_t len);

/*
 * The next data event: a pointer to its payload, *@size its bytes, *@ts
 * its time stamp; NULL at the page's end (pg->bad when it ended on a
 * malformed length).
 */
const unsigned char *ft_rb_next(struct ft_rb_page *pg, uint32_t *size, uint64_t *ts);

#endif
