// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: a kernel log record (kernel/kmsg.c), the bytes of a
 * KMSG input (a recording's, untrusted).  Invariants: no crash; a record
 * taken has a terminated comm (1 to 15 bytes, the kernel's form) and gfp
 * within their buffers and an order that counts (by_order sums to the failures).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/kmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_kmsg k = { 0 };
	struct ft_kmsg_fail f;
	uint64_t sum = 0;
	int o;

	if (ft_kmsg_parse((const char *)data, size, &f))
		return 0;
	if (strnlen(f.comm, sizeof(f.comm)) >= sizeof(f.comm) ||
	    strnlen(f.gfp, sizeof(f.gfp)) >= sizeof(f.gfp) ||
	    f.order < 0 || f.order > 64)
		__builtin_trap();
	/* only the kernel's form: a task's name of 1 to 15 bytes before the phrase */
	if (!f.comm[0] || strlen(f.comm) > FT_KMSG_COMM_MAX)
		__builtin_trap();
	ft_kmsg_add(&k, &f);
	for (o = 0; o < FT_KMSG_ORDERS; o++)
		sum += k.by_order[o];
	if (sum != 1 || k.failures != 1)
		__builtin_trap();
	return 0;
}
