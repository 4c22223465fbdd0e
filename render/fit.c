// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/fit.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"

#define UNKNOWN UINT64_MAX

static const char *const verdict_text[4] = {
	"fits now", "fits after compaction", "does not fit", "cannot tell",
};

static const char *const src_names[] = { "hugetlb", "mthp", "pageblock", "asked" };

const char *ft_render_fit_range(uint64_t lo, uint64_t hi, char *buf, size_t sz)
{
	if (hi == UNKNOWN)
		snprintf(buf, sz, "%" PRIu64 "+", lo);
	else if (hi != lo)
		snprintf(buf, sz, "%" PRIu64 "-%" PRIu64, lo, hi);
	else
		snprintf(buf, sz, "%" PRIu64, lo);
	return buf;
}

static void u64_or_null(struct ft_json *j, const char *key, uint64_t v)
{
	if (v == UNKNOWN)
		ft_json_null(j, key);
	else
		ft_json_u64(j, key, v);
}

static void json_who(struct ft_json *j, const struct ft_session *s, uint64_t pfn)
{
	struct ft_fits_who w;

	ft_fits_who(s, pfn, &w);
	ft_json_obj_begin_inline(j, NULL);
	ft_json_u64(j, "pfn", pfn);
	ft_json_u64(j, "fallbacks", w.fallbacks);
	if (w.pid > 0) {
		ft_json_i64(j, "pid", w.pid);
		ft_json_str(j, "comm", w.comm);
		ft_json_str(j, "cgroup", w.cgroup);
	}
	if (w.owner[0])
		ft_json_str(j, "page_owner", w.owner);
	ft_json_obj_end(j);
}

void ft_render_fit_members(struct ft_json *j, const struct ft_fit *f, const struct ft_session *s)
{
	uint32_t i;

	ft_json_u64(j, "now", f->now_lo);
	u64_or_null(j, "now_max", f->now_hi);
	if (f->map || f->after_hi != UNKNOWN) {
		ft_json_u64(j, "after_compaction", f->after_lo);
		u64_or_null(j, "after_compaction_max", f->after_hi);
	} else {
		ft_json_null(j, "after_compaction");
		ft_json_null(j, "after_compaction_max");
	}
	ft_json_bool(j, "exact", ft_fit_exact(f));
	ft_json_bool(j, "map", f->map);
	ft_json_u64(j, "free_pages", f->free_pages);
	ft_json_u64(j, "watermark_pages", f->wmark);
	ft_json_u64(j, "unusable_pages", f->unusable);
	if (f->buddy)
		ft_json_u64(j, "free_lists", f->free_lists);
	else
		ft_json_null(j, "free_lists");
	/*
	 * The host's free memory over the size (alloc_contig_range() migrates
	 * to any zone): the host's figure, not a node's or a zone's share, so
	 * below the host it is named for what it counts and is not summed.
	 */
	ft_json_u64(j, f->node < 0 ? "free_memory_cap" : "host_free_memory_cap", f->free_cap);
	if (!f->map) {
		ft_json_null(j, "uninitialised_pages");
		return;
	}
	ft_json_u64(j, "uninitialised_pages", f->uninit_lo);
	ft_json_u64(j, "uninitialised_pages_max", f->uninit_hi);
	ft_json_u64(j, "blocks", f->units);
	if (!f->buddy) {
		ft_json_u64(j, "free_blocks", f->free_lo);
		ft_json_u64(j, "free_blocks_max", f->free_hi);
	}
	ft_json_u64(j, "emptiable_blocks", f->empt_lo);
	ft_json_u64(j, "emptiable_blocks_max", f->empt_hi);
	ft_json_u64(j, "tainted_blocks", f->tainted);
	ft_json_u64(j, "unread_blocks", f->unread);
	ft_json_u64(j, "held_by_one_pageblock", f->one_block);
	ft_json_arr_begin(j, "in_the_way");
	for (i = 0; i < f->named; i++) {
		if (s)
			json_who(j, s, f->taint_pfn[i]);
		else
			ft_json_u64(j, NULL, f->taint_pfn[i]);
	}
	ft_json_arr_end(j);
}

void ft_render_fit_sources(struct ft_json *j, unsigned int src)
{
	size_t b;

	ft_json_arr_begin_inline(j, "sources");
	for (b = 0; b < sizeof(src_names) / sizeof(src_names[0]); b++)
		if (src & (1u << b))
			ft_json_str(j, NULL, src_names[b]);
	ft_json_arr_end(j);
}

void ft_render_fits_json(struct ft_json *j, const struct ft_fits *t, const struct ft_session *s)
{
	size_t k, n, z;
	char name[24];

	ft_json_arr_begin(j, "sizes");
	for (k = 0; k < t->sizes.nr; k++) {
		int order = t->sizes.order[k];

		ft_json_obj_begin(j, NULL);
		ft_json_str(j, "size", ft_fit_size_name(order, t->page_size, name, sizeof(name)));
		ft_json_u64(j, "size_bytes", (uint64_t)t->page_size << order);
		ft_json_i64(j, "order", order);
		ft_render_fit_sources(j, t->sizes.src[k]);
		/* a hugetlb size the host offers */
		ft_json_bool(j, "hugetlb", t->sizes.src[k] & FT_FITS_SRC_HUGETLB);
		ft_json_obj_begin(j, "host");
		ft_render_fit_members(j, &t->host[k], NULL);
		ft_json_obj_end(j);
		ft_json_arr_begin(j, "nodes");
		for (n = 0; n < t->nr_nodes; n++) {
			const struct ft_fit *nf = ft_fits_node_at(t, n, k);

			ft_json_obj_begin(j, NULL);
			ft_json_i64(j, "node", nf->node);
			ft_render_fit_members(j, nf, NULL);
			ft_json_arr_begin(j, "zones");
			for (z = 0; z < t->nr_zones; z++) {
				const struct ft_fit *zf = ft_fits_at(t, z, k);

				if (zf->node != nf->node)
					continue;
				ft_json_obj_begin(j, NULL);
				ft_json_str(j, "zone", zf->zone);
				ft_render_fit_members(j, zf, s);
				ft_json_obj_end(j);
			}
			ft_json_arr_end(j);
			ft_json_obj_end(j);
		}
		ft_json_arr_end(j);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

void ft_render_fits_text(FILE *f, const struct ft_fits *t, const char *indent)
{
	char name[24], now[48], after[48];
	size_t k, n;

	fprintf(f, "%s%-6s %-7s %-5s %14s %18s %10s\n", indent, "size", "hugetlb", "node", "now",
		"after compaction",
		"in the way");
	for (k = 0; k < t->sizes.nr; k++)
		for (n = 0; n < t->nr_nodes; n++) {
			const struct ft_fit *nf = ft_fits_node_at(t, n, k);

			ft_render_fit_range(nf->now_lo, nf->now_hi, now, sizeof(now));
			if (nf->map || nf->after_hi != UNKNOWN)
				ft_render_fit_range(nf->after_lo, nf->after_hi, after,
						    sizeof(after));
			else
				snprintf(after, sizeof(after), "?");
			fprintf(f, "%s%-6s %-7s %-5d %14s %18s", indent,
				ft_fit_size_name(t->sizes.order[k], t->page_size, name,
						 sizeof(name)),
				t->sizes.src[k] & FT_FITS_SRC_HUGETLB ? "yes" : "-", nf->node, now,
				after);
			if (nf->map)
				fprintf(f, " %10" PRIu64, nf->tainted);
			else
				fprintf(f, " %10s", "-");
			fputc('\n', f);
		}
}

/* The need as it was asked: "4x1G". */
static const char *need_name(const struct ft_fits_need *n, long page_size, char *buf, size_t sz)
{
	char size[24];

	snprintf(buf, sz, "%" PRIu64 "x%s", n->need.count,
		 ft_fit_size_name(n->need.order, page_size, size, sizeof(size)));
	return buf;
}

/* "in the way: ..." for a need that does not fit now. */
static void text_blockers(FILE *f, const struct ft_preflight *p, const struct ft_fit *l,
			  const char *size)
{
	uint32_t i;

	if (!l->map)
		return;
	fprintf(f, "%-10s in the way: %" PRIu64 " of %" PRIu64 " %s blocks hold an unmovable page "
							       "or a hole",
		"", l->tainted, l->units, size);
	if (l->unread)
		fprintf(f, ", %" PRIu64 " not read whole", l->unread);
	if (l->one_block)
		fprintf(f, "; %" PRIu64 " held by a single pageblock", l->one_block);
	fputc('\n', f);
	for (i = 0; i < l->named && i < 4; i++) {
		struct ft_fits_who w;

		ft_fits_who(p->session, l->taint_pfn[i], &w);
		fprintf(f, "%-10s   pageblock at PFN 0x%" PRIx64, "", l->taint_pfn[i]);
		if (w.fallbacks)
			fprintf(f, ": %u fallback%s", w.fallbacks, w.fallbacks == 1 ? "" : "s");
		if (w.pid > 0)
			fprintf(f, ", the last by %s (pid %d%s%s)", w.comm[0] ? w.comm : "?", w.pid,
				w.cgroup[0] ? ", cgroup " : "", w.cgroup);
		if (w.owner[0])
			fprintf(f, "%s page_owner: %s", w.fallbacks || w.pid > 0 ? ";" : ":",
				w.owner);
		fputc('\n', f);
	}
}

static void text_need(FILE *f, const struct ft_preflight *p, const struct ft_fits_need *n,
		      const struct ft_fits_need *before)
{
	const struct ft_fits *t = p->fits;
	char need[48], now[48], after[48], size[24];
	size_t i;

	ft_fit_size_name(n->need.order, t->page_size, size, sizeof(size));
	fprintf(f, "%-10s %-22s", need_name(n, t->page_size, need, sizeof(need)),
		verdict_text[n->verdict]);
	if (n->size < 0) {
		fprintf(f, " no figures for %s\n", size);
		return;
	}
	ft_render_fit_range(n->left.now_lo, n->left.now_hi, now, sizeof(now));
	if (n->left.map || n->left.after_hi != UNKNOWN)
		ft_render_fit_range(n->left.after_lo, n->left.after_hi, after, sizeof(after));
	else
		snprintf(after, sizeof(after), "? (no map)");
	fprintf(f, " %s now, %s after compaction", now, after);
	if (p->node >= 0) {
		fprintf(f, " on node %d", p->node);
	} else if (t->nr_nodes > 1) {
		fprintf(f, " (");
		for (i = 0; i < t->nr_nodes; i++) {
			const struct ft_fit *nf = ft_fits_node_at(t, i, (size_t)n->size);

			fprintf(f, "%snode %d: %s", i ? ", " : "", nf->node,
				ft_render_fit_range(nf->now_lo, nf->now_hi, now, sizeof(now)));
			if (nf->map)
				fprintf(f, "/%s",
					ft_render_fit_range(nf->after_lo, nf->after_hi, after,
							    sizeof(after)));
		}
		fputc(')', f);
	}
	if (before)
		fprintf(f, "; before compacting %" PRIu64 " now", before->left.now_lo);
	fputc('\n', f);
	if (n->verdict != FT_FIT_NOW)
		text_blockers(f, p, &n->left, size);
}

void ft_render_preflight_text(FILE *f, const struct ft_preflight *p)
{
	const struct ft_session *s = p->session;
	size_t i;

	fprintf(f, "fragtop preflight: %s, %s, ", s->host.hostname, s->host.release);
	if (p->node >= 0)
		fprintf(f, "node %d\n", p->node);
	else
		fprintf(f, "any node\n");
	if (p->map_note)
		fprintf(f, "map: %s\n", p->map_note);
	if (p->compact_msg)
		fprintf(f, "compaction: %s\n", p->compact_msg);
	for (i = 0; i < p->nr_needs; i++) {
		if (p->refused && p->refused[i]) {
			char need[48];

			fprintf(f, "%-10s %-22s %s\n",
				need_name(&p->needs[i], p->fits->page_size, need, sizeof(need)),
				verdict_text[FT_FIT_NO], p->as_note[i]);
			continue;
		}
		text_need(f, p, &p->needs[i], p->before ? &p->before[i] : NULL);
		if (p->as_note)
			fprintf(f, "%-10s judged %s\n", "", p->as_note[i]);
	}
	if (!p->nr_needs)
		ft_render_fits_text(f, p->fits, "");
	if (p->reason)
		fprintf(f, "cannot tell: %s\n", p->reason);
}

void ft_render_preflight_json(FILE *f, const struct ft_preflight *p)
{
	const struct ft_session *s = p->session;
	struct ft_json j;
	char need[48], size[24];
	size_t i;

	ft_json_init(&j, f, true);
	ft_json_obj_begin(&j, NULL);
	ft_json_str(&j, "fragtop_version", FT_VERSION);
	ft_json_str(&j, "hostname", s->host.hostname);
	ft_json_str(&j, "release", s->host.release);
	ft_json_i64(&j, "time", (int64_t)time(NULL));
	ft_json_str(&j, "root", p->root);
	if (p->node >= 0)
		ft_json_i64(&j, "node", p->node);
	else
		ft_json_null(&j, "node");
	ft_json_str(&j, "verdict", ft_fit_verdict_names[p->verdict]);
	ft_json_i64(&j, "exit", p->verdict);
	if (p->reason)
		ft_json_str(&j, "reason", p->reason);
	else
		ft_json_null(&j, "reason");
	ft_json_obj_begin(&j, "map");
	ft_json_bool(&j, "read", p->fits->map);
	if (p->map_note)
		ft_json_str(&j, "note", p->map_note);
	else
		ft_json_null(&j, "note");
	ft_json_u64(&j, "unread_blocks", p->fits->map_unread);
	ft_json_obj_end(&j);
	if (p->compact) {
		ft_json_obj_begin(&j, "compaction");
		ft_json_str(&j, "message", p->compact_msg ? p->compact_msg : "");
		ft_json_bool(&j, "done", p->before != NULL);
		ft_json_obj_end(&j);
	} else {
		ft_json_null(&j, "compaction");
	}
	ft_json_arr_begin(&j, "needs");
	for (i = 0; i < p->nr_needs; i++) {
		const struct ft_fits_need *n = &p->needs[i];

		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "need", need_name(n, p->fits->page_size, need, sizeof(need)));
		ft_json_u64(&j, "count", n->need.count);
		ft_json_str(&j, "size",
			    ft_fit_size_name(n->need.order, p->fits->page_size, size,
					     sizeof(size)));
		ft_json_u64(&j, "size_bytes", (uint64_t)p->fits->page_size << n->need.order);
		ft_json_i64(&j, "order", n->need.order);
		ft_json_str(&j, "verdict", ft_fit_verdict_names[n->verdict]);
		if (p->hugetlb) {
			ft_json_str(&j, "as", p->hugetlb[i] ? "hugetlb" : "contiguous_range");
			ft_json_bool(&j, "host_offers", !p->refused[i]);
			ft_json_str(&j, "as_note", p->as_note[i]);
		}
		if (n->size >= 0 && !(p->refused && p->refused[i])) {
			ft_json_obj_begin(&j, "available");
			ft_render_fit_members(&j, &n->left, s);
			ft_json_obj_end(&j);
		} else {
			ft_json_null(&j, "available");
		}
		if (p->before) {
			ft_json_obj_begin(&j, "before_compaction");
			ft_json_str(&j, "verdict", ft_fit_verdict_names[p->before[i].verdict]);
			ft_render_fit_members(&j, &p->before[i].left, NULL);
			ft_json_obj_end(&j);
		}
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_render_fits_json(&j, p->fits, s);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

/* One size's two labels: @who "" for the host, "node1." for a node. */
static void nfd_labels(FILE *f, const struct ft_fits *t, const struct ft_fit *fit,
		       const char *prefix,
		       const char *who)
{
	char size[24];

	ft_fit_size_name(fit->order, t->page_size, size, sizeof(size));
	if (fit->buddy || fit->map)
		fprintf(f, "%s%scontiguous-%s-now=%" PRIu64 "\n", prefix, who, size, fit->now_lo);
	if (fit->map)
		fprintf(f, "%s%scontiguous-%s-after-compaction=%" PRIu64 "\n", prefix, who, size,
			fit->after_lo);
}

void ft_render_fits_nfd(FILE *f, const struct ft_fits *t, long expiry, const char *prefix)
{
	char when[32], who[24];
	size_t k, n;

	fprintf(f, "# fragtop " FT_VERSION ": aligned blocks of each size the host can give now "
					   "and after\n"
		   "# compaction (fragtop preflight's figures; the lower end where the map was not "
		   "read whole)\n");
	if (expiry > 0 && ft_utc_format((double)expiry, when, sizeof(when)))
		fprintf(f, "# +expiry-time=%s\n", when);
	for (k = 0; k < t->sizes.nr; k++)
		nfd_labels(f, t, &t->host[k], prefix, "");
	for (n = 0; t->nr_nodes > 1 && n < t->nr_nodes; n++)
		for (k = 0; k < t->sizes.nr; k++) {
			const struct ft_fit *nf = ft_fits_node_at(t, n, k);

			snprintf(who, sizeof(who), "node%d.", nf->node);
			nfd_labels(f, t, nf, prefix, who);
		}
}
