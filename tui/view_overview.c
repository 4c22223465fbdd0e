// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview: system-wide rates, then one block per populated zone of
 * every node: free pages, a watermark gauge with the boost drawn apart,
 * free blocks per order shaded by their share of free memory, and
 * pageblocks per migratetype.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fits.h"
#include "model/contig.h"
#include "model/fit.h"
#include "model/frag.h"
#include "model/session.h"
#include "tui/chart.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

struct list_item;

/*
 * The view's state (struct ft_view's state_size: the loop owns it): the
 * first zone (or list line) shown, the list's order.
 */
struct overview_state {
	int first_zone;
	int list_order;		/* enum list_order */
	bool list_mode;		/* drawn as the list last time */
	/*
	 * The contiguity line: fragtoprc's sizes= (setup, F2): "" the host's
	 * hugetlb sizes (the pageblock without one), "-" no line; its figures (analysis/fits.h) as
	 * of the session's tick fits_tick, and their trend (owned).
	 */
	char sizes[96];
	struct list_item *items;	/* the list's lines (owned: made at its first draw) */
	struct ft_fits *fits;
	struct ft_fits_trend *trend;
	uint64_t fits_tick;
	bool fits_built;
};

/* @ui's overview state. */
static struct overview_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_overview);
}

enum list_order { BY_NODE, BY_FALLBACKS, BY_UNUSABLE, NR_ORDERS };
static const char *const order_names[NR_ORDERS] = { "node", "fragmenting/s", "unusable index" };

#define ZONE_LINES	5	/* 4 lines and a gap */
#define RATE_LINES	4	/* 3 lines of rates and the order ruler; + 1 with pressure */

static int nr_populated(const struct ft_sample *s)
{
	size_t i;
	int n = 0;

	for (i = 0; i < s->nr_zones; i++)
		n += ft_zi_populated(s->zones[i].zi);
	return n;
}

#define RATE_X		13	/* first rate column */
#define RATE_W		16	/* "label  value" cells */

static void put_rate(int y, int col, const char *label, double v)
{
	char buf[32];
	int x = RATE_X + col * RATE_W;

	ft_fmt_rate(buf, sizeof(buf), v, 5);
	ft_put(y, x, ft_attr(FT_C_DIM), "%s", label);
	ft_put(y, x + RATE_W - 7, v > 0 ? ft_attr(FT_C_WARN) : A_NORMAL, "%5s", buf);
}

static void put_pct(int y, int col, double ratio)
{
	int x = RATE_X + col * RATE_W;

	ft_put(y, x, ft_attr(FT_C_DIM), "success");
	if (isnan(ratio))
		ft_put(y, x + RATE_W - 7, ft_attr(FT_C_DIM), "    -%%");
	else
		ft_put(y, x + RATE_W - 7, ratio < 0.5 ? ft_attr(FT_C_BAD) : ft_attr(FT_C_OK),
		       "%6s", ft_cell_pct((char[16]){ 0 }, 16, ratio * 100, 6, 0));
}

/* A pressure average in percent, in 5 columns. */
static void put_psi_pct(int y, int col, const char *label, const struct ft_psi_line *l)
{
	int x = RATE_X + col * RATE_W;
	char v[16];

	ft_put(y, x, ft_attr(FT_C_DIM), "%s", label);
	if (!l->have) {
		ft_put(y, x + RATE_W - 7, ft_attr(FT_C_DIM), "%5s", "-");
		return;
	}
	ft_fmt_pct(v, sizeof(v), l->avg10);
	ft_put(y, x + RATE_W - 7,
	       l->avg10 >= 10 ? ft_attr(FT_C_BAD) : l->avg10 > 0 ? ft_attr(FT_C_WARN) : A_NORMAL,
	       "%4s%%", v);
}

/* The host's memory pressure (/proc/pressure/memory), when the kernel has it: true if drawn. */
static bool draw_pressure(struct ft_ui *ui, int y)
{
	const struct ft_sample *s = &ui->s->sample;

	if (!ft_sample_has(s, FT_SRC_PRESSURE))
		return false;
	ft_put(y, 0, ft_attr(FT_C_LABEL), "pressure");
	put_psi_pct(y, 0, "some10", &s->psi.some);
	put_psi_pct(y, 1, "full10", &s->psi.full);
	put_rate(y, 2, "some ms/s", isnan(s->psi_some_ms) ? 0 : s->psi_some_ms);
	put_rate(y, 3, "full ms/s", isnan(s->psi_full_ms) ? 0 : s->psi_full_ms);
	return true;
}

/* Whether the contiguity line is shown (fragtoprc's sizes= is not "-"). */
static bool fits_shown(const struct ft_ui *ui)
{
	return strcmp(S(ui)->sizes, "-") != 0;
}

/*
 * The rate lines and the ruler: 4 lines, 5 with the pressure line, one more with the contiguity
 * line.
 */
static int rate_lines(const struct ft_ui *ui)
{
	return RATE_LINES + ft_sample_has(&ui->s->sample, FT_SRC_PRESSURE) + fits_shown(ui);
}

/* The sizes (and needs) of the line, with the session's page size: how many, into @n. */
static size_t fits_items(const struct ft_ui *ui, struct ft_fit_need *n)
{
	const struct overview_state *st = S(ui);
	char err[128];
	size_t nr = 0, i;

	if (st->sizes[0] && strcmp(st->sizes, "-") &&
	    !ft_fit_interest_parse(st->sizes, ui->s->host.page_size, n, &nr, err, sizeof(err)))
		return nr;
	/* the default: the host's hugetlb sizes */
	for (i = 0; i < ui->s->host.nr_huge && nr < FT_FIT_NEEDS_MAX; i++) {
		char kb[32];
		int o;

		snprintf(kb, sizeof(kb), "%lluK", (unsigned long long)ui->s->host.huge_kb[i]);
		if ((o = ft_fit_size_parse(kb, ui->s->host.page_size)) >= 0)
			n[nr++] = (struct ft_fit_need){ .count = 0, .order = o };
	}
	/* no hugetlb size (a tree, an old recording): the pageblock */
	if (!nr && ui->s->sample.pageblock_order >= 0)
		n[nr++] = (struct ft_fit_need){ .count = 0,
						.order = ui->s->sample.pageblock_order };
	return nr;
}

/*
 * The table as of the session's tick: the free lists, and the map where it read a zone (no file
 * read).
 */
static void fits_update(struct ft_ui *ui)
{
	struct overview_state *st = S(ui);
	struct ft_fit_need n[FT_FIT_NEEDS_MAX];
	struct ft_fits_sizes sizes;
	int asked[FT_FIT_NEEDS_MAX];
	size_t nr, i;

	if (!st->fits || !st->trend || !fits_shown(ui) ||
	    (st->fits_built && st->fits_tick == ui->s->ticks))
		return;
	nr = fits_items(ui, n);
	for (i = 0; i < nr; i++)
		asked[i] = n[i].order;
	ft_fits_sizes(ui->s, 0, asked, nr, &sizes);
	st->fits_built = !ft_fits_build(st->fits, ui->s, &sizes, true);
	st->fits_tick = ui->s->ticks;
	if (st->fits_built)
		ft_fits_trend_add(st->trend, st->fits, ui->s->tick_t_ns);
}

/* "in 1.4h": @s seconds in a few characters. */
static void fmt_eta(char *buf, size_t sz, double s)
{
	if (s < 120)
		snprintf(buf, sz, "%.0fs", s);
	else if (s < 7200)
		snprintf(buf, sz, "%.0fm", s / 60);
	else if (s < 172800)
		snprintf(buf, sz, "%.1fh", s / 3600);
	else
		snprintf(buf, sz, "%.0fd", s / 86400);
}

/*
 * One item of the line at @x: "2M 10.8k/11.1k", a '+' where the figure is
 * the lower end of an interval, "?" after compaction until the map has
 * read the zones; with a need, its size coloured by the verdict and, once
 * the trend has enough ticks, the rate and when "now" reaches the need at
 * it.  Returns the next x, or -1 when it does not fit before @end.
 */
static int fits_item(struct ft_ui *ui, int y, int x, int end, const struct ft_fit_need *need)
{
	const struct overview_state *st = S(ui);
	long k = ft_fits_size_index(st->fits, need->order);
	const struct ft_fit *f;
	char size[24], now[16], after[16], text[96], rate[48] = "", eta[16];
	double per_s, window;
	enum ft_color c = FT_C_LABEL;
	int len;

	if (k < 0)
		return x;
	f = &st->fits->host[k];
	ft_fit_size_name(need->order, ui->s->host.page_size, size, sizeof(size));
	if (f->now_hi == UINT64_MAX)	/* above the buddy's orders without the map */
		snprintf(now, sizeof(now), "?");
	else
		ft_fmt_count(now, sizeof(now), (double)f->now_lo, 5);
	if (f->map || f->after_hi != UINT64_MAX)
		ft_fmt_count(after, sizeof(after), (double)f->after_lo, 5);
	else
		snprintf(after, sizeof(after), "?");
	if (need->count) {
		enum ft_fit_verdict v = ft_fit_judge(f, need->count);

		c = v == FT_FIT_NOW ? FT_C_OK : v == FT_FIT_AFTER ? FT_C_WARN : v == FT_FIT_NO ?
			FT_C_BAD : FT_C_DIM;
		snprintf(size + strlen(size), sizeof(size) - strlen(size), "x%llu",
			 (unsigned long long)need->count);
	}
	if (ft_fits_trend_rate(st->trend, (size_t)k, &per_s, &window) && per_s < 0) {
		double e = need->count ? ft_fits_trend_eta(f->now_lo, need->count,
							   per_s) : INFINITY;

		ft_fmt_count(rate, sizeof(rate), -per_s * 60, 5);
		if (isfinite(e) && e > 0) {
			fmt_eta(eta, sizeof(eta), e);
			snprintf(rate + strlen(rate), sizeof(rate) - strlen(rate), "/m, in %s",
				 eta);
		} else {
			snprintf(rate + strlen(rate), sizeof(rate) - strlen(rate), "/m");
		}
	}
	len = snprintf(text, sizeof(text), "%s%s/%s%s", now,
		       f->now_lo != f->now_hi && f->now_hi != UINT64_MAX ? "+" : "", after,
		       f->after_lo != f->after_hi && f->after_hi != UINT64_MAX ? "+" : "");
	if (x + (int)strlen(size) + 1 + len + (rate[0] ? (int)strlen(rate) + 3 : 0) > end)
		return -1;
	ft_put(y, x, ft_attr(c) | (need->count ? A_BOLD : 0), "%s", size);
	x += (int)strlen(size) + 1;
	ft_put(y, x, f->now_lo || f->now_hi == UINT64_MAX ? A_NORMAL : ft_attr(FT_C_BAD), "%s",
	       text);
	x += len;
	if (rate[0]) {
		ft_put(y, x + 1, ft_attr(FT_C_WARN), "-%s", rate);
		x += (int)strlen(rate) + 2;
	}
	return x + 2;
}

/* The contiguity line at @y: each size of interest now / after compaction, for the host. */
static void draw_fits(struct ft_ui *ui, int y)
{
	struct ft_fit_need n[FT_FIT_NEEDS_MAX];
	size_t nr, i;
	int x = RATE_X;

	ft_put(y, 0, ft_attr(FT_C_LABEL), "contiguous");
	fits_update(ui);
	if (!S(ui)->fits_built) {
		ft_put(y, x, ft_attr(FT_C_DIM), "waiting for buddyinfo");
		return;
	}
	nr = fits_items(ui, n);
	if (!nr) {
		ft_put(y, x, ft_attr(FT_C_DIM),
		       "no size known yet: set sizes of interest in setup (F2)");
		return;
	}
	for (i = 0; i < nr && x >= 0; i++)
		x = fits_item(ui, y, x, COLS, &n[i]);
}

static void draw_rates(struct ft_ui *ui, int y)
{
	const struct ft_rates *r = &ui->s->sample.rates;

	ft_put(y, 0, ft_attr(FT_C_LABEL), "compaction/s");
	put_rate(y, 0, "stall", r->v[FT_RATE_COMPACT_STALL]);
	put_rate(y, 1, "ok", r->v[FT_RATE_COMPACT_SUCCESS]);
	put_rate(y, 2, "fail", r->v[FT_RATE_COMPACT_FAIL]);
	put_pct(y, 3, r->compact_success);

	ft_put(y + 1, 0, ft_attr(FT_C_LABEL), "THP faults/s");
	put_rate(y + 1, 0, "alloc", r->v[FT_RATE_THP_FAULT_ALLOC]);
	put_rate(y + 1, 1, "fallback", r->v[FT_RATE_THP_FAULT_FALLBACK]);
	put_pct(y + 1, 3, r->thp_success);

	ft_put(y + 2, 0, ft_attr(FT_C_LABEL), "reclaim/s");
	put_rate(y + 2, 0, "kswapd", r->v[FT_RATE_PGSCAN_KSWAPD]);
	put_rate(y + 2, 1, "direct", r->v[FT_RATE_PGSCAN_DIRECT]);
	put_rate(y + 2, 2, "stalls", r->v[FT_RATE_ALLOCSTALL]);
	put_rate(y + 2, 3, "kcompactd", r->v[FT_RATE_COMPACT_DAEMON_WAKE]);
	/* wide: compaction stalls/s over time beside them */
	if (COLS >= 110)
		ft_chart_row(ui->s, y, RATE_X + 4 * RATE_W + 2, COLS - (RATE_X + 4 * RATE_W + 2),
			     FT_CHART_STALLS, FT_ZH_FREE, 0, -1);
	if (fits_shown(ui))
		draw_fits(ui, y + 3 + draw_pressure(ui, y + 3));
	else
		draw_pressure(ui, y + 3);
}

/*
 * History under a zone's block: one chart a line (@lines 5), or two a
 * line (@lines 3, wide terminals).
 */
static void draw_zone_history(struct ft_ui *ui, int y, int lines, int zi)
{
	static const enum ft_zh_metric order[] = {
		FT_ZH_UNUSABLE, FT_ZH_FREE, FT_ZH_BOOST_PEAK, FT_ZH_BOOSTED, FT_ZH_FRAG_RATE,
	};
	int i, half = (COLS - 2) / 2;

	for (i = 0; i < (int)(sizeof(order) / sizeof(order[0])); i++) {
		if (lines == 5)
			ft_chart_row(ui->s, y + i, 2, COLS - 2, zi, order[i], 0, -1);
		else
			ft_chart_row(ui->s, y + i / 2, 2 + (i % 2) * half, half - 1, zi, order[i],
				     0, -1);
	}
}

static void draw_ruler(struct ft_ui *ui, int y)
{
	const struct ft_sample *s = &ui->s->sample;
	int o;

	ft_put(y, 0, ft_attr(FT_C_DIM), "%10s", "order");
	for (o = 0; o < s->nr_orders && 11 + o * 6 + 6 <= COLS; o++)
		ft_put(y, 11 + o * 6, o >= s->pageblock_order && s->pageblock_order >= 0 ?
		       ft_attr(FT_C_LABEL) : ft_attr(FT_C_DIM), "%6d", o);
}

/*
 * [====m=l=h++++      ]: free pages filled against a scale of twice the
 * boosted high watermark (at least four times the base one); m, l, h mark
 * the base watermarks and + the boost on top of them.
 */
static void draw_gauge(int y, int x, int w, const struct ft_zi_zone *zi, uint64_t shown_boost)
{
	uint64_t boost = zi->has & FT_ZI_BOOST ? zi->boost : 0;
	uint64_t bmin = zi->min - (boost <= zi->min ? boost : 0);
	uint64_t blow = zi->low - (boost <= zi->low ? boost : 0);
	uint64_t bhigh = zi->high - (boost <= zi->high ? boost : 0);
	double scale;

	/* the boost drawn: the tick's peak when the sampler saw one, else the instant one */
	boost = shown_boost;
	scale = fmax(2.0 * (double)(bhigh + boost), 4.0 * (double)bhigh);
	enum ft_color fill;
	int i, p;

	if (w < 4)
		return;
	if (scale <= 0)
		scale = 1;
	fill = zi->free < zi->min ? FT_C_BAD : zi->free < zi->low ? FT_C_WARN : FT_C_OK;
	p = ft_cell_index((double)zi->free / scale * w, 0, w);
	ft_put(y, x - 1, A_NORMAL, "[");
	for (i = 0; i < w; i++) {
		double lo = scale * i / w, hi = scale * (i + 1) / w;
		char ch = i < p ? '=' : ' ';
		unsigned int attr = i < p ? ft_attr(fill) : A_NORMAL;

		if (boost && lo < (double)(bhigh + boost) && hi > (double)bhigh) {
			ch = '+';
			attr = ft_attr(FT_C_BOOST) | A_BOLD;
		}
		if (bmin >= lo && bmin < hi)
			ch = 'm', attr |= A_BOLD;
		else if (blow >= lo && blow < hi)
			ch = 'l', attr |= A_BOLD;
		else if (bhigh >= lo && bhigh < hi)
			ch = 'h', attr |= A_BOLD;
		if (i == w - 1 && (double)zi->free > scale)
			ch = '>';
		ft_put(y, x + i, attr, "%c", ch);
	}
	ft_put(y, x + w, A_NORMAL, "]");
}

static enum ft_color heat(double share)
{
	if (share >= 0.25)
		return FT_C_HEAT4;
	if (share >= 0.10)
		return FT_C_HEAT3;
	if (share >= 0.02)
		return FT_C_HEAT2;
	if (share > 0)
		return FT_C_HEAT1;
	return FT_C_DIM;
}

/* nr_free_pages_blocks / free pages, %: what of free memory still makes whole pageblocks */
static double free_in_blocks_pct(const struct ft_zi_zone *zi)
{
	return zi->free ? 100.0 * (double)zi->free_blocks / (double)zi->free : 0;
}

/*
 * The zone's pollution amplification (model/contig.h) once the map has
 * read blocks of it (the map view, or a recording's scans), at @x if it fits.
 */
static void zone_amp(const struct ft_ui *ui, int y, int x, const struct ft_zi_zone *zi)
{
	const struct ft_pbmap *m = &ui->s->map;
	struct ft_amp a = { 0 };
	double r;
	int k;

	if (ui->s->map_err || x + 13 > COLS)
		return;
	k = ft_pbmap_zone_named(m, zi->node, zi->name);
	if (k < 0)
		return;
	ft_amp_add(&a, &m->zones[k]);
	r = ft_amp_ratio(&a);
	if (!isfinite(r))
		return;
	ft_put(y, x, ft_attr(FT_C_DIM), "amp");
	/* ~: partial, blocks not read whole yet (the map's first pass) */
	ft_put(y, x + 4, ft_amp_partial(&a) ? ft_attr(FT_C_DIM) : r >= 4 ? ft_attr(FT_C_BAD) :
	       r >= 2 ? ft_attr(FT_C_WARN) : A_NORMAL, "%s%.2f", ft_amp_partial(&a) ? "~" : "", r);
}

static void zone_head(struct ft_ui *ui, int y, const struct ft_zone *z)
{
	const struct ft_sample *s = &ui->s->sample;
	const struct ft_zi_zone *zi = z->zi;
	long ps = ui->s->host.page_size;
	char a[32], b[32], c[32], d[32], pgalloc[64];
	int x, pbo = s->pageblock_order;
	double rate;

	ft_fmt_pages(a, sizeof(a), zi->free, ps);
	ft_fmt_pages(b, sizeof(b), zi->managed, ps);
	snprintf(pgalloc, sizeof(pgalloc), "pgalloc_%s", zi->name);
	for (x = 8; pgalloc[x]; x++)
		pgalloc[x] = (char)(pgalloc[x] >= 'A' && pgalloc[x] <= 'Z' ?
				    pgalloc[x] - 'A' + 'a' : pgalloc[x]);
	rate = s->has_prev ? ft_rates_vmstat(&s->prev_vmstat, &s->vmstat, pgalloc,
					    s->rates.dt) : NAN;
	ft_fmt_rate(c, sizeof(c), rate, 5);
	ft_put(y, 0, A_BOLD, "N%d %-8s", zi->node, zi->name);
	if (zi->has & FT_ZI_FREE_BLOCKS && COLS < 100) {
		/* 6.15+: the share of free memory in whole pageblocks says more than managed */
		ft_put(y, 12, A_NORMAL, "free %7llu %6s  in blocks %4s alloc %5s/s",
		       (unsigned long long)zi->free, a,
		       ft_cell_pct(b, sizeof(b), free_in_blocks_pct(zi), 4, 0), c);
	} else {
		ft_put(y, 12, A_NORMAL, "free %7llu %6s  managed %6s  alloc %5s/s",
		       (unsigned long long)zi->free, a, b, c);
		if (zi->has & FT_ZI_FREE_BLOCKS)
			ft_put(y, 81, A_NORMAL, "in blocks %4s",
			       ft_cell_pct(b, sizeof(b), free_in_blocks_pct(zi), 4, 0));
	}
	if (z->bi && pbo >= 0 && pbo < s->nr_orders) {
		ft_thousandths_format(z->unusable[pbo], d, sizeof(d));
		ft_put(y, 63, ft_attr(FT_C_DIM), "unusable@%d", pbo);
		ft_put(y, 74, z->unusable[pbo] > 500 ? ft_attr(FT_C_BAD) :
		       z->unusable[pbo] > 200 ? ft_attr(FT_C_WARN) : A_NORMAL, "%s", d);
	}
	zone_amp(ui, y, zi->has & FT_ZI_FREE_BLOCKS && COLS >= 100 ? 97 : 81, zi);
}

/* Line 2: the watermark gauge and values; the boost is the sampler's peak over the tick. */
static void zone_wmark(struct ft_ui *ui, int y, const struct ft_zone *z)
{
	const struct ft_sample *s = &ui->s->sample;
	const struct ft_zi_zone *zi = z->zi;
	const struct ft_boost_tick *bt = ft_session_boost(ui->s, (size_t)(z - s->zones));
	char a[32], b[32], c[32], e[32];

	ft_put(y, 2, ft_attr(FT_C_DIM), "wmark");
	draw_gauge(y, 9, 26, zi, bt ? bt->peak : zi->has & FT_ZI_BOOST ? zi->boost : 0);
	ft_fmt_count(a, sizeof(a), (double)zi->min, 5);
	ft_fmt_count(b, sizeof(b), (double)zi->low, 5);
	ft_fmt_count(c, sizeof(c), (double)zi->high, 5);
	ft_put(y, 37, A_NORMAL, "min %-5s low %-5s high %-5s", a, b, c);
	if (bt) {
		const struct ft_knob *bk = ft_knob_find("watermark_boost_factor");
		const struct ft_knob_value *bv = &ui->s->knobs[bk - ft_knobs];
		uint64_t ceil = bv->err ? 0 : ft_boost_ceiling(zi->high, zi->boost, bv->num,
							       s->pageblock_order);

		ft_fmt_count(e, sizeof(e), (double)bt->peak, 5);
		ft_put(y, 68, bt->peak ? ft_attr(FT_C_BOOST) | A_BOLD : ft_attr(FT_C_DIM),
		       "boost %s", e);
		/* how much of the tick it was boosted, how often it started, against the ceiling */
		if (COLS >= 112) {
			ft_fmt_count(a, sizeof(a), (double)ceil, 5);
			ft_put(y, 80, bt->boosted ? ft_attr(FT_C_BOOST) : ft_attr(FT_C_DIM),
			       "%4s boosted %2u ep  ceil %s",
			       ft_cell_pct((char[16]){ 0 }, 16,
					   bt->samples ? 100.0 * bt->boosted / bt->samples : 0.0, 4,
					   0),
			       bt->episodes, a);
		}
	} else if (zi->has & FT_ZI_BOOST) {
		ft_fmt_count(e, sizeof(e), (double)zi->boost, 5);
		ft_put(y, 68, zi->boost ? ft_attr(FT_C_BOOST) | A_BOLD : ft_attr(FT_C_DIM),
		       "boost %s", e);
	} else {
		ft_put(y, 68, ft_attr(FT_C_DIM), "boost n/a");
	}
}

/* Line 3: free blocks per order, shaded by their share of free pages. */
static void zone_free(struct ft_ui *ui, int y, const struct ft_zone *z)
{
	const struct ft_sample *s = &ui->s->sample;
	double total = 0;
	char a[32];
	int o;

	ft_put(y, 2, ft_attr(FT_C_DIM), "free");
	if (!z->bi) {
		ft_put(y, 11, ft_attr(FT_C_DIM), "n/a (no buddyinfo line)");
		return;
	}
	for (o = 0; o < s->nr_orders; o++)
		total += (double)z->bi->blocks[o] * (double)(1ull << o);
	for (o = 0; o < s->nr_orders && 11 + o * 6 + 6 <= COLS; o++) {
		double share = total > 0 ? (double)z->bi->blocks[o] * (double)(1ull << o) /
			total : 0;

		ft_fmt_count(a, sizeof(a), (double)z->bi->blocks[o], 5);
		ft_put(y, 11 + o * 6, ft_attr(heat(share)), "%6s", a);
	}
}

/* Line 4: pageblocks by migratetype, then the zone's fallback rate. */
static void zone_blocks(struct ft_ui *ui, int y, const struct ft_zone *z)
{
	const struct ft_sample *s = &ui->s->sample;
	char a[32], b[32];
	int t, x = 11;

	ft_put(y, 2, ft_attr(FT_C_DIM), "blocks");
	if (z->pti) {
		size_t need = ui->s->tracing ? 24 : 0;
		bool abbrev;

		for (t = 0; t < s->pti.nr_types; t++) {
			ft_fmt_count(a, sizeof(a), (double)z->pti->blocks[t], 5);
			need += strlen(s->pti.types[t]) + strlen(a) + 3;
		}
		abbrev = 11 + need > (size_t)COLS;
		for (t = 0; t < s->pti.nr_types; t++) {
			ft_fmt_count(a, sizeof(a), (double)z->pti->blocks[t], 5);
			ft_put(y, x, ft_attr(FT_C_DIM), "%.*s", abbrev ? 3 : 16, s->pti.types[t]);
			x += abbrev ? 4 : (int)strlen(s->pti.types[t]) + 1;
			ft_put(y, x, A_NORMAL, "%s", a);
			x += (int)strlen(a) + 2;
			if (z->pti->has_mixed && z->pti->mixed[t]) {
				ft_put(y, x - 1, ft_attr(FT_C_WARN), "(%llu mixed)",
				       (unsigned long long)z->pti->mixed[t]);
				x += 10;
			}
		}
	} else {
		ft_put(y, 11, ft_attr(FT_C_DIM), "%s",
		       s->err[FT_SRC_PAGETYPEINFO] == -EACCES ?
		       "n/a: /proc/pagetypeinfo needs root" : "n/a: no pagetypeinfo");
		x = 47;
	}
	if (ui->s->tracing) {
		double fb, frag;

		ft_session_zone_extfrag_rate(ui->s, z->zi->node, z->zi->name, &fb, &frag);
		ft_fmt_rate(a, sizeof(a), fb, 5);
		ft_fmt_rate(b, sizeof(b), frag, 5);
		if (x < COLS - 24)
			x = COLS - 24;
		ft_put(y, x, ft_attr(FT_C_DIM), "fb/s");
		ft_put(y, x + 5, fb > 0 ? ft_attr(FT_C_WARN) : A_NORMAL, "%5s", a);
		ft_put(y, x + 11, ft_attr(FT_C_DIM), "frag");
		ft_put(y, x + 16, frag > 0 ? ft_attr(FT_C_BAD) : A_NORMAL, "%5s", b);
	}
}

/* A zone's block of up to four lines, as many as @lines allows. */
static void draw_zone(struct ft_ui *ui, int y, int lines, const struct ft_zone *z)
{
	zone_head(ui, y, z);
	if (lines >= 2)
		zone_wmark(ui, y + 1, z);
	if (lines >= 3)
		zone_free(ui, y + 2, z);
	if (lines >= 4)
		zone_blocks(ui, y + 3, z);
}

/*
 * Many zones (a host with many nodes): one line per zone instead of a
 * block, a per-node summary line above each node's zones (in node order),
 * two columns on wide terminals, sortable by the worst (o).
 */
#define LIST_W		79
#define LIST_ZONES	8	/* more zones than this that do not fit: the list */
/* its lines at most: zones and node lines */
#define LIST_ITEMS	(2 * FT_BOOST_ZONES * 4)

struct list_item {
	int zone;		/* index in the sample's zones; -1: a node summary */
	int node;
	double key;
};

static double zone_frag_rate(const struct ft_ui *ui, const struct ft_zi_zone *zi)
{
	double fb, frag;

	ft_session_zone_extfrag_rate(ui->s, zi->node, zi->name, &fb, &frag);
	return frag;
}

static double zone_unusable(const struct ft_sample *s, const struct ft_zone *z)
{
	int pbo = s->pageblock_order;

	return z->bi && pbo >= 0 && pbo < s->nr_orders ? z->unusable[pbo] / 1000.0 : NAN;
}

static uint64_t zone_mixed(const struct ft_zone *z)
{
	uint64_t m = 0;
	int t;

	if (z->pti && z->pti->has_mixed)
		for (t = 0; t < FT_MAX_MTYPES; t++)
			m += z->pti->mixed[t];
	return m;
}

static int cmp_items(const void *a, const void *b)
{
	const struct list_item *x = a, *y = b;
	double kx = isnan(x->key) ? -1 : x->key, ky = isnan(y->key) ? -1 : y->key;

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return x->zone - y->zone;
}

/* The lines of the list, in order: returns how many. */
static int list_items(struct ft_ui *ui, struct list_item *it, int max)
{
	struct overview_state *st = S(ui);
	const struct ft_sample *s = &ui->s->sample;
	int n = 0, last_node = -1;
	size_t i;

	for (i = 0; i < s->nr_zones && n < max - 1; i++) {
		const struct ft_zone *z = &s->zones[i];

		if (!ft_zi_populated(z->zi))
			continue;
		if (st->list_order == BY_NODE && z->zi->node != last_node) {
			it[n++] = (struct list_item){ .zone = -1, .node = z->zi->node };
			last_node = z->zi->node;
		}
		it[n++] = (struct list_item){
			.zone = (int)i, .node = z->zi->node,
			.key = st->list_order == BY_FALLBACKS ? zone_frag_rate(ui, z->zi) :
			       st->list_order == BY_UNUSABLE ? zone_unusable(s, z) : 0,
		};
	}
	if (st->list_order != BY_NODE)
		qsort(it, (size_t)n, sizeof(*it), cmp_items);
	return n;
}

static void draw_node_line(struct ft_ui *ui, int y, int x, int node)
{
	const struct ft_sample *s = &ui->s->sample;
	uint64_t free = 0, mixed = 0;
	double worst = NAN, fb = 0;
	char a[16], b[16], w[16];
	size_t i;
	int zones = 0;

	for (i = 0; i < s->nr_zones; i++) {
		const struct ft_zone *z = &s->zones[i];
		double u, r;

		if (!ft_zi_populated(z->zi) || z->zi->node != node)
			continue;
		zones++;
		free += z->zi->free;
		mixed += zone_mixed(z);
		u = zone_unusable(s, z);
		if (!isnan(u) && (isnan(worst) || u > worst))
			worst = u;
		r = zone_frag_rate(ui, z->zi);
		if (!isnan(r))
			fb += r;
	}
	ft_fmt_pages(a, sizeof(a), free, ui->s->host.page_size);
	ft_fmt_rate(b, sizeof(b), ui->s->tracing ? fb : NAN, 6);
	ft_put(y, x, A_BOLD, "node %-3d", node);
	ft_put(y, x + 9, ft_attr(FT_C_DIM),
	       "%d zones  free %s  worst unusable %s  frag/s %s  mixed %llu",
	       zones, a, isnan(worst) ? "-" : (snprintf(w, sizeof(w), "%.3f", worst), w), b,
	       (unsigned long long)mixed);
}

/*
 * A zone's line 1: identity, free, managed (or the share in whole pageblocks), allocation rate,
 * unusable index.
 */
static void draw_zone_line(struct ft_ui *ui, int y, int x, const struct ft_zone *z)
{
	const struct ft_sample *s = &ui->s->sample;
	const struct ft_zi_zone *zi = z->zi;
	const struct ft_boost_tick *bt = ft_session_boost(ui->s, (size_t)(z - s->zones));
	double u = zone_unusable(s, z), fb, frag, share[FT_MAX_ORDERS], total = 0, top = 0;
	char f[16], b[16], r1[16], r2[16];
	int o;

	ft_session_zone_extfrag_rate(ui->s, zi->node, zi->name, &fb, &frag);
	ft_fmt_pages(f, sizeof(f), zi->free, ui->s->host.page_size);
	ft_fmt_count(b, sizeof(b), (double)(bt ? bt->peak : zi->has & FT_ZI_BOOST ? zi->boost : 0),
		     6);
	ft_fmt_rate(r1, sizeof(r1), fb, 6);
	ft_fmt_rate(r2, sizeof(r2), frag, 6);
	ft_put(y, x, A_NORMAL, "N%-3d %-8.8s %7s", zi->node, zi->name, f);
	if (isnan(u))
		ft_put(y, x + 22, ft_attr(FT_C_DIM), "%6s", "-");
	else
		ft_put(y, x + 22,
		       u > 0.5 ? ft_attr(FT_C_BAD) : u > 0.2 ? ft_attr(FT_C_WARN) : A_NORMAL,
		       "%6s", ft_cell((char[16]){ 0 }, 16, u, 6, 3));
	ft_put(y, x + 29, bt && bt->peak ? ft_attr(FT_C_BOOST) | A_BOLD : A_NORMAL, "%6s", b);
	ft_put(y, x + 36, fb > 0 ? ft_attr(FT_C_WARN) : A_NORMAL, "%6s", r1);
	ft_put(y, x + 43, frag > 0 ? ft_attr(FT_C_BAD) : A_NORMAL, "%6s", r2);
	ft_put(y, x + 50, zone_mixed(z) ? ft_attr(FT_C_WARN) : A_NORMAL, "%5llu",
	       (unsigned long long)zone_mixed(z));
	/* free pages by order: a mini histogram of their shares */
	if (z->bi) {
		for (o = 0; o < s->nr_orders; o++)
			total += (double)z->bi->blocks[o] * (double)(1ull << o);
		for (o = 0; o < s->nr_orders; o++) {
			share[o] = total > 0 ? (double)z->bi->blocks[o] * (double)(1ull << o) /
				total : 0;
			top = fmax(top, share[o]);
		}
		ft_spark(y, x + 57, share, s->nr_orders < LIST_W - 57 ? s->nr_orders : LIST_W - 57,
			 0, top, NULL, -1);
	}
}

static void draw_list_head(int y, int x)
{
	ft_put(y, x, ft_attr(FT_C_LABEL), "%-4s %-8s %7s %6s %6s %6s %6s %5s  %s", "node", "zone",
	       "free", "unus.", "boost", "fb/s", "frag/s", "mixed", "free by order");
}

/* Returns the lines (items) that fit, and fills the scroll hint. */
static void draw_list(struct ft_ui *ui, int y, int rows)
{
	struct overview_state *st = S(ui);
	struct list_item *it = st->items ?
		st->items : (st->items = calloc(LIST_ITEMS, sizeof(*it)));
	int n = it ? list_items(ui, it, LIST_ITEMS) : 0, cols, col, per, i, shown = 0;
	int zones = 0;

	cols = COLS >= 2 * LIST_W + 2 ? 2 : 1;
	per = rows - 1;
	if (per < 1)
		return;
	if (st->first_zone > n - 1)
		st->first_zone = n > 0 ? n - 1 : 0;
	for (col = 0; col < cols; col++)
		draw_list_head(y, col * (LIST_W + 2));
	for (col = 0; col < cols; col++)
		for (i = 0; i < per && st->first_zone + shown < n; i++, shown++) {
			const struct list_item *li = &it[st->first_zone + shown];
			int x = col * (LIST_W + 2);

			if (li->zone < 0) {
				draw_node_line(ui, y + 1 + i, x, li->node);
			} else {
				draw_zone_line(ui, y + 1 + i, x, &ui->s->sample.zones[li->zone]);
				zones++;
			}
		}
	snprintf(ui->scroll_info, sizeof(ui->scroll_info),
		 "lines %d-%d of %d (%d zones) by %s, j/k o",
		 st->first_zone + 1, st->first_zone + shown, n, zones, order_names[st->list_order]);
}

static void overview_draw(struct ft_ui *ui, int top, int height)
{
	struct overview_state *st = S(ui);
	const struct ft_sample *s = &ui->s->sample;
	int y = top, shown = 0, skipped = 0, total = nr_populated(s), hist = 0, block,
	rl = rate_lines(ui);
	size_t i;

	if (height < rl + 1) {
		ft_put(top, 0, A_BOLD, "terminal too small");
		return;
	}
	draw_rates(ui, y);
	y += rl;
	ui->scroll_info[0] = '\0';
	/*
	 * Many zones (more than LIST_ZONES) that do not fit as blocks: a line
	 * each.  A few-zone host keeps its blocks and scrolls.
	 */
	if (total > LIST_ZONES && rl + total * ZONE_LINES > height) {
		st->list_mode = true;
		draw_list(ui, y, top + height - y);
		return;
	}
	if (st->list_mode) {	/* back to blocks (a resize): from the first zone */
		st->list_mode = false;
		st->first_zone = 0;
	}
	draw_ruler(ui, y - 1);
	if (st->first_zone > total - 1)
		st->first_zone = total > 0 ? total - 1 : 0;
	/* history under each zone when every zone from the first shown still fits */
	if (rl + (total - st->first_zone) * (ZONE_LINES + 5) <= height)
		hist = 5;
	else if (COLS >= 120 && rl + (total - st->first_zone) * (ZONE_LINES + 3) <= height)
		hist = 3;
	block = ZONE_LINES + hist;
	/* zones that do not all fit with a gap between them lose the gaps: one more zone whole */
	if (!hist && rl + (total - st->first_zone) * ZONE_LINES > height)
		block = ZONE_LINES - 1;
	for (i = 0; i < s->nr_zones; i++) {
		const struct ft_zone *z = &s->zones[i];
		int room = top + height - y;

		if (!ft_zi_populated(z->zi))
			continue;
		if (skipped < st->first_zone) {
			skipped++;
			continue;
		}
		if (room < 2)
			break;
		draw_zone(ui, y, room < ZONE_LINES - 1 ? room : ZONE_LINES - 1, z);
		if (hist)
			draw_zone_history(ui, y + ZONE_LINES - 1, hist, (int)i);
		y += block;
		shown++;
	}
	if (!s->nr_zones)
		ft_put(y, 0, ft_attr(FT_C_BAD), "no zone data: %s",
		       s->err[FT_SRC_ZONEINFO] ? strerror(-s->err[FT_SRC_ZONEINFO]) : "waiting");
	ui->scroll_info[0] = '\0';
	if (skipped || skipped + shown < total)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "zones %d-%d of %d (j/k)",
			 skipped + 1, skipped + shown, total);
}

/* One zone (or line) up or down, a page of them, or back to the first. */
static void key_scroll(struct ft_ui *ui, int ch)
{
	struct overview_state *st = S(ui);
	int total = nr_populated(&ui->s->sample);
	int page = st->list_mode ? (LINES - 8 > 1 ? LINES - 8 : 1) :
		   (LINES - 8) / ZONE_LINES > 0 ? (LINES - 8) / ZONE_LINES : 1;

	switch (ch) {
	case 'j':
	case KEY_DOWN:
		/* the list clamps when drawn */
		if (st->first_zone < total - 1 || st->list_mode)
			st->first_zone++;
		break;
	case 'k':
	case KEY_UP:
		if (st->first_zone > 0)
			st->first_zone--;
		break;
	case KEY_NPAGE:
		st->first_zone += page;
		if (!st->list_mode && st->first_zone > total - 1)
			st->first_zone = total > 0 ? total - 1 : 0;
		break;
	case KEY_PPAGE:
		st->first_zone = st->first_zone > page ? st->first_zone - page : 0;
		break;
	default:	/* g, Home */
		st->first_zone = 0;
		break;
	}
}

static void key_order(struct ft_ui *ui, int ch)
{
	struct overview_state *st = S(ui);

	(void)ui;
	(void)ch;
	st->list_order = (st->list_order + 1) % NR_ORDERS;
	st->first_zone = 0;
}

static void overview_init(void *state)
{
	struct overview_state *st = state;

	st->fits = calloc(1, sizeof(*st->fits));
	st->trend = calloc(1, sizeof(*st->trend));
	if (st->fits)
		ft_fits_init(st->fits);
}

static void overview_fini(void *state)
{
	struct overview_state *st = state;

	if (st->fits)
		ft_fits_release(st->fits);
	free(st->fits);
	free(st->trend);
	free(st->items);
}

/* Every tick while shown: the contiguity line's figures and their trend. */
static void overview_tick(struct ft_ui *ui)
{
	fits_update(ui);
}

static void overview_load(struct ft_ui *ui, const struct ft_rc *rc)
{
	snprintf(S(ui)->sizes, sizeof(S(ui)->sizes), "%s", rc->sizes);
}

static void overview_save(const struct ft_ui *ui, struct ft_rc *rc)
{
	snprintf(rc->sizes, sizeof(rc->sizes), "%s", S(ui)->sizes);
}

const char *ft_overview_sizes(const struct ft_ui *ui)
{
	return S(ui)->sizes;
}

void ft_overview_set_sizes(struct ft_ui *ui, const char *sizes)
{
	snprintf(S(ui)->sizes, sizeof(S(ui)->sizes), "%s", sizes);
	S(ui)->fits_built = false;
}

static const struct ft_key overview_keys[] = {
	{ "j k Up Down", { 'j', 'k', KEY_DOWN, KEY_UP }, "scroll zones (or lines)", NULL, 0,
	  key_scroll },
	{ "PgUp PgDn", { KEY_PPAGE, KEY_NPAGE }, "a page of zones (or lines)", NULL, 0,
	  key_scroll },
	{ "g Home", { 'g', KEY_HOME }, "back to the first zone", NULL, 0, key_scroll },
	{ "o", { 'o' }, "many zones (one line each): order by node, fragmenting/s, unusable index",
	  NULL, 0,
	  key_order },
	{ NULL },
};

static const struct ft_legend overview_legend[] = {
	{ "compaction/s",
	  "direct compaction per second (vmstat): stall = compact_stall, ok = compact_success, "
	  "fail = compact_fail; success = ok / (ok + fail)" },
	{ "stalls/s", "direct compaction stalls per second over the last minute, as a sparkline" },
	{ "THP faults/s", "anonymous THP faults per second: alloc got a huge page, fallback did "
			  "not (thp_fault_*)" },
	{ "pressure", "the host's memory pressure (/proc/pressure/memory; on kernels with PSI): "
		      "some10 and full10 "
	  "are the last 10 s's averages, the share of time some task (full: every task) stalled on "
	  "memory; "
	  "ms/s: the stalled time per second over the last tick" },
	{ "reclaim/s", "pages reclaimed by kswapd and directly, direct reclaim stalls "
		       "(allocstall), kcompactd wakes" },
	{ "order", "the columns of the free row: blocks of 2^order pages" },
	{ "N0 DMA32", "node 0, zone DMA32: one block of lines per zone" },
	{ "free",
	  "on a zone's line: its free pages and their size; on the free row: free blocks per order "
	  "(brighter: a larger share of free memory)" },
	{ "managed", "memory the buddy allocator manages in the zone" },
	{ "alloc", "pages allocated in the zone per second (pgalloc_<zone>, all nodes together)" },
	{ "unusable@9", "unusable free space index at pageblock order 9 (0: every free page is in "
			"a block of 2 MiB "
	  "or more; 1: none is)" },
	{ "amp", "pollution amplification, once the map (5) has read the zone: the share of its "
		 "pageblocks "
	  "holding an unmovable page over the share of its pages that are (1: packed; 2+ yellow, "
	  "4+ red: spread); "
	  "~ and dim: partial, the map has blocks of the zone left to read" },
	{ "in blocks",
	  "share of free pages lying in whole free pageblocks (nr_free_pages_blocks, 6.15+)" },
	{ "wmark [ ]", "a gauge: '=' free pages, m l h the min, low and high watermarks, '+' the "
		       "boost above high; "
	  "the scale is twice the boosted high" },
	{ "min low high", "the base watermarks in pages (zoneinfo; the boost taken off)" },
	{ "boost", "the watermark boost now, in pages: raised after a fragmenting fallback "
		   "(watermark_boost_factor)" },
	{ "% boosted", "share of the last tick the boost sampler found the zone boosted" },
	{ "ep", "boost episodes started in the last tick (the boost went from 0 to above 0)" },
	{ "ceil", "the largest boost the kernel allows the zone now: max(pageblock, high x factor "
		  "/ 10000)" },
	{ "blocks", "pageblocks per migratetype (pagetypeinfo, read every few seconds: it takes "
		    "zone->lock)" },
	{ "fb/s frag", "allocator fallbacks (mm_page_alloc_extfrag) in the zone per second, and "
		       "the fragmenting ones" },
	{ "contiguous", "will it fit (fragtop preflight's figures, for the host): per size of "
			"interest (setup, F2), "
	  "the aligned blocks free now above the min watermark / after compaction (\"?\" until the "
	  "map (5) has read "
	  "the zones; '+': the lower end, blocks not read whole); 2Mx512: a need, green now, "
	  "yellow after compaction, "
	  "red not at all; -120/m, in 40m: \"now\" falls 120 a minute over the last ticks (up to "
	  "120), and reaches the "
	  "need in 40 minutes at that rate (an extrapolation)" },
	{ "sparklines",
	  "the last minute of the zone's unusable index, free memory, boost peak, share boosted, "
	  "fragmenting fallbacks per second and share in blocks; '|' marks a control change" },
	{ NULL, NULL },
};

const struct ft_view ft_view_overview = {
	.state_size = sizeof(struct overview_state),
	.init = overview_init,
	.fini = overview_fini,
	.tick = overview_tick,
	.load = overview_load,
	.save = overview_save,
	.name = "overview",
	.draw = overview_draw,
	.keys = overview_keys,
	.legend = overview_legend,
};
