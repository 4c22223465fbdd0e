// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the whole model.  The input is split at NUL bytes into
 * zoneinfo, buddyinfo, pagetypeinfo and vmstat, fed twice (two ticks, so
 * rates and the join run on whatever parsed).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_sample s;
	struct ft_raw raw;
	const char *p = (const char *)data, *end = p + size;
	int i, tick;

	memset(&raw, 0, sizeof(raw));
	for (i = 0; i < FT_SRC_NR; i++) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		const char *stop = nul ? nul : end;

		raw.src[i].fresh = true;
		raw.src[i].buf = p;
		raw.src[i].len = (size_t)(stop - p);
		p = nul ? nul + 1 : end;
	}
	ft_sample_init(&s);
	s.pageblock_order_fallback = 9;
	for (tick = 1; tick <= 2; tick++) {
		raw.t_ns = (uint64_t)tick * 1000000000ull;
		ft_sample_update(&s, &raw);
		for (i = 0; i < (int)s.nr_zones; i++)
			if (s.zones[i].bi && s.nr_orders > FT_MAX_ORDERS)
				__builtin_trap();
	}
	ft_sample_release(&s);
	return 0;
}
