// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * THP by size (6.10+ counters): per size the kernel lists, its anon and
 * shmem settings (the selected word), the faults that asked for it per
 * second over the last tick (alloc, fallback), their success %, splits
 * and swap-outs per second, and the counts since boot.  A fallback by
 * size says which orders free memory no longer serves.  Under the table,
 * the selected size (j/k) with every counter its stats/ directory lists,
 * as read from it: per second over the last tick and since boot.  Sizes
 * that saw faults or hold THPs come first (the one size that
 * matters on most hosts is never below the fold), and Left/Right scroll
 * the columns after SIZE on a narrow terminal.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/sanitize.h"
#include "model/knob.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

/* The view's state (struct ft_view's state_size: the loop owns it). */
struct thp_state {
	int first_row, sel;	/* the first size shown, the size selected (in the order shown) */
	/* Left/Right: the first column after SIZE shown; the last draw's end */
	int first_col, end_col;
};

/* @ui's thp state. */
static struct thp_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_thp);
}

/* The columns after SIZE: header, width, left-aligned. */
enum { T_ANON, T_SHMEM, T_ALLOC_S, T_FB_S, T_OK, T_SPLIT_S, T_SWPFB_S, T_ALLOC, T_FB, T_IN_USE,
       T_NR };
static const struct {
	const char *head;
	int width;
	bool left;
} tcols[T_NR] = {
	[T_ANON] = { "ANON", 8, true }, [T_SHMEM] = { "SHMEM", 11, true },
	[T_ALLOC_S] = { "ALLOC/s", 8, false }, [T_FB_S] = { "FALLBK/s", 8, false },
	[T_OK] = { "OK%", 6, false }, [T_SPLIT_S] = { "SPLIT/s", 7, false },
	[T_SWPFB_S] = { "SWPFB/s", 7, false }, [T_ALLOC] = { "ALLOC", 9, false },
	[T_FB] = { "FALLBACK", 9, false }, [T_IN_USE] = { "IN USE", 8, false },
};

#define SIZE_W	8	/* "2048kB " and a space: always shown */

/* A cell as drawn: its text and attribute. */
struct cell {
	char text[32];
	unsigned int attr;
};

/* @name's growth per second over the last tick; NAN before two ticks or without the counter. */
static double per_s(const struct ft_session *s, const struct ft_thp_size *z, const char *name)
{
	double dt = (double)(s->thp_t_ns - s->thp_prev_t_ns) / 1e9;
	uint64_t d;

	if (s->thp_ticks < 2 || dt <= 0 || !ft_thp_growth(&s->thp_prev, &s->thp, z->kb, name, &d))
		return NAN;
	return (double)d / dt;
}

static void cell_rate(struct cell *c, int w, double v, bool bad)
{
	ft_fmt_rate(c->text, sizeof(c->text), v, w);
	if (isnan(v))
		snprintf(c->text, sizeof(c->text), "-");
	c->attr = bad && v > 0 ? ft_attr(FT_C_WARN) : A_NORMAL;
}

static void cell_count(struct cell *c, int w, const struct ft_thp_size *z, const char *name)
{
	uint64_t v;

	if (!ft_thp_stat(z, name, &v)) {
		snprintf(c->text, sizeof(c->text), "-");
		c->attr = ft_attr(FT_C_DIM);
		return;
	}
	ft_fmt_count(c->text, sizeof(c->text), (double)v, w);
	c->attr = A_NORMAL;
}

/* The top-level enabled setting's word (what "inherit" means), "" when not known. */
static const char *top_enabled(const struct ft_session *s, char *buf, size_t sz)
{
	const struct ft_knob *k = ft_knob_find("thp_enabled");
	size_t i = k ? (size_t)(k - ft_knobs) : FT_SESSION_MAX_KNOBS;

	buf[0] = '\0';
	if (i < FT_SESSION_MAX_KNOBS && !s->knobs[i].err)
		ft_knob_value_text(k, &s->knobs[i], buf, sz);
	return buf;
}

/* One size; returns whether its anon setting was inherited (shown with a *). */
static bool row(struct thp_state *st, const struct ft_session *s, int y,
		const struct ft_thp_size *z, const char *top)
{
	char size[16], en[24], sh[24];
	double alloc = per_s(s, z, "anon_fault_alloc"), fb = per_s(s, z, "anon_fault_fallback");
	struct cell c[T_NR];
	bool on, inherited;
	int k, x = SIZE_W;

	ft_thp_size_label(z->kb, size, sizeof(size));
	inherited = ft_thp_effective(z->enabled, top, en, sizeof(en));
	ft_thp_selected(z->shmem, sh, sizeof(sh));
	on = en[0] && strcmp(en, "never");
	if (inherited)
		snprintf(c[T_ANON].text, sizeof(c[T_ANON].text), "%s*", en[0] ? en : "inherit");
	else
		snprintf(c[T_ANON].text, sizeof(c[T_ANON].text), "%s", en[0] ? en : "-");
	c[T_ANON].attr = on ? ft_attr(FT_C_OK) : ft_attr(FT_C_DIM);
	snprintf(c[T_SHMEM].text, sizeof(c[T_SHMEM].text), "%s", sh[0] ? sh : "-");
	c[T_SHMEM].attr = ft_attr(FT_C_DIM);
	cell_rate(&c[T_ALLOC_S], tcols[T_ALLOC_S].width, alloc, false);
	cell_rate(&c[T_FB_S], tcols[T_FB_S].width, fb, true);
	if (!isnan(alloc) && !isnan(fb) && alloc + fb > 0) {
		snprintf(c[T_OK].text, sizeof(c[T_OK].text), "%6s",
			 ft_cell_pct((char[16]){ 0 }, 16, 100 * alloc / (alloc + fb), 6, 1));
		c[T_OK].attr = fb > alloc ? ft_attr(FT_C_BAD) : A_NORMAL;
	} else {
		snprintf(c[T_OK].text, sizeof(c[T_OK].text), "-");
		c[T_OK].attr = ft_attr(FT_C_DIM);
	}
	cell_rate(&c[T_SPLIT_S], tcols[T_SPLIT_S].width, per_s(s, z, "split"), false);
	cell_rate(&c[T_SWPFB_S], tcols[T_SWPFB_S].width, per_s(s, z, "swpout_fallback"), true);
	cell_count(&c[T_ALLOC], tcols[T_ALLOC].width, z, "anon_fault_alloc");
	cell_count(&c[T_FB], tcols[T_FB].width, z, "anon_fault_fallback");
	cell_count(&c[T_IN_USE], tcols[T_IN_USE].width, z, "nr_anon");
	ft_put(y, 0, on ? A_BOLD : A_NORMAL, "%7s", size);
	for (k = st->first_col; k < T_NR && x + tcols[k].width <= COLS; k++) {
		ft_put(y, x, c[k].attr, tcols[k].left ? "%-*s" : "%*s", tcols[k].width, c[k].text);
		x += tcols[k].width + 1;
	}
	return inherited;
}

/* The header of the columns shown; the last draw's end (end_col). */
static void header(struct thp_state *st, int y)
{
	int k, x = SIZE_W;

	ft_put(y, 0, A_REVERSE, "%-*s", COLS, "");
	ft_put(y, 0, A_REVERSE | A_BOLD, "%7s", "SIZE");
	for (k = st->first_col; k < T_NR && x + tcols[k].width <= COLS; k++) {
		ft_put(y, x, A_REVERSE | A_BOLD, tcols[k].left ? "%-*s" : "%*s", tcols[k].width,
		       tcols[k].head);
		x += tcols[k].width + 1;
	}
	st->end_col = k;
}

/*
 * Did size @z see faults (anon or shmem, served or not) since boot, or
 * hold THPs now?  Splits do not count: page cache folios split at every
 * size on a busy host, where faults come at one or two.
 */
static bool active(const struct ft_thp_size *z)
{
	static const char *const names[] = { "anon_fault_alloc", "anon_fault_fallback", "nr_anon",
					     "shmem_alloc",
					     "shmem_fallback" };
	uint64_t v;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (ft_thp_stat(z, names[i], &v) && v)
			return true;
	return false;
}

/*
 * The sizes in the order shown: those active first, each group smallest first. Returns how many.
 */
static int shown_order(const struct ft_thp *t, int order[FT_THP_SIZES])
{
	int n = 0, i, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < t->nr && i < FT_THP_SIZES; i++)
			if (active(&t->s[i]) == !pass)
				order[n++] = i;
	return n;
}

/* Columns of the counters under the table: as many 47-wide as fit. */
static int ncols(void)
{
	return COLS >= 141 ? 3 : COLS >= 94 ? 2 : 1;
}

/* Every counter of @z at @y, in as many columns as fit, at most @rows rows; returns rows used. */
static int detail(const struct ft_session *s, int y, int rows, const struct ft_thp_size *z)
{
	int ncol = ncols(), w = COLS / ncol, i;
	char size[16], rb[16], cb[16];

	if (rows < 2)
		return 0;
	ft_thp_size_label(z->kb, size, sizeof(size));
	ft_put(y, 0, ft_attr(FT_C_LABEL), "%s", size);
	ft_put(y, 8, ft_attr(FT_C_DIM),
	       "every counter in its stats/: per second over the last tick, since boot");
	for (i = 0; i < z->nr_stats && i / ncol < rows - 1; i++) {
		double r = per_s(s, z, z->stat_name[i]);

		ft_fmt_rate(rb, sizeof(rb), r, 7);
		ft_fmt_count(cb, sizeof(cb), (double)z->stat[i], 9);
		ft_put(y + 1 + i / ncol, (i % ncol) * w, A_NORMAL, "  %-26.26s %7s %9s",
		       z->stat_name[i],
		       isnan(r) ? "-" : rb, cb);
	}
	return 1 + (i + ncol - 1) / ncol;
}

static void thp_draw(struct ft_ui *ui, int top, int height)
{
	struct thp_state *st = S(ui);
	const struct ft_session *s = ui->s;
	const struct ft_thp *t = &s->thp;
	int y = top, i, rows, n, order[FT_THP_SIZES];
	bool rows_cut, cols_cut;
	bool inherited = false;
	char topw[24];

	if ((!s->thp_ticks || !t->nr) && ui->rp) {
		char rel[64];

		ft_put(top + 1, 2, A_BOLD, "No multi-size THP in this recording.");
		ft_put(top + 2, 2, A_NORMAL,
		       "It holds no read of /sys/kernel/mm/transparent_hugepage/hugepages-*kB:");
		ft_put(top + 3, 2, A_NORMAL,
		       "the kernel it was made on (%s) had none (they came in 6.8),",
		       ft_safe(s->host.release, rel, sizeof(rel)));
		ft_put(top + 4, 2, A_NORMAL, "or the fragtop that made it did not record them.");
		return;
	}
	if (!s->thp_ticks || !t->nr) {
		ft_put(top + 1, 2, A_BOLD, "No multi-size THP here.");
		ft_put(top + 2, 2, A_NORMAL, "/sys/kernel/mm/transparent_hugepage/hugepages-*kB: "
					     "kernels 6.8+ (counters 6.10+)");
		return;
	}
	ft_put(y++, 0, ft_attr(FT_C_DIM),
	       "anonymous THP faults by size: the last tick per second, then since boot; a "
	       "fallback: the size could not be served");
	header(st, y++);
	n = shown_order(t, order);
	if (st->sel > n - 1)
		st->sel = n - 1;
	/* the table gets what the selected size's counters leave (a line for the star, one gap) */
	rows = top + height - y - 2 - (1 + (t->s[order[st->sel]].nr_stats + ncols() - 1) / ncols());
	if (rows < 3)
		rows = 3;
	if (st->sel < st->first_row)
		st->first_row = st->sel;
	if (st->sel >= st->first_row + rows)
		st->first_row = st->sel - rows + 1;
	top_enabled(s, topw, sizeof(topw));
	for (i = st->first_row; i < n && i < st->first_row + rows && y < top + height - 1; i++,
	     y++) {
		inherited |= row(st, s, y, &t->s[order[i]], topw);
		if (i == st->sel)
			mvchgat(y, 0, 7, A_REVERSE, 0, NULL);
	}
	if (inherited)
		ft_put(y, 0, ft_attr(FT_C_DIM),
		       "* inherit: the top-level setting (thp_enabled%s%s)",
		       topw[0] ? ", " : ", not known", topw);
	/* both the rows and the columns cut (80 columns): short, so that a message fits beside */
	rows_cut = st->first_row || i < n;
	cols_cut = st->first_col || st->end_col < T_NR;
	ui->scroll_info[0] = '\0';
	if (rows_cut && cols_cut)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "sizes %d-%d/%d  cols %d-%d/%d",
			 st->first_row + 1, i,
			 n, st->first_col + 1, st->end_col, T_NR);
	else if (rows_cut)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "sizes %d-%d of %d (j/k)",
			 st->first_row + 1, i, n);
	else if (cols_cut)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info),
			 "columns %d-%d of %d (Left/Right)",
			 st->first_col + 1, st->end_col, T_NR);
	detail(s, y + 2, top + height - y - 2, &t->s[order[st->sel]]);
}

/* Left, Right: a column at a time after SIZE; Right stops when the last is shown. */
static void key_columns(struct ft_ui *ui, int ch)
{
	struct thp_state *st = S(ui);

	(void)ui;
	if (ch == KEY_LEFT && st->first_col > 0)
		st->first_col--;
	else if (ch == KEY_RIGHT && st->end_col < T_NR)
		st->first_col++;
}

static void key_select(struct ft_ui *ui, int ch)
{
	struct thp_state *st = S(ui);

	(void)ui;
	if (ch == 'j' || ch == KEY_DOWN)
		st->sel++;		/* kept within the sizes when drawn */
	else if (st->sel > 0)
		st->sel--;
}

static const struct ft_key thp_keys[] = {
	{ "j k Up Down", { 'j', 'k', KEY_DOWN, KEY_UP },
	  "select a size: its every counter below the table (sizes that saw faults or hold THPs "
	  "first)", NULL, 0, key_select },
	{ "Left Right", { KEY_LEFT, KEY_RIGHT }, "scroll the columns after SIZE", NULL, 0,
	  key_columns },
	{ NULL },
};

static const struct ft_legend thp_legend[] = {
	{ "SIZE", "a multi-size THP size (hugepages-<size>kB)" },
	{ "ANON SHMEM",
	  "its enabled and shmem_enabled settings; '*': inherit, the top-level setting applies" },
	{ "ALLOC/s FALLBK/s",
	  "anonymous faults per second that got a THP of the size, or fell back" },
	{ "OK%", "the share of those faults that got one" },
	{ "SPLIT/s", "THPs of the size split per second" },
	{ "SWPFB/s", "THPs split to be swapped out per second (swpout_fallback)" },
	{ "ALLOC FALLBACK", "the same faults since boot" },
	{ "IN USE", "anonymous THPs of the size in use (nr_anon)" },
	{ "-", "the kernel has no such counter for the size" },
	{ NULL, NULL },
};

const struct ft_view ft_view_thp = {
	.state_size = sizeof(struct thp_state),
	.name = "thp",
	.draw = thp_draw,
	.keys = thp_keys,
	.legend = thp_legend,
	.wants = FT_LIVE_WANT_THP | FT_LIVE_WANT_SIZE_KNOBS,
};
