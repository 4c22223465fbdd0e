// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Map: one zone's pageblocks, one cell per block or per group of blocks
 * when the zone does not fit (a group shows its worst class, upper case
 * when that class holds at least half of the group).  With the overlay on,
 * blocks named by fallbacks show '*' (last 10 s), '+' (last minute) or
 * '~' (earlier).  A cursor shows the PFN range and page composition of the
 * cell under it.  Scanning /proc/kpageflags runs only while this view is
 * shown (ui.c), within live.map_cpu of a core, the blocks fallbacks named
 * first (collectors/live.c), then a sample of a block in each cell on
 * screen (the view tells the scanner its zone and cell size), then whole
 * passes: a cell known only from samples is drawn dim, and the cursor line
 * says how many of its blocks were read whole.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "collectors/live.h"
#include "analysis/labels.h"
#include "model/contig.h"
#include "model/pageblock.h"
#include "kernel/pageowner.h"
#include "tui/rcfile.h"
#include "model/sample.h"
#include "model/session.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

/* The view's state (struct ft_view's state_size: the loop owns it). */
#define OWNER_GROUPS	32	/* stacks told apart per cell; more are "other" */

struct map_state {
	/* the page owners panel's scratch: the cell's groups, the labels' table (draw_owners()) */
	struct ft_po_group groups[OWNER_GROUPS];
	struct ft_labels labels;
	int zone;			/* index into the session's map zones */
	uint32_t bpc;			/* blocks per cell; 0: fit the zone */
	/* + or - chose bpc; else it fits the zone at every draw (a resize) */
	bool zoomed;
	uint32_t cur;			/* cursor cell */
	int top;			/* first row shown */
	bool overlay;
	bool giant;			/* G: colour each cell by its gigantic region's class */
	bool chosen;			/* the zone was picked (first look: the largest) */
	char want[32];			/* the rc file's zone ("N0 Normal"), until it is there */
	char shown[32];			/* the zone the last draw showed, for the rc file */
	/* O into another zone: the block to put the cursor on (+1; 0: none) */
	uint64_t jump_block;
	int grid_y, grid_rows;		/* where the last draw put the grid */
	uint32_t grid_w, grid_cells;
};

/* @ui's map state. */
static struct map_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_map);
}

#define MARGIN	11	/* "0x1234567 " row labels */

/* worst first */
static const enum ft_pb severity[] = {
	FT_PB_MIXED, FT_PB_UNMOVABLE, FT_PB_MOVABLE, FT_PB_FREE, FT_PB_HOLE, FT_PB_UNSCANNED,
};

static const char glyph[FT_PB_NR][2] = {
	[FT_PB_UNSCANNED] = { '?', '?' },
	[FT_PB_FREE] = { '.', ':' },
	[FT_PB_MOVABLE] = { 'm', 'M' },
	[FT_PB_UNMOVABLE] = { 'u', 'U' },
	[FT_PB_MIXED] = { 'x', 'X' },
	[FT_PB_HOLE] = { ' ', ' ' },
};

static enum ft_color class_color(enum ft_pb c)
{
	switch (c) {
	case FT_PB_MOVABLE:
		return FT_C_OK;
	case FT_PB_UNMOVABLE:
		return FT_C_BAD;
	case FT_PB_MIXED:
		return FT_C_WARN;
	default:
		return FT_C_DIM;
	}
}

struct geom {
	const struct ft_pbmap_zone *z;
	uint32_t bpc;		/* blocks per cell */
	uint32_t cells;
	int width, rows;	/* cells per row, rows in all */
	int grid_h;		/* rows on screen */
};

static uint32_t fit_bpc(uint32_t nr, int width, int height)
{
	uint64_t room = (uint64_t)width * (uint64_t)(height > 0 ? height : 1);

	return (uint32_t)((nr + room - 1) / room);
}

static bool geometry(struct ft_ui *ui, int height, struct geom *g)
{
	struct map_state *st = S(ui);
	const struct ft_pbmap *m = &ui->s->map;

	if (!m->nr)
		return false;
	/* the rc file's zone, else the largest: where fragmentation matters */
	if (!st->chosen) {
		char name[32];
		int want = -1;

		for (size_t i = 0; i < m->nr; i++) {
			snprintf(name, sizeof(name), "N%d %s", m->zones[i].node, m->zones[i].name);
			if (st->want[0] && !strcmp(name, st->want))
				want = (int)i;
			if (m->zones[i].nr_blocks > m->zones[st->zone].nr_blocks)
				st->zone = (int)i;
		}
		if (want >= 0)
			st->zone = want;
		st->chosen = true;
	}
	if (st->zone >= (int)m->nr)
		st->zone = 0;
	g->z = &m->zones[st->zone];
	g->width = COLS - MARGIN;
	if (g->width < 8)
		return false;
	g->grid_h = height;
	/* fitted: again for this size (a resize), the cursor's block kept */
	if (!st->zoomed || !st->bpc) {
		uint32_t fit = fit_bpc(g->z->nr_blocks, g->width, g->grid_h);

		fit = fit ? fit : 1;
		if (st->bpc && fit != st->bpc)
			st->cur = (uint32_t)((uint64_t)st->cur * st->bpc / fit);
		st->bpc = fit;
	}
	g->bpc = st->bpc;
	g->cells = (g->z->nr_blocks + g->bpc - 1) / g->bpc;
	/* O chose a block of this zone: its cell, now that cells are known */
	if (st->jump_block) {
		uint64_t b = st->jump_block - 1;

		if (b >= g->z->first_block && b - g->z->first_block < g->z->nr_blocks)
			st->cur = (uint32_t)((b - g->z->first_block) / g->bpc);
		st->jump_block = 0;
	}
	g->rows = (int)((g->cells + (uint32_t)g->width - 1) / (uint32_t)g->width);
	if (st->cur >= g->cells)
		st->cur = g->cells ? g->cells - 1 : 0;
	/* keep the cursor's row on screen */
	if ((int)(st->cur / (uint32_t)g->width) < st->top)
		st->top = (int)(st->cur / (uint32_t)g->width);
	if ((int)(st->cur / (uint32_t)g->width) >= st->top + g->grid_h)
		st->top = (int)(st->cur / (uint32_t)g->width) - g->grid_h + 1;
	if (st->top > g->rows - g->grid_h)
		st->top = g->rows - g->grid_h;
	if (st->top < 0)
		st->top = 0;
	return true;
}

struct cell {
	enum ft_pb cls;
	bool dense;
	bool sampled;			/* no block read whole: cls comes from samples */
	uint32_t first, n;		/* blocks */
	uint32_t count[FT_PB_NR];	/* blocks per class, whole reads */
	uint32_t scount[FT_PB_NR];	/* blocks per class, of those known only from a sample */
	uint64_t pages[FT_PG_NR];
	uint64_t thp, thp_folios;	/* pages in THP folios of any size, and those folios */
	uint64_t fallbacks, mark_ns;
};

static void cell_of(const struct geom *g, uint32_t c, struct cell *out)
{
	uint32_t b, i, known = 0;

	memset(out, 0, sizeof(*out));
	out->first = c * g->bpc;
	out->n = g->z->nr_blocks - out->first < g->bpc ? g->z->nr_blocks - out->first : g->bpc;
	for (b = out->first; b < out->first + out->n; b++) {
		const struct ft_pb_block *pb = &g->z->blocks[b];

		out->count[pb->cls]++;
		if (pb->cls == FT_PB_UNSCANNED && pb->scls != FT_PB_UNSCANNED)
			out->scount[pb->scls]++;
		for (i = 0; i < FT_PG_NR; i++)
			out->pages[i] += pb->pages[i];
		out->thp += pb->thp;
		out->thp_folios += pb->thp_folios;
		out->fallbacks += pb->fallbacks;
		if (pb->mark_ns > out->mark_ns)
			out->mark_ns = pb->mark_ns;
	}
	out->cls = FT_PB_UNSCANNED;
	for (i = 0; i < sizeof(severity) / sizeof(severity[0]); i++) {
		enum ft_pb k = severity[i];

		if (k != FT_PB_UNSCANNED && (out->count[k] || out->scount[k])) {
			out->cls = k;
			break;
		}
	}
	out->sampled = out->cls != FT_PB_UNSCANNED && out->count[FT_PB_UNSCANNED] == out->n;
	/* at least half of what is known: a sampled block stands for its unread neighbours */
	for (i = FT_PB_UNSCANNED + 1; i < FT_PB_NR; i++)
		known += out->count[i] + out->scount[i];
	out->dense = known ? (out->count[out->cls] + out->scount[out->cls]) * 2 >= known :
			     out->count[out->cls] * 2 >= out->n;
}

static void draw_counts(int y, const struct ft_ui *ui, const struct ft_pbmap_zone *z)
{
	const struct ft_sample *s = &ui->s->sample;
	int c, x = 0, t;
	size_t i;
	char buf[64];

	for (c = FT_PB_FREE; c < FT_PB_NR; c++) {
		snprintf(buf, sizeof(buf), "%s %u  ", ft_pb_names[c], z->count[c]);
		ft_put(y, x, ft_attr(class_color(c)), "%s", buf);
		x += (int)strlen(buf);
	}
	if (z->count[FT_PB_UNSCANNED]) {
		snprintf(buf, sizeof(buf), "unscanned %u (%u sampled)  ", z->count[FT_PB_UNSCANNED],
			 z->sampled);
		ft_put(y, x, ft_attr(FT_C_DIM), "%s", buf);
		x += (int)strlen(buf);
	}
	ft_put(y, x, A_NORMAL, "pollution %llu pages  THP-backed %llu",
	       (unsigned long long)z->pollution,
	       (unsigned long long)z->thp);
	/* pagetypeinfo's view of the same zone, for comparison */
	for (i = 0; i < s->nr_zones; i++) {
		const struct ft_zone *sz = &s->zones[i];

		if (sz->zi->node != z->node || strcmp(sz->zi->name, z->name) || !sz->pti)
			continue;
		x = 0;
		ft_put(y + 1, x, ft_attr(FT_C_DIM), "pagetypeinfo:");
		x = 14;
		for (t = 0; t < s->pti.nr_types; t++) {
			snprintf(buf, sizeof(buf), "%s %llu  ", s->pti.types[t],
				 (unsigned long long)sz->pti->blocks[t]);
			ft_put(y + 1, x, ft_attr(FT_C_DIM), "%s", buf);
			x += (int)strlen(buf);
		}
	}
}

/*
 * The cell under the cursor: its PFNs, its blocks' classes, its pages, its fallbacks; rows @y and
 * @y + 1.
 */
static void draw_cursor(struct map_state *st, const struct geom *g, int order, long page_size,
			uint64_t now, int y)
{
	uint64_t pfn0, pfn1;
	char detail[160] = "", seen[48] = "", thp[80] = "";
	struct cell cur;
	size_t n = 0;
	int c;

	cell_of(g, st->cur, &cur);
	pfn0 = (g->z->first_block + cur.first) << order;
	pfn1 = ((g->z->first_block + cur.first + cur.n) << order) - 1;
	for (c = 0; c < FT_PB_NR && n < sizeof(detail); c++)
		if (cur.count[c])
			n += (size_t)snprintf(detail + n, sizeof(detail) - n, "%s %u ",
					      ft_pb_names[c], cur.count[c]);
	/* what the cell is built from: whole reads, samples of a few pages */
	if (cur.count[FT_PB_UNSCANNED] && n < sizeof(detail)) {
		uint32_t ns = 0;

		for (c = 0; c < FT_PB_NR; c++)
			ns += cur.scount[c];
		n += (size_t)snprintf(detail + n, sizeof(detail) - n, "(%u of %u read whole",
				      cur.n - cur.count[FT_PB_UNSCANNED], cur.n);
		for (c = 0; c < FT_PB_NR && ns && n < sizeof(detail); c++)
			if (cur.scount[c])
				n += (size_t)snprintf(detail + n, sizeof(detail) - n,
						      ", sampled %s %u", ft_pb_names[c],
						      cur.scount[c]);
		if (n < sizeof(detail))
			n += (size_t)snprintf(detail + n, sizeof(detail) - n, ")");
	}
	if (cur.fallbacks)
		snprintf(seen, sizeof(seen), "  fallbacks %llu, last %.0fs ago",
			 (unsigned long long)cur.fallbacks, (double)(now - cur.mark_ns) / 1e9);
	/* THP-backed: any large anonymous folio, 16 KiB mTHP to 2 MiB, with their mean size */
	if (cur.thp && cur.thp_folios)
		snprintf(thp, sizeof(thp), "  THP-backed %llu (%llu folios, mean %.0f kB)",
			 (unsigned long long)cur.thp, (unsigned long long)cur.thp_folios,
			 (double)cur.thp / (double)cur.thp_folios * (double)page_size / 1024);
	else if (cur.thp)
		snprintf(thp, sizeof(thp), "  THP-backed %llu", (unsigned long long)cur.thp);
	ft_put(y, 0, A_BOLD, "cursor %#llx-%#llx: %s", (unsigned long long)pfn0,
	       (unsigned long long)pfn1, detail);
	ft_put(y + 1, 0, A_NORMAL, "pages: free %llu  movable %llu  unmovable %llu  hole %llu%s%s",
	       (unsigned long long)cur.pages[FT_PG_FREE],
	       (unsigned long long)cur.pages[FT_PG_MOVABLE],
	       (unsigned long long)cur.pages[FT_PG_UNMOVABLE],
	       (unsigned long long)cur.pages[FT_PG_HOLE], thp, seen);
}

#define OWNER_ROWS	6	/* the page owners' panel: a line, then the biggest stacks */
#define OWNER_BLOCKS	4	/* a cell's blocks the cursor asks page_owner about */

/* The panel's rows: none before page_owner was tried, a line when it cannot be read. */
static int owner_rows(const struct ft_session *s)
{
	return !s->owner_src.known ? 0 : s->owner_src.err ? 1 : OWNER_ROWS;
}

/* The class a block is known by, whole or sampled. */
static enum ft_pb block_class(const struct ft_pb_block *pb)
{
	return pb->cls != FT_PB_UNSCANNED ? pb->cls : pb->scls;
}

/* Live: ask page_owner about the first mixed or unmovable blocks of the cursor's cell. */
static void owner_want(struct ft_ui *ui, const struct geom *g, int order)
{
	struct map_state *st = S(ui);
	uint32_t first = st->cur * g->bpc, b, asked = 0;

	if (!ui->live || ui->s->owner_src.err)
		return;
	for (b = first; b < g->z->nr_blocks && b < first + g->bpc && asked < OWNER_BLOCKS; b++) {
		enum ft_pb c = block_class(&g->z->blocks[b]);

		if (c != FT_PB_MIXED && c != FT_PB_UNMOVABLE)
			continue;
		asked++;
		if (ft_live_owner_want(ui->live, (g->z->first_block + b) << order, 1u << order,
				       true))
			return;
	}
}

/*
 * Labels against contents over every block page_owner was read for (analysis/labels.h): one line.
 */
static void draw_labels(struct ft_labels *lp, const struct ft_session *s, int y)
{
	struct ft_labels *l = lp;	/* the view's state: 1 KiB, not on the draw's stack */
	size_t movable = 0;
	int k, c;

	ft_labels_build(s, l);
	if (!l->blocks)
		return;
	for (k = 0; k < l->nr_mt; k++)
		if (!strcmp(l->mt[k], "Movable"))
			for (c = 0; c < FT_PB_NR; c++)
				movable += l->n[k][c];
	if (l->nr_list)
		ft_put(y, 0, l->hidden ? ft_attr(FT_C_WARN) : A_NORMAL,
		       "labels: of %zu blocks page_owner and the map read, %zu labelled Movable, "
		       "%zu of them holding unmovable pages (most: PFN %#llx, %u)", l->blocks,
		       movable, l->hidden,
		       (unsigned long long)l->list[0].pfn, l->list[0].unmovable);
	else
		ft_put(y, 0, ft_attr(FT_C_DIM),
		       "labels: of %zu blocks page_owner and the map read, %zu labelled Movable, "
		       "none holding unmovable pages", l->blocks, movable);
}

/* The page owners of the cursor's cell: the looks at its blocks, grouped by stack; rows @y... */
static void draw_owners(const struct ft_ui *ui, const struct geom *g, int order, uint64_t now,
			int y)
{
	struct map_state *st = S(ui);
	struct ft_po_group *grp = st->groups;
	const struct ft_session *s = ui->s;
	struct ft_po_tally t = { 0 };
	uint32_t first = st->cur * g->bpc, b, looks = 0, cut = 0, entries = 0;
	uint64_t newest = 0;
	size_t n = 0, i;
	char line[160];

	if (s->owner_src.err) {
		ft_put(y, 0, ft_attr(FT_C_DIM), "page owners: %s",
		       s->owner_src.err == -ENOENT ?
			       "none: boot a CONFIG_PAGE_OWNER kernel with page_owner=on, "
						     "mount debugfs" :
		       s->owner_src.err == -EACCES ||
		       s->owner_src.err == -EPERM ? "page_owner needs root" :
		       strerror(-s->owner_src.err));
		return;
	}
	for (b = first; b < g->z->nr_blocks && b < first + g->bpc; b++) {
		const struct ft_owner_look *o = ft_session_owner(s,
								 (g->z->first_block + b) << order);

		if (!o)
			continue;
		looks++;
		cut += o->cut;
		entries += o->entries;
		if (o->t_ns > newest)
			newest = o->t_ns;
		n = ft_po_group_more(ft_session_owner_text(s, o), o->text_len, grp, n, OWNER_GROUPS,
				     &t);
	}
	ft_po_group_sort(grp, n);
	if (!looks) {
		ft_put(y, 0, ft_attr(FT_C_DIM), "page owners: not read for this cell%s",
		       ui->live ? " (read for mixed and unmovable blocks under the cursor)" :
				  "  O: the next cell they were read for");
		return;
	}
	ft_put(y++, 0, A_BOLD,
	       "page owners: %u pinning allocation%s (%llu page%s) by %zu stack%s%s; %u "
	       "allocation%s in all; %u block%s read, %.0fs ago%s",
	       t.pins, t.pins == 1 ? "" : "s", (unsigned long long)t.pin_pages,
	       t.pin_pages == 1 ? "" : "s",
	       n + (t.other ? 1 : 0), n + (t.other ? 1 : 0) == 1 ? "" : "s",
	       t.other ? " (one: other)" : "",
	       entries, entries == 1 ? "" : "s", looks, looks == 1 ? "" : "s",
	       now > newest ? (double)(now - newest) / 1e9 : 0.0, cut ? ", text cut" : "");
	for (i = 0; i < n && i < OWNER_ROWS - 2; i++) {
		const struct ft_po_entry *e = &grp[i].first;

		ft_po_stack_text(e, 4, line, sizeof(line));
		ft_put(y++, 0, A_NORMAL, "%6llu pg %4ux o%u %-11s %-22.22s %6d %-15s %s",
		       (unsigned long long)grp[i].pages, grp[i].count, e->order, e->page_mt,
		       e->gfp_names[0] ? e->gfp_names : "-", e->pid, e->comm, line);
	}
	draw_labels(&st->labels, s,
		    y + (int)(OWNER_ROWS - 2 - (i < OWNER_ROWS - 2 ? i : OWNER_ROWS - 2)));
}

/*
 * Before a draw: the scanner samples a block of each cell on screen
 * first, and page_owner is read for the cell under the cursor.
 */
static void map_focus(struct ft_ui *ui, int top, int height)
{
	struct map_state *st = S(ui);
	struct geom g;

	(void)top;
	if (!ui->live || ui->s->map_err || !geometry(ui, height - 7 - owner_rows(ui->s), &g))
		return;
	ft_live_map_focus(ui->live, (size_t)st->zone, g.bpc);
	owner_want(ui, &g, ui->s->map.order);
}

/* @text over at most @rows rows of @w columns from (@y, @x), broken at spaces. */
static void put_wrapped(int y, int x, int w, int rows, const char *text)
{
	size_t len = strlen(text), at = 0;
	int r;

	for (r = 0; r < rows && at < len && w > 8; r++) {
		size_t n = len - at;

		if (n > (size_t)w) {
			n = (size_t)w;
			while (n > (size_t)w / 2 && text[at + n] != ' ')
				n--;
		}
		ft_put(y + r, x, A_NORMAL, "%.*s", (int)n, text + at);
		at += n;
		while (text[at] == ' ')
			at++;
	}
}

/* The zone's gigantic regions for this draw (NULL without an order or memory). */
struct giants {
	struct ft_contig_zone c;
	struct ft_contig_region *r;	/* owned */
	uint32_t n;
	int order;
};

static void giants_of(const struct ft_session *s, size_t k, struct giants *gi)
{
	memset(gi, 0, sizeof(*gi));
	gi->n = ft_session_contig(s, k, &gi->c, NULL, 0);
	gi->order = gi->c.order;
	if (gi->order >= 0 && gi->n)
		gi->r = calloc(gi->n, sizeof(*gi->r));
	if (gi->r)
		ft_session_contig(s, k, &gi->c, gi->r, gi->n);
}

/* The region holding cell @ce's first block, or NULL. */
static const struct ft_contig_region *cell_region(const struct giants *gi, const struct geom *g,
						  int order,
						  const struct cell *ce)
{
	long ri;

	if (!gi->r)
		return NULL;
	ri = ft_contig_region_of(g->z, gi->order, (g->z->first_block + ce->first) << order);
	return ri >= 0 && (uint32_t)ri < gi->n ? &gi->r[ri] : NULL;
}

/* G: the cell's colour is its region's class; the blocks that taint it in reverse. */
static unsigned int giant_attr(const struct ft_contig_region *r, const struct cell *ce)
{
	static const enum ft_color by_class[FT_GR_NR] = {
		[FT_GR_UNKNOWN] = FT_C_DIM, [FT_GR_FREE] = FT_C_LABEL, [FT_GR_MOVABLE] = FT_C_OK,
		[FT_GR_TAINTED] = FT_C_BAD, [FT_GR_UNINIT] = FT_C_DIM,
	};

	if (!r)
		/* no whole region here: the zone's ragged ends */
		return ft_attr(FT_C_DIM) | A_DIM;
	return ft_attr(by_class[r->cls]) |
	       (r->cls == FT_GR_TAINTED &&
		(ce->pages[FT_PG_UNMOVABLE] || ce->pages[FT_PG_HOLE]) ? A_REVERSE : 0);
}

/* Amplification and the gigantic pages of the zone: the start of the scan line. */
static size_t contig_line(const struct ft_session *s, const struct giants *gi,
			  const struct ft_pbmap_zone *z,
			  char *buf, size_t sz)
{
	struct ft_amp a = { 0 };
	double ratio;
	char size[16] = "";
	int n;

	ft_amp_add(&a, z);
	ratio = ft_amp_ratio(&a);
	if (!isfinite(ratio))
		n = snprintf(buf, sz, "amplification -  ");
	else
		n = snprintf(buf, sz, "amplification %s%.2f  ", ft_amp_partial(&a) ? "~" : "",
			     ratio);
	if (gi->order >= 0 && n > 0 && (size_t)n < sz) {
		ft_fmt_pages(size, sizeof(size), 1ull << gi->order, s->host.page_size);
		n += snprintf(buf + n, sz - (size_t)n,
			      "%s regions %u: %u now, %u after compaction, %u tainted  ",
			      size, gi->c.regions, gi->c.now, gi->c.after,
			      gi->c.count[FT_GR_TAINTED]);
	}
	return n < 0 ? 0 : (size_t)n < sz ? (size_t)n : sz - 1;
}

/* Why there is no map (kept off for the kernel's config, no root, no file): true if so. */
static bool draw_no_map(const struct ft_ui *ui, int y)
{
	const struct ft_session *s = ui->s;

	if (s->map_err == -ECANCELED) {
		ft_put(y + 1, 2, A_BOLD, "The pageblock map is kept off on this kernel.");
		put_wrapped(y + 2, 2, COLS - 4, 4,
			    s->map_check[0] ? s->map_check :
			    "it was built with CONFIG_DEBUG_VM before 6.17: reading "
			    "/proc/kpageflags while folios split can hit VM_BUG_ON or "
			    "VM_WARN_ON_FOLIO");
		ft_put(y + 7, 2, A_NORMAL, "%s",
		       ui->live ? "A: scan anyway (or start with --map-force)" :
			 "(recorded so; --map-force records the map anyway)");
		return true;
	}
	if (s->map_err == -ENODATA && !ui->live) {	/* the session's own: no map input came */
		ft_put(y + 1, 2, A_BOLD, "No pageblock map in this recording.");
		ft_put(y + 2, 2, A_NORMAL,
		       "It was made without map scans: record --map-interval SECS records them.");
		return true;
	}
	if (s->map_err) {
		ft_put(y + 1, 2, A_BOLD, "No pageblock map.");
		ft_put(y + 2, 2, A_NORMAL, "/proc/kpageflags: %s",
		       s->map_err == -EACCES || s->map_err == -EPERM ? "needs root" :
		       s->map_err == -ENOENT ? "absent (a captured tree without it?)" :
		       strerror(-s->map_err));
		return true;
	}
	return false;
}

/* The grid's rows from @y: a cell per character, coloured by class, region (G) or fallbacks (o). */
static int draw_grid(const struct ft_ui *ui, const struct geom *g, const struct giants *gi, int y)
{
	struct map_state *st = S(ui);
	int order = ui->s->map.order, r, x;
	/* the session's time: marks fade in replay as they did live */
	uint64_t now = ui->s->t_ns;

	for (r = 0; r < g->grid_h && st->top + r < g->rows; r++, y++) {
		uint32_t c0 = (uint32_t)(st->top + r) * (uint32_t)g->width;

		ft_put(y, 0, ft_attr(FT_C_DIM), "%#9llx",
		       (unsigned long long)((g->z->first_block + (uint64_t)c0 * g->bpc) << order));
		for (x = 0; x < g->width && c0 + (uint32_t)x < g->cells; x++) {
			struct cell ce;
			unsigned int attr;
			char ch;

			cell_of(g, c0 + (uint32_t)x, &ce);
			/* a lone free block is the quiet '.'; ':' marks a mostly free group */
			ch = glyph[ce.cls][ce.dense && (ce.cls != FT_PB_FREE || g->bpc > 1)];
			attr = ce.sampled ? ft_attr(class_color(ce.cls)) | A_DIM :
					    ft_attr(class_color(ce.cls)) | (ce.dense ? A_BOLD : 0);
			if (st->giant && gi->order >= 0)
				attr = giant_attr(cell_region(gi, g, order, &ce), &ce);
			if (st->overlay && ce.fallbacks) {
				double age = (double)(now - ce.mark_ns) / 1e9;

				ch = age < 10 ? '*' : age < 60 ? '+' : '~';
				attr = ft_attr(FT_C_BOOST) | (age < 60 ? A_REVERSE | A_BOLD : 0);
			}
			if (c0 + (uint32_t)x == st->cur)
				attr = A_REVERSE | A_BOLD;
			attron((int)attr);
			mvaddch(y, MARGIN + x, (chtype)(unsigned char)ch);
			attroff((int)attr);
		}
	}
	return r;
}

static void map_draw(struct ft_ui *ui, int top, int height)
{
	struct map_state *st = S(ui);
	const struct ft_session *s = ui->s;
	const struct ft_pbmap *m = &s->map;
	uint64_t now = s->t_ns;
	struct giants gi;
	struct geom g;
	int y = top;
	char a[16], scan[160] = "", beyond[160];

	if (draw_no_map(ui, y))
		return;
	/*
	 * 6 rows above the grid (zone, counts, pagetypeinfo, beyond the block,
	 * the scan, the legend), 2 under it
	 */
	ui->scroll_info[0] = '\0';
	/* no row or too narrow for the grid */
	if (height - 8 - owner_rows(s) < 1 || COLS - MARGIN < 8) {
		ft_put(y, 0, ft_attr(FT_C_DIM), "map: needs %dx%d or more", MARGIN + 8,
		       LINES - height + 9 + owner_rows(s));
		return;
	}
	if (!geometry(ui, height - 8 - owner_rows(s), &g)) {
		ft_put(y + 1, 2, ft_attr(FT_C_DIM),
		       "no zone with a known span and pageblock order yet");
		return;
	}
	ft_fmt_pages(a, sizeof(a), 1ull << m->order, 4096);
	ft_put(y, 0, ft_attr(FT_C_LABEL), "N%d %-8s", g.z->node, g.z->name);
	ft_put(y, 12, A_NORMAL,
	       "PFN %#llx-%#llx  %u blocks of %s  %u per cell  zone %d/%zu  pass %llu",
	       (unsigned long long)g.z->start_pfn, (unsigned long long)g.z->end_pfn - 1,
	       g.z->nr_blocks, a, g.bpc, st->zone + 1, m->nr, (unsigned long long)g.z->scans);
	y++;
	draw_counts(y, ui, g.z);
	/* the zone beyond the block: a line of its own */
	giants_of(s, (size_t)(g.z - m->zones), &gi);
	contig_line(s, &gi, g.z, beyond, sizeof(beyond));
	/*
	 * the scan's budget and how fast fallbacks' blocks were read again:
	 * a line of its own (on the status line it cut the messages short)
	 */
	if (s->mapscan.known)
		snprintf(scan, sizeof(scan),
			 "scan %.1f%% CPU; %llu rescans after fallbacks, %llu put off for budget, "
			 "%llu over 1 s (max %.0f ms)",
			 s->mapscan.cpu * 100, (unsigned long long)s->mapscan.rescans,
			 (unsigned long long)s->mapscan.rescans_deferred,
			 (unsigned long long)s->mapscan.rescans_late,
			 (double)s->mapscan.lag_max_ns / 1e6);
	y += 2;
	ft_put(y++, 0, A_NORMAL, "%s", beyond);
	ft_put(y++, 0, ft_attr(FT_C_DIM), "%s", scan);
	if (st->giant && gi.order >= 0)
		ft_put(y++, 0, ft_attr(FT_C_DIM),
		       "G regions: cyan free  green movable  red tainted (reverse: its unmovable "
		       "blocks)  dim unknown");
	else
		ft_put(y++, 0, ft_attr(FT_C_DIM),
		       ". free  m movable  u unmovable  x mixed  CAPS: >= half  dim: sampled  ? "
		       "unscanned%s",
		       st->overlay ?
			       "  fallback * 10s + 1min ~ earlier" : "  o: fallbacks  G: regions");
	st->grid_y = y;
	st->grid_w = (uint32_t)g.width;
	st->grid_cells = g.cells;
	snprintf(st->shown, sizeof(st->shown), "N%d %s", g.z->node, g.z->name);
	st->grid_rows = draw_grid(ui, &g, &gi, y);
	free(gi.r);
	/* the cell under the cursor, and who owns its pinned pages */
	draw_cursor(st, &g, m->order, s->host.page_size, now, top + height - 2);
	if (owner_rows(s))
		draw_owners(ui, &g, m->order, now, top + height - 2 - owner_rows(s));
	ui->scroll_info[0] = '\0';
	if (g.rows > g.grid_h)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "rows %d-%d of %d", st->top + 1,
			 st->top + g.grid_h < g.rows ? st->top + g.grid_h : g.rows, g.rows);
}

/* The cursor: a cell, a row, a page, or the first. */
static void key_cursor(struct ft_ui *ui, int ch)
{
	struct map_state *st = S(ui);
	uint32_t width = COLS > MARGIN + 8 ? (uint32_t)(COLS - MARGIN) : 8;
	uint32_t page = (uint32_t)(LINES > 12 ? LINES - 12 : 1) * width;

	(void)ui;
	switch (ch) {
	case KEY_LEFT:
		if (st->cur)
			st->cur--;
		break;
	case KEY_RIGHT:
		st->cur++;
		break;
	case KEY_UP:
		st->cur = st->cur >= width ? st->cur - width : 0;
		break;
	case KEY_DOWN:
		st->cur += width;
		break;
	case KEY_PPAGE:
		st->cur = st->cur >= page ? st->cur - page : 0;
		break;
	case KEY_NPAGE:
		st->cur += page;
		break;
	default:	/* g, Home */
		st->cur = 0;
		break;
	}
}

/* Zoom around the block under the cursor, or fit the zone again (0). */
static void key_zoom(struct ft_ui *ui, int ch)
{
	struct map_state *st = S(ui);
	uint64_t block = (uint64_t)st->cur * (st->bpc ? st->bpc : 1);

	if (ch == '0') {
		st->zoomed = false;	/* fitted at the next draw */
		return;
	}
	st->zoomed = true;
	if (ch == '-')
		st->bpc = st->bpc ? st->bpc * 2 : 2;
	else if (st->bpc > 1)
		st->bpc /= 2;
	else
		ft_ui_status(ui, FT_DIAG_INFO, "one pageblock per cell: fully zoomed in");
	if (!st->bpc)
		st->bpc = 1;
	st->cur = (uint32_t)(block / st->bpc);
}

static void key_zone(struct ft_ui *ui, int ch)
{
	struct map_state *st = S(ui);
	const struct ft_session *s = ui->s;

	if (!s->map.nr)
		return;
	st->zone = (st->zone + (ch == 'z' ? 1 : (int)s->map.nr - 1)) % (int)s->map.nr;
	st->chosen = true;
	st->bpc = 0;
	st->zoomed = false;
	st->cur = 0;
	st->top = 0;
}

static void key_giant(struct ft_ui *ui, int ch)
{
	struct map_state *st = S(ui);

	(void)ch;
	if (ft_session_contig_order(ui->s) < 0) {
		ft_ui_status(ui, FT_DIAG_WARN, "no gigantic regions: %s",
			     ui->s->host.nr_huge ? "no huge page size above the pageblock" :
						   "no hugetlb sizes known (a recording made "
						   "before they were)");
		return;
	}
	st->giant = !st->giant;
	ft_ui_status(ui, FT_DIAG_INFO, "gigantic region overlay %s", st->giant ? "on" : "off");
}

/* A: the map was kept off for the kernel's config; the operator asks for it anyway. */
static void key_force(struct ft_ui *ui, int ch)
{
	(void)ch;
	if (!ui->live || ui->s->map_err != -ECANCELED) {
		ft_ui_status(ui, FT_DIAG_INFO, "A: nothing to allow (the map is not kept off)");
		return;
	}
	ft_live_map_force(ui->live);
	if (ft_live_map_enable(ui->live, true) == 0)
		ft_ui_status(ui, FT_DIAG_WARN,
			     "scanning /proc/kpageflags on a DEBUG_VM kernel, as asked");
}

static void key_overlay(struct ft_ui *ui, int ch)
{
	struct map_state *st = S(ui);

	(void)ch;
	st->overlay = !st->overlay;
	ft_ui_status(ui, FT_DIAG_INFO, "fallback overlay %s", st->overlay ? "on" : "off");
}

/* R: a pass over every zone, in slices between which keys are read (tui/mode_live.c). */
static void key_rescan(struct ft_ui *ui, int ch)
{
	(void)ch;
	if (!ui->live) {
		ft_ui_status(ui, FT_DIAG_INFO, "replay: the recording's map is what it scanned");
		return;
	}
	if (ft_live_map_rescanning(ui->live))
		return;		/* one at a time */
	ui->rescan_t0 = ft_now_ns();
	if (!ft_live_map_rescan_begin(ui->live))
		ft_ui_status(ui, FT_DIAG_INFO, "full rescan: started");
}

/*
 * The cursor to the next block whose page owners were read and pin
 * something: in map order from the cursor's cell on, into the next zones
 * and around.
 */
static void key_owner(struct ft_ui *ui, int ch)
{
	struct map_state *st = S(ui);
	const struct ft_session *s = ui->s;
	const struct ft_pbmap *m = &s->map;
	uint64_t here, best = UINT64_MAX, wrap = UINT64_MAX;
	uint32_t bpc = st->bpc ? st->bpc : 1;
	size_t i, z;

	(void)ch;
	if (!m->nr || m->order < 0 || st->zone >= (int)m->nr) {
		ft_ui_status(ui, FT_DIAG_INFO, "no pageblock map yet");
		return;
	}
	/* blocks in map order: zone index, then block; the cursor's cell ends where we start */
	here = ((uint64_t)st->zone << 40) + (uint64_t)(st->cur + 1) * bpc;
	for (i = 0; i < s->owners.nr; i++) {
		const struct ft_owner_look *o = &s->owners.looks[i];
		uint64_t b = o->pfn >> m->order, key;

		if (!o->text_len)
			continue;
		for (z = 0; z < m->nr; z++)
			if (b >= m->zones[z].first_block &&
			    b - m->zones[z].first_block < m->zones[z].nr_blocks)
				break;
		if (z == m->nr)
			continue;
		key = ((uint64_t)z << 40) + (b - m->zones[z].first_block);
		if (key >= here && key < best)
			best = key;
		if (key < wrap)
			wrap = key;
	}
	if (best == UINT64_MAX)
		best = wrap;
	if (best == UINT64_MAX) {
		ft_ui_status(ui, FT_DIAG_INFO,
			     "no block with pinning page owners read (%zu looks%s)",
			     s->owners.nr, s->owner_src.err ? ", page_owner cannot be read" : "");
		return;
	}
	z = (size_t)(best >> 40);
	/* another zone: fit it, the cursor placed at the next draw */
	if ((int)z != st->zone) {
		st->zone = (int)z;
		st->chosen = true;
		st->bpc = 0;
		st->zoomed = false;
		st->top = 0;
	}
	st->jump_block = m->zones[z].first_block + (best & ((1ull << 40) - 1)) + 1;
}

/* A click on a cell puts the cursor there. */
static bool map_click(struct ft_ui *ui, int y, int x)
{
	struct map_state *st = S(ui);
	uint32_t c;

	(void)ui;
	if (y < st->grid_y || y >= st->grid_y + st->grid_rows || x < MARGIN ||
	    (uint32_t)(x - MARGIN) >= st->grid_w)
		return false;
	c = (uint32_t)(st->top + y - st->grid_y) * st->grid_w + (uint32_t)(x - MARGIN);
	if (c >= st->grid_cells)
		return false;
	st->cur = c;
	return true;
}

static void map_load(struct ft_ui *ui, const struct ft_rc *rc)
{
	struct map_state *st = S(ui);

	(void)ui;
	snprintf(st->want, sizeof(st->want), "%s", rc->map_zone);
}

static void map_save(const struct ft_ui *ui, struct ft_rc *rc)
{
	struct map_state *st = S(ui);

	(void)ui;
	if (st->shown[0])
		snprintf(rc->map_zone, sizeof(rc->map_zone), "%s", st->shown);
	else
		snprintf(rc->map_zone, sizeof(rc->map_zone), "%s", st->want);
}

static const struct ft_key map_keys[] = {
	{ "arrows PgUp PgDn",
	  { KEY_LEFT, KEY_RIGHT, KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, 'g' },
	  "move the cursor, or click a cell (the line below the map describes it)", NULL, 0,
	  key_cursor },
	{ "+ - 0", { '+', '=', '-', '0' }, "zoom in, out, fit the zone", NULL, 0, key_zoom },
	{ "z Z", { 'z', 'Z' }, "next, previous zone", NULL, 0, key_zone },
	{ "o", { 'o' }, "overlay the blocks named by fallbacks", NULL, 0, key_overlay },
	{ "G", { 'G' },
	  "colour cells by their gigantic region (1 GiB on x86-64): free, movable, tainted",
	  NULL, 0, key_giant },
	{ "O", { 'O' }, "next cell with page owners read (page_owner=on kernels)", NULL, 0,
	  key_owner },
	{ "R", { 'R' }, "rescan every zone now, in slices: keys work meanwhile", NULL, 0,
	  key_rescan },
	{ "A", { 'A' },
	  "scan anyway where the map is kept off (a CONFIG_DEBUG_VM kernel before 6.17)", NULL, 0,
	  key_force },
	{ NULL },
};

static const struct ft_legend map_legend[] = {
	{ ". m u x",
	  "a cell of pageblocks: free, movable, unmovable, mixed (movable with unmovable pages)" },
	{ ":", "a cell that is mostly free ('.' is a lone free block)" },
	{ "CAPS", "upper case: half the cell's pages or more are of that kind" },
	{ "dim", "sampled, not read whole: a pass reads every page later" },
	{ "?", "not scanned yet" },
	{ "* + ~",
	  "with o: a block a fallback was cut from in the last 10 s, the last minute, earlier" },
	{ "PFN", "the zone's page frame numbers (hex); each row starts at the PFN on its left" },
	{ "per cell", "pageblocks each character stands for" },
	{ "pass", "whole passes over the zone so far" },
	{ "pollution",
	  "unmovable pages lying in mixed blocks (movable blocks that unmovable pages entered)" },
	{ "THP-backed", "pageblocks backed by a transparent huge page (any large anonymous folio, "
			"16 KiB to 2 MiB)" },
	{ "amplification",
	  "share of blocks holding an unmovable page over the share of pages that are: 1 packed, "
	  "large spread; ~: partial, of the blocks read so far" },
	{ "regions",
	  "aligned runs of the largest huge page size wholly in the zone; now: all free; after "
	  "compaction: free or movable; tainted: an unmovable page or a hole" },
	{ "G colours", "with G: cyan free region, green movable, red tainted (reverse: the cells "
		       "that taint it), "
	  "dim unknown" },
	{ "labels", "page_owner's migratetype label of each block it was read for (Block N type X) "
		    "against what "
	  "the map found in it: Movable-labelled blocks holding unmovable pages are pollution the "
	  "labels hide (report prints the whole table)" },
	{ "pagetypeinfo", "the kernel's own count of pageblocks per migratetype, to compare" },
	{ "cursor",
	  "the cell under the cursor: its PFNs, its blocks' kinds and its pages' (and, with O, "
	  "their page owners)" },
	{ NULL, NULL },
};

const struct ft_view ft_view_map = {
	.state_size = sizeof(struct map_state),
	.focus = map_focus,
	.name = "map",
	.draw = map_draw,
	.keys = map_keys,
	.legend = map_legend,
	.click = map_click,
	.load = map_load,
	.save = map_save,
};
