/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Zeroing a large struct without making it resident.  The live source's
 * struct holds the session (2.7 MiB, most of it rings and tables a host
 * fills only in part); calloc() hands such a block over as fresh pages
 * that read as zero without being allocated, and a memset() of it would
 * allocate every one of them.  ft_zero() gives the whole pages inside back
 * to the kernel (MADV_DONTNEED), which maps them as zero again on the next
 * touch; it reads none of them, since on a kernel without the shared zero
 * page (pvm_no_zero_page=1) a read allocates the page as a write does.
 */
#ifndef FT_BASE_ZERO_H
#define FT_BASE_ZERO_H

#include <stddef.h>

/*
 * memset(@p, 0, @n), its whole pages dropped instead of written: @p must
 * be private anonymous memory (malloc, calloc, an anonymous mmap), never
 * a file's mapping, whose dropped pages would read as the file again.
 */
void ft_zero(void *p, size_t n);

#endif
