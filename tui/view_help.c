// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Help: every key (the global ones, the mode's and the view's), then what
 * every word and mark of the view it was opened over means, then those of
 * every other screen.  It scrolls (j k, the arrows, PgUp PgDn, g G); any
 * other key returns.  Long lines wrap at the screen's width, so it reads
 * at 80 columns as at 200.
 */
#include <stddef.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

/* The help's state: the first line shown, and how many there are. */
static struct {
	int first;
	int lines;		/* counted by the last draw */
	int page;		/* rows the last draw had */
} st;

/* Where the lines go: a virtual line number, and the rows of the screen it maps to. */
struct pen {
	int line;		/* the next line's number */
	int top, height;	/* the screen's rows */
	int first;		/* the first line shown */
};

/* Line @p->line, at column @x, if it is on screen. */
static bool visible(const struct pen *p)
{
	return p->line >= p->first && p->line < p->first + p->height;
}

static int row(const struct pen *p)
{
	return p->top + p->line - p->first;
}

static void title(struct pen *p, const char *text)
{
	if (visible(p))
		ft_put(row(p), 0, ft_attr(FT_C_LABEL), "%s", text);
	p->line++;
}

/*
 * @left in a column @w wide at column 2, @text after it, wrapped at the
 * screen's width to the same column (at least 20 columns for the text).
 */
static void entry(struct pen *p, const char *left, int w, const char *text, chtype left_attr)
{
	int x = 2 + w + 2, room = COLS - x;
	size_t n = strlen(text), at = 0;
	bool first = true;

	if (room < 20) {	/* a narrow screen: the text goes under the term */
		x = 4;
		room = COLS - x > 1 ? COLS - x : 1;
		if (visible(p))
			ft_put(row(p), 2, left_attr, "%s", left);
		p->line++;
		first = false;
	}
	do {
		size_t take = ft_wrap_take(text + at, n - at, (size_t)room);

		if (visible(p)) {
			if (first)
				ft_put(row(p), 2, left_attr, "%s", left);
			ft_put(row(p), x, A_NORMAL, "%.*s", (int)take, text + at);
		}
		p->line++;
		first = false;
		at = ft_wrap_skip(text, n, at + take);
	} while (at < n);
}

/* The widest label of a key table (listed keys only). */
static int keys_width(const struct ft_key *keys, int w)
{
	for (int i = 0; keys && keys[i].label; i++)
		if (keys[i].help && (int)strlen(keys[i].label) > w)
			w = (int)strlen(keys[i].label);
	return w;
}

static void put_keys(struct pen *p, const struct ft_key *keys, int w)
{
	for (int i = 0; keys && keys[i].label; i++)
		if (keys[i].help)
			entry(p, keys[i].label, w, keys[i].help, A_BOLD);
}

/* In replay: the live keys it refuses, by their labels. */
static void put_refused(struct pen *p)
{
	char labels[128];
	size_t n = 0;

	labels[0] = '\0';
	for (int i = 0; ft_ui_live_keys[i].label && n < sizeof(labels); i++)
		n += (size_t)snprintf(labels + n, sizeof(labels) - n, "%s%s", n ? " " : "",
				      ft_ui_live_keys[i].label);
	if (visible(p))
		ft_put(row(p), 2, ft_attr(FT_C_DIM), "%s: refused (a recording is not a host)",
		       labels);
	p->line++;
}

/* A legend's terms, in a column as wide as its widest (at most 28). */
static void put_legend(struct pen *p, const struct ft_legend *lg)
{
	int w = 0;

	for (int i = 0; lg && lg[i].term; i++)
		if ((int)strlen(lg[i].term) > w)
			w = (int)strlen(lg[i].term);
	if (w > 28)
		w = 28;
	for (int i = 0; lg && lg[i].term; i++)
		entry(p, lg[i].term, w, lg[i].meaning, A_BOLD);
}

/* What every screen has: the header, the tabs, the status line. */
static const struct ft_legend every_legend[] = {
	{ "fragtop 0.1  host", "the version, the host's name and its kernel" },
	{ "every 1s", "the sampling interval (d, or the setup view, changes it)" },
	{ "boost_factor",
	  "watermark_boost_factor now: how far a fragmenting fallback raises the watermarks" },
	{ "PAUSED", "the screen is frozen (space resumes); the tick's reads go on" },
	{ "src:", "the sources the last tick read; a dim one failed or is absent; pagetypeinfo "
		  "says how old its "
	  "last read is (it is read every few seconds: it takes zone->lock)" },
	{ "trace",
	  "the tracepoints are read (root, tracefs): events, stalls and processes have data" },
	{ "avail 22.7G of 23.5G",
	  "memory available (MemAvailable) of all (MemTotal), from /proc/meminfo" },
	{ "REPLAY [###] 3/82s x1", "a recording: the position in it, its length, and the speed" },
	{ "1 overview ...", "the views; the one shown is highlighted (1-8, Tab, or a click)" },
	{ "at 50.0 s (tick 51)", "replay: the position, in seconds and ticks" },
	{ "sizes 1-4 of 9 (j/k)",
	  "on the status line's right: the part of a list shown, and the keys that scroll it" },
	{ "rows 1-17/26  cols 1-6/11",
	  "the same, short, when both the rows (j/k) and the columns (Left/Right) are cut" },
	{ "K M G", "sizes in KiB, MiB, GiB; counts as k (thousands) and M (millions)" },
	{ NULL, NULL },
};

/* Every line, through @p: only those on screen are drawn. */
static void help_lines(struct ft_ui *ui, struct pen *p)
{
	const struct ft_view *v = ui->prev_view ? ui->prev_view : &ft_view_overview;
	int w = keys_width(ft_ui_keys, 0);
	char t[96];

	w = keys_width(ui->mode_keys, w);
	w = keys_width(v->keys, w);
	title(p, "Keys");
	put_keys(p, ft_ui_keys, w);
	title(p, ui->rp ? "Replay" : "Live");
	put_keys(p, ui->mode_keys, w);
	if (ui->rp)
		put_refused(p);
	if (v->keys && v->keys[0].label) {
		snprintf(t, sizeof(t), "In the %s view", v->name);
		title(p, t);
		put_keys(p, v->keys, w);
	}
	p->line++;
	if (v->legend) {
		snprintf(t, sizeof(t), "What the %s view shows", v->name);
		title(p, t);
		put_legend(p, v->legend);
		p->line++;
	}
	title(p, "On every screen");
	put_legend(p, every_legend);
	for (int i = 0; i < ft_views_nr; i++) {
		if (ft_views[i] == v || !ft_views[i]->legend)
			continue;
		p->line++;
		snprintf(t, sizeof(t), "The %s view", ft_views[i]->name);
		title(p, t);
		put_legend(p, ft_views[i]->legend);
	}
	if (v != &ft_view_setup) {
		p->line++;
		title(p, "The setup screen (F2)");
		put_legend(p, ft_view_setup.legend);
	}
}

static void help_draw(struct ft_ui *ui, int top, int height)
{
	struct pen count = { .top = top, .height = 0, .first = 0 }, pen;

	help_lines(ui, &count);		/* nothing visible: it counts */
	st.lines = count.line;
	st.page = height;
	if (st.first > st.lines - height)
		st.first = st.lines - height;
	if (st.first < 0)
		st.first = 0;
	pen = (struct pen){ .top = top, .height = height, .first = st.first };
	help_lines(ui, &pen);
	ui->scroll_info[0] = '\0';
	if (st.lines > height)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info),
			 "help lines %d-%d of %d (j/k PgDn PgUp; other keys return)", st.first + 1,
			 st.first + height, st.lines);
	else
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "any key returns");
}

static void help_enter(struct ft_ui *ui)
{
	(void)ui;
	st.first = 0;
}

static void key_scroll(struct ft_ui *ui, int ch)
{
	int page = st.page > 1 ? st.page - 1 : 1;

	(void)ui;
	switch (ch) {
	case 'j': case KEY_DOWN: st.first++; break;
	case 'k': case KEY_UP: st.first--; break;
	case KEY_NPAGE: case ' ': st.first += page; break;
	case KEY_PPAGE: st.first -= page; break;
	case 'g': case KEY_HOME: st.first = 0; break;
	default: st.first = st.lines; break;	/* G End: kept within the lines when drawn */
	}
	if (st.first < 0)
		st.first = 0;
}

/* The keys that scroll; any other returns to the view it was opened over (tui/ui.c). */
static const struct ft_key help_keys[] = {
	{ "j k Up Down", { 'j', 'k', KEY_DOWN, KEY_UP }, "a line down, up", NULL, 0, key_scroll },
	{ "PgDn PgUp space", { KEY_NPAGE, KEY_PPAGE, ' ' }, "a page down, up", NULL, 0,
	  key_scroll },
	{ "g G Home End", { 'g', 'G', KEY_HOME, KEY_END }, "the first, the last line", NULL, 0,
	  key_scroll },
	{ NULL },
};

const struct ft_view ft_view_help = {
	.name = "help",
	.draw = help_draw,
	.keys = help_keys,
	.enter = help_enter,
};
