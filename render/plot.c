// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop plot` drawn: the series of analysis/plot.h as a self-contained
 * SVG, written by hand (fonts are "sans-serif", axes from base/scale.c).
 */
#include "render/plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "base/scale.h"
#include "render/xml.h"

#define W		960
#define LEFT		78
#define RIGHT		24
#define PANEL_H		120
#define GAP		46
#define TOP		64
/* a character of a label (class m: 10px sans-serif) is at most this wide */
#define LABEL_PX	6.2


static const struct {
	const char *title, *unit;
	bool max;		/* downsampled by the max, else the mean */
} panels[FT_PLOT_NR] = {
	[FT_PLOT_FRAG] = { "fragmenting fallbacks", "/s", false },
	[FT_PLOT_PEAK] = { "watermark boost, peak in the tick", "pages", true },
	[FT_PLOT_BOOSTED] = { "share of the tick boosted", "%", false },
	[FT_PLOT_UNUSABLE] = { "unusable free space index at pageblock order", "", false },
	[FT_PLOT_FREE] = { "free pages", "pages", false },
	[FT_PLOT_IN_BLOCKS] = { "free memory in whole free pageblocks, 6.15+", "%", false },
	[FT_PLOT_THP_OK] = { "anonymous THP faults served, by size", "%", false },
};
static const char *const colors[FT_PLOT_ZONES] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
};
static const char *const thp_colors[FT_PLOT_THP_SLOTS] = {
	"#7f7f7f", "#17becf", "#1f77b4", "#2ca02c", "#bcbd22", "#ff7f0e", "#e377c2", "#9467bd",
	"#d62728",
};
static const char *const dashes[FT_PLOT_FILES] = { "", "7 4", "2 3", "9 3 2 3", "4 4", "1 2" };
/* Column @c of @cols over the time range: the ticks in it, [*i0, *i1). */
static void column(const struct ft_plot_run *r, const struct ft_scale *x, int c, int cols,
		   size_t *i0, size_t *i1)
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
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"t\">%s</text>\n",
			LEFT - 6, y + 4, b);
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
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
				   "class=\"t\">%g</text>\n",
				px, y0 + PANEL_H + 16, t[i]);
	}
}

/* The lines of panel @s in @r: its zones, or the THP size slots. */
static int lines(const struct ft_plot_run *r, enum ft_plot_series s)
{
	return s == FT_PLOT_THP_OK ? FT_PLOT_THP_SLOTS : r->nz;
}

/* The THP panel's sizes by colour, right of its title: those with faults in any file. */
static void thp_legend(FILE *f, const struct ft_plot_run *runs, int nr, int y)
{
	int slot, k, x = LEFT + 380;

	for (slot = 0; slot < FT_PLOT_THP_SLOTS; slot++) {
		bool any = false;

		for (k = 0; k < nr; k++)
			any |= runs[k].thp_faults[slot] > 0;
		if (!any)
			continue;
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
			   "stroke-width=\"2\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"t\">%ukB</text>\n", x, y, x + 18, y,
			thp_colors[slot],
			x + 22, y + 4, 8u << slot);
		x += 80;
	}
}

/*
 * Panel @s's lines, a run's dashes and a zone's colour, each column the mean (or max) of its ticks.
 */
static void lines_of(FILE *f, struct ft_plot_run *runs, int nr, enum ft_plot_series s,
		     const struct ft_scale *x, const struct ft_scale *ys)
{
	int cols = W - LEFT - RIGHT, k, z, c;
	static struct dot { int x; double y; } dots[W];
	size_t ndots = 0;

	for (k = 0; k < nr; k++)
		for (z = 0; z < lines(&runs[k], s); z++) {
			size_t i0 = 0, i1;
			bool open = false;

			if (s == FT_PLOT_THP_OK && !runs[k].thp_faults[z])
				continue;
			fprintf(f,
				"<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.4\"%s%s%s d=\"",
				s == FT_PLOT_THP_OK ? thp_colors[z] : colors[z],
				dashes[k][0] ? " stroke-dasharray=\"" : "", dashes[k],
				dashes[k][0] ? "\"" : "");
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
					/* no tick in this column: the line goes on */
					continue;
				if (!panels[s].max)
					acc /= (double)cnt;
				fprintf(f, "%c%d %.1f ", open ? 'L' : 'M', LEFT + c,
					ft_scale_px(ys, acc));
				open = true;
				/* sparse points: each a dot as well */
				if (s == FT_PLOT_THP_OK)
					dots[ndots++] = (struct dot){ LEFT + c,
								      ft_scale_px(ys, acc) };
			}
			fprintf(f, "\"/>\n");
			for (i0 = 0; i0 < ndots; i0++)
				fprintf(f, "<circle cx=\"%d\" cy=\"%.1f\" r=\"2\" fill=\"%s\"/>\n",
					dots[i0].x,
					dots[i0].y, thp_colors[z]);
			ndots = 0;
		}
}

/* One line panel: every file's zones (or THP sizes), downsampled to a point a pixel column. */
static void panel(FILE *f, struct ft_plot_run *runs, int nr, enum ft_plot_series s, int y0,
		  const struct ft_scale *x)
{
	int cols = W - LEFT - RIGHT, k, z;
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
	ft_render_xml_text(f, panels[s].title);
	fprintf(f, "%s%s%s</text>\n", panels[s].unit[0] ? " (" : "", panels[s].unit,
		panels[s].unit[0] ? ")" : "");
	if (s == FT_PLOT_THP_OK)
		thp_legend(f, runs, nr, y0 - 12);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		   "stroke=\"#999\"/>\n",
		LEFT, y0, cols, PANEL_H);
	if (!any) {
		bool thp_input = false;

		for (k = 0; k < nr; k++)
			thp_input |= runs[k].thp;
		const char *what = nr > 1 ? "these recordings" : "this recording";

		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"t\">",
			LEFT + cols / 2,
			y0 + PANEL_H / 2);
		if (s != FT_PLOT_THP_OK)
			fprintf(f, "not in %s", what);
		else if (thp_input)
			fprintf(f, "no anonymous THP fault in %s", what);
		else
			fprintf(f, "no per-size THP counters in %s (kernels 6.10+; recorded since "
				   "fragtop reads them)",
				what);
		fprintf(f, "</text>\n");
		axis_x(f, y0, x, false);
		return;
	}
	if (s == FT_PLOT_IN_BLOCKS || s == FT_PLOT_THP_OK) {	/* a share: the whole 0-100% */
		lo = 0;
		hi = 100;
	} else if (s == FT_PLOT_UNUSABLE || s == FT_PLOT_BOOSTED) {
		lo = 0;
		hi = s == FT_PLOT_BOOSTED ? fmax(hi, 1) : fmax(hi, 0.1);
	} else if (s != FT_PLOT_FREE) {
		lo = 0;
	}
	axis_y(f, y0, lo, hi, &ys);
	axis_x(f, y0, x, false);
	lines_of(f, runs, nr, s, x, &ys);
}

/* The first file's stall latencies: time x log2 latency, the darker the more. */
static void heatmap(FILE *f, const struct ft_plot_run *r, int y0, const struct ft_scale *x)
{
	int cols = (W - LEFT - RIGHT) / 4, c, o;
	double cell_w = (double)(W - LEFT - RIGHT) / cols,
	cell_h = (double)PANEL_H / FT_PLOT_OCTAVES, top = 0;
	double (*bins)[FT_PLOT_OCTAVES] = calloc((size_t)cols, sizeof(*bins));
	size_t i0 = 0, i1, i;

	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">stall latency (direct compaction, direct "
		   "reclaim, "
		"fragmentation stall), log2 us; darker: more</text>\n", LEFT, y0 - 8);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		   "stroke=\"#999\"/>\n",
		LEFT, y0, W - LEFT - RIGHT, PANEL_H);
	if (!bins)
		return;
	for (c = 0; c < cols; c++, i0 = i1) {
		column(r, x, c, cols, &i0, &i1);
		for (i = i0; i < i1; i++)
			for (o = 0; o < FT_PLOT_OCTAVES; o++)
				bins[c][o] += r->heat[i][o];
		for (o = 0; o < FT_PLOT_OCTAVES; o++)
			top = fmax(top, bins[c][o]);
	}
	if (!r->tracing || top == 0)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"t\">%s</text>\n",
			LEFT + (W - LEFT - RIGHT) / 2, y0 + PANEL_H / 2,
			r->tracing ? "no stall in the window" : "no tracepoints in the recording");
	for (c = 0; c < cols && top > 0; c++)
		for (o = 0; o < FT_PLOT_OCTAVES; o++) {
			double a;

			if (!bins[c][o])
				continue;
			a = log1p(bins[c][o]) / log1p(top);
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				   "fill=\"#8b0000\" "
				"fill-opacity=\"%.2f\"/>\n", LEFT + c * cell_w,
				y0 + PANEL_H - (o + 1) * cell_h,
				cell_w, cell_h, 0.15 + 0.85 * a);
		}
	for (o = 0; o < FT_PLOT_OCTAVES; o += 5) {
		static const char *const lab[] = { "1us", "32us", "1ms", "33ms", "1s" };

		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"t\">%s</text>\n",
			LEFT - 6,
			y0 + PANEL_H - o * cell_h, lab[o / 5]);
	}
	axis_x(f, y0, x, true);
	free(bins);
}

/* A control change's label: where it is drawn, and the row it takes. */
struct label {
	double px, x0, x1;	/* its line, and the label's extent */
	size_t k, m;		/* run, mark */
	bool left;		/* ends at its line (it would run past the right edge) */
};

static int by_px(const void *a, const void *b)
{
	const struct label *x = a, *y = b;

	return x->px < y->px ? -1 : x->px > y->px;
}

#define LABEL_ROWS	8

/*
 * Control changes: a dashed line through each panel (not across the
 * titles between them), labelled inside the first panel.  Several
 * recordings: each label starts with its recording's name.  Labels are
 * laid left to right, each on the first of LABEL_ROWS rows where it
 * clears the one before (else the row freed the longest ago), so two
 * recordings' labels do not print over each other; one that would run
 * past the right edge ends at its line.
 */
static void marks(FILE *f, const struct ft_plot_run *runs, size_t nr, const struct ft_scale *x,
		  double t0,
		  double t1, int npanels)
{
	struct label *lb;
	double row_end[LABEL_ROWS];
	size_t k, m, n = 0, total = 0, i;
	int s, r;

	for (k = 0; k < nr; k++)
		total += runs[k].nr_marks;
	if (!total || !(lb = calloc(total, sizeof(*lb))))
		return;
	for (k = 0; k < nr; k++)
		for (m = 0; m < runs[k].nr_marks; m++) {
			const struct ft_plot_mark *mk = &runs[k].marks[m];
			const char *b = strrchr(runs[k].file, '/');
			char when[32];
			double w;

			if (mk->t < t0 || mk->t > t1)
				continue;
			snprintf(when, sizeof(when), "+%.1f s ", mk->t);
			w = LABEL_PX * (double)(strlen(when) + strlen(mk->text) +
						(nr > 1 ? strlen(b ? b + 1 : runs[k].file) + 2 :
						 0));
			lb[n] = (struct label){ .px = ft_scale_px(x, mk->t), .k = k, .m = m };
			lb[n].left = lb[n].px + 4 + w > W - RIGHT;
			lb[n].x0 = lb[n].left ? lb[n].px - 4 - w : lb[n].px + 4;
			lb[n].x1 = lb[n].x0 + w;
			n++;
		}
	qsort(lb, n, sizeof(*lb), by_px);
	for (r = 0; r < LABEL_ROWS; r++)
		row_end[r] = -1e9;
	for (i = 0; i < n; i++) {
		const struct ft_plot_mark *mk = &runs[lb[i].k].marks[lb[i].m];
		const char *b = strrchr(runs[lb[i].k].file, '/');
		int row = 0;

		for (r = 0; r < LABEL_ROWS && row_end[r] + 6 > lb[i].x0; r++)
			if (row_end[r] < row_end[row])
				row = r;
		if (r < LABEL_ROWS)
			row = r;
		row_end[row] = lb[i].x1;
		for (s = 0; s < npanels; s++)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				   "stroke=\"#b35900\" "
				"stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n", lb[i].px,
				TOP + s * (PANEL_H + GAP) + 10, lb[i].px,
				TOP + s * (PANEL_H + GAP) + 10 + PANEL_H);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\"%s class=\"m\">",
			lb[i].left ? lb[i].px - 4 : lb[i].px + 4,
			TOP + 10 + 12 + row * 12, lb[i].left ? " text-anchor=\"end\"" : "");
		if (nr > 1) {
			ft_render_xml_text(f, b ? b + 1 : runs[lb[i].k].file);
			fprintf(f, ": ");
		}
		fprintf(f, "+%.1f s ", mk->t);
		ft_render_xml_text(f, mk->text);
		fprintf(f, "</text>\n");
	}
	free(lb);
}

/* The runs as one SVG on @f: 0 or -errno. */
int ft_render_plot_svg(FILE *f, struct ft_plot_run *runs, int nr)
{
	int npanels = FT_PLOT_NR + 1, h = TOP + npanels * (PANEL_H + GAP) + 16, k, z, s, y;
	double t0 = INFINITY, t1 = -INFINITY;
	struct ft_scale x;

	for (k = 0; k < nr; k++) {
		t0 = fmin(t0, runs[k].t[0]);
		t1 = fmax(t1, runs[k].t[runs[k].n - 1]);
	}
	if (t1 <= t0)
		t1 = t0 + 1;
	x = (struct ft_scale){ t0, t1, LEFT, W - RIGHT };
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 "
		"0 %d %d\">\n<style>text { font-family: sans-serif; fill: #222 } .t { font-size: "
		"11px } .h { font-size: 13px; font-weight: bold } .m { font-size: 10px; fill: "
		"#b35900 }</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W,
		h, W, h);
	fprintf(f, "<text x=\"%d\" y=\"22\" class=\"h\">fragtop: ", LEFT);
	for (k = 0; k < nr; k++) {
		const char *b = strrchr(runs[k].file, '/');

		ft_render_xml_text(f, b ? b + 1 : runs[k].file);
		fprintf(f, "%s", k + 1 < nr ? ", " : "");
	}
	fprintf(f, "</text>\n");
	/* legend: zones by colour, files by dash */
	y = 42;
	for (z = 0; z < runs[0].nz; z++) {
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
			   "stroke-width=\"2\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"t\">", LEFT + z * 130, y,
			LEFT + z * 130 + 22, y, colors[z],
			LEFT + z * 130 + 26, y + 4);
		ft_render_xml_text(f, runs[0].zone[z]);
		fprintf(f, "</text>\n");
	}
	for (k = 1; k < nr; k++) {
		int lx = LEFT + (runs[0].nz + k - 1) * 130;
		const char *b = strrchr(runs[k].file, '/');

		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\" "
			   "stroke-dasharray=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"t\">", lx, y, lx + 22, y, dashes[k],
			lx + 26, y + 4);
		ft_render_xml_text(f, b ? b + 1 : runs[k].file);
		fprintf(f, "</text>\n");
	}
	for (s = 0; s < FT_PLOT_NR; s++)
		panel(f, runs, nr, (enum ft_plot_series)s, TOP + s * (PANEL_H + GAP) + 10, &x);
	heatmap(f, &runs[0], TOP + FT_PLOT_NR * (PANEL_H + GAP) + 10, &x);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"t\">seconds into the "
		   "recording</text>\n",
		LEFT + (W - LEFT - RIGHT) / 2, h - 14);
	marks(f, runs, (size_t)nr, &x, t0, t1, npanels);
	fprintf(f, "</svg>\n");
	return ferror(f) ? -EIO : 0;
}
