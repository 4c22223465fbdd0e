// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop plot FILE... -o OUT.svg`: a recording as a self-contained SVG
 * for a mail or a web page.  Panels share the time axis (seconds into the
 * recording): per zone fragmenting fallbacks/s, the boost sampler's peak
 * and share of the tick boosted, the unusable index at pageblock order,
 * free pages, and a heatmap of stall latencies (direct compaction, direct
 * reclaim and fragmentation stalls together: time x log2 latency, darker
 * for more), and the success % of anonymous THP faults per size (6.10+
 * counters: alloc / (alloc + fallback) over each tick, a line per size
 * that had faults).  Control changes are labelled vertical lines.  Several files
 * overlay, one dash pattern each (the heatmap is the first file's).  No
 * dependency: the SVG is written by hand, fonts are "sans-serif".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/sanitize.h"
#include "base/scale.h"
#include "render/xml.h"
#include "analysis/report.h"
#include "model/frag.h"
#include "model/knob.h"
#include "model/knobwatch.h"
#include "cmd/cli.h"

#define MAX_FILES	6
#define MAX_ZONES	6
#define THP_SLOTS	9	/* THP sizes 8 kB << slot: 8 kB to 2 MiB */
#define MAX_LINES	9	/* a panel's lines: zones, or THP sizes */
#define OCTAVES		22	/* latency rows: [2^k, 2^(k+1)) us, the last open */
#define W		960
#define LEFT		78
#define RIGHT		24
#define PANEL_H		120
#define GAP		46
#define TOP		64
/* a character of a label (class m: 10px sans-serif) is at most this wide */
#define LABEL_PX	6.2

/* S_THP_OK's lines are THP sizes (slots), every other panel's are zones */
enum series { S_FRAG, S_PEAK, S_BOOSTED, S_UNUSABLE, S_FREE, S_IN_BLOCKS, S_THP_OK, S_NR };

static const struct {
	const char *title, *unit;
	bool max;		/* downsampled by the max, else the mean */
} panels[S_NR] = {
	[S_FRAG] = { "fragmenting fallbacks", "/s", false },
	[S_PEAK] = { "watermark boost, peak in the tick", "pages", true },
	[S_BOOSTED] = { "share of the tick boosted", "%", false },
	[S_UNUSABLE] = { "unusable free space index at pageblock order", "", false },
	[S_FREE] = { "free pages", "pages", false },
	[S_IN_BLOCKS] = { "free memory in whole free pageblocks, 6.15+", "%", false },
	[S_THP_OK] = { "anonymous THP faults served, by size", "%", false },
};

static const char *const colors[MAX_ZONES] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
};
static const char *const thp_colors[THP_SLOTS] = {
	"#7f7f7f", "#17becf", "#1f77b4", "#2ca02c", "#bcbd22", "#ff7f0e", "#e377c2", "#9467bd", "#d62728",
};
static const char *const dashes[MAX_FILES] = { "", "7 4", "2 3", "9 3 2 3", "4 4", "1 2" };

struct mark {
	double t;
	char text[200];
};

struct run {
	const char *file;
	size_t n, cap;			/* ticks */
	double *t;			/* seconds into the recording */
	double *v[S_NR][MAX_LINES];
	double thp_faults[THP_SLOTS];	/* faults seen per size: a line only where some were */
	uint64_t thp_t_ns;		/* the THP input used last */
	double (*heat)[OCTAVES];	/* stalls per tick and octave */
	int nz;
	char zone[MAX_ZONES][40];
	int zi[MAX_ZONES];		/* zoneinfo index */
	struct mark *marks;
	size_t nr_marks;
	bool boost, tracing, thp;	/* thp: the recording has per-size THP input */
};

static int grow(struct run *r)
{
	size_t cap = r->cap ? r->cap * 2 : 1024;
	int s, z;
	void *p;

	if (!(p = realloc(r->t, cap * sizeof(*r->t))))
		return -ENOMEM;
	r->t = p;
	for (s = 0; s < S_NR; s++)
		for (z = 0; z < MAX_LINES; z++) {
			if (!(p = realloc(r->v[s][z], cap * sizeof(double))))
				return -ENOMEM;
			r->v[s][z] = p;
		}
	if (!(p = realloc(r->heat, cap * sizeof(*r->heat))))
		return -ENOMEM;
	r->heat = p;
	r->cap = cap;
	return 0;
}

/* The zones to draw: the populated ones, largest first, at most MAX_ZONES. */
static void pick_zones(struct run *r, const struct ft_session *s)
{
	const struct ft_sample *sm = &s->sample;
	size_t i;
	int k;

	for (i = 0; i < sm->nr_zones && i < FT_BOOST_ZONES; i++) {
		const struct ft_zi_zone *zi = sm->zones[i].zi;

		if (!ft_zi_populated(zi))
			continue;
		for (k = r->nz; k > 0 && sm->zones[r->zi[k - 1]].zi->managed < zi->managed; k--)
			if (k < MAX_ZONES) {
				r->zi[k] = r->zi[k - 1];
				memcpy(r->zone[k], r->zone[k - 1], sizeof(r->zone[k]));
			}
		if (k >= MAX_ZONES)
			continue;
		r->zi[k] = (int)i;
		snprintf(r->zone[k], sizeof(r->zone[k]), "N%d %s", zi->node, zi->name);
		if (r->nz < MAX_ZONES)
			r->nz++;
	}
}

/* The knob changes of a tick as marks: every recorded one, and those made outside fragtop. */
struct mark_ctx {
	struct run *r;
	uint64_t start;		/* the first tick */
	double from;		/* the window's start, s */
	double t, prev_t;	/* this tick and the one before, s */
	bool before;		/* this tick is before the window */
	int err;
};

static void on_change(void *ctx, const struct ft_knob_change *c)
{
	struct mark_ctx *x = ctx;
	const struct ft_session_audit *a = c->audit;
	struct mark *m;

	if (a ? (double)(a->t_ns - x->start) / 1e9 < x->from : x->before)
		return;
	if (!(m = realloc(x->r->marks, (x->r->nr_marks + 1) * sizeof(*m)))) {
		x->err = -ENOMEM;
		return;
	}
	x->r->marks = m;
	m += x->r->nr_marks++;
	/* ours at the audit's time; one from outside between the last tick and this one, as report says */
	m->t = a ? (double)((int64_t)a->t_ns - (int64_t)x->start) / 1e9 : x->prev_t;
	snprintf(m->text, sizeof(m->text), "%.60s %.60s -> %.60s%s", a ? a->knob : c->knob->name,
		 c->old, c->new, a ? "" : " (outside fragtop)");
}

/* A THP size's slot (8 kB << slot), or -1 past 2 MiB or not a power of two. */
static int thp_slot(uint32_t kb)
{
	int slot;

	for (slot = 0; slot < THP_SLOTS; slot++)
		if (kb == 8u << slot)
			return slot;
	return -1;
}

/* Tick @n's success % per size: over the THP input that came with it, NAN otherwise. */
static void thp_point(struct run *r, const struct ft_session *ss, size_t n)
{
	bool fresh = ss->thp_ticks >= 2 && ss->thp_t_ns != r->thp_t_ns;
	int i, slot;

	for (slot = 0; slot < THP_SLOTS; slot++)
		r->v[S_THP_OK][slot][n] = NAN;
	r->thp_t_ns = ss->thp_t_ns;
	for (i = 0; fresh && i < ss->thp.nr; i++) {
		uint32_t kb = ss->thp.s[i].kb;
		uint64_t a, f;

		slot = thp_slot(kb);
		if (slot < 0 || !ft_thp_growth(&ss->thp_prev, &ss->thp, kb, "anon_fault_alloc", &a) ||
		    !ft_thp_growth(&ss->thp_prev, &ss->thp, kb, "anon_fault_fallback", &f) || !(a + f))
			continue;
		r->v[S_THP_OK][slot][n] = 100.0 * (double)a / (double)(a + f);
		r->thp_faults[slot] += (double)(a + f);
	}
}

/* Open @path to be read once, front to back (no checkpoints); says why not. */
static int open_once(struct ft_replay *rp, const char *path)
{
	int err = ft_replay_open(rp, path, NULL);

	if (err) {
		fprintf(stderr, "fragtop: %s: %s\n", path, rp->r.why[0] ? rp->r.why : strerror(-err));
		ft_replay_close(rp);
		return err;
	}
	rp->forward_only = true;
	return 0;
}

/* Point @n of the heat map: the tick's stall latencies by octave. */
static void heat_point(struct run *r, const struct ft_session *ss, size_t n)
{
	struct ft_hist lh;
	size_t i;
	int s;

	memset(r->heat[n], 0, sizeof(r->heat[0]));
	if (!ss->tracing || !ss->lat_ring_n || ss->lat_ring[(ss->lat_ring_n - 1) % FT_LAT_RING].to_ns != ss->tick_t_ns)
		return;
	for (s = 0; s < FT_LAT_NR; s++) {
		if (s == FT_LAT_BG_COMPACTION || !ft_session_lat_last(ss, (enum ft_lat_source)s, &lh))
			continue;
		for (i = 0; i < FT_HIST_BUCKETS; i++) {
			uint64_t lo = ft_hist_bucket_lo((unsigned int)i);
			int o = lo ? 63 - __builtin_clzll(lo) : 0;

			r->heat[n][o < OCTAVES ? o : OCTAVES - 1] += (double)lh.bucket[i];
		}
	}
}

static int load(struct run *r, const char *path, const struct ft_rep_window *w)
{
	static struct ft_replay rp;
	uint64_t start = 0;
	double from = 0, to = INFINITY, prev_t = 0;
	struct ft_knob_watch watch;
	struct mark_ctx mc = { .r = r };
	struct ft_rep_cut cut = { 0 };
	char why[160];
	int err, z, s, where;

	memset(r, 0, sizeof(*r));
	memset(&watch, 0, sizeof(watch));
	r->file = path;
	err = open_once(&rp, path);
	if (err)
		return err;
	while ((err = ft_replay_step(&rp)) > 0) {
		const struct ft_session *ss = &rp.session;
		double t;

		if (!start) {
			start = ss->tick_t_ns;
			if (w && ((w->from && ft_rep_window_secs(w->from, ss->first_rt_ns, &from, why, sizeof(why))) ||
				  (w->to && ft_rep_window_secs(w->to, ss->first_rt_ns, &to, why, sizeof(why))))) {
				fprintf(stderr, "fragtop: %s: %s\n", path, why);
				err = -EINVAL;
				break;
			}
			pick_zones(r, ss);
			ft_rep_cut_init(&cut, from, to);
		}
		t = (double)(ss->tick_t_ns - start) / 1e9;
		mc.before = (where = ft_rep_cut_where(&cut, t)) < 0;
		mc.start = start;
		mc.from = from;
		mc.t = t;
		mc.prev_t = prev_t;
		ft_knob_watch_step(&watch, ss, on_change, &mc);
		if (mc.err) {
			err = mc.err;
			break;
		}
		prev_t = t;
		if (where < 0)
			continue;
		if (where > 0)
			break;
		if (r->n == r->cap && (err = grow(r)))
			break;
		r->t[r->n] = t;
		r->boost |= ss->boost_nr > 0;
		r->tracing |= ss->tracing;
		r->thp |= ss->thp_ticks > 0;
		for (z = 0; z < r->nz; z++) {
			double v[S_NR];

			for (s = 0; s < S_THP_OK; s++) {
				static const enum ft_zh_metric m[S_THP_OK] = {
					FT_ZH_FRAG_RATE, FT_ZH_BOOST_PEAK, FT_ZH_BOOSTED, FT_ZH_UNUSABLE, FT_ZH_FREE,
					FT_ZH_IN_BLOCKS,
				};

				ft_session_history(ss, r->zi[z], m[s], 0, 1, &v[s], NULL, NULL);
			}
			v[S_BOOSTED] *= 100;
			v[S_IN_BLOCKS] *= 100;
			for (s = 0; s < S_THP_OK; s++)
				r->v[s][z][r->n] = v[s];
		}
		thp_point(r, ss, r->n);
		heat_point(r, ss, r->n);
		r->n++;
	}
	ft_replay_close(&rp);
	if (err < 0) {
		if (err != -EINVAL)
			fprintf(stderr, "fragtop: %s: %s\n", path, strerror(-err));
		return err;
	}
	if (!r->n) {
		fprintf(stderr, "fragtop: %s: no sample%s\n", path, w && (w->from || w->to) ? " in the window" : "");
		return -ENODATA;
	}
	return 0;
}

static void release(struct run *r)
{
	int s, z;

	free(r->t);
	for (s = 0; s < S_NR; s++)
		for (z = 0; z < MAX_LINES; z++)
			free(r->v[s][z]);
	free(r->heat);
	free(r->marks);
}

/* Column @c of @cols over the time range: the ticks in it, [*i0, *i1). */
static void column(const struct run *r, const struct ft_scale *x, int c, int cols, size_t *i0, size_t *i1)
{
	double a = x->d0 + (x->d1 - x->d0) * c / cols, b = x->d0 + (x->d1 - x->d0) * (c + 1) / cols;

	while (*i0 < r->n && r->t[*i0] < a)
		(*i0)++;
	*i1 = *i0;
	while (*i1 < r->n && (r->t[*i1] < b || (c == cols - 1 && r->t[*i1] <= b)))
		(*i1)++;
}

static void fmt_tick(char *b, size_t sz, double v)
{
	if (fabs(v) >= 1e6)
		snprintf(b, sz, "%.3gM", v / 1e6);
	else if (fabs(v) >= 1e4)
		snprintf(b, sz, "%.3gk", v / 1e3);
	else
		snprintf(b, sz, "%g", v);
}

static void axis_y(FILE *f, int y0, double lo, double hi, struct ft_scale *ys)
{
	double t[8], step;
	size_t n = ft_nice_ticks(lo, hi, 5, t, 8, &step), i;

	*ys = (struct ft_scale){ n ? t[0] : lo, n ? t[n - 1] : hi, y0 + PANEL_H, y0 };
	for (i = 0; i < n; i++) {
		double y = ft_scale_px(ys, t[i]);
		char b[32];

		fmt_tick(b, sizeof(b), t[i]);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			LEFT, y, W - RIGHT, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"t\">%s</text>\n", LEFT - 6, y + 4, b);
	}
}

static void axis_x(FILE *f, int y0, const struct ft_scale *x, bool labels)
{
	double t[16], step;
	size_t n = ft_nice_ticks(x->d0, x->d1, 10, t, 16, &step), i;

	for (i = 0; i < n; i++) {
		double px = ft_scale_px(x, t[i]);

		if (t[i] < x->d0 - 1e-9 || t[i] > x->d1 + 1e-9)
			continue;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\"/>\n",
			px, y0 + PANEL_H, px, y0 + PANEL_H + 4);
		if (labels)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"t\">%g</text>\n",
				px, y0 + PANEL_H + 16, t[i]);
	}
}

/* The lines of panel @s in @r: its zones, or the THP size slots. */
static int lines(const struct run *r, enum series s)
{
	return s == S_THP_OK ? THP_SLOTS : r->nz;
}

/* The THP panel's sizes by colour, right of its title: those with faults in any file. */
static void thp_legend(FILE *f, const struct run *runs, int nr, int y)
{
	int slot, k, x = LEFT + 380;

	for (slot = 0; slot < THP_SLOTS; slot++) {
		bool any = false;

		for (k = 0; k < nr; k++)
			any |= runs[k].thp_faults[slot] > 0;
		if (!any)
			continue;
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"t\">%ukB</text>\n", x, y, x + 18, y, thp_colors[slot],
			x + 22, y + 4, 8u << slot);
		x += 80;
	}
}

/* One line panel: every file's zones (or THP sizes), downsampled to a point a pixel column. */
static void panel(FILE *f, struct run *runs, int nr, enum series s, int y0, const struct ft_scale *x)
{
	int cols = W - LEFT - RIGHT, k, z, c;
	double lo = INFINITY, hi = -INFINITY;
	struct ft_scale ys;
	bool any = false;

	for (k = 0; k < nr; k++)
		for (z = 0; z < lines(&runs[k], s); z++)
			for (size_t i = 0; i < runs[k].n; i++) {
				double v = runs[k].v[s][z][i];

				if (isnan(v))
					continue;
				lo = fmin(lo, v);
				hi = fmax(hi, v);
				any = true;
			}
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">", LEFT, y0 - 8);
	ft_xml_text(f, panels[s].title);
	fprintf(f, "%s%s%s</text>\n", panels[s].unit[0] ? " (" : "", panels[s].unit, panels[s].unit[0] ? ")" : "");
	if (s == S_THP_OK)
		thp_legend(f, runs, nr, y0 - 12);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n",
		LEFT, y0, cols, PANEL_H);
	if (!any) {
		bool thp_input = false;

		for (k = 0; k < nr; k++)
			thp_input |= runs[k].thp;
		const char *what = nr > 1 ? "these recordings" : "this recording";

		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"t\">", LEFT + cols / 2,
			y0 + PANEL_H / 2);
		if (s != S_THP_OK)
			fprintf(f, "not in %s", what);
		else if (thp_input)
			fprintf(f, "no anonymous THP fault in %s", what);
		else
			fprintf(f, "no per-size THP counters in %s (kernels 6.10+; recorded since fragtop reads them)",
				what);
		fprintf(f, "</text>\n");
		axis_x(f, y0, x, false);
		return;
	}
	if (s == S_IN_BLOCKS || s == S_THP_OK) {	/* a share: the whole 0-100% */
		lo = 0;
		hi = 100;
	} else if (s == S_UNUSABLE || s == S_BOOSTED) {
		lo = 0;
		hi = s == S_BOOSTED ? fmax(hi, 1) : fmax(hi, 0.1);
	} else if (s != S_FREE) {
		lo = 0;
	}
	axis_y(f, y0, lo, hi, &ys);
	axis_x(f, y0, x, false);
	static struct dot { int x; double y; } dots[W];
	size_t ndots = 0;

	for (k = 0; k < nr; k++)
		for (z = 0; z < lines(&runs[k], s); z++) {
			size_t i0 = 0, i1;
			bool open = false;

			if (s == S_THP_OK && !runs[k].thp_faults[z])
				continue;
			fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.4\"%s%s%s d=\"",
				s == S_THP_OK ? thp_colors[z] : colors[z],
				dashes[k][0] ? " stroke-dasharray=\"" : "", dashes[k], dashes[k][0] ? "\"" : "");
			for (c = 0; c < cols; c++, i0 = i1) {
				double acc = panels[s].max ? -INFINITY : 0;
				size_t cnt = 0, i;

				column(&runs[k], x, c, cols, &i0, &i1);
				for (i = i0; i < i1; i++) {
					double v = runs[k].v[s][z][i];

					if (isnan(v))
						continue;
					acc = panels[s].max ? fmax(acc, v) : acc + v;
					cnt++;
				}
				if (!cnt)
					continue;	/* no tick in this column: the line goes on */
				if (!panels[s].max)
					acc /= (double)cnt;
				fprintf(f, "%c%d %.1f ", open ? 'L' : 'M', LEFT + c, ft_scale_px(&ys, acc));
				open = true;
				if (s == S_THP_OK)	/* sparse points: each a dot as well */
					dots[ndots++] = (struct dot){ LEFT + c, ft_scale_px(&ys, acc) };
			}
			fprintf(f, "\"/>\n");
			for (i0 = 0; i0 < ndots; i0++)
				fprintf(f, "<circle cx=\"%d\" cy=\"%.1f\" r=\"2\" fill=\"%s\"/>\n", dots[i0].x,
					dots[i0].y, thp_colors[z]);
			ndots = 0;
		}
}

/* The first file's stall latencies: time x log2 latency, the darker the more. */
static void heatmap(FILE *f, const struct run *r, int y0, const struct ft_scale *x)
{
	int cols = (W - LEFT - RIGHT) / 4, c, o;
	double cell_w = (double)(W - LEFT - RIGHT) / cols, cell_h = (double)PANEL_H / OCTAVES, top = 0;
	double (*bins)[OCTAVES] = calloc((size_t)cols, sizeof(*bins));
	size_t i0 = 0, i1, i;

	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">stall latency (direct compaction, direct reclaim, "
		"fragmentation stall), log2 us; darker: more</text>\n", LEFT, y0 - 8);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n",
		LEFT, y0, W - LEFT - RIGHT, PANEL_H);
	if (!bins)
		return;
	for (c = 0; c < cols; c++, i0 = i1) {
		column(r, x, c, cols, &i0, &i1);
		for (i = i0; i < i1; i++)
			for (o = 0; o < OCTAVES; o++)
				bins[c][o] += r->heat[i][o];
		for (o = 0; o < OCTAVES; o++)
			top = fmax(top, bins[c][o]);
	}
	if (!r->tracing || top == 0)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"t\">%s</text>\n",
			LEFT + (W - LEFT - RIGHT) / 2, y0 + PANEL_H / 2,
			r->tracing ? "no stall in the window" : "no tracepoints in the recording");
	for (c = 0; c < cols && top > 0; c++)
		for (o = 0; o < OCTAVES; o++) {
			double a;

			if (!bins[c][o])
				continue;
			a = log1p(bins[c][o]) / log1p(top);
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#8b0000\" "
				"fill-opacity=\"%.2f\"/>\n", LEFT + c * cell_w, y0 + PANEL_H - (o + 1) * cell_h,
				cell_w, cell_h, 0.15 + 0.85 * a);
		}
	for (o = 0; o < OCTAVES; o += 5) {
		static const char *const lab[] = { "1us", "32us", "1ms", "33ms", "1s" };

		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"t\">%s</text>\n", LEFT - 6,
			y0 + PANEL_H - o * cell_h, lab[o / 5]);
	}
	axis_x(f, y0, x, true);
	free(bins);
}

static int write_svg(FILE *f, struct run *runs, int nr)
{
	int npanels = S_NR + 1, h = TOP + npanels * (PANEL_H + GAP) + 16, k, z, s, y;
	double t0 = INFINITY, t1 = -INFINITY;
	struct ft_scale x;
	size_t m;

	for (k = 0; k < nr; k++) {
		t0 = fmin(t0, runs[k].t[0]);
		t1 = fmax(t1, runs[k].t[runs[k].n - 1]);
	}
	if (t1 <= t0)
		t1 = t0 + 1;
	x = (struct ft_scale){ t0, t1, LEFT, W - RIGHT };
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		"<style>text { font-family: sans-serif; fill: #222 } .t { font-size: 11px } "
		".h { font-size: 13px; font-weight: bold } .m { font-size: 10px; fill: #b35900 }</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, h, W, h);
	fprintf(f, "<text x=\"%d\" y=\"22\" class=\"h\">fragtop: ", LEFT);
	for (k = 0; k < nr; k++) {
		const char *b = strrchr(runs[k].file, '/');

		ft_xml_text(f, b ? b + 1 : runs[k].file);
		fprintf(f, "%s", k + 1 < nr ? ", " : "");
	}
	fprintf(f, "</text>\n");
	/* legend: zones by colour, files by dash */
	y = 42;
	for (z = 0; z < runs[0].nz; z++) {
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"t\">", LEFT + z * 130, y, LEFT + z * 130 + 22, y, colors[z],
			LEFT + z * 130 + 26, y + 4);
		ft_xml_text(f, runs[0].zone[z]);
		fprintf(f, "</text>\n");
	}
	for (k = 1; k < nr; k++) {
		int lx = LEFT + (runs[0].nz + k - 1) * 130;
		const char *b = strrchr(runs[k].file, '/');

		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\" stroke-dasharray=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"t\">", lx, y, lx + 22, y, dashes[k], lx + 26, y + 4);
		ft_xml_text(f, b ? b + 1 : runs[k].file);
		fprintf(f, "</text>\n");
	}
	for (s = 0; s < S_NR; s++)
		panel(f, runs, nr, (enum series)s, TOP + s * (PANEL_H + GAP) + 10, &x);
	heatmap(f, &runs[0], TOP + S_NR * (PANEL_H + GAP) + 10, &x);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"t\">seconds into the recording</text>\n",
		LEFT + (W - LEFT - RIGHT) / 2, h - 14);
	/*
	 * control changes: a dashed line through each panel (not across the
	 * titles between them), labelled inside the first panel, one line
	 * down per change; a label that would run past the right edge ends
	 * at its line instead
	 */
	for (k = 0; k < nr; k++)
		for (m = 0; m < runs[k].nr_marks; m++) {
			const struct mark *mk = &runs[k].marks[m];
			double px = ft_scale_px(&x, mk->t);
			char when[32];
			bool left;

			if (mk->t < t0 || mk->t > t1)
				continue;
			for (s = 0; s < npanels; s++)
				fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#b35900\" "
					"stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n", px,
					TOP + s * (PANEL_H + GAP) + 10, px, TOP + s * (PANEL_H + GAP) + 10 + PANEL_H);
			snprintf(when, sizeof(when), "+%.1f s ", mk->t);
			left = px + 4 + LABEL_PX * (double)(strlen(when) + strlen(mk->text)) > W - RIGHT;
			fprintf(f, "<text x=\"%.1f\" y=\"%d\"%s class=\"m\">%s", left ? px - 4 : px + 4,
				TOP + 10 + 12 + (int)((m + (size_t)k) % 8) * 12, left ? " text-anchor=\"end\"" : "", when);
			ft_xml_text(f, mk->text);
			fprintf(f, "</text>\n");
		}
	fprintf(f, "</svg>\n");
	return ferror(f) ? -EIO : 0;
}

static struct {
	const char *output;
	bool force;
	struct ft_rep_window window;
} o;

static const struct ft_opt plot_opts[] = {
	{ "output", 'o', FT_OPT_STR, "FILE", "write the SVG to FILE (required; '-': stdout)", .var = &o.output },
	{ "force", 0, FT_OPT_FLAG, NULL, "overwrite FILE", .var = &o.force },
	FT_OPT_FROM(o.window.from),
	FT_OPT_TO(o.window.to),
};

static int run_plot(int argc, char **argv)
{
	static struct run runs[MAX_FILES];
	int err, first, nr, k, fd = -1;
	FILE *f;
	char why[160];

	err = ft_cli_parse(&ft_cmd_plot, argc, argv, &first);
	if (err >= 0)
		return err;
	nr = argc - first;
	if (nr < 1 || nr > MAX_FILES)
		return ft_cli_usage_error(&ft_cmd_plot, "one to %d recordings expected", MAX_FILES);
	if (!o.output)
		return ft_cli_usage_error(&ft_cmd_plot, "-o FILE is required");
	for (k = 0; k < nr; k++)
		if (load(&runs[k], argv[first + k], &o.window)) {
			while (k >= 0)
				release(&runs[k--]);
			return 1;
		}
	if (!strcmp(o.output, "-")) {
		f = stdout;
	} else {
		fd = ft_outfile_create_mode(o.output, o.force, 0666);	/* a picture: the umask decides, as for any output */
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			fprintf(stderr, "fragtop: %s: %s\n", o.output,
				ft_outfile_strerror(fd < 0 ? fd : -errno, "--force", why, sizeof(why)));
			if (fd >= 0)
				close(fd);
			for (k = 0; k < nr; k++)
				release(&runs[k]);
			return 1;
		}
	}
	err = write_svg(f, runs, nr);
	if (f != stdout && fclose(f))
		err = -errno;
	for (k = 0; k < nr; k++)
		release(&runs[k]);
	if (err) {
		fprintf(stderr, "fragtop: writing %s: %s\n", o.output, strerror(-err));
		return 1;
	}
	return 0;
}

const struct ft_cmd ft_cmd_plot = {
	.name = "plot",
	.args = "FILE...",
	.summary = "draw recordings as an SVG (for a mail or a web page)",
	.about = "Per zone over time: fragmenting fallbacks/s, the boost's peak and share\n"
		 "of the tick boosted, the unusable index at pageblock order, free pages;\n"
		 "then a heatmap of stall latencies; control changes as labelled lines.\n"
		 "Several files overlay, one dash pattern each.  Render to PNG with\n"
		 "rsvg-convert if needed.",
	FT_CMD_OPTS(plot_opts),
	.run = run_plot,
};
