// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/contig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *ft_render_contig_size(const struct ft_session *s, int order, char *buf, size_t sz)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	uint64_t kb = ((uint64_t)s->host.page_size << order) / 1024;
	int u = 0;

	while (kb >= 1024 && !(kb % 1024) && u < 3) {
		kb /= 1024;
		u++;
	}
	snprintf(buf, sz, "%llu %s", (unsigned long long)kb, unit[u]);
	return buf;
}

static void json_amp(struct ft_json *j, const struct ft_pbmap_zone *z)
{
	struct ft_amp a = { 0 };

	ft_amp_add(&a, z);
	ft_json_obj_begin(j, "amplification");
	ft_json_u64(j, "blocks", a.blocks);
	ft_json_u64(j, "polluted_blocks", a.polluted);
	ft_json_u64(j, "pages", a.pages);
	ft_json_u64(j, "unmovable_pages", a.unmovable);
	ft_json_double(j, "ratio", ft_amp_ratio(&a));
	ft_json_u64(j, "unread_blocks", a.unread);
	ft_json_bool(j, "partial", ft_amp_partial(&a));	/* the ratio is of the blocks read so far */
	ft_json_obj_end(j);
}

static void json_region(struct ft_json *j, const struct ft_contig_region *r)
{
	uint32_t i;

	ft_json_obj_begin(j, NULL);
	ft_json_u64(j, "pfn", r->pfn);
	ft_json_str(j, "class", ft_gr_names[r->cls]);
	ft_json_u64(j, "unmovable_blocks", r->unmovable_blocks);
	ft_json_u64(j, "hole_blocks", r->hole_blocks);
	ft_json_u64(j, "unread_blocks", r->unread_blocks);
	ft_json_u64(j, "unmovable_pages", r->unmovable_pages);
	ft_json_arr_begin_inline(j, "tainting_block_pfns");
	for (i = 0; i < r->named; i++)
		ft_json_u64(j, NULL, r->taint_pfn[i]);
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

void ft_render_contig_json(struct ft_json *j, const struct ft_session *s, size_t k, bool regions)
{
	struct ft_contig_region *r = NULL;
	struct ft_contig_zone c;
	uint32_t n, i;
	int g;

	json_amp(j, &s->map.zones[k]);
	n = ft_session_contig(s, k, &c, NULL, 0);
	if (c.order < 0) {
		ft_json_null(j, "gigantic");
		return;
	}
	if (regions && n)
		r = calloc(n, sizeof(*r));
	if (r)
		ft_session_contig(s, k, &c, r, n);
	ft_json_obj_begin(j, "gigantic");
	ft_json_i64(j, "order", c.order);
	ft_json_u64(j, "page_kb", ((uint64_t)s->host.page_size << c.order) / 1024);
	ft_json_u64(j, "regions", c.regions);
	for (g = 0; g < FT_GR_NR; g++)
		ft_json_u64(j, ft_gr_names[g], c.count[g]);
	ft_json_u64(j, "uninitialised_pages", c.uninit_pages);
	ft_json_u64(j, "available_now", c.now);
	ft_json_u64(j, "available_after_compaction", c.after);
	if (regions && (r || !n)) {
		ft_json_arr_begin(j, "by_region");
		for (i = 0; r && i < n; i++)
			json_region(j, &r[i]);
		ft_json_arr_end(j);
	} else if (regions) {
		ft_json_null(j, "by_region");	/* no memory for them */
	}
	ft_json_obj_end(j);
	free(r);
}

void ft_render_contig_text(FILE *f, const struct ft_session *s, size_t k, const char *indent)
{
	struct ft_amp a = { 0 };
	struct ft_contig_zone c;
	double ratio;
	char size[24];
	int g;

	ft_amp_add(&a, &s->map.zones[k]);
	ratio = ft_amp_ratio(&a);
	if (isfinite(ratio) && ft_amp_partial(&a))
		fprintf(f, "%samplification ~%.2f (partial: %llu blocks not read whole yet): "
			   "%.2f%% of %llu "
			"blocks hold unmovable pages, %.3f%% of pages are\n", indent, ratio,
			(unsigned long long)a.unread, 100.0 * (double)a.polluted / (double)a.blocks,
			(unsigned long long)a.blocks,
			100.0 * (double)a.unmovable / (double)a.pages);
	else if (isfinite(ratio))
		fprintf(f, "%samplification %.2f: %.2f%% of %llu blocks hold unmovable pages, "
			   "%.3f%% of pages are\n",
			indent, ratio, 100.0 * (double)a.polluted / (double)a.blocks,
			(unsigned long long)a.blocks,
			100.0 * (double)a.unmovable / (double)a.pages);
	else
		fprintf(f, "%samplification n/a: %s\n", indent,
			a.blocks ? "no unmovable page in the blocks read" : "no block read whole");
	ft_session_contig(s, k, &c, NULL, 0);
	if (c.order < 0)
		return;
	fprintf(f, "%s%s regions %u:", indent,
		ft_render_contig_size(s, c.order, size, sizeof(size)), c.regions);
	for (g = 0; g < FT_GR_NR; g++)
		if (c.count[g] || g == FT_GR_FREE || g == FT_GR_MOVABLE || g == FT_GR_TAINTED)
			fprintf(f, " %s %u", ft_gr_names[g], c.count[g]);
	fprintf(f, "  available now %u, after compaction %u\n", c.now, c.after);
}

/* Per node sums: nodes found in the map, in map order. */
struct node_sum {
	int node;
	uint32_t regions, count[FT_GR_NR], now, after;
};

static size_t node_sums(const struct ft_session *s, struct node_sum *ns, size_t cap, int *order)
{
	size_t n = 0, k, i;

	*order = ft_session_contig_order(s);
	for (k = 0; *order >= 0 && k < s->map.nr; k++) {
		struct ft_contig_zone c;
		int g;

		ft_session_contig(s, k, &c, NULL, 0);
		for (i = 0; i < n && ns[i].node != s->map.zones[k].node; i++)
			;
		if (i == n) {
			if (n == cap)
				continue;
			memset(&ns[n], 0, sizeof(ns[n]));
			ns[n++].node = s->map.zones[k].node;
		}
		ns[i].regions += c.regions;
		for (g = 0; g < FT_GR_NR; g++)
			ns[i].count[g] += c.count[g];
		ns[i].now += c.now;
		ns[i].after += c.after;
	}
	return n;
}

void ft_render_contig_nodes_json(struct ft_json *j, const struct ft_session *s)
{
	/* a node has a zone at least */
	struct node_sum *ns = calloc(s->map.nr ? s->map.nr : 1, sizeof(*ns));
	size_t n, i;
	int order, g;

	n = ns ? node_sums(s, ns, s->map.nr, &order) : 0;
	if (!ns || order < 0) {
		ft_json_null(j, "gigantic_by_node");
		free(ns);
		return;
	}
	ft_json_arr_begin(j, "gigantic_by_node");
	for (i = 0; i < n; i++) {
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", ns[i].node);
		ft_json_u64(j, "page_kb", ((uint64_t)s->host.page_size << order) / 1024);
		ft_json_u64(j, "regions", ns[i].regions);
		for (g = 0; g < FT_GR_NR; g++)
			ft_json_u64(j, ft_gr_names[g], ns[i].count[g]);
		ft_json_u64(j, "available_now", ns[i].now);
		ft_json_u64(j, "available_after_compaction", ns[i].after);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	free(ns);
}

void ft_render_contig_nodes_text(FILE *f, const struct ft_session *s, const char *indent)
{
	struct node_sum *ns = calloc(s->map.nr ? s->map.nr : 1, sizeof(*ns));
	char size[24];
	size_t n, i;
	int order = -1;

	n = ns ? node_sums(s, ns, s->map.nr, &order) : 0;
	for (i = 0; i < n; i++)
		fprintf(f, "%snode %d: %s pages available now %u, after compaction %u (of %u "
			   "regions; %u tainted)\n",
			indent, ns[i].node, ft_render_contig_size(s, order, size, sizeof(size)),
			ns[i].now, ns[i].after,
			ns[i].regions, ns[i].count[FT_GR_TAINTED]);
	free(ns);
}
