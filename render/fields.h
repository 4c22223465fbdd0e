/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fragtop fields`' renderers: the field registries, as below's dump lists its fields. */
#ifndef FT_RENDER_FIELDS_H
#define FT_RENDER_FIELDS_H

void ft_render_fields_text(void);
void ft_render_fields_json(void);

#endif
