// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: terminal input after ESC (ft_esc_feed), byte by byte, restarting after each
 * verdict.
 */
#include <stddef.h>
#include <stdint.h>

#include "tui/termin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_esc_state st;
	struct ft_mouse_ev ev;
	size_t i;

	ft_esc_begin(&st);
	for (i = 0; i < size; i++)
		if (ft_esc_feed(&st, data[i], &ev) != FT_ESC_MORE)
			ft_esc_begin(&st);
	ft_esc_end(&st);
	return 0;
}
