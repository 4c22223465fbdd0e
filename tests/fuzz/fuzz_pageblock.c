// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: /proc/iomem text, and the classifier fed arbitrary
 * flag and count words over a zone whose span and order come from the
 * input.  Invariants: RAM ranges are ordered pairs; every scanned zone's
 * classes add up to its block count, and its pollution fits in its mixed
 * blocks.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/pageblock.h"
#include "kernel/zoneinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_zi_zone zone = { .node = 0, .name = "Normal", .has = FT_ZI_START_PFN };
	struct ft_zoneinfo zi = { .zones = &zone, .nr = 1, .cap = 1 };
	struct ft_pbmap m;
	uint64_t *words;
	size_t i, nw;
	uint32_t b, sum;
	int order, c;

	if (size < 8)
		return 0;
	order = data[0] % 11;
	zone.start_pfn = data[1] | (uint64_t)data[2] << 8;
	zone.spanned = 1 + (data[3] | (uint64_t)(data[4] & 0x0f) << 8);
	ft_pbmap_init(&m);
	/* the rest is iomem text, and also the flag words */
	ft_iomem_parse((const char *)data + 5, size - 5, 4096, &m.ram);
	for (i = 0; i < m.ram.nr; i++)
		if (m.ram.start[i] > m.ram.end[i])
			__builtin_trap();
	if (ft_pbmap_layout(&m, &zi, order, NULL))
		return 0;
	nw = (size_t)m.zones[0].nr_blocks << order;
	words = calloc(nw * 2, sizeof(*words));
	if (!words) {
		ft_pbmap_release(&m);
		return 0;
	}
	for (i = 0; i < nw * 2 && i * 8 + 8 <= size - 5; i++)
		memcpy(&words[i], data + 5 + i * 8, 8);
	for (i = size - 5 >= 8 ? (size - 5) / 8 : 0; i < nw * 2; i++)
		words[i] = words[i % (((size - 5) / 8) ? ((size - 5) / 8) : 1)];
	ft_pbmap_feed(&m, 0, 0, m.zones[0].nr_blocks, words, data[5] & 1 ? words + nw : NULL,
		      data[5] & 2);
	for (sum = 0, c = 0; c < FT_PB_NR; c++)
		sum += m.zones[0].count[c];
	if (sum != m.zones[0].nr_blocks || m.zones[0].count[FT_PB_UNSCANNED])
		__builtin_trap();
	{
		uint64_t cap = 0;

		for (b = 0; b < m.zones[0].nr_blocks; b++)
			if (m.zones[0].blocks[b].cls == FT_PB_MIXED)
				cap += m.zones[0].blocks[b].pages[FT_PG_UNMOVABLE];
		if (cap != m.zones[0].pollution)
			__builtin_trap();
	}
	ft_pbmap_mark(&m, zone.start_pfn, 1, 1);
	free(words);
	ft_pbmap_release(&m);
	return 0;
}
