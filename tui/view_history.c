// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * History: per zone, the session's last FT_HISTORY_LEN ticks of unusable
 * index, free pages, boost (peak and share boosted) and fragmenting
 * fallbacks/s, plus the system's compaction stalls/s, as sparklines on one
 * time axis with control changes marked.  A time cursor (Left/Right) reads
 * every chart at one tick and names the change there; [ ] page through the
 * ring.  The same in replay: the history is the session's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tui/chart.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

#define ZONE_ROWS	(1 + FT_ZH_NR)	/* title and charts */

/*
 * The view's state (struct ft_view's state_size: the loop owns it): ticks
 * back from the newest, the cursor column, the first zone.
 */
struct history_state {
	/* the axis's scratch (draw_axis()) */
	double axis_v[1024];
	uint8_t axis_marks[1024];
	uint64_t axis_t[1024];
	unsigned long back;
	int cursor;
	int first_zone;
	/* the history's length at the last draw: new ticks move `back` */
	uint64_t seen_n;
};

/* @ui's history state. */
static struct history_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_history);
}

static void history_init(void *state)
{
	struct history_state *st = state;

	st->cursor = -1;
}

static int chart_w(void)
{
	int w = COLS - 2 - FT_CHART_LABEL - FT_CHART_VALUE;

	return w < 4 ? 4 : w > 1024 ? 1024 : w;
}

static unsigned long kept(const struct ft_session *s)
{
	return s->hist.n < FT_HISTORY_LEN ? (unsigned long)s->hist.n : FT_HISTORY_LEN;
}

/* The control change at tick time @t (the audit within the tick), or the knob. */
static void describe_mark(const struct ft_session *s, uint8_t mark, uint64_t t0, uint64_t t1,
			  char *buf, size_t sz)
{
	size_t i;

	for (i = s->nr_audits; i-- > 0;) {
		const struct ft_session_audit *a = &s->audits[i];

		if (a->t_ns > t0 && a->t_ns <= t1 && !strcmp(a->outcome, "ok")) {
			snprintf(buf, sz, "%s %s -> %s (%s)", a->knob, a->old, a->new, a->how);
			return;
		}
	}
	snprintf(buf, sz, "%s changed (outside fragtop)",
		 mark <= ft_knobs_nr ? ft_knobs[mark - 1].name : "a knob");
}

static void draw_axis(struct history_state *st, const struct ft_session *s, int y, int w)
{
	double *v = st->axis_v;
	uint8_t *marks = st->axis_marks;
	uint64_t *t = st->axis_t;
	int x0 = 2 + FT_CHART_LABEL, i, c = st->cursor >= 0 ? st->cursor : w - 1;
	char what[256] = "", when[64] = "";

	ft_session_history(s, FT_CHART_STALLS, FT_ZH_FREE, st->back, w, v, marks, t);
	/* the span and the cursor's tick */
	for (i = 0; i < w && !t[i]; i++)
		;
	ft_put(y, 0, ft_attr(FT_C_LABEL), "time");
	for (int k = 0; k < w; k++)
		if (marks[k])
			ft_put(y, x0 + k, ft_attr(FT_C_WARN) | A_BOLD, "v");
	/* the span's ends over the marks (the charts below keep them) */
	if (i < w) {
		ft_put(y, x0 + i, ft_attr(FT_C_DIM), "%+.0f s",
		       (double)((int64_t)t[i] - (int64_t)s->first_t_ns) / 1e9);
		ft_put(y, x0 + w - 8, ft_attr(FT_C_DIM), "%+7.0f s",
		       (double)((int64_t)t[w - 1] - (int64_t)s->first_t_ns) / 1e9);
	}
	if (t[c]) {
		uint64_t rt = s->first_rt_ns ? s->first_rt_ns + (t[c] - s->first_t_ns) : 0;
		time_t sec = (time_t)(rt / 1000000000ull);
		struct tm tm;

		if (rt && localtime_r(&sec, &tm))
			strftime(when, sizeof(when), " %H:%M:%S", &tm);
		if (marks[c])
			describe_mark(s, marks[c], c > 0 ? t[c - 1] : 0, t[c], what, sizeof(what));
		ft_put(y + 1, 0, A_NORMAL, "%s %+.1f s%s%s%s",
		       st->cursor >= 0 ? "cursor" : "newest",
		       (double)((int64_t)t[c] - (int64_t)s->first_t_ns) / 1e9, when,
		       what[0] ? "  change: " : "", what);
	} else {
		ft_put(y + 1, 0, ft_attr(FT_C_DIM), "no history at the cursor");
	}
}

/*
 * @n new ticks came in while looking back: the window goes back by as
 * many, and what it cannot (a history shorter than the screen, drawn
 * from the right) the cursor goes left, so that it stays on its tick.
 */
static void hold(struct history_state *st, const struct ft_session *s, int w, unsigned long n)
{
	unsigned long have = kept(s),
	max_back = have > (unsigned long)w ? have - (unsigned long)w : 0;
	unsigned long take = st->back < max_back ? max_back - st->back : 0;
	int oldest = have >= (unsigned long)w ? 0 : w - (int)have;

	take = take < n ? take : n;
	st->back += take;
	if (st->cursor >= 0 && n > take)
		st->cursor = st->cursor - (int)(n - take) > oldest ? st->cursor -
			(int)(n - take) : oldest;
}

static void history_draw(struct ft_ui *ui, int top, int height)
{
	struct history_state *st = S(ui);
	const struct ft_session *s = ui->s;
	const struct ft_sample *sm = &s->sample;
	int w = chart_w(), y = top, shown = 0, skipped = 0, total = 0;
	size_t i;

	/*
	 * Looking back (a cursor set, or the window moved), the screen stays
	 * on the same ticks while new ones come in, as less does off its
	 * end: the window moves back by as many.  At the newest, it follows.
	 */
	if ((st->cursor >= 0 || st->back > 0) && s->hist.n > st->seen_n)
		hold(st, s, w, (unsigned long)(s->hist.n - st->seen_n));
	st->seen_n = s->hist.n;
	if (st->back + (unsigned long)w > kept(s))
		st->back = kept(s) > (unsigned long)w ? kept(s) - (unsigned long)w : 0;
	if (st->cursor >= w)
		st->cursor = w - 1;
	draw_axis(st, s, y, w);
	ft_chart_row(s, y + 2, 2, COLS - 2, FT_CHART_STALLS, FT_ZH_FREE, st->back, st->cursor);
	y += 4;
	for (i = 0; i < sm->nr_zones && i < FT_BOOST_ZONES; i++)
		total += ft_zi_populated(sm->zones[i].zi);
	if (st->first_zone > total - 1)
		st->first_zone = total > 0 ? total - 1 : 0;
	for (i = 0; i < sm->nr_zones && i < FT_BOOST_ZONES; i++) {
		const struct ft_zi_zone *zi = sm->zones[i].zi;
		int m;

		if (!ft_zi_populated(zi))
			continue;
		if (skipped < st->first_zone) {
			skipped++;
			continue;
		}
		if (y + ZONE_ROWS > top + height)
			break;
		ft_put(y, 0, A_BOLD, "N%d %s", zi->node, zi->name);
		for (m = 0; m < FT_ZH_NR; m++)
			ft_chart_row(s, y + 1 + m, 2, COLS - 2, (int)i, (enum ft_zh_metric)m,
				     st->back, st->cursor);
		y += ZONE_ROWS + 1;
		shown++;
	}
	ui->scroll_info[0] = '\0';
	if (skipped || skipped + shown < total)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "zones %d-%d of %d (j/k)",
			 skipped + 1, skipped + shown, total);
}

/* The time cursor and the window into the history: Left Right, [ ], Home End. */
static void key_time(struct ft_ui *ui, int ch)
{
	struct history_state *st = S(ui);
	int w = chart_w();
	unsigned long have = kept(ui->s), page = (unsigned long)w / 2;

	switch (ch) {
	case KEY_LEFT:
		if (st->cursor < 0)
			st->cursor = w - 1;
		if (st->cursor > 0 && (st->back + (unsigned long)(w - st->cursor) < have))
			st->cursor--;
		else if (st->back + (unsigned long)w < have)
			st->back++;
		break;
	case KEY_RIGHT:
		if (st->cursor >= 0 && st->cursor < w - 1)
			st->cursor++;
		else if (st->back > 0)
			st->back--;
		break;
	case '[':
		/* the window back; where it cannot (a short history), the cursor */
		if (st->back + (unsigned long)w < have) {
			st->back = st->back + page + (unsigned long)w <= have ? st->back + page :
				   have - (unsigned long)w;
		} else {
			int oldest = have >= (unsigned long)w ? 0 : w - (int)have;

			st->cursor = (st->cursor < 0 ? w - 1 : st->cursor) - (int)page;
			st->cursor = st->cursor < oldest ? oldest : st->cursor;
		}
		break;
	case ']':
		if (st->back > 0)
			st->back = st->back > page ? st->back - page : 0;
		else if (st->cursor >= 0)
			st->cursor = st->cursor + (int)page < w - 1 ? st->cursor + (int)page : w -
				1;
		break;
	case KEY_END:
		st->back = 0;
		st->cursor = -1;
		break;
	case KEY_HOME:
		st->back = have > (unsigned long)w ? have - (unsigned long)w : 0;
		/* the oldest kept */
		st->cursor = have >= (unsigned long)w ? 0 : w - (int)have;
		break;
	}
}

static void key_zones(struct ft_ui *ui, int ch)
{
	struct history_state *st = S(ui);

	(void)ui;
	if (ch == 'j' || ch == KEY_DOWN)
		st->first_zone++;
	else if (st->first_zone > 0)
		st->first_zone--;
}

static const struct ft_key history_keys[] = {
	{ "Left Right", { KEY_LEFT, KEY_RIGHT },
	  "move the time cursor (every chart read at one tick)", NULL, 0,
	  key_time },
	{ "[ ]", { '[', ']' }, "half a screen back / forward in time", NULL, 0, key_time },
	{ "Home End", { KEY_HOME, KEY_END }, "the oldest tick kept / now (cursor off)", NULL, 0,
	  key_time },
	{ "j k Up Down", { 'j', 'k', KEY_DOWN, KEY_UP }, "scroll zones", NULL, 0, key_zones },
	{ NULL },
};

static const struct ft_legend history_legend[] = {
	{ "+0 +9 s", "seconds since the start of the session, on the time axis" },
	{ "newest", "the newest tick shown, and its clock time" },
	{ "stalls/s", "direct compaction stalls per second" },
	{ "free unusable", "a zone's free memory and its unusable index at pageblock order" },
	{ "boost peak", "the largest watermark boost in the tick, in pages" },
	{ "boosted", "share of the tick the zone was boosted" },
	{ "frag fb/s", "fragmenting fallbacks in the zone per second" },
	{ "in blocks", "share of free pages in whole free pageblocks (6.15+)" },
	{ "|", "a control change (a knob written)" },
	{ NULL, NULL },
};

const struct ft_view ft_view_history = {
	.state_size = sizeof(struct history_state),
	.init = history_init,
	.name = "history",
	.tab = "hist",
	.draw = history_draw,
	.keys = history_keys,
	.legend = history_legend,
};
