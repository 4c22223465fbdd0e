// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: ft_selfstat_parse() and ft_btime_parse() on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "kernel/selfstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_selfstat s;
	uint64_t bt;

	ft_selfstat_parse((const char *)data, size, 100, 4096, 1796000000, &s);
	ft_btime_parse((const char *)data, size, &bt);
	return 0;
}
