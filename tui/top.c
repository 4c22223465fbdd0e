// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live TUI (`fragtop`, the default command): a live source, its
 * session drawn by the views, the keys that change knobs, record and set
 * the interval.  One loop: run what is due (a tick on the fixed cadence,
 * trace pages, the map scan), draw, wait for a key.  The terminal is
 * restored on q, SIGINT, SIGTERM and SIGHUP.
 */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/outfile.h"
#include "tui/cli.h"
#include "tui/ui.h"
#include "tui/view.h"

static void watch_report(struct ft_ui *ui);

/* The sampler's next read, in ms (at least 1). */
static int live_idle_ms(struct ft_ui *ui)
{
	uint64_t w = ft_live_boost_wait_ns(ui->live);

	return w == UINT64_MAX ? 250 : (int)(w / 1000000) + 1;
}

/* What runs between keys, and while a prompt waits: sampling never stops for the operator. */
static void live_idle(struct ft_ui *ui)
{
	uint64_t now = ft_now_ns();
	bool want;

	ft_live_boost_poll(ui->live);
	if (!ui->paused && ft_tick_due(&ui->tick, now)) {
		ft_live_tick(ui->live, false);
		watch_report(ui);
	}
	ft_live_trace_maybe_poll(ui->live);
	/* the map is scanned only while it is on screen */
	want = ui->view == &ft_view_map || (ui->view == &ft_view_help && ui->prev_view == &ft_view_map);
	if (want != ui->live->map_scan)
		ft_live_map_enable(ui->live, want);
	if (!ui->paused)
		ft_live_map_poll(ui->live);
}

/* Every control change becomes an input of the live session (and of a recording). */
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

	if (!ui->live->boost_hz)
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
		n += (size_t)snprintf(msg + n, sizeof(msg) - n, " %s boosted %.0f%%, %u ep;", zi->zones[i].name,
				      reads ? 100.0 * on / reads : 0.0, b->episodes - a->episodes);
		said++;
	}
	if (!said && n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - n, " no zone was boosted");
	ft_ui_status(ui, FT_DIAG_INFO, "%s", msg);
	watch.from_tick = 0;
}

static void on_audit(const struct ft_audit *a, void *ctx)
{
	struct ft_ui *ui = ctx;
	char text[1024];
	int n = ft_audit_text(a, text, sizeof(text));

	if (ui->live && n > 0)
		ft_live_audit(ui->live, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
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
		ft_ui_status(ui, FT_DIAG_WARN, "'%s' is not an interval between 0.1 and 3600 s; keeping %gs",
			     buf, ui->interval);
		return;
	}
	ui->interval = v;
	ft_tick_restart(&ui->tick, (uint64_t)(v * 1e9), ft_now_ns());
	ft_ui_status(ui, FT_DIAG_INFO, "sampling every %gs", v);
}

static void key_pti(struct ft_ui *ui, int ch)
{
	(void)ch;
	ft_live_tick(ui->live, true);
	ft_ui_status(ui, FT_DIAG_INFO, "pagetypeinfo read");
}

/* Record the session to @path from now on, control changes included.  0 or -errno. */
static int start_recording(struct ft_ui *ui, const char *path)
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

/* Close the recording; @msg says what it holds.  0 or -errno. */
static int stop_recording(struct ft_ui *ui, char *msg, size_t sz)
{
	int err;

	err = ft_recorder_stop(ui->rec);
	snprintf(msg, sz, "recorded %llu ticks to %.1024s (%llu bytes)%s%s",
		 (unsigned long long)ui->rec->ticks, ui->rec->path,
		 (unsigned long long)ui->rec->w.file_bytes, err ? ": " : "", err ? strerror(-err) : "");
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
		err = stop_recording(ui, msg, sizeof(msg));
		ft_ui_status(ui, err ? FT_DIAG_WARN : FT_DIAG_INFO, "%s", msg);
		return;
	}
	if (!ft_ui_prompt(ui, "record to file: ", path, sizeof(path)))
		return;
	err = start_recording(ui, path);
	if (err) {
		char why[160];

		ft_ui_status(ui, FT_DIAG_WARN, "cannot record to %s: %s", path,
			     ft_outfile_strerror(err, NULL, why, sizeof(why)));
		return;
	}
	ft_ui_status(ui, FT_DIAG_INFO, "recording to %s (w stops)", path);
}

const struct ft_key ft_live_keys[] = {
	{ "b B", { 'b', 'B' }, "watermark_boost_factor one step down / up", "b/B boost", 40, key_boost },
	{ "u", { 'u' }, "undo the last knob change", "u undo", 50, key_undo },
	{ "w", { 'w' }, "start recording to a file / stop recording", NULL, 0, key_record },
	{ "d", { 'd' }, "set the sampling interval (seconds)", "d interval", 70, key_interval },
	{ "p", { 'p' }, "read /proc/pagetypeinfo now", NULL, 0, key_pti },
	{ NULL },
};

/*
 * After endwin(): with --restore-on-exit put every changed knob back and
 * say so; otherwise list what stays changed, so no change goes unnoticed.
 */
static void finish_controls(struct ft_ui *ui)
{
	size_t from = ft_ctl_audit_kept(ui->ctl), i;

	if (!ft_ctl_nr_changed(ui->ctl))
		return;
	if (ui->restore_on_exit) {
		ft_ctl_restore_all(ui->ctl);
		for (i = from; i < ft_ctl_audit_kept(ui->ctl); i++)
			fprintf(stderr, "fragtop: restore: %s\n", ft_ctl_audit_get(ui->ctl, i)->msg);
		return;
	}
	for (i = 0; i < ft_knobs_nr && i < 64; i++) {
		struct ft_knob_value v;
		char now[FT_KNOB_TEXT];

		if (!ui->ctl->orig[i][0] || ft_ctl_read(ui->ctl->rootfd, &ft_knobs[i], &v))
			continue;
		ft_knob_value_text(&ft_knobs[i], &v, now, sizeof(now));
		if (strcmp(now, ui->ctl->orig[i]))
			fprintf(stderr, "fragtop: left changed: %s %s (was %s; --restore-on-exit puts it back)\n",
				ft_knobs[i].name, now, ui->ctl->orig[i]);
	}
}

enum { T_INTERVAL, T_PTI, T_ROOT, T_NO_COLOR, T_NO_TRACE, T_BUFFER, T_READ_ONLY, T_MAP_CPU, T_MAP_RATE,
       T_WRITE, T_RESTORE, T_BOOST, T_NR };

static const struct ft_opt top_opts[T_NR] = {
	[T_INTERVAL] = FT_OPT_INTERVAL(0.1, "1"),
	[T_PTI] = FT_OPT_PTI_INTERVAL,
	[T_ROOT] = FT_OPT_ROOT,
	[T_NO_COLOR] = FT_OPT_NO_COLOR,
	[T_NO_TRACE] = FT_OPT_NO_TRACE,
	[T_BUFFER] = FT_OPT_TRACE_BUFFER,
	[T_READ_ONLY] = { "read-only", 0, FT_OPT_FLAG, NULL,
			  "never write a knob (keys that would are refused)" },
	[T_MAP_CPU] = { "map-cpu", 0, FT_OPT_NUM, "PCT",
			"CPU the pageblock map scan may use while the map view is\n"
			"shown, % of a core (default 2): blocks fallbacks named first,\n"
			"then round-robin", 0.1, 100 },
	[T_MAP_RATE] = { "map-rate", 0, FT_OPT_UINT, "PFNS",
			 "also cap the map scan at PFNS PFNs per second (default: no cap)",
			 4096, 1099511627776.0 },
	[T_WRITE] = { "write", 'w', FT_OPT_STR, "FILE", "record the session to FILE (see 'fragtop record')" },
	[T_RESTORE] = { "restore-on-exit", 0, FT_OPT_FLAG, NULL,
			"on exit, put back every knob fragtop changed" },
	[T_BOOST] = FT_OPT_BOOST_HZ,
};

static int run_top(int argc, char **argv)
{
	struct ft_optval v[T_NR];
	struct ft_ui *ui;
	const char *record_path, *root, *nc = getenv("NO_COLOR");
	bool read_only, color, trace;
	uint64_t map_rate;
	size_t buffer_kb;
	int err, first;

	err = ft_cli_parse(&ft_cmd_top, argc, argv, v, &first);
	if (err >= 0)
		return err;
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_top, "'%s': unknown command ('fragtop help' lists them)",
					  argv[first]);
	ui = calloc(1, sizeof(*ui));
	if (!ui) {
		fprintf(stderr, "fragtop: out of memory\n");
		return 1;
	}
	ui->interval = v[T_INTERVAL].set ? v[T_INTERVAL].num : 1;
	ui->pti_interval = v[T_PTI].set ? v[T_PTI].num : 10;
	ui->restore_on_exit = v[T_RESTORE].set;
	root = v[T_ROOT].set ? v[T_ROOT].str : "/";
	color = !(nc && *nc) && !v[T_NO_COLOR].set;
	trace = !v[T_NO_TRACE].set;
	buffer_kb = v[T_BUFFER].set ? (size_t)v[T_BUFFER].num : 8192;
	read_only = v[T_READ_ONLY].set;
	map_rate = v[T_MAP_RATE].set ? (uint64_t)v[T_MAP_RATE].num : 0;
	record_path = v[T_WRITE].set ? v[T_WRITE].str : NULL;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "fragtop: the live view needs a terminal; try 'fragtop snapshot'\n");
		free(ui);
		return 1;
	}
	ui->live = calloc(1, sizeof(*ui->live));
	err = ui->live ? ft_live_open(ui->live, root, ui->pti_interval) : -ENOMEM;
	if (err) {
		fprintf(stderr, "fragtop: cannot open root %s: %s\n", root, strerror(-err));
		free(ui->live);
		free(ui);
		return 1;
	}
	ui->live->map_rate = map_rate;
	if (v[T_MAP_CPU].set)
		ui->live->map_cpu = v[T_MAP_CPU].num / 100;
	if (v[T_BOOST].set)
		ft_live_boost_set(ui->live, (unsigned int)v[T_BOOST].num);
	ui->s = &ui->live->session;
	ui->mode_keys = ft_live_keys;
	ui->idle = live_idle;
	ui->idle_ms = live_idle_ms;
	ui->ctl = malloc(sizeof(*ui->ctl));
	if (!ui->ctl) {
		fprintf(stderr, "fragtop: out of memory\n");
		ft_live_close(ui->live);
		free(ui->live);
		free(ui);
		return 1;
	}
	ft_ctl_init(ui->ctl, ui->live->procfs.rootfd,
		    read_only ? "fragtop runs --read-only" :
		    strcmp(root, "/") ? "--root: a captured tree is not changed from the TUI ('fragtop set --root' writes to it)" :
		    NULL);
	ui->ctl->hook = on_audit;
	ui->ctl->hook_ctx = ui;
	ui->ctl->syslog = !strcmp(root, "/");
	ft_diag_set_hook(ft_ui_diag, ui);

	ft_ui_catch_signals();

	if (!ft_ui_curses_start(ui, color)) {
		ft_live_close(ui->live);
		free(ui->live);
		free(ui->ctl);
		free(ui);
		return 1;
	}

	ft_live_tick(ui->live, false);
	if (trace)
		ft_live_trace_start(ui->live, buffer_kb);
	if (record_path) {
		err = start_recording(ui, record_path);
		if (err) {
			endwin();
			char why[160];

			fprintf(stderr, "fragtop: cannot record to %s: %s\n", record_path,
				ft_outfile_strerror(err, NULL, why, sizeof(why)));
			ft_live_close(ui->live);
			free(ui->live);
			free(ui->ctl);
			free(ui);
			return 1;
		}
		ft_ui_status(ui, FT_DIAG_INFO, "recording to %s", record_path);
	}
	ft_tick_start(&ui->tick, (uint64_t)(ui->interval * 1e9), ft_now_ns() + (uint64_t)(ui->interval * 1e9));
	while (!ui->quit && !ft_ui_signalled()) {
		int ch;

		live_idle(ui);
		ft_ui_draw(ui);
		ch = ft_ui_getch(ui, ui->paused ? 1000 :
				 (int)(ft_tick_left_ns(&ui->tick, ft_now_ns()) / 1000000) + 1);
		if (ch != ERR)
			ft_ui_key(ui, ch);
	}
	endwin();
	ft_diag_set_hook(NULL, NULL);
	finish_controls(ui);
	if (ui->rec) {
		char msg[1200];

		/* a last tick: the events since the previous one go into the file */
		if (ui->live->tracing)
			ft_trace_stop(&ui->live->trace);
		ft_live_tick(ui->live, false);
		stop_recording(ui, msg, sizeof(msg));
		fprintf(stderr, "fragtop: %s\n", msg);
	}
	ft_live_close(ui->live);
	free(ui->live);
	free(ui->ctl);
	free(ui);
	return ft_ui_signalled() ? 128 + ft_ui_signalled() : 0;

}

const struct ft_cmd ft_cmd_top = {
	.name = NULL,
	.summary = "the live TUI: per node and zone, free memory by order and migratetype,\n"
		   "pageblocks, watermarks and boost, fallbacks and stalls; keys change the vm knobs",
	.opts = top_opts,
	.nr_opts = T_NR,
	.run = run_top,
	.curses = true,
};
