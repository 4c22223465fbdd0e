// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Setup (F2), as htop's: the settings fragtoprc keeps between runs, where
 * the file is and whether it will be written on quit.  The interval, the
 * colour scheme, the overview's sizes of interest and the processes
 * view's columns (htop's Columns page) change here; the sort column, the map's zone and the
 * view to open on are kept as they are when fragtop quits, and are set
 * in their views.  Below them, what fragtop itself costs (base/cost.h):
 * files opened, reads and bytes per source over the last tick and since
 * the start, and the heap it holds; in a replay, the recording fragtop's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

enum row { R_INTERVAL, R_COLOR, R_SIZES, R_COLUMNS, R_NR };

/* The view's state (struct ft_view's state_size: the loop owns it). */
struct setup_state {
	int sel;
	int col_sel;		/* on the columns row: the column Left/Right chose */
};

/* @ui's setup state. */
static struct setup_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_setup);
}

/* The interval steps of Left and Right. */
static const double steps[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600 };
#define NR_STEPS (int)(sizeof(steps) / sizeof(steps[0]))

/* One row of the cost table: the last tick's counts, then those since the start. */
static void cost_row(int y, unsigned int attr, const char *name, const struct ft_cost_counts *tick,
		     const struct ft_cost_counts *all)
{
	char t[3][16], a[3][16];

	ft_fmt_count(t[0], sizeof(t[0]), tick ? (double)tick->opens : NAN, 6);
	ft_fmt_count(t[1], sizeof(t[1]), tick ? (double)tick->reads : NAN, 6);
	ft_fmt_count(t[2], sizeof(t[2]), tick ? (double)tick->bytes : NAN, 7);
	ft_fmt_count(a[0], sizeof(a[0]), (double)all->opens, 7);
	ft_fmt_count(a[1], sizeof(a[1]), (double)all->reads, 7);
	ft_fmt_count(a[2], sizeof(a[2]), (double)all->bytes, 7);
	ft_put(y, 0, attr, "  %-13s%6s %6s %7s   %7s %7s %7s", name, t[0], t[1], t[2], a[0], a[1],
	       a[2]);
}

/* What the source has cost: a row per source that read anything, then the sum and the heap. */
static int cost_draw(const struct ft_session *s, bool live, int y, int end)
{
	const struct ft_cost_seen *c = &s->cost;
	struct ft_cost tick;
	struct ft_cost_counts tt, ta;
	bool have = ft_costrec_tick(c, &tick);
	char heap[16];
	size_t i;

	if (y >= end)
		return y;
	ft_put(y++, 0, ft_attr(FT_C_LABEL), "%s: the last tick, and since the start",
	       live ? "What this fragtop costs" : "What the recording fragtop cost");
	if (!c->known) {
		if (y < end)
			ft_put(y++, 0, ft_attr(FT_C_DIM),
			       "  not known (a recording made before fragtop counted it)");
		return y;
	}
	if (y < end)
		ft_put(y++, 0, ft_attr(FT_C_DIM), "  %-13s%6s %6s %7s   %7s %7s %7s", "source",
		       "files", "reads",
		       "bytes", "files", "reads", "bytes");
	for (i = 0; i < FT_COST_NR && y < end - 1; i++) {
		const struct ft_cost_counts *a = &c->now.src[i];

		if (a->opens || a->reads)
			cost_row(y++, A_NORMAL, ft_cost_src_names[i], have ? &tick.src[i] : NULL,
				 a);
	}
	tt = ft_cost_total(&tick);
	ta = ft_cost_total(&c->now);
	if (y < end)
		cost_row(y++, A_BOLD, "all", have ? &tt : NULL, &ta);
	ft_fmt_count(heap, sizeof(heap), (double)c->now.heap, 5);
	if (y < end)
		ft_put(y++, 0, ft_attr(FT_C_DIM),
		       "  malloc holds %sB (the part never written is not resident); %llu ticks; "
		       "files: opened or listed", heap, (unsigned long long)c->ticks);
	return y;
}

/*
 * The processes view's columns (htop's Columns page): "[x] FRAG/s" each,
 * wrapped at the screen's width; the one Left/Right chose marked when
 * the row is selected.  Returns the row after them.
 */
static int columns_row(const struct ft_ui *ui, int y, int end)
{
	const struct setup_state *st = S(ui);
	int n = ft_columns_count(), x = 25, i;

	if (y >= end)
		return y;
	ft_put(y, 0, st->sel == R_COLUMNS ? A_REVERSE : A_NORMAL, "  %-22s", "processes columns");
	for (i = 0; i < n && y < end; i++) {
		const char *h = ft_columns_name(i);
		int w = (int)strlen(h) + 5;
		unsigned int attr = ft_columns_shown(ui, i) ? A_BOLD : ft_attr(FT_C_DIM);

		if (x + w > COLS && x > 25) {
			x = 25;
			y++;
		}
		if (st->sel == R_COLUMNS && i == st->col_sel)
			attr |= A_REVERSE;
		ft_put(y, x, attr, "[%c] %s", ft_columns_shown(ui, i) ? 'x' : ' ', h);
		x += w;
	}
	y++;
	if (y < end && st->sel == R_COLUMNS)
		ft_put(y++, 25, ft_attr(FT_C_DIM),
		       "(Left Right: a column, Enter or space: show or hide it)");
	return y;
}

static void setup_draw(struct ft_ui *ui, int top, int height)
{
	struct setup_state *st = S(ui);
	struct ft_rc now;
	int y = top;

	ft_rc_init(&now);
	ft_ui_rc_collect(ui, &now);
	ft_put(y++, 0, ft_attr(FT_C_LABEL), "Setup (F2 or Esc returns)");
	y++;
	ft_put(y, 0, st->sel == R_INTERVAL ? A_REVERSE : A_NORMAL, "  %-22s", "interval");
	if (ui->live)
		ft_put(y++, 25, A_BOLD, "%gs   (Left Right: a step, Enter: type it)", ui->interval);
	else
		ft_put(y++, 25, ft_attr(FT_C_DIM), "the recording's (> < set the replay's speed)");
	ft_put(y, 0, st->sel == R_COLOR ? A_REVERSE : A_NORMAL, "  %-22s", "colour scheme");
	ft_put(y++, 25, A_BOLD, "%s%s", ui->color_wanted ? "default" : "monochrome",
	       ui->color_wanted &&
	       !ui->color ? "   (this terminal has no colours)" : "   (Enter toggles)");
	ft_put(y, 0, st->sel == R_SIZES ? A_REVERSE : A_NORMAL, "  %-22s", "sizes of interest");
	ft_put(y++, 25, A_BOLD, "%s   (Enter: the overview's contiguous line)",
	       !ft_overview_sizes(ui)[0] ? "the host's hugetlb sizes" :
	       !strcmp(ft_overview_sizes(ui), "-") ? "none: no line" : ft_overview_sizes(ui));
	y++;
	ft_put(y++, 0, ft_attr(FT_C_DIM),
	       ui->rp ? "  as the settings file has them (a replay does not change the file):" :
	       "  kept as they are when fragtop quits:");
	ft_put(y, 2, A_NORMAL, "%-22s", "view to open on");
	ft_put(y++, 25, A_BOLD, "%s", now.view);
	ft_put(y, 2, A_NORMAL, "%-22s", "processes sorted by");
	ft_put(y++, 25, A_BOLD, "%s   (s S F6, or a click on a header, in the processes view)",
	       now.sort);
	ft_put(y, 2, A_NORMAL, "%-22s", "map zone");
	ft_put(y++, 25, A_BOLD, "%s", now.map_zone[0] ? now.map_zone : "(the largest)");
	y = columns_row(ui, y, top + height);
	y++;
	if (y < top + height)
		ft_put(y++, 0, ft_attr(FT_C_DIM), "  file  %s", ui->rc_path &&
		       ui->rc_path[0] ? ui->rc_path :
		       "none: --no-config, or no HOME");
	if (y < top + height && ui->rc_note)
		ft_put(y++, 0, ft_attr(FT_C_WARN), "  %s", ui->rc_note);
	else if (y < top + height && ui->rc)
		ft_put(y++, 0, ft_attr(FT_C_DIM), "  %s",
		       ui->rp ? "read, never written by a replay: it is the live view's" :
		       "written when fragtop quits with q or F10; not when a signal stops it");
	y++;
	cost_draw(ui->s, ui->live != NULL, y, top + height);
}

static void key_back(struct ft_ui *ui, int ch)
{
	(void)ch;
	ui->view = ui->prev_view ? ui->prev_view : ft_views[0];
}

static void key_select(struct ft_ui *ui, int ch)
{
	struct setup_state *st = S(ui);

	(void)ui;
	st->sel = (st->sel + (ch == 'k' || ch == KEY_UP ? R_NR - 1 : 1)) % R_NR;
}

static void step_interval(struct ft_ui *ui, int dir)
{
	int i;

	if (!ui->live)
		return;
	for (i = 0; i < NR_STEPS - 1 && steps[i] < ui->interval; i++)
		;
	/* i: the first step at or above the interval */
	if (dir > 0)
		i = steps[i] > ui->interval ? i : i + 1;
	else
		i = i - 1;
	if (i < 0)
		i = 0;
	if (i >= NR_STEPS)
		i = NR_STEPS - 1;
	ft_ui_set_interval(ui, steps[i]);
}

static void toggle_color(struct ft_ui *ui)
{
	ui->color_wanted = !ui->color_wanted;
	ui->color_set = true;
	ui->color = ft_draw_init_colors(ui->color_wanted);
	ft_ui_status(ui, FT_DIAG_INFO, "colour scheme: %s",
		     ui->color_wanted ? "default" : "monochrome");
}

/* The overview's sizes of interest, typed: [COUNTx]SIZE,...; empty: the host's; "-": no line. */
static void edit_sizes(struct ft_ui *ui)
{
	struct ft_fit_need n[FT_FIT_NEEDS_MAX];
	char buf[96], err[128];
	size_t nr;

	snprintf(buf, sizeof(buf), "%s", ft_overview_sizes(ui));
	if (!ft_ui_prompt_edit(ui, "sizes of interest ([COUNTx]SIZE,... e.g. 2M,1G,512x2M; empty: "
				   "the host's; -: none): ",
			       buf, sizeof(buf)))
		return;
	if (buf[0] && strcmp(buf, "-") &&
	    ft_fit_interest_parse(buf, ui->s->host.page_size, n, &nr, err, sizeof(err))) {
		ft_ui_status(ui, FT_DIAG_WARN, "sizes of interest: %s", err);
		return;
	}
	ft_overview_set_sizes(ui, buf);
	ft_ui_status(ui, FT_DIAG_INFO, "sizes of interest: %s",
		     buf[0] ? buf : "the host's hugetlb sizes");
}

static void key_change(struct ft_ui *ui, int ch)
{
	struct setup_state *st = S(ui);
	char buf[32], *end;
	double v;

	if (st->sel == R_COLOR) {
		toggle_color(ui);
		return;
	}
	if (st->sel == R_SIZES) {
		if (ch == '\n' || ch == KEY_ENTER || ch == ' ')
			edit_sizes(ui);
		return;
	}
	if (st->sel == R_COLUMNS) {
		if (ch == KEY_LEFT || ch == '-')
			st->col_sel = st->col_sel > 0 ? st->col_sel - 1 : 0;
		else if (ch == KEY_RIGHT || ch == '+')
			st->col_sel = st->col_sel + 1 < ft_columns_count() ? st->col_sel +
				1 : st->col_sel;
		else
			ft_columns_toggle(ui, st->col_sel);
		return;
	}
	if (ch == KEY_LEFT || ch == KEY_RIGHT || ch == '-' || ch == '+') {
		step_interval(ui, ch == KEY_RIGHT || ch == '+' ? 1 : -1);
		return;
	}
	if (!ui->live || !ft_ui_prompt(ui, "interval in seconds (0.1-3600): ", buf, sizeof(buf)))
		return;
	v = strtod(buf, &end);
	if (*end || !(v >= 0.1 && v <= 3600))
		ft_ui_status(ui, FT_DIAG_WARN, "'%s' is not an interval between 0.1 and 3600 s",
			     buf);
	else
		ft_ui_set_interval(ui, v);
}

static const struct ft_key setup_keys[] = {
	{ "j k Up Down", { 'j', 'k', KEY_DOWN, KEY_UP }, "select a setting", NULL, 0, key_select },
	{ "Left Right Enter", { KEY_LEFT, KEY_RIGHT, '-', '+', '\n', KEY_ENTER, ' ' },
	  "change it (on the columns row: choose a column, show or hide it)", NULL, 0, key_change },
	{ "Esc", { 27 }, "back (as F2)", NULL, 0, key_back },
	{ NULL },
};

static const struct ft_legend setup_legend[] = {
	{ "files reads bytes", "what fragtop opened, read calls and bytes, per source: the last "
			       "tick, and since the start" },
	{ "malloc holds", "heap in use; the part never written is not resident" },
	{ "file", "the fragtoprc that keeps these settings" },
	{ "sizes of interest",
	  "the overview's contiguous line: [COUNTx]SIZE,... (2M,1G,512x2M: a count is a need the "
	  "line judges); empty: the host's hugetlb sizes; -: no line; fragtoprc keeps it "
	  "(sizes=)" },
	{ "[x] FRAG/s",
	  "a processes column shown ([ ]: hidden); fragtoprc keeps the choice (columns=)" },
	{ NULL, NULL },
};

const struct ft_view ft_view_setup = {
	.state_size = sizeof(struct setup_state),
	.name = "setup",
	.draw = setup_draw,
	.keys = setup_keys,
	.legend = setup_legend,
};
