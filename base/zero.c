// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/zero.h"

#include <stdint.h>
#include <string.h>

#define PAGE	4096u

/* @n bytes at @p are all zero (read a word at a time; @p and @n are page-aligned here). */
static int all_zero(const unsigned char *p, size_t n)
{
	const uint64_t *w = (const uint64_t *)(const void *)p;
	uint64_t acc = 0;
	size_t i;

	for (i = 0; i < n / 8; i++)
		acc |= w[i];
	return acc == 0;
}

void ft_zero(void *p, size_t n)
{
	unsigned char *c = p, *end = c + n;
	unsigned char *a = (unsigned char *)(((uintptr_t)c + PAGE - 1) & ~(uintptr_t)(PAGE - 1));

	if (n < 2 * PAGE || a >= end) {
		memset(p, 0, n);
		return;
	}
	memset(c, 0, (size_t)(a - c));	/* the head, up to the first page boundary */
	for (; a + PAGE <= end; a += PAGE)
		if (!all_zero(a, PAGE))
			memset(a, 0, PAGE);
	memset(a, 0, (size_t)(end - a));	/* the tail */
}
