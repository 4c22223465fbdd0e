/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Growing an array: one helper for every layer, so no module writes its
 * own doubling loop (and its own overflow check).
 */
#ifndef FT_BASE_GROW_H
#define FT_BASE_GROW_H

#include <stddef.h>

/*
 * Grow *arr (elements of @elsz bytes, capacity *cap) to hold @need
 * elements: doubling from @first (or from *cap), at most @max.  0,
 * -ENOMEM, or -E2BIG when @need is over @max (nothing changes then).
 */
int ft_grow_from(void **arr, size_t *cap, size_t need, size_t elsz, size_t first, size_t max);

/* ft_grow_from() starting at 8 elements. */
int ft_grow(void **arr, size_t *cap, size_t need, size_t elsz, size_t max);

#endif
