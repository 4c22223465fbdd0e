/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fragtop get`'s renderers: every knob as cmd/knobcmd.c read it through controls/. */
#ifndef FT_RENDER_KNOBS_H
#define FT_RENDER_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/knob.h"

struct ft_knob_reading {
	const struct ft_knob *k;
	bool available;			/* the file is there */
	struct ft_knob_value v;		/* as read; a trigger: -EOPNOTSUPP */
};

void ft_render_knobs_json(const struct ft_knob_reading *r, size_t n);
void ft_render_knobs_table(const struct ft_knob_reading *r, size_t n);

#endif
