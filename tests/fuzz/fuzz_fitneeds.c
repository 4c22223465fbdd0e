// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: preflight's needs ("4x1G,512x2M") and sizes ("32M"),
 * then the needs judged together against figures made of the input's
 * bytes: every parsed need is in range, every verdict one of the four,
 * and what is left for a need never above what its zones had.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/fit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_fit_need needs[FT_FIT_NEEDS_MAX];
	struct ft_fit z[2 * FT_FIT_NEEDS_MAX], left[FT_FIT_NEEDS_MAX];
	enum ft_fit_verdict each[FT_FIT_NEEDS_MAX], all;
	bool use[2] = { true, size & 1 };
	char text[256], err[128];
	size_t nr = 0, i, k;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	ft_fit_size_parse(text, 4096);
	ft_fit_size_parse(text, 65536);
	if (ft_fit_needs_parse(text, 4096, needs, &nr, err, sizeof(err)))
		return 0;
	if (!nr || nr > FT_FIT_NEEDS_MAX)
		__builtin_trap();
	for (i = 0; i < nr; i++)
		if (!needs[i].count || needs[i].order < 0 || needs[i].order > FT_FIT_MAX_ORDER)
			__builtin_trap();
	for (k = 0; k < 2; k++)
		for (i = 0; i < nr; i++) {
			struct ft_fit *f = &z[k * nr + i];
			uint64_t b = size ? data[(k * nr + i) % size] : 0;

			memset(f, 0, sizeof(*f));
			f->order = needs[i].order;
			f->now_lo = b & 7;
			f->now_hi = f->now_lo + (b >> 6);
			f->after_lo = f->now_lo + ((b >> 3) & 7);
			f->after_hi = b & 0x80 ? UINT64_MAX : f->after_lo + (b >> 6);
			f->map = true;
		}
	all = ft_fit_needs_judge(z, 2, use, needs, nr, size ? data[0] * 1000ull : 0, UINT64_MAX,
				 left, each);
	if ((unsigned int)all > FT_FIT_UNKNOWN)
		__builtin_trap();
	for (i = 0; i < nr; i++) {
		if ((unsigned int)each[i] > FT_FIT_UNKNOWN)
			__builtin_trap();
		if (left[i].now_lo > z[i].now_lo + (use[1] ? z[nr + i].now_lo : 0))
			__builtin_trap();
	}
	return 0;
}
