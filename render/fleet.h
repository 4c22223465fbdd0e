/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fleet's table and a host's drill-down (analysis/fleet.h) as text and
 * JSON: `fragtop fleet --once` and `--json`, `--host INSTANCE`.
 */
#ifndef FT_RENDER_FLEET_H
#define FT_RENDER_FLEET_H

#include <stdio.h>

#include "analysis/fleet.h"

void ft_render_fleet_text(FILE *out, const struct ft_fleet *f, const struct ft_fleet_meta *m);
void ft_render_fleet_json(FILE *out, const struct ft_fleet *f, const struct ft_fleet_meta *m);
void ft_render_fleet_detail_text(FILE *out, const struct ft_fleet_detail *d,
				 const struct ft_fleet_meta *m);
void ft_render_fleet_detail_json(FILE *out, const struct ft_fleet_detail *d,
				 const struct ft_fleet_meta *m);

#endif
