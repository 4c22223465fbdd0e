// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the integer and [selector] sysfs/sysctl parsers, and meminfo's lines. */
#include <stddef.h>
#include <stdint.h>

#include "kernel/sysfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_selector sel;
	uint64_t kb;
	int64_t v;

	ft_sysfile_parse_int((const char *)data, size, &v);
	ft_sysfile_meminfo((const char *)data, size, "MemAvailable", &kb);
	if (!ft_sysfile_parse_selector((const char *)data, size, &sel)) {
		/* a parsed selector always names one of its options */
		if (sel.selected < 0 || sel.selected >= sel.nr_options)
			__builtin_trap();
	}
	return 0;
}
