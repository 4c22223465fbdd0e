// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: ft_hostfacts_parse() on arbitrary bytes (a recording's
 * HOST input, hostile), then every key read back: the facts stay in their
 * bounds (orders, page size, the huge and mTHP sizes in order).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "kernel/hostfacts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "hostname", "release", "page_size", "pmd_order",
					    "pageblock_order", "hugepage_kb", "mthp_kb", "root",
					    "" };
	struct ft_host_facts h;
	char buf[256];
	unsigned int i;

	ft_hostfacts_init(&h);
	ft_hostfacts_parse(&h, (const char *)data, size);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ft_hostfacts_get(&h, keys[i], buf, sizeof(buf));
	if (h.nr_huge > sizeof(h.huge_kb) / sizeof(h.huge_kb[0]) ||
	    h.nr_mthp > sizeof(h.mthp_kb) / sizeof(h.mthp_kb[0]))
		abort();
	for (i = 1; i < h.nr_huge; i++)
		if (h.huge_kb[i] <= h.huge_kb[i - 1])
			abort();
	for (i = 1; i < h.nr_mthp; i++)
		if (h.mthp_kb[i] <= h.mthp_kb[i - 1])
			abort();
	return 0;
}
