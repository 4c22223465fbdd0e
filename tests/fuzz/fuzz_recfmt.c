// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: a recording from untrusted bytes.  Opens it (index
 * chain or scan), loads every chunk, walks every record.  Invariants: the
 * chunk table stays inside the file, a loaded chunk has the length its
 * header says, records stay inside their chunk.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/recfmt.h"
#include "tests/memsrc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_memsrc m = { data, size };
	struct ft_rec_src src = ft_memsrc(&m);
	struct ft_rec_reader r;
	size_t i;

	if (ft_rec_open(&r, src)) {
		ft_rec_close(&r);
		return 0;
	}
	for (i = 0; i < r.nr; i++) {
		const uint8_t *raw;
		size_t len, off = 0;
		struct ft_rec_record rec;
		bool bad;

		if (r.chunks[i].off >= size)
			__builtin_trap();
		if (ft_rec_load(&r, i, &raw, &len))
			continue;
		if (len != r.chunks[i].c.raw_len)
			__builtin_trap();
		while (ft_rec_next(raw, len, &off, &rec, &bad))
			if (rec.data < raw || rec.data + rec.len > raw + len)
				__builtin_trap();
	}
	ft_rec_find(&r, 12345);
	ft_rec_close(&r);
	return 0;
}
