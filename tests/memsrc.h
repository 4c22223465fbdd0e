/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording's bytes in memory as the reader's source (struct
 * ft_rec_src, model/recfmt.h): for the fuzz target, which gets its input
 * as a buffer, and the crafted-file writer, which reads a recording back.
 */
#ifndef FT_TESTS_MEMSRC_H
#define FT_TESTS_MEMSRC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/recfmt.h"

struct ft_memsrc {
	const uint8_t *p;
	size_t len;
};

static inline long ft_memsrc_pread(void *ctx, void *buf, size_t n, uint64_t off)
{
	const struct ft_memsrc *m = ctx;

	if (off >= m->len)
		return 0;
	if (n > m->len - off)
		n = m->len - (size_t)off;
	memcpy(buf, m->p + off, n);
	return (long)n;
}

/* The source reading @m (which must outlive the reader). */
static inline struct ft_rec_src ft_memsrc(struct ft_memsrc *m)
{
	return (struct ft_rec_src){ .pread = ft_memsrc_pread, .size = m->len, .ctx = m };
}

#endif
