// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: ft_buddyinfo_parse() on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "kernel/buddyinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ft_buddyinfo out;	/* storage reused across runs, as live */

	ft_buddyinfo_parse((const char *)data, size, &out);
	return 0;
}
