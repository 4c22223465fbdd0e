/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Beyond the pageblock (model/contig.h) as text and JSON, one renderer
 * for snapshot and report: a map zone's pollution amplification and its
 * gigantic regions, and the gigantic pages available per node.
 */
#ifndef FT_RENDER_CONTIG_H
#define FT_RENDER_CONTIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/json.h"
#include "model/session.h"

/* The gigantic page size of order @order as "1 GiB"; @buf returned. */
const char *ft_render_contig_size(const struct ft_session *s, int order, char *buf, size_t sz);

/* Members "amplification" and "gigantic" of map zone @k's object; with @regions, each region. */
void ft_render_contig_json(struct ft_json *j, const struct ft_session *s, size_t k, bool regions);

/* Map zone @k's two lines, each led by @indent. */
void ft_render_contig_text(FILE *f, const struct ft_session *s, size_t k, const char *indent);

/* "gigantic_by_node": per node, the regions and the pages available; null without an order. */
void ft_render_contig_nodes_json(struct ft_json *j, const struct ft_session *s);

/* The same as lines led by @indent (nothing without an order). */
void ft_render_contig_nodes_text(FILE *f, const struct ft_session *s, const char *indent);

#endif
