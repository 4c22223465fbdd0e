/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text for XML and SVG (plot). */
#ifndef FT_OUT_XML_H
#define FT_OUT_XML_H

#include <stdio.h>

/* @s escaped (& < > " '), control characters and broken UTF-8 as '?'. */
void ft_render_xml_text(FILE *f, const char *s);

#endif
