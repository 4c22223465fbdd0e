/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Zeroing a large struct without making it resident.  The live source's
 * struct holds the session (2.7 MiB, most of it rings and tables a host
 * fills only in part); calloc() hands such a block over as fresh pages
 * that read as zero without being allocated, and a memset() of it would
 * allocate every one of them.  ft_zero() leaves alone the pages that read
 * as zero already: reading a fresh page maps the kernel's shared zero
 * page, which RSS does not count.
 */
#ifndef FT_BASE_ZERO_H
#define FT_BASE_ZERO_H

#include <stddef.h>

/* memset(@p, 0, @n), writing only the pages that are not all zero. */
void ft_zero(void *p, size_t n);

#endif
