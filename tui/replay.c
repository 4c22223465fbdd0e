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

#include "base/clock.h"
#include "collectors/replay.h"
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
		ft_ui_status(ui, FT_DIAG_INFO, "end of the recording: the comma key steps back, T seeks");
		return;
	}
	dt = rp->session.tick_t_ns > before ? rp->session.tick_t_ns - before : 1000000000ull;
	period = (uint64_t)((double)dt / ui->speed);
	/* the cadence follows the recording's: the next tick one recorded interval on */
	ui->tick.next_ns = ui->tick.next_ns - ui->tick.period_ns + (period ? period : 1);
	ui->tick.period_ns = period ? period : 1;
}

/* Go to the first tick at or after @t_ns (from the nearest checkpoint). */
static void replay_seek_time(struct ft_ui *ui, uint64_t t_ns)
{
	if (ft_replay_seek_time(ui->rp, t_ns) < 0)
		ft_ui_status(ui, FT_DIAG_WARN, "cannot seek in %s", ui->rp->path);
}

/* Go to tick number @n (1 = the first). */
static void replay_seek_tick(struct ft_ui *ui, uint64_t n)
{
	if (ft_replay_seek_tick(ui->rp, n) < 0)
		ft_ui_status(ui, FT_DIAG_WARN, "cannot seek in %s", ui->rp->path);
}

static void key_seek(struct ft_ui *ui, int ch)
{
	char buf[32], *end;
	uint64_t t0, t1;
	double v;

	(void)ch;
	if (!ft_ui_prompt(ui, "seek to (seconds from the start, or N%): ", buf, sizeof(buf)))
		return;
	ft_replay_bounds(ui->rp, &t0, &t1);
	v = strtod(buf, &end);
	if (end == buf || (*end && strcmp(end, "%")) || v < 0 || (*end == '%' && v > 100)) {
		ft_ui_status(ui, FT_DIAG_WARN, "'%s' is neither seconds nor a percentage", buf);
		return;
	}
	if (*end == '%')
		v = v / 100 * (double)(t1 - t0) / 1e9;
	replay_seek_time(ui, t0 + (uint64_t)(v * 1e9));
	ft_ui_status(ui, FT_DIAG_INFO, "at %.1f s (tick %llu)", (double)(ui->rp->session.tick_t_ns - t0) / 1e9,
		     (unsigned long long)ui->rp->session.ticks);
}

static void key_step(struct ft_ui *ui, int ch)
{
	struct ft_replay *rp = ui->rp;

	ui->paused = true;
	if (ch == '.' || ch == KEY_SRIGHT) {
		if (ft_replay_step(rp) <= 0)
			ft_ui_status(ui, FT_DIAG_INFO, "end of the recording");
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

static void key_next_change(struct ft_ui *ui, int ch)
{
	struct ft_replay *rp = ui->rp;
	size_t have = rp->session.nr_audits;

	(void)ch;
	while (rp->session.nr_audits == have && ft_replay_step(rp) > 0)
		;
	if (rp->session.nr_audits > have)
		ft_ui_status(ui, FT_DIAG_INFO, "control change: %s (%s)",
			     rp->session.audits[have].msg, rp->session.audits[have].outcome);
	else
		ft_ui_status(ui, FT_DIAG_INFO, "no control change after this point");
	ui->paused = true;
}

const struct ft_key ft_replay_keys[] = {
	{ ". ,", { '.', ',', KEY_SRIGHT, KEY_SLEFT }, "one tick forward / back (pauses)", ". , step", 62,
	  key_step },
	{ "> <", { '>', '<' }, "faster / slower (x1 ... x1000)", "> < speed", 64, key_speed },
	{ "T", { 'T' }, "seek: seconds from the start, or N%", "T seek", 66, key_seek },
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
	fill = len > 0 ? (int)(pos / len * w + 0.5) : 0;
	if (fill > w)
		fill = w;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '-', (size_t)(w - fill));
	bar[w] = '\0';
	ft_put(0, x, ft_attr(FT_C_HEADER) | A_BOLD, "REPLAY [%s]%s", bar, tail);
}

void ft_ui_replay_mode(struct ft_ui *ui)
{
	ui->header = draw_timeline;
	ui->s = &ui->rp->session;
	ui->mode_keys = ft_replay_keys;
	ui->idle = replay_idle;
}
