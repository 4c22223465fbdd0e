// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay mode of the TUI (`fragtop replay FILE`, started by
 * cmd/replay.c): the live views driven by a recording through the replay
 * source, with a timeline, pause, steps both
 * ways, speed, seeks (from checkpoints, see collectors/replay.h) and the
 * next control change.  Keys that would change or sample a host are
 * refused: a recording is not one.
 */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/report.h"
#include "base/clock.h"
#include "base/sanitize.h"
#include "collectors/replay.h"
#include "model/knobwatch.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

/*
 * Between keys: the next tick when it is due (the recording's own spacing
 * divided by the speed), else checkpoints ahead of the position, so that
 * later seeks are quick.
 */
static void replay_idle(struct ft_ui *ui)
{
	struct ft_replay *rp = ui->rp;
	uint64_t before = rp->session.tick_t_ns, dt, period;

	if (ui->paused || ui->at_end || !ft_tick_due(&ui->tick, ft_now_ns())) {
		if (!rp->indexed)
			ft_replay_index(rp, 600);
		return;
	}
	if (ft_replay_step(rp) <= 0) {
		ui->at_end = true;
		ui->paused = true;
		ft_ui_status(ui, FT_DIAG_INFO,
			     "end of the recording: the comma key steps back, T seeks");
		return;
	}
	ft_ui_ticked(ui);
	dt = rp->session.tick_t_ns > before ? rp->session.tick_t_ns - before : 1000000000ull;
	period = (uint64_t)((double)dt / ui->speed);
	/* the cadence follows the recording's: the next tick one recorded interval on */
	ui->tick.next_ns = ui->tick.next_ns - ui->tick.period_ns + (period ? period : 1);
	ui->tick.period_ns = period ? period : 1;
}

/*
 * A seek has landed on tick n: a view that keeps state from tick to tick
 * (the processes view's rates) sees tick n - 1, then n, so that its first
 * draw has what a replay that ran there would (FRAG/s, not "-").
 */
static void landed(struct ft_ui *ui)
{
	struct ft_replay *rp = ui->rp;
	uint64_t n = rp->session.ticks;

	/* the findings' window starts again at the landing (a seek back, or a jump past it) */
	if (!ui->view->tick || n < 2 || ft_replay_seek_tick(rp, n - 1) < 0) {
		ft_ui_ticked(ui);
		return;
	}
	ft_ui_ticked(ui);
	if (ft_replay_step(rp) > 0)
		ft_ui_ticked(ui);
}

/* Go to the first tick at or after @t_ns (from the nearest checkpoint). */
static void replay_seek_time(struct ft_ui *ui, uint64_t t_ns)
{
	if (ft_replay_seek_time(ui->rp, t_ns) < 0)
		ft_ui_status(ui, FT_DIAG_WARN, "cannot seek in %s", ui->rp->path);
	else
		landed(ui);
}

/* Go to tick number @n (1 = the first). */
static void replay_seek_tick(struct ft_ui *ui, uint64_t n)
{
	if (ft_replay_seek_tick(ui->rp, n) < 0)
		ft_ui_status(ui, FT_DIAG_WARN, "cannot seek in %s", ui->rp->path);
	else
		landed(ui);
}

/*
 * T: seconds from the start, a time of day (HH:MM[:SS], as report's
 * --from) or a percentage.  The tick taken is the one report's window
 * would start at: the first within FT_REP_WINDOW_SHARE of the recorded
 * interval before the time asked (a tick is read a few ms off the cadence).
 */
static void key_seek(struct ft_ui *ui, int ch)
{
	const struct ft_session *s = &ui->rp->session;
	char buf[32], why[160], *end;
	double v, slack = FT_REP_WINDOW_SLACK;
	uint64_t t0, t1;

	(void)ch;
	if (!ft_ui_prompt(ui, "seek to (seconds from the start, HH:MM[:SS], or N%): ", buf,
			  sizeof(buf)))
		return;
	ft_replay_bounds(ui->rp, &t0, &t1);
	v = strtod(buf, &end);
	if (end != buf && !strcmp(end, "%") && v >= 0 && v <= 100) {
		v = v / 100 * (double)(t1 - t0) / 1e9;
		slack = 0;	/* a share of the length, not a tick's time */
	} else if (ft_report_window_secs(buf, s->first_rt_ns, &v, why, sizeof(why))) {
		ft_ui_status(ui, FT_DIAG_WARN, "%s", why);
		return;
	/* the recorded interval, on average */
	} else if (s->ticks > 1 && s->tick_t_ns > s->first_t_ns) {
		slack = FT_REP_WINDOW_SHARE * (double)(s->tick_t_ns - s->first_t_ns) / 1e9 /
			(double)(s->ticks - 1);
	}
	replay_seek_time(ui, t0 + (uint64_t)((v > slack ? v - slack : 0) * 1e9));
	ft_ui_status(ui, FT_DIAG_INFO, "at %.1f s (tick %llu)",
		     (double)(ui->rp->session.tick_t_ns - t0) / 1e9,
		     (unsigned long long)ui->rp->session.ticks);
}

static void key_step(struct ft_ui *ui, int ch)
{
	struct ft_replay *rp = ui->rp;

	ui->paused = true;
	if (ch == '.' || ch == KEY_SRIGHT) {
		if (ft_replay_step(rp) <= 0)
			ft_ui_status(ui, FT_DIAG_INFO, "end of the recording");
		else
			ft_ui_ticked(ui);
		return;
	}
	ui->at_end = false;
	if (rp->session.ticks > 1)
		replay_seek_tick(ui, rp->session.ticks - 1);
}

static void key_speed(struct ft_ui *ui, int ch)
{
	if (ch == '>')
		ui->speed = ui->speed * 2 > 1000 ? 1000 : ui->speed * 2;
	else
		ui->speed = ui->speed / 2 < 1 ? 1 : ui->speed / 2;
	ft_ui_status(ui, FT_DIAG_INFO, "speed x%g", ui->speed);
}

/* The first change ft_knob_watch_step() hands out, as a status line. */
struct next_change {
	char what[200];
	bool found;
};

static void on_next_change(void *ctx, const struct ft_knob_change *c)
{
	struct next_change *n = ctx;
	char m[128], a[48], b[48];

	if (n->found)
		return;
	n->found = true;
	if (c->audit)	/* the recording's strings, made safe for the terminal */
		snprintf(n->what, sizeof(n->what), "control change: %.120s (%.40s)",
			 ft_safe(c->audit->msg, m, sizeof(m)),
			 ft_safe(c->audit->outcome, a, sizeof(a)));
	else
		snprintf(n->what, sizeof(n->what),
			 "outside change: %s %s -> %s (made outside this fragtop)",
			 c->knob ? c->knob->name : "a knob", ft_safe(c->old, a, sizeof(a)),
			 ft_safe(c->new, b, sizeof(b)));
}

/*
 * n: run to the tick with the next control change, the recording's own or
 * a knob seen to change outside it (as report lists them).
 */
static void key_next_change(struct ft_ui *ui, int ch)
{
	struct ft_knob_watch watch;	/* 2 KiB, started below */
	struct ft_replay *rp = ui->rp;
	struct next_change n = { .found = false };

	(void)ch;
	ft_knob_watch_start(&watch, &rp->session);
	while (!n.found && ft_replay_step(rp) > 0)
		ft_knob_watch_step(&watch, &rp->session, on_next_change, &n);
	landed(ui);
	ft_ui_status(ui, FT_DIAG_INFO, "%s",
		     n.found ? n.what : "no control change after this point");
	ui->paused = true;
}

const struct ft_key ft_ui_replay_keys[] = {
	{ ". ,", { '.', ',', KEY_SRIGHT, KEY_SLEFT }, "one tick forward / back (pauses)",
	  ". , step", 62,
	  key_step },
	{ "> <", { '>', '<' }, "faster / slower (x1 ... x1000)", "> < speed", 64, key_speed },
	{ "T", { 'T' }, "seek: seconds from the start, HH:MM[:SS], or N%", "T seek", 66, key_seek },
	{ "n", { 'n' }, "run to the next control change", NULL, 0, key_next_change },
	{ NULL },
};

/* "REPLAY [#####-----] 45/109s x4" on the right of the header. */
static void draw_timeline(struct ft_ui *ui)
{
	uint64_t t0, t1;
	double pos, len;
	char bar[24], tail[64];
	int w = 20, fill, x, room;

	ft_replay_bounds(ui->rp, &t0, &t1);
	len = (double)(t1 - t0) / 1e9;
	pos = ui->rp->session.tick_t_ns > t0 ? (double)(ui->rp->session.tick_t_ns - t0) / 1e9 : 0;
	/*
	 * After the host's part, before PAUSED or ROOT (8 columns): the bar
	 * shrinks, then goes, on a narrow terminal; the position always shows.
	 */
	x = COLS - 58;
	if (x < ui->header_end + 2)
		x = ui->header_end + 2;
	snprintf(tail, sizeof(tail), " %.0f/%.0fs x%g", pos, len, ui->speed);
	room = COLS - 9 - x - (int)strlen(tail);
	if (room < 9 + 5) {		/* "REPLAY [" "]" and a bar of 5 or more */
		if (room >= 6) {
			ft_put(0, x, ft_attr(FT_C_HEADER) | A_BOLD, "REPLAY%s", tail);
		} else {
			x = COLS - 9 - (int)strlen(tail);
			ft_put(0, x > 0 ? x : 0, ft_attr(FT_C_HEADER) | A_BOLD, "%s", tail + 1);
		}
		return;
	}
	if (room - 9 < w)
		w = room - 9;
	fill = len > 0 ? ft_cell_index(pos / len * w + 0.5, 0, w) : 0;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '-', (size_t)(w - fill));
	bar[w] = '\0';
	ft_put(0, x, ft_attr(FT_C_HEADER) | A_BOLD, "REPLAY [%s]%s", bar, tail);
}

void ft_ui_replay_mode(struct ft_ui *ui)
{
	ui->header = draw_timeline;
	ui->header_room = 16;		/* " 1234/5678s x16": the position, always shown */
	ui->s = &ui->rp->session;
	ui->mode_keys = ft_ui_replay_keys;
	ui->idle = replay_idle;
}
