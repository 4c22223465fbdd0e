// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * THP by size (6.10+ counters): per size the kernel lists, its anon and
 * shmem settings (the selected word), the faults that asked for it per
 * second over the last tick (alloc, fallback), their success %, splits
 * and swap-outs per second, and the counts since boot.  A fallback by
 * size says which orders free memory no longer serves.  Under the table,
 * the selected size (j/k) with every counter its stats/ directory lists,
 * as read from it: per second over the last tick and since boot.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/sanitize.h"
#include "model/knob.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

static int first_row, sel;	/* the first size shown, the size selected */

/* @name's growth per second over the last tick; NAN before two ticks or without the counter. */
static double per_s(const struct ft_session *s, const struct ft_thp_size *z, const char *name)
{
	double dt = (double)(s->thp_t_ns - s->thp_prev_t_ns) / 1e9;
	uint64_t d;

	if (s->thp_ticks < 2 || dt <= 0 || !ft_thp_growth(&s->thp_prev, &s->thp, z->kb, name, &d))
		return NAN;
	return (double)d / dt;
}

static void cell_rate(int y, int x, int w, double v, bool bad)
{
	char buf[16];

	ft_fmt_rate(buf, sizeof(buf), v, w);
	ft_put(y, x, bad && v > 0 ? ft_attr(FT_C_WARN) : A_NORMAL, "%*s", w, isnan(v) ? "-" : buf);
}

static void cell_count(int y, int x, int w, const struct ft_thp_size *z, const char *name)
{
	char buf[16];
	uint64_t v;

	if (!ft_thp_stat(z, name, &v)) {
		ft_put(y, x, ft_attr(FT_C_DIM), "%*s", w, "-");
		return;
	}
	ft_fmt_count(buf, sizeof(buf), (double)v, w);
	ft_put(y, x, A_NORMAL, "%*s", w, buf);
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
static bool row(const struct ft_session *s, int y, const struct ft_thp_size *z, const char *top)
{
	char size[16], en[24], sh[24], shown[sizeof(en) + 1];
	double alloc = per_s(s, z, "anon_fault_alloc"), fb = per_s(s, z, "anon_fault_fallback");
	bool on, inherited;

	ft_thp_size_label(z->kb, size, sizeof(size));
	inherited = ft_thp_effective(z->enabled, top, en, sizeof(en));
	ft_thp_selected(z->shmem, sh, sizeof(sh));
	on = en[0] && strcmp(en, "never");
	if (inherited)
		snprintf(shown, sizeof(shown), "%s*", en[0] ? en : "inherit");
	else
		snprintf(shown, sizeof(shown), "%s", en[0] ? en : "-");
	ft_put(y, 0, on ? A_BOLD : A_NORMAL, "%7s", size);
	ft_put(y, 8, on ? ft_attr(FT_C_OK) : ft_attr(FT_C_DIM), "%-8s", shown);
	ft_put(y, 17, ft_attr(FT_C_DIM), "%-11s", sh[0] ? sh : "-");
	cell_rate(y, 29, 8, alloc, false);
	cell_rate(y, 38, 8, fb, true);
	if (!isnan(alloc) && !isnan(fb) && alloc + fb > 0)
		ft_put(y, 47, fb > alloc ? ft_attr(FT_C_BAD) : A_NORMAL, "%5.1f%%", 100 * alloc / (alloc + fb));
	else
		ft_put(y, 47, ft_attr(FT_C_DIM), "%6s", "-");
	cell_rate(y, 54, 7, per_s(s, z, "split"), false);
	cell_rate(y, 62, 7, per_s(s, z, "swpout_fallback"), true);
	cell_count(y, 70, 9, z, "anon_fault_alloc");
	cell_count(y, 80, 9, z, "anon_fault_fallback");
	cell_count(y, 90, 8, z, "nr_anon");
	return inherited;
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
	ft_put(y, 8, ft_attr(FT_C_DIM), "every counter in its stats/: per second over the last tick, since boot");
	for (i = 0; i < z->nr_stats && i / ncol < rows - 1; i++) {
		double r = per_s(s, z, z->stat_name[i]);

		ft_fmt_rate(rb, sizeof(rb), r, 7);
		ft_fmt_count(cb, sizeof(cb), (double)z->stat[i], 9);
		ft_put(y + 1 + i / ncol, (i % ncol) * w, A_NORMAL, "  %-26.26s %7s %9s", z->stat_name[i],
		       isnan(r) ? "-" : rb, cb);
	}
	return 1 + (i + ncol - 1) / ncol;
}

static void thp_draw(struct ft_ui *ui, int top, int height)
{
	const struct ft_session *s = ui->s;
	const struct ft_thp *t = &s->thp;
	int y = top, i, rows;
	bool inherited = false;
	char topw[24];

	if ((!s->thp_ticks || !t->nr) && ui->rp) {
		char rel[64];

		ft_put(top + 1, 2, A_BOLD, "No multi-size THP in this recording.");
		ft_put(top + 2, 2, A_NORMAL, "It holds no read of /sys/kernel/mm/transparent_hugepage/hugepages-*kB:");
		ft_put(top + 3, 2, A_NORMAL, "the kernel it was made on (%s) had none (they came in 6.8),",
		       ft_safe(s->host.release, rel, sizeof(rel)));
		ft_put(top + 4, 2, A_NORMAL, "or the fragtop that made it did not record them.");
		return;
	}
	if (!s->thp_ticks || !t->nr) {
		ft_put(top + 1, 2, A_BOLD, "No multi-size THP here.");
		ft_put(top + 2, 2, A_NORMAL, "/sys/kernel/mm/transparent_hugepage/hugepages-*kB: kernels 6.8+ (counters 6.10+)");
		return;
	}
	ft_put(y++, 0, ft_attr(FT_C_DIM), "anonymous THP faults by size: the last tick per second, then since boot; "
	       "a fallback: the size could not be served");
	ft_put(y, 0, A_REVERSE, "%-*s", COLS, "");
	ft_put(y++, 0, A_REVERSE | A_BOLD, "%7s %-8s %-11s %8s %8s %6s %7s %7s %9s %9s %8s", "SIZE", "ANON", "SHMEM",
	       "ALLOC/s", "FALLBK/s", "OK%", "SPLIT/s", "SWPFB/s", "ALLOC", "FALLBACK", "IN USE");
	/* the table gets what the selected size's counters leave (a line for the star, one gap) */
	rows = top + height - y - 2 - (1 + (t->s[sel < t->nr ? sel : 0].nr_stats + ncols() - 1) / ncols());
	if (rows < 3)
		rows = 3;
	if (sel > t->nr - 1)
		sel = t->nr - 1;
	if (sel < first_row)
		first_row = sel;
	if (sel >= first_row + rows)
		first_row = sel - rows + 1;
	top_enabled(s, topw, sizeof(topw));
	for (i = first_row; i < t->nr && i < first_row + rows && y < top + height - 1; i++, y++) {
		inherited |= row(s, y, &t->s[i], topw);
		if (i == sel)
			mvchgat(y, 0, 7, A_REVERSE, 0, NULL);
	}
	if (inherited)
		ft_put(y, 0, ft_attr(FT_C_DIM), "* inherit: the top-level setting (thp_enabled%s%s)",
		       topw[0] ? ", " : ", not known", topw);
	ui->scroll_info[0] = '\0';
	if (first_row || i < t->nr)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "sizes %d-%d of %d (j/k)", first_row + 1,
			 i, t->nr);
	detail(s, y + 2, top + height - y - 2, &t->s[sel]);
}

static void key_select(struct ft_ui *ui, int ch)
{
	(void)ui;
	if (ch == 'j' || ch == KEY_DOWN)
		sel++;		/* kept within the sizes when drawn */
	else if (sel > 0)
		sel--;
}

static const struct ft_key thp_keys[] = {
	{ "j k Up Down", { 'j', 'k', KEY_DOWN, KEY_UP }, "select a size: its every counter below the table",
	  NULL, 0, key_select },
	{ NULL },
};

static const struct ft_legend thp_legend[] = {
	{ "SIZE", "a multi-size THP size (hugepages-<size>kB)" },
	{ "ANON SHMEM", "its enabled and shmem_enabled settings; '*': inherit, the top-level setting applies" },
	{ "ALLOC/s FALLBK/s", "anonymous faults per second that got a THP of the size, or fell back" },
	{ "OK%", "the share of those faults that got one" },
	{ "SPLIT/s", "THPs of the size split per second" },
	{ "SWPFB/s", "THPs split to be swapped out per second (swpout_fallback)" },
	{ "ALLOC FALLBACK", "the same faults since boot" },
	{ "IN USE", "anonymous THPs of the size in use (nr_anon)" },
	{ "-", "the kernel has no such counter for the size" },
	{ NULL, NULL },
};

const struct ft_view ft_view_thp = {
	.name = "thp",
	.draw = thp_draw,
	.keys = thp_keys,
	.legend = thp_legend,
	.wants = FT_LIVE_WANT_THP | FT_LIVE_WANT_SIZE_KNOBS,
};
