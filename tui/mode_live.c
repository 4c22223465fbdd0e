// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live mode of the TUI (`fragtop`, started by cmd/top.c): a live
 * source's session drawn by the views, the keys that change knobs, record
 * and set the interval, and what runs between keys (a tick on the fixed
 * cadence, trace pages, the boost sampler, the map scan).
 */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/outfile.h"
#include "tui/ui.h"
#include "tui/view.h"

static void watch_report(struct ft_ui *ui);

/*
 * How soon the work between keys is due, in ms (at least 1): the
 * sampler's next read when the loop does it, the next trace drain, at
 * most a second (the tick wakes the loop on its own).  Idle, that is a
 * wake-up a second, not four.
 */
static int live_idle_ms(struct ft_ui *ui)
{
	uint64_t w = ft_live_boost_wait_ns(ui->live), t = ft_live_trace_wait_ns(ui->live);
	int ms;

	if (t < w)
		w = t;
	ms = w >= 1000000000ull ? 1000 : (int)(w / 1000000) + 1;

	/* the map's first look, and R's pass, go on slice by slice, keys read between */
	if ((!ui->paused && ft_live_map_wait_ms(ui->live) == 0) || ft_live_map_rescanning(ui->live))
		ms = 1;
	return ms;
}

/*
 * What the live source reads beyond each tick's files: what the view on
 * screen shows (help keeps the view under it), and everything while a
 * recording is made (a recording holds what any view could show), but
 * the cgroups only while their view is shown (or record --cgroups): a
 * node's hundreds of cgroups are a few files each a tick.
 */
static unsigned int live_wants(const struct ft_ui *ui)
{
	const struct ft_view *v = ui->view == &ft_view_help &&
	ui->prev_view ? ui->prev_view : ui->view;

	return (ui->rec ? FT_LIVE_WANT_ALL : 0) | (v ? v->wants : 0);
}

/* R's pass over every zone, a slice of RESCAN_SLICE_NS at a time; said when done. */
#define RESCAN_SLICE_NS	(20ull * 1000000ull)

static void rescan_slice(struct ft_ui *ui)
{
	int r;

	if (!ft_live_map_rescanning(ui->live))
		return;
	r = ft_live_map_rescan_step(ui->live, RESCAN_SLICE_NS);
	ui->redraw = true;
	if (r > 0)
		ft_ui_status(ui, FT_DIAG_INFO,
			     "full rescan: %.0f ms in %llu slices (keys read between)",
			     (double)(ft_now_ns() - ui->rescan_t0) / 1e6,
			     (unsigned long long)ui->live->map.rescan_steps);
}

/* What runs between keys, and while a prompt waits: sampling never stops for the operator. */
static void live_idle(struct ft_ui *ui)
{
	uint64_t now = ft_now_ns();
	unsigned int wants = live_wants(ui);
	bool want;

	if (wants != ui->live->wants)
		ft_live_want(ui->live, wants);	/* before the tick: it reads what the view shows */
	ft_live_boost_poll(ui->live);
	if (!ui->paused && ft_tick_due(&ui->tick, now)) {
		ft_live_tick(ui->live, false);
		ft_ui_ticked(ui);
		if (ui->on_tick)
			ui->on_tick(ui->on_tick_ctx, ui);
		watch_report(ui);
	}
	ft_live_trace_maybe_poll(ui->live);
	/* the map is scanned only while it is on screen */
	want = ui->view == &ft_view_map ||
	(ui->view == &ft_view_help && ui->prev_view == &ft_view_map);
	if (want != ui->live->map.scan) {
		ft_live_map_enable(ui->live, want);
		/* a draw first: it tells the scanner which zone is on screen and how coarse */
		ui->redraw = true;
		return;
	}
	/* the map's first look comes in samples: show them as they come, not at the next tick */
	if (!ui->paused && ft_live_map_poll(ui->live))
		ui->redraw = true;
	rescan_slice(ui);
}

/*
 * After a change of watermark_boost_factor, what the boost did over the
 * next ticks goes to the status line: the operator sees the effect of b/B.
 */
#define WATCH_TICKS	5

static struct {
	uint64_t from_tick;		/* 0: not watching */
	char change[128];
	struct ft_boost_tick before[FT_BOOST_ZONES];
} watch;

static void watch_start(struct ft_ui *ui, const struct ft_audit *a)
{
	const struct ft_session *s = ui->s;

	if (!ui->live->boost.hz)
		return;		/* no sampler: nothing to report */
	watch.from_tick = s->ticks ? s->ticks : 1;
	snprintf(watch.change, sizeof(watch.change), "%s %s -> %s", a->knob, a->old, a->new);
	memcpy(watch.before, s->boost_total, sizeof(watch.before));
}

static void watch_report(struct ft_ui *ui)
{
	const struct ft_session *s = ui->s;
	const struct ft_zoneinfo *zi = &s->sample.zoneinfo;
	char msg[256];
	size_t n;
	int i, said = 0;

	if (!watch.from_tick || s->ticks < watch.from_tick + WATCH_TICKS)
		return;
	if (!s->boost_nr) {	/* the sampler has not seen a tick yet */
		watch.from_tick = 0;
		return;
	}
	n = (size_t)snprintf(msg, sizeof(msg), "%d s after %s:", WATCH_TICKS, watch.change);
	for (i = 0; i < s->boost_nr && (size_t)i < zi->nr && n < sizeof(msg); i++) {
		const struct ft_boost_tick *b = &s->boost_total[i], *a = &watch.before[i];
		uint32_t reads = b->samples - a->samples, on = b->boosted - a->boosted;

		if (!zi->zones[i].present || !on)
			continue;
		n += (size_t)snprintf(msg + n, sizeof(msg) - n, " %s boosted %.0f%%, %u ep;",
				      zi->zones[i].name,
				      reads ? 100.0 * on / reads : 0.0, b->episodes - a->episodes);
		said++;
	}
	if (!said && n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - n, " no zone was boosted");
	ft_ui_status(ui, FT_DIAG_INFO, "%s", msg);
	watch.from_tick = 0;
}

/* Every control change becomes an input of the live session (and of a recording). */
static void on_audit(void *ctx, const struct ft_audit *a)
{
	struct ft_ui *ui = ctx;
	char text[1024];
	int n = ft_audit_text(a, text, sizeof(text));

	if (ui->live && n > 0)
		ft_live_audit(ui->live, text,
			      (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}

static void key_boost(struct ft_ui *ui, int ch)
{
	const struct ft_audit *a;

	if (!ft_ui_may_write(ui))
		return;
	a = ft_ctl_step(ui->ctl, ft_knob_find("watermark_boost_factor"), ch == 'B' ? 1 : -1);

	ft_ui_control_done(ui, a);
	if (a && a->outcome == FT_CTL_OK)
		watch_start(ui, a);	/* and say what the boost did over the next ticks */
}

static void key_undo(struct ft_ui *ui, int ch)
{
	const struct ft_audit *a;

	(void)ch;
	if (!ft_ctl_nr_changed(ui->ctl)) {
		ft_ui_status(ui, FT_DIAG_INFO, "nothing to undo");
		return;
	}
	a = ft_ctl_undo(ui->ctl);
	if (a)
		ft_ui_control_done(ui, a);
	else
		ft_ui_status(ui, FT_DIAG_INFO, "nothing to undo");
}

static void key_interval(struct ft_ui *ui, int ch)
{
	char buf[32], *end;
	double v;

	(void)ch;
	if (!ft_ui_prompt(ui, "interval in seconds (0.1-3600): ", buf, sizeof(buf)))
		return;
	v = strtod(buf, &end);
	if (*end || !(v >= 0.1 && v <= 3600)) {
		ft_ui_status(ui, FT_DIAG_WARN,
			     "'%s' is not an interval between 0.1 and 3600 s; keeping %gs",
			     buf, ui->interval);
		return;
	}
	ft_ui_set_interval(ui, v);
}

static void key_pti(struct ft_ui *ui, int ch)
{
	(void)ch;
	ft_live_tick(ui->live, true);
	ft_ui_status(ui, FT_DIAG_INFO, "pagetypeinfo read");
}

/* Control changes go into the recording too: they are inputs of the session. */
int ft_ui_record_start(struct ft_ui *ui, const char *path)
{
	int err;

	ui->rec = calloc(1, sizeof(*ui->rec));
	err = ui->rec ? ft_recorder_start(ui->rec, ui->live, path, false) : -ENOMEM;
	if (err) {
		free(ui->rec);
		ui->rec = NULL;
		return err;
	}
	return 0;
}

int ft_ui_record_stop(struct ft_ui *ui, char *msg, size_t sz)
{
	int err;

	err = ft_recorder_stop(ui->rec);
	snprintf(msg, sz, "recorded %llu ticks to %.1024s (%llu bytes)%s%s",
		 (unsigned long long)(ui->rec->ticks - ui->rec->w.dropped_ticks), ui->rec->path,
		 (unsigned long long)ui->rec->w.file_bytes, err ? ": " : "",
		 err ? strerror(-err) : "");
	free(ui->rec);
	ui->rec = NULL;
	return err;
}

/* w: start recording (asks for a file) or stop the recording in progress. */
static void key_record(struct ft_ui *ui, int ch)
{
	char path[1024], msg[1200];
	int err;

	(void)ch;
	if (ui->rec) {
		if (!ft_ui_confirm(ui, "stop recording to %s? [y/N] ", ui->rec->path))
			return;
		err = ft_ui_record_stop(ui, msg, sizeof(msg));
		ft_ui_status(ui, err ? FT_DIAG_WARN : FT_DIAG_INFO, "%s", msg);
		return;
	}
	if (!ft_ui_prompt(ui, "record to file: ", path, sizeof(path)))
		return;
	err = ft_ui_record_start(ui, path);
	if (err) {
		char why[160];

		ft_ui_status(ui, FT_DIAG_WARN, "cannot record to %s: %s", path,
			     ft_outfile_strerror(err, NULL, why, sizeof(why)));
		return;
	}
	ft_ui_status(ui, FT_DIAG_INFO, "recording to %s (w stops)", path);
}

const struct ft_key ft_ui_live_keys[] = {
	{ "b B", { 'b', 'B' }, "watermark_boost_factor one step down / up", "b/B boost", 40,
	  key_boost },
	{ "u", { 'u' }, "undo the last knob change", "u undo", 50, key_undo },
	{ "w", { 'w' }, "start recording to a file / stop recording", NULL, 0, key_record },
	{ "d", { 'd' }, "set the sampling interval (seconds)", "d interval", 70, key_interval },
	{ "p", { 'p' }, "read /proc/pagetypeinfo now", NULL, 0, key_pti },
	{ NULL },
};

static int live_poll_fds(struct ft_ui *ui, int *fds, int cap)
{
	return ft_live_poll_fds(ui->live, fds, cap);
}

static void live_polled(struct ft_ui *ui, int n)
{
	ft_live_polled(ui->live, n);
}

void ft_ui_live_mode(struct ft_ui *ui)
{
	ui->s = &ui->live->session;
	ui->mode_keys = ft_ui_live_keys;
	ui->idle = live_idle;
	ui->idle_ms = live_idle_ms;
	ui->poll_fds = live_poll_fds;
	ui->polled = live_polled;
	ui->ctl->hook = on_audit;
	ui->ctl->hook_ctx = ui;
}
