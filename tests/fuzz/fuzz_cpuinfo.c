// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: /proc/cpuinfo's first processor (model/fit.c
 * ft_fit_cpuinfo()), text a captured tree may hold forged.  Invariants:
 * no crash, no read past the input; the architecture one of the known;
 * pdpe1gb known (0 or 1) exactly when the text is x86's, and then 1 only
 * when the flag is a whole word of the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_fit_cpu c;
	/* a copy of exactly @size bytes: ASan sees any read past it */
	char *text = malloc(size ? size : 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	ft_fit_cpuinfo(text, size, &c);
	if (c.arch != FT_ARCH_UNKNOWN && c.arch != FT_ARCH_X86 && c.arch != FT_ARCH_ARM64)
		__builtin_trap();
	if ((c.arch == FT_ARCH_X86) != (c.pdpe1gb >= 0) || c.pdpe1gb > 1)
		__builtin_trap();
	if (c.pdpe1gb == 1 && !memmem(text, size, "pdpe1gb", 7))
		__builtin_trap();
	free(text);
	return 0;
}
