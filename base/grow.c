// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int ft_grow_from(void **arr, size_t *cap, size_t need, size_t elsz, size_t first, size_t max)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	if (!elsz || need > max || need > SIZE_MAX / elsz)
		return -E2BIG;
	ncap = *cap ? *cap : (first ? first : 1);
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	if (ncap > max)
		ncap = max;
	if (ncap > SIZE_MAX / elsz)
		ncap = need;
	p = realloc(*arr, ncap * elsz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

int ft_grow(void **arr, size_t *cap, size_t need, size_t elsz, size_t max)
{
	return ft_grow_from(arr, cap, need, elsz, 8, max);
}
