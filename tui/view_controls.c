// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Controls: every knob of the knob table (model/knob.c) with its value,
 * default, range and unit; step, type, trigger, undo and restore; below,
 * the session's audit log, newest first (in replay, the recording's
 * changes up to the position).  All writes go through controls/control.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "controls/control.h"
#include "model/journal.h"
#include "tui/chart.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

/* The view's state (struct ft_view's state_size: the loop owns it): the selected knob. */
struct change;

struct controls_state {
	int sel;
	int first;	/* the first knob shown: the list scrolls to keep sel in sight */
	/*
	 * a replay's recorded changes, sorted for the draw (owned; made at its first: 13 MiB at
	 * most)
	 */
	struct change *ch;
	uint8_t marks[FT_HISTORY_LEN];
	uint64_t t[FT_HISTORY_LEN];
	double v[FT_HISTORY_LEN];
};

/* @ui's controls state. */
static struct controls_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_controls);
}

static bool knob_changed(const struct ft_ui *ui, size_t i, const char *now)
{
	return ui->ctl && i < 64 && ui->ctl->orig[i][0] && strcmp(ui->ctl->orig[i], now);
}

/* The columns before a knob row's range: mark, name, value, default. */
#define ROW_W	(2 + 28 + 1 + 14 + 1 + 8 + 1)

/* @text dim at column 2 from row @y, wrapped at spaces to the screen's width; the row after it. */
static int wrapped(int y, int bottom, const char *text)
{
	size_t n = strlen(text), at = 0, room = COLS > 3 ? (size_t)COLS - 3 : 1;

	while (at < n && y < bottom) {
		size_t take = ft_wrap_take(text + at, n - at, room);

		ft_put(y++, 2, ft_attr(FT_C_DIM), "%.*s", (int)take, text + at);
		at = ft_wrap_skip(text, n, at + take);
	}
	return y;
}

/* A change as the replay's log lists it: its time and its line. */
struct change {
	uint64_t t_ns;
	char line[200];
};

static int by_time_desc(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	return x->t_ns < y->t_ns ? 1 : x->t_ns > y->t_ns ? -1 : 0;
}

/*
 * In replay: the recording's control changes up to the position, newest
 * first, as report lists them: its own (AUDIT inputs, every outcome) and
 * the knobs the history marks changed with no change of fragtop's
 * behind them (made outside it; the history keeps FT_HISTORY_LEN ticks).
 */
#define NR_CH	(FT_SESSION_MAX_AUDITS + FT_HISTORY_LEN)

static void recorded_changes(struct controls_state *st, const struct ft_session *s, int y,
			     int bottom)
{
	uint8_t *marks = st->marks;
	uint64_t *t = st->t;
	double *v = st->v;
	struct change *ch = st->ch ? st->ch : (st->ch = calloc(NR_CH, sizeof(*st->ch)));
	const struct ft_session_audit *claim;
	size_t n = 0, i, a;
	int outside = 0, claimed = 0;
	char k[48], o[48], w[48], m[48], h[48];

	if (!ch)
		return;
	for (a = 0; a < s->nr_audits && n < NR_CH; a++) {
		const struct ft_session_audit *au = &s->audits[a];

		if (ft_session_audit_note(au))
			/* another fragtop's word on a change, not one of this recording's */
			continue;
		ch[n].t_ns = au->t_ns;
		snprintf(ch[n++].line, sizeof(ch[0].line), "%+7.1fs  %-7s %-9s %s %s -> %s",
			 (double)(au->t_ns - s->first_t_ns) / 1e9, ft_safe(au->how, h, sizeof(h)),
			 ft_safe(au->outcome, o, sizeof(o)), ft_safe(au->knob, k, sizeof(k)),
			 ft_safe(au->old, w, sizeof(w)), ft_safe(au->new, m, sizeof(m)));
	}
	ft_session_history(s, FT_CHART_STALLS, FT_ZH_FREE, 0, FT_HISTORY_LEN, v, marks, t);
	for (i = 0; i < FT_HISTORY_LEN && n < NR_CH; i++) {
		uint64_t t0 = i && t[i - 1] ? t[i - 1] : 0;
		bool own = false;

		if (!marks[i] || !t[i])
			continue;
		for (a = 0; a < s->nr_audits && !own; a++)
			own = s->audits[a].t_ns > t0 && s->audits[a].t_ns <= t[i] &&
			      !strcmp(s->audits[a].outcome, "ok");
		if (own)
			continue;
		ch[n].t_ns = t[i];
		claim = NULL;	/* another fragtop process's word on it (model/journal.h) */
		for (a = 0; a < s->nr_audits && marks[i] <= ft_knobs_nr; a++)
			if (!strcmp(s->audits[a].how, "claim") && s->audits[a].t_ns > t0 &&
			    s->audits[a].t_ns <= t[i] &&
			    !strcmp(s->audits[a].knob, ft_knobs[marks[i] - 1].name))
				claim = &s->audits[a];
		if (claim) {
			snprintf(ch[n++].line, sizeof(ch[0].line),
				 "%+7.1fs  %-7s seen      %s changed by %s (pid %d)",
				 (double)(t[i] - s->first_t_ns) / 1e9,
				 ft_safe(claim->by, h, sizeof(h)),
				 ft_knobs[marks[i] - 1].name, ft_journal_who(claim->by),
				 claim->pid);
			claimed++;
			continue;
		}
		snprintf(ch[n++].line, sizeof(ch[0].line),
			 "%+7.1fs  outside seen      %s changed outside this fragtop",
			 (double)(t[i] - s->first_t_ns) / 1e9,
			 marks[i] <= ft_knobs_nr ? ft_knobs[marks[i] - 1].name : "a knob");
		outside++;
	}
	qsort(ch, n, sizeof(ch[0]), by_time_desc);
	if (claimed)	/* by another fragtop process: outside this one, and named */
		ft_put(y++, 0, ft_attr(FT_C_LABEL),
		       "control changes in the recording up to here: %zu (%d outside this fragtop, "
		       "%d of them another fragtop's), newest first", n, outside + claimed,
		       claimed);
	else
		ft_put(y++, 0, ft_attr(FT_C_LABEL),
		       "control changes in the recording up to here: %zu (%d outside this "
		       "fragtop), newest first", n, outside);
	for (i = 0; i < n && y < bottom; i++)
		ft_put(y++, 2, A_NORMAL, "%s", ch[i].line);
	if (!n && y < bottom)
		ft_put(y, 2, ft_attr(FT_C_DIM), "none up to here");
}

static void controls_draw(struct ft_ui *ui, int top, int height)
{
	struct controls_state *st = S(ui);
	const struct ft_session *s = ui->s;
	int y = top, bottom = top + height, rows;
	size_t i, n;

	if (ui->ctl && ui->ctl->read_only)
		ft_put(y++, 0, ft_attr(FT_C_WARN), "read-only: %s", ui->ctl->read_only_why);
	ft_put(y++, 0, ft_attr(FT_C_LABEL), "  %-28s %-14s %-8s %-26s %s", "knob", "value",
	       "default",
	       "range", "unit");
	/* the knobs that fit with the help below them, the selected one among them */
	rows = (bottom - y - 3) * 2 / 3;	/* a third for the help and the audit log */
	if (rows < 5)
		rows = 5;
	if (st->sel < st->first)
		st->first = st->sel;
	if (st->sel >= st->first + rows)
		st->first = st->sel - rows + 1;
	if (st->first < 0)
		st->first = 0;
	for (i = (size_t)st->first; i < ft_knobs_nr && y < bottom && (int)i < st->first + rows; i++,
	     y++) {
		const struct ft_knob *k = &ft_knobs[i];
		const struct ft_knob_value *v = &s->knobs[i];
		char val[96], def[24] = "-", range[96];
		unsigned int attr = A_NORMAL;
		bool changed;

		if (k->type == FT_KNOB_TRIGGER) {
			snprintf(val, sizeof(val), "(action)");
		} else if (v->err == -ENOENT) {
			snprintf(val, sizeof(val), "absent");
			attr = ft_attr(FT_C_DIM);
		/* the recording holds no read of it */
		} else if (v->err == -ENODATA && ui->rp) {
			snprintf(val, sizeof(val), "not recorded");
			attr = ft_attr(FT_C_DIM);
		} else if (v->err) {
			ft_knob_strerror(k, v->err, val, sizeof(val));
			attr = ft_attr(FT_C_BAD);
		} else {
			ft_knob_value_text(k, v, val, sizeof(val));
		}
		changed = k->type != FT_KNOB_TRIGGER && !v->err && knob_changed(ui, i, val);
		if (k->def != FT_KNOB_NO_DEFAULT && k->type == FT_KNOB_INT)
			snprintf(def, sizeof(def), "%" PRId64, k->def);
		ft_knob_range_text(k, v, range, sizeof(range));
		if ((int)i == st->sel)
			attr |= A_REVERSE;
		ft_put(y, 0, attr, "%c %-28s %-14s %-8s %-26s %s", changed ? '*' : ' ', k->name,
		       val, def,
		       range, k->unit ? k->unit : "");
		if (changed)
			ft_put(y, 0, ft_attr(FT_C_WARN) | A_BOLD, "*");
	}
	if (y < bottom && st->sel >= 0 && (size_t)st->sel < ft_knobs_nr) {
		const struct ft_knob *k = &ft_knobs[st->sel];
		const struct ft_knob_value *v = &s->knobs[st->sel];
		char why[96], range[96], line[256];

		if (k->type != FT_KNOB_TRIGGER && v->err == -ENOENT)
			snprintf(line, sizeof(line), "%s: %s", k->name,
				 ft_knob_strerror(k, v->err, why, sizeof(why)));
		else
			snprintf(line, sizeof(line), "%s", k->help);
		y = wrapped(y + 1, bottom, line);
		/* the range and unit whole, where the table's row cut them (80 columns) */
		ft_knob_range_text(k, v, range, sizeof(range));
		if (ROW_W + (int)strlen(range) + 1 + (k->unit ? (int)strlen(k->unit) : 0) > COLS &&
		    y < bottom) {
			snprintf(line, sizeof(line), "range %s%s%s", range,
				 k->unit ? "; unit " : "",
				 k->unit ? k->unit : "");
			y = wrapped(y, bottom, line);
		}
		y++;
	}
	if (ui->rp && y < bottom) {
		recorded_changes(S(ui), s, y, bottom);
		return;
	}
	if (!ui->ctl || y >= bottom)
		return;
	n = ft_ctl_audit_kept(ui->ctl);
	ft_put(y++, 0, ft_attr(FT_C_LABEL), "audit log (this session: %llu entr%s, newest first)",
	       (unsigned long long)ui->ctl->audit_nr, ui->ctl->audit_nr == 1 ? "y" : "ies");
	rows = bottom - y;
	for (i = 0; i < n && (int)i < rows; i++) {
		const struct ft_audit *a = ft_ctl_audit_get(ui->ctl, n - 1 - i);
		char line[320];

		ft_audit_format(a, line, sizeof(line));
		ft_put(y++, 2, a->outcome == FT_CTL_OK ? A_NORMAL : ft_attr(FT_C_WARN), "%s", line);
	}
	if (!n && y < bottom)
		ft_put(y, 2, ft_attr(FT_C_DIM), "no changes yet");
}

/* Enter or e on the selected knob. */
static void edit(struct ft_ui *ui, const struct ft_knob *k)
{
	char buf[64], q[160];

	if (!ft_ui_may_write(ui))
		return;
	if (k->type == FT_KNOB_TRIGGER && !k->per_node && k->min == k->max) {
		if (ft_ui_confirm(ui, "%s: %s. Do it now? [y/N] ", k->name, k->help))
			ft_ui_control_done(ui, ft_ctl_set_knob(ui->ctl, k, "1"));
		else
			ft_ui_status(ui, FT_DIAG_INFO, "%s: cancelled", k->name);
		return;
	}
	if (k->per_node)
		snprintf(q, sizeof(q), "%s: node to compact: ", k->name);
	else if (k->type == FT_KNOB_SELECT)
		snprintf(q, sizeof(q), "%s (one of the options shown): ", k->name);
	else
		snprintf(q, sizeof(q), "%s (%" PRId64 "..%" PRId64 "): ", k->name, k->min, k->max);
	if (!ft_ui_prompt(ui, q, buf, sizeof(buf))) {
		ft_ui_status(ui, FT_DIAG_INFO, "%s: cancelled", k->name);
		return;
	}
	if (k->drastic && !ft_ui_confirm(ui, "%s=%s: %s. Sure? [y/N] ", k->name, buf, k->help)) {
		ft_ui_status(ui, FT_DIAG_INFO, "%s: cancelled", k->name);
		return;
	}
	ft_ui_control_done(ui, ft_ctl_set_knob(ui->ctl, k, buf));
}

/* The knob under the cursor (the cursor kept in the table). */
static const struct ft_knob *selected(struct controls_state *st)
{
	if (st->sel < 0 || st->sel >= (int)ft_knobs_nr)
		st->sel = 0;
	return &ft_knobs[st->sel];
}

static void key_select(struct ft_ui *ui, int ch)
{
	struct controls_state *st = S(ui);
	int nr = (int)ft_knobs_nr;

	(void)ui;
	selected(st);
	if (ch == 'j' || ch == KEY_DOWN)
		st->sel = (st->sel + 1) % nr;
	else if (ch == 'k' || ch == KEY_UP)
		st->sel = (st->sel + nr - 1) % nr;
	else
		st->sel = 0;
}

static void key_step(struct ft_ui *ui, int ch)
{
	struct controls_state *st = S(ui);
	const struct ft_knob *k = selected(st);
	int dir = ch == '+' || ch == '=' || ch == KEY_RIGHT ? 1 : -1;

	if (!ft_ui_may_write(ui))
		return;
	if (k->drastic && k->type != FT_KNOB_TRIGGER &&
	    !ft_ui_confirm(ui, "%s one step %s: %s. Sure? [y/N] ", k->name, dir > 0 ? "up" : "down",
			   k->help))
		return;
	ft_ui_control_done(ui, ft_ctl_step(ui->ctl, k, dir));
}

static void key_edit(struct ft_ui *ui, int ch)
{
	struct controls_state *st = S(ui);

	(void)ch;
	edit(ui, selected(st));
}

static void key_restore(struct ft_ui *ui, int ch)
{
	int n = ft_ctl_nr_changed(ui->ctl), failed;

	(void)ch;
	if (!n) {
		ft_ui_status(ui, FT_DIAG_INFO,
			     "nothing to restore: every knob has the value fragtop found");
		return;
	}
	if (!ft_ui_confirm(ui, "put back the %d knob%s fragtop changed? [y/N] ", n,
			   n == 1 ? "" : "s"))
		return;
	failed = ft_ctl_restore_all(ui->ctl);
	ft_ui_read_knobs(ui);
	if (failed)
		ft_ui_status(ui, FT_DIAG_WARN, "restore: %d of %d failed (see the audit log)",
			     failed, n);
	else
		ft_ui_status(ui, FT_DIAG_INFO, "restored %d knob%s", n, n == 1 ? "" : "s");
}

static const struct ft_key controls_keys[] = {
	{ "j k Up Down", { 'j', 'k', KEY_DOWN, KEY_UP, 'g', KEY_HOME },
	  "select a knob (g Home: the first)",
	  NULL, 0, key_select },
	{ "+ - Right Left", { '+', '=', KEY_RIGHT, '-', KEY_LEFT },
	  "one step up or down (next or previous option)",
	  NULL, 0, key_step },
	{ "e Enter", { 'e', '\n', KEY_ENTER }, "type a value; on an action: run it (asks first)",
	  NULL, 0,
	  key_edit },
	{ "r", { 'r' }, "restore every knob fragtop changed (asks first)", NULL, 0, key_restore },
	{ NULL },
};

static const struct ft_legend controls_legend[] = {
	{ "knob", "a vm sysctl or THP setting fragtop can set (b B u w d p keys, or Enter)" },
	{ "value default",
	  "what it is now, and the kernel's default ('-': none, it depends on memory)" },
	{ "range unit", "the values it takes, and what one unit is" },
	{ "(action)",
	  "a write that does something once (compact_memory, drop_caches), not a setting" },
	{ "absent", "this kernel has no such file" },
	{ "not recorded", "replay: the recording holds no read of this knob (the fragtop that made "
			  "it did not read it)" },
	{ "audit log",
	  "every change fragtop made or saw, newest first (also in syslog and the recording)" },
	{ NULL, NULL },
};

static void controls_fini(void *state)
{
	free(((struct controls_state *)state)->ch);
}

const struct ft_view ft_view_controls = {
	.state_size = sizeof(struct controls_state),
	.fini = controls_fini,
	.name = "controls",
	.tab = "ctl",
	.draw = controls_draw,
	.keys = controls_keys,
	.legend = controls_legend,
	.wants = FT_LIVE_WANT_SIZE_KNOBS,
};
