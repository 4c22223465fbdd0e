// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/zero.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void ft_zero(void *p, size_t n)
{
	unsigned char *c = p, *end = c + n, *a, *z;
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096u;

	a = (unsigned char *)(((uintptr_t)c + page - 1) & ~(page - 1));
	z = (unsigned char *)((uintptr_t)end & ~(page - 1));
	if (n < 2 * page || a >= z) {
		memset(p, 0, n);
		return;
	}
	/*
	 * The whole pages inside: handed back to the kernel, which maps them
	 * again as zero on the next touch.  Reading them to see whether they
	 * are zero already would allocate each one on a kernel without the
	 * shared zero page (pvm_no_zero_page=1).  Where the kernel says no
	 * (a locked page), memset does it.
	 */
	if (madvise(a, (size_t)(z - a), MADV_DONTNEED))
		memset(a, 0, (size_t)(z - a));
	memset(c, 0, (size_t)(a - c));		/* the head, up to the first page boundary */
	memset(z, 0, (size_t)(end - z));	/* the tail */
}
