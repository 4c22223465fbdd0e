// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The findings view (key !, as the header's marker): fragtop doctor's rules over the last minute
 * of the session, live or replayed (analysis/findings_live.h).  Its
 * window is kept after every tick whether the view is shown or not, so
 * the header's marker ("! 2 findings") is there on every view.  Each
 * finding: its rule and title, what raised it, two lines of why, the
 * figures, where to look, the action with its knob, what to expect and
 * from where, the runbook's section; then what was checked, and what
 * could not be and why.  It scrolls (j k, the arrows, PgUp PgDn, g G).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/findings_live.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

struct findings_state {
	struct ft_find_live fl;
	struct ft_findings fs;
	bool judged;			/* the window has two ticks: fs holds its findings */
	int first;			/* the first line shown */
	int lines, page;		/* counted by the last draw */
};

#define S(ui)	((struct findings_state *)ft_view_state(ui, &ft_view_findings))

static void findings_init(void *state)
{
	struct findings_state *st = state;

	ft_find_live_init(&st->fl, 0);
}

/* After every tick, shown or not: the window moves, the rules are judged again. */
static void findings_tick_always(struct ft_ui *ui)
{
	struct findings_state *st = S(ui);
	int before = st->judged ? st->fs.nr : -1;

	ft_find_live_tick(&st->fl, ui->s);
	st->judged = ft_find_in_live(&st->fl, ui->s, &st->fs.in);
	if (st->judged)
		ft_find_eval(&st->fs.in, &st->fs);
	if ((st->judged ? st->fs.nr : -1) != before)
		st->first = 0;	/* other findings: read from the top */
}

/*
 * The header's mark while any rule fires over the window: "! 2 findings" (! opens them); none
 * before two ticks.
 */
static unsigned int findings_mark(const struct ft_ui *ui, char *buf, size_t sz)
{
	const struct findings_state *st = ft_view_state(ui, &ft_view_findings);
	int i, crit = 0;

	if (!st || !st->judged || !st->fs.nr)
		return 0;
	for (i = 0; i < st->fs.nr; i++)
		crit += st->fs.f[i].sev == FT_SEV_CRITICAL;
	snprintf(buf, sz, "! %d finding%s", st->fs.nr, st->fs.nr == 1 ? "" : "s");
	return (crit ? ft_attr(FT_C_BAD) : ft_attr(FT_C_WARN)) | A_BOLD;
}

/* Where the lines go: a virtual line number, the rows of the screen it maps to. */
struct pen {
	int line, top, height, first;
};

static void put_line(struct pen *p, int x, unsigned int attr, const char *text, int len)
{
	if (p->line >= p->first && p->line < p->first + p->height)
		ft_put(p->top + p->line - p->first, x, attr, "%.*s", len, text);
	p->line++;
}

/* @text at column @x, wrapped at the screen's width (at spaces) to the same column. */
static void wrap(struct pen *p, int x, unsigned int attr, const char *text)
{
	size_t room = COLS - x > 20 ? (size_t)(COLS - x) : 20, n = strlen(text), at = 0;

	while (at < n) {
		size_t take = ft_wrap_take(text + at, n - at, room);

		put_line(p, x, attr, text + at, (int)take);
		at = ft_wrap_skip(text, n, at + take);
	}
}

/* "label  text", the text wrapped under itself. */
static void field(struct pen *p, const char *label, const char *text)
{
	int l0 = p->line;

	wrap(p, 12, A_NORMAL, text);
	if (l0 >= p->first && l0 < p->first + p->height)
		ft_put(p->top + l0 - p->first, 2, ft_attr(FT_C_LABEL), "%s", label);
}

static void one(struct pen *p, const struct ft_findings *fs, const struct ft_finding *f)
{
	const struct ft_rule *r = f->rule;
	unsigned int sev_attr = f->sev == FT_SEV_CRITICAL ? ft_attr(FT_C_BAD) | A_BOLD :
				f->sev == FT_SEV_WARNING ? ft_attr(FT_C_WARN) | A_BOLD : A_BOLD;
	const char *nl = strchr(r->explain, '\n');
	char buf[768], val[64];
	size_t n = 0;
	int i;

	snprintf(buf, sizeof(buf), "%s %s: %s", f->sev == FT_SEV_CRITICAL ? "CRITICAL" :
		 f->sev == FT_SEV_WARNING ? "WARNING" : "INFO", r->name, r->title);
	wrap(p, 0, sev_attr, buf);
	wrap(p, 2, A_NORMAL, f->detail);
	/* the two lines of why, as one paragraph at the screen's width */
	snprintf(buf, sizeof(buf), "%.*s%s%s",
		 nl ? (int)(nl - r->explain) : (int)strlen(r->explain), r->explain,
		 nl ? " " : "", nl ? nl + 1 : "");
	wrap(p, 2, ft_attr(FT_C_DIM), buf);
	buf[0] = '\0';
	for (i = 0; i < f->nr_ev && n < sizeof(buf); i++) {
		ft_find_value_text(&fs->in, f->ev[i], val, sizeof(val));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s %s", i ? ", " : "",
				      ft_find_figs[f->ev[i]].key,
				      val);
	}
	field(p, "evidence", buf);
	field(p, "look", r->look);
	if (f->knob[0])
		snprintf(buf, sizeof(buf), "%s: %s=%s (fragtop set, or the controls view, 4)",
			 r->action, f->knob,
			 f->value);
	else
		snprintf(buf, sizeof(buf), "%s", r->action);
	field(p, "action", buf);
	field(p, "expect", r->effect);
	field(p, "source", r->source);
	snprintf(buf, sizeof(buf), "docs/runbook.md#%s", r->name);
	field(p, "runbook", buf);
	p->line++;
}

/* What was checked, and what could not be and why. */
static void checked(struct pen *p, const struct ft_findings *fs)
{
	char buf[2048];
	size_t n = 0;
	int i;

	for (i = 0; i < FT_FIND_RULES && n < sizeof(buf); i++)
		if (fs->checked[i])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "",
					      ft_find_rules[i].name);
	field(p, "checked", n ? buf : "nothing yet");
	for (i = 0, n = 0; i < FT_FIND_RULES && n < sizeof(buf); i++)
		if (!fs->checked[i])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s (needs %s)",
					      n ? "; " : "",
					      ft_find_rules[i].name,
					      ft_find_figs[fs->missing[i]].needs);
	if (n)
		field(p, "unchecked", buf);
}

static void findings_draw(struct ft_ui *ui, int top, int height)
{
	struct findings_state *st = S(ui);
	struct pen p = { .line = 0, .top = top + 1, .height = height - 1, .first = st->first };
	int i;

	if (!st->judged) {
		ft_put(top, 0, ft_attr(FT_C_DIM),
		       "findings: the window needs two ticks (fragtop doctor's rules, over the "
		       "last %.0f s)", st->fl.window_s);
		return;
	}
	ft_put(top, 0, ft_attr(FT_C_LABEL),
	       "%d finding%s over %.0f-%.0f s (the last %.0f s); the rules: fragtop doctor "
	       "--rules, docs/runbook.md", st->fs.nr, st->fs.nr == 1 ? "" : "s", st->fs.in.from_s,
	       st->fs.in.to_s, st->fl.window_s);
	if (!st->fs.nr) {
		wrap(&p, 0, ft_attr(FT_C_OK), "nothing wrong found");
		p.line++;
	}
	for (i = 0; i < st->fs.nr; i++)
		one(&p, &st->fs, &st->fs.f[i]);
	checked(&p, &st->fs);
	st->lines = p.line;
	st->page = p.height;
	if (st->first && st->lines > st->page)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "lines %d-%d of %d",
			 st->first + 1,
			 st->first + st->page < st->lines ? st->first + st->page : st->lines,
			 st->lines);
}

static void key_scroll(struct ft_ui *ui, int ch)
{
	struct findings_state *st = S(ui);
	int max = st->lines > st->page ? st->lines - st->page : 0;
	int d = ch == 'j' || ch == KEY_DOWN ? 1 : ch == 'k' ||
	ch == KEY_UP ? -1 : ch == KEY_NPAGE ? st->page :
		ch == KEY_PPAGE ? -st->page : ch == 'G' ? max : -st->first;

	st->first += d;
	if (st->first > max)
		st->first = max;
	if (st->first < 0)
		st->first = 0;
}

static void findings_wheel(struct ft_ui *ui, int dir)
{
	key_scroll(ui, dir < 0 ? KEY_UP : KEY_DOWN);
}

static const struct ft_key findings_keys[] = {
	{ "j k PgUp PgDn g G", { 'j', 'k', KEY_DOWN, KEY_UP, KEY_NPAGE, KEY_PPAGE, 'g', 'G' },
	  "scroll", NULL, 0,
	  key_scroll },
	{ NULL },
};

static const struct ft_legend findings_legend[] = {
	{ "CRITICAL WARNING INFO",
	  "the finding's severity: the rule's own, or graver where the figures say so (a size "
	  "asked for that cannot fit even after compaction)" },
	{ "evidence", "the figures that raised it, over the window (the last minute of ticks)" },
	{ "action",
	  "what to change; the knob and value, for fragtop set or the controls view (4)" },
	{ "expect, source", "the change's expected effect, and where that expectation comes from "
	  "(fragtop's lab table, the seeds' table, or the kernel's documentation where nothing was "
	  "measured)" },
	{ "unchecked", "rules whose inputs the session lacks (tracing and the map need root), and "
		       "what they need" },
	{ "! N findings", "in the header, on every view: N rules fire over the window" },
	{ NULL, NULL },
};

const struct ft_view ft_view_findings = {
	.name = "findings",
	.tab = "find",
	.draw = findings_draw,
	.keys = findings_keys,
	.legend = findings_legend,
	.wheel = findings_wheel,
	.tick_always = findings_tick_always,
	.mark = findings_mark,
	.state_size = sizeof(struct findings_state),
	.init = findings_init,
};
