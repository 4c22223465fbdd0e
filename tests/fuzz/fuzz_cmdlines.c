// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the tracer's saved_cmdlines (kernel/cmdlines.c), kernel
 * text read live to name tasks gone before /proc was read.  Invariants: no
 * crash; one row per pid, sorted, each pid in the kernel's range; every
 * command is terminated, fits, is not empty nor "<...>", and is found
 * again by its pid.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/cmdlines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_cmdlines c = { 0 };
	size_t i;

	if (ft_cmdlines_parse((const char *)data, size, &c))
		return 0;
	for (i = 0; i < c.nr; i++) {
		const struct ft_cmdline *e = &c.v[i];
		size_t n = strnlen(e->comm, FT_CMDLINE_LEN);

		if (n == 0 || n >= FT_CMDLINE_LEN || e->comm[0] == '<')
			__builtin_trap();
		if (e->pid < 1 || e->pid > (1 << 22) || (i && c.v[i - 1].pid >= e->pid))
			__builtin_trap();
		if (ft_cmdlines_find(&c, e->pid) != e->comm)
			__builtin_trap();
	}
	ft_cmdlines_release(&c);
	return 0;
}
