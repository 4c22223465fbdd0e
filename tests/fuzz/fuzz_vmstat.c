// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: ft_vmstat_parse() on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "kernel/vmstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ft_vmstat out;	/* storage reused across runs, as live */

	ft_vmstat_parse((const char *)data, size, &out);
	return 0;
}
