// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live TUI.  One loop: wait for a key or the next tick, collect, draw.
 * The terminal is restored on q, SIGINT, SIGTERM and SIGHUP; only main()
 * exits, after endwin().
 */
#include "tui/ui.h"

#include "base/clock.h"

#include <curses.h>
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "collectors/replay.h"
#include "tui/draw.h"
#include "tui/options.h"
#include "tui/view.h"

#define STATUS_SECS	15

static volatile sig_atomic_t got_signal;

static const struct ft_view *const views[] = {
	&ft_view_overview, &ft_view_events, &ft_view_stalls, &ft_view_controls, &ft_view_map,
};
#define NR_VIEWS (int)(sizeof(views) / sizeof(views[0]))

const char *const ft_ui_global_keys[][2] = {
	{ "q", "quit" },
	{ "1 2 3 4 5  Tab", "overview, events, stalls, controls, map; Tab cycles" },
	{ "b B", "watermark_boost_factor one step down / up" },
	{ "u", "undo the last knob change" },
	{ "w", "start recording to a file / stop recording" },
	{ "h F1 ?", "this help" },
	{ "space", "pause / resume sampling" },
	{ "d", "set the sampling interval (seconds)" },
	{ "p", "read /proc/pagetypeinfo now" },
	{ "Ctrl-L", "redraw the screen" },
	{ NULL, NULL },
};

static void on_signal(int sig)
{
	got_signal = sig;
}

void ft_ui_status(struct ft_ui *ui, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->status, sizeof(ui->status), fmt, ap);
	va_end(ap);
	ui->status_level = level;
	ui->status_t_ns = ft_now_ns();
}

static void diag_to_status(enum ft_diag_level level, const char *msg, void *ctx)
{
	ft_ui_status(ctx, level, "%s", msg);
}

/* "REPLAY [#####-----] 45/109s x4" on the right of the header. */
static void draw_timeline(struct ft_ui *ui)
{
	uint64_t t0, t1;
	double pos, len;
	char bar[24];
	int w = 20, fill, x;

	ft_replay_bounds(ui->rp, &t0, &t1);
	len = (double)(t1 - t0) / 1e9;
	pos = ui->rp->session.tick_t_ns > t0 ? (double)(ui->rp->session.tick_t_ns - t0) / 1e9 : 0;
	fill = len > 0 ? (int)(pos / len * w + 0.5) : 0;
	if (fill > w)
		fill = w;
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '-', (size_t)(w - fill));
	bar[w] = '\0';
	x = COLS - 58;
	if (x < 50)
		x = 50;
	ft_put(0, x, ft_attr(FT_C_HEADER) | A_BOLD, "REPLAY [%s] %.0f/%.0fs x%g", bar, pos, len, ui->speed);
}

static void draw_header(struct ft_ui *ui)
{
	const struct ft_session *l = ui->s;
	const struct ft_sample *s = &l->sample;
	const struct ft_knob *boost = ft_knob_find("watermark_boost_factor");
	const struct ft_knob_value *bv = &l->knobs[boost - ft_knobs];
	char mem[64] = "", bf[32] = "n/a";
	double age;
	int i, x;

	if (ui->live && ui->live->host.mem_total_kb) {
		char a[16], b[16];

		ft_fmt_pages(a, sizeof(a), ui->live->host.mem_avail_kb / 4, 4096);
		ft_fmt_pages(b, sizeof(b), ui->live->host.mem_total_kb / 4, 4096);
		snprintf(mem, sizeof(mem), "avail %s of %s", a, b);
	}
	if (!bv->err)
		snprintf(bf, sizeof(bf), "%lld", (long long)bv->num);
	attron((int)ft_attr(FT_C_HEADER));
	mvhline(0, 0, ' ', COLS);
	attroff((int)ft_attr(FT_C_HEADER));
	if (ui->rp) {
		ft_put(0, 0, ft_attr(FT_C_HEADER), "fragtop %s  %s  %s  boost_factor %s",
		       FT_VERSION, l->host.hostname, l->host.release, bf);
		draw_timeline(ui);
	} else {
		ft_put(0, 0, ft_attr(FT_C_HEADER), "fragtop %s  %s  %s  every %gs  boost_factor %s",
		       FT_VERSION, l->host.hostname, l->host.release, ui->interval, bf);
	}
	if (ui->rec && !ui->rec->err)
		ft_put(0, COLS - 14, ft_attr(FT_C_BAD) | A_BOLD, " REC ");
	if (ui->paused)
		ft_put(0, COLS - 8, ft_attr(FT_C_HEADER) | A_BLINK, " PAUSED ");
	else if (ui->live && strcmp(ui->live->root, "/"))
		ft_put(0, COLS - 7, ft_attr(FT_C_HEADER), " ROOT ");

	ft_put(1, 0, ft_attr(FT_C_DIM), "src:");
	x = 5;
	for (i = 0; i < FT_SRC_NR; i++) {
		bool ok = ft_sample_has(s, i);
		char extra[48] = "";

		if (i == FT_SRC_PAGETYPEINFO && ok) {
			age = ft_session_pti_age(l);
			snprintf(extra, sizeof(extra), " %.0fs ago", age < 0 ? 0 : floor(age));
		} else if (!ok && s->err[i]) {
			snprintf(extra, sizeof(extra), ": %s",
				 s->err[i] == -EACCES ? "needs root" : strerror(-s->err[i]));
		}
		ft_put(1, x, ok ? A_NORMAL : ft_attr(FT_C_BAD), "%s%s", ft_source_names[i], extra);
		x += (int)(strlen(ft_source_names[i]) + strlen(extra)) + 2;
	}
	if (l->tracing) {
		ft_put(1, x, l->lost ? ft_attr(FT_C_BAD) : A_NORMAL, "trace%s",
		       l->lost ? " LOST" : "");
		x += l->lost ? 12 : 7;
	} else if (l->trace_err && l->trace_err != -EXDEV) {
		const char *why = l->trace_err == -EACCES || l->trace_err == -EPERM ?
				  "needs root" : "off";

		ft_put(1, x, ft_attr(FT_C_BAD), "trace: %s", why);
		x += 9 + (int)strlen(why);
	}
	if (mem[0] && x + (int)strlen(mem) < COLS)
		ft_put(1, COLS - (int)strlen(mem), ft_attr(FT_C_DIM), "%s", mem);
}

static void draw_status(struct ft_ui *ui)
{
	static const char hint[] = "q quit  h help  1-5/Tab views  b/B boost  u undo  space pause  d interval";
	uint64_t now = ft_now_ns();
	int y = LINES - 1, room = COLS;

	move(y, 0);
	clrtoeol();
	if (ui->scroll_info[0] && ui->view != &ft_view_help) {
		room = COLS - (int)strlen(ui->scroll_info) - 1;
		ft_put(y, COLS - (int)strlen(ui->scroll_info), A_REVERSE, "%s", ui->scroll_info);
	}
	if (room <= 0)
		return;
	if (ui->status[0] && now - ui->status_t_ns < (uint64_t)STATUS_SECS * 1000000000ull) {
		ft_put(y, 0, ui->status_level >= FT_DIAG_WARN ? ft_attr(FT_C_WARN) : A_NORMAL,
		       "%.*s", room, ui->status);
		return;
	}
	/* the hint, cut between two items (they are two blanks apart) */
	{
		int n = (int)sizeof(hint) - 1;

		if (n > room) {
			n = room;
			while (n > 0 && !(hint[n] == ' ' && hint[n - 1] == ' '))
				n--;
		}
		ft_put(y, 0, ft_attr(FT_C_DIM), "%.*s", n, hint);
	}
}

static void draw(struct ft_ui *ui)
{
	erase();
	draw_header(ui);
	ui->view->draw(ui, 2, LINES - 3);
	draw_status(ui);
	refresh();
}

bool ft_ui_prompt(const char *question, char *buf, int sz)
{
	int len = 0, ch;

	buf[0] = '\0';
	timeout(-1);
	curs_set(1);
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		ft_put(LINES - 1, 0, A_BOLD, "%s%s", question, buf);
		refresh();
		ch = getch();
		if (ch == '\n' || ch == KEY_ENTER)
			break;
		if (ch == 27 || ch == ERR) {
			len = 0;
			break;
		}
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0)
			buf[--len] = '\0';
		else if (ch >= 32 && ch < 127 && len < sz - 1) {
			buf[len++] = (char)ch;
			buf[len] = '\0';
		}
	}
	curs_set(0);
	buf[len] = '\0';
	return len > 0;
}

static void ask_interval(struct ft_ui *ui)
{
	char buf[32], *end;
	double v;

	if (!ft_ui_prompt("interval in seconds (0.1-3600): ", buf, sizeof(buf)))
		return;
	v = strtod(buf, &end);
	if (*end || !(v >= 0.1 && v <= 3600)) {
		ft_ui_status(ui, FT_DIAG_WARN, "'%s' is not an interval between 0.1 and 3600 s; keeping %gs",
			     buf, ui->interval);
		return;
	}
	ui->interval = v;
	ft_ui_status(ui, FT_DIAG_INFO, "sampling every %gs", v);
}

bool ft_ui_confirm(struct ft_ui *ui, const char *fmt, ...)
{
	char q[256];
	va_list ap;
	int ch;

	va_start(ap, fmt);
	vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	timeout(-1);
	move(LINES - 1, 0);
	clrtoeol();
	ft_put(LINES - 1, 0, ft_attr(FT_C_WARN) | A_BOLD, "%s", q);
	refresh();
	do
		ch = getch();
	while (ch == KEY_RESIZE);
	if (ch == 'y' || ch == 'Y')
		return true;
	ft_ui_status(ui, FT_DIAG_INFO, "cancelled");
	return false;
}

const char *ft_ui_comm(const struct ft_session *s, int pid)
{
	const char *c = ft_session_name(s, pid);

	return c ? c : "?";
}

void ft_ui_read_knobs(struct ft_ui *ui)
{
	if (ui->live)
		ft_live_read_knobs(ui->live);
}

void ft_ui_control_done(struct ft_ui *ui, const struct ft_audit *a)
{
	ft_ui_read_knobs(ui);
	if (!a)
		return;
	ft_ui_status(ui, a->outcome == FT_CTL_OK ? FT_DIAG_INFO : FT_DIAG_WARN, "%s", a->msg);
}

/* Every control change becomes an input of the live session (and of a recording). */
static void on_audit(const struct ft_audit *a, void *ctx)
{
	struct ft_ui *ui = ctx;
	char text[1024];
	int n = ft_audit_text(a, text, sizeof(text));

	if (ui->live && n > 0)
		ft_live_audit(ui->live, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}

static void boost_step(struct ft_ui *ui, int dir)
{
	ft_ui_control_done(ui, ft_ctl_step(ui->ctl, ft_knob_find("watermark_boost_factor"), dir));
}

static bool replay_key(struct ft_ui *ui, int ch);

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
static void toggle_record(struct ft_ui *ui)
{
	char path[1024], msg[1200];
	int err;

	if (ui->rec) {
		if (!ft_ui_confirm(ui, "stop recording to %s? [y/N] ", ui->rec->path))
			return;
		err = stop_recording(ui, msg, sizeof(msg));
		ft_ui_status(ui, err ? FT_DIAG_WARN : FT_DIAG_INFO, "%s", msg);
		return;
	}
	if (!ft_ui_prompt("record to file: ", path, sizeof(path)))
		return;
	err = start_recording(ui, path);
	if (err)
		ft_ui_status(ui, FT_DIAG_WARN, "cannot record to %s: %s", path,
			     err == -EEXIST ? "it exists (choose another name)" : strerror(-err));
	else
		ft_ui_status(ui, FT_DIAG_INFO, "recording to %s (w stops)", path);
}

/* The terminal for a live or replayed session.  false (and said) if there is none. */
static bool curses_start(struct ft_ui *ui, bool color)
{
	setlocale(LC_ALL, "");
	if (!initscr()) {
		fprintf(stderr, "fragtop: cannot initialise the terminal\n");
		return false;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	ui->color = ft_draw_init_colors(color);
	ui->view = &ft_view_overview;
	return true;
}

static void handle_key(struct ft_ui *ui, int ch)
{
	if (ui->view == &ft_view_help) {
		ui->view->key(ui, ch);
		return;
	}
	if (ui->rp && replay_key(ui, ch))
		return;
	switch (ch) {
	case 'q':
	case 'Q':
		ui->quit = true;
		return;
	case 'h':
	case '?':
	case KEY_F(1):
		ui->prev_view = ui->view;
		ui->view = &ft_view_help;
		return;
	case ' ':
		ui->paused = !ui->paused;
		ft_ui_status(ui, FT_DIAG_INFO, ui->paused ? "paused" : "resumed");
		return;
	case 'd':
		ask_interval(ui);
		return;
	case 'p':
		ft_live_tick(ui->live, true);
		ft_ui_status(ui, FT_DIAG_INFO, "pagetypeinfo read");
		return;
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
		ui->view = views[ch - '1'];
		return;
	case 'b':
	case 'B':
		boost_step(ui, ch == 'B' ? 1 : -1);
		return;
	case 'w':
		toggle_record(ui);
		return;
	case 'u': {
		const struct ft_audit *a = ft_ctl_undo(ui->ctl);

		if (a)
			ft_ui_control_done(ui, a);
		else
			ft_ui_status(ui, FT_DIAG_INFO, "nothing to undo");
		return;
	}
	case '\t': {
		int i;

		for (i = 0; i < NR_VIEWS && views[i] != ui->view; i++)
			;
		ui->view = views[(i + 1) % NR_VIEWS];
		return;
	}
	case 12:	/* Ctrl-L */
		clearok(curscr, TRUE);
		return;
	case KEY_RESIZE:
		return;
	}
	if (ui->view->key)
		ui->view->key(ui, ch);
}

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

void ft_ui_usage(FILE *f)
{
	fprintf(f,
		"\nfragtop [OPTIONS]  (live TUI)\n"
		"  -d, --delay SECS          sampling interval (default 1)\n"
		"  --pagetypeinfo-interval SECS\n"
		"                            how often to read /proc/pagetypeinfo, which the\n"
		"                            kernel walks under zone->lock (default 10; 0: every tick)\n"
		"  --root DIR                read /proc and /sys under DIR (a captured tree)\n"
		"  --no-trace                no tracepoints (fallbacks, stall latencies)\n"
		"  --trace-buffer-kb KB      per-CPU trace buffer (default 8192)\n"
		"  --no-color                monochrome (also when NO_COLOR is set)\n"
		"  --map-rate PFNS           pageblock map scan speed while the map view is\n"
		"                            shown, PFNs per second (default 1048576)\n"
		"  -w, --write FILE          record the session to FILE (see 'fragtop record')\n"
		"  --read-only               never write a knob (keys that would are refused)\n"
		"  --restore-on-exit         on exit, put back every knob fragtop changed\n");
}

int ft_cmd_top(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "pagetypeinfo-interval", required_argument, NULL, 'P' },
		{ "root", required_argument, NULL, 'r' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "no-trace", no_argument, NULL, 'T' },
		{ "trace-buffer-kb", required_argument, NULL, 'B' },
		{ "read-only", no_argument, NULL, 'R' },
		{ "map-rate", required_argument, NULL, 'M' },
		{ "write", required_argument, NULL, 'w' },
		{ "restore-on-exit", no_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct ft_ui *ui;
	const char *record_path = NULL;
	bool read_only = false;
	uint64_t map_rate = FT_LIVE_MAP_RATE;
	const char *root = "/", *nc = getenv("NO_COLOR");
	bool color = !(nc && *nc), trace = true;
	size_t buffer_kb = 8192;
	uint64_t next;
	int c, err;

	ui = calloc(1, sizeof(*ui));
	if (!ui) {
		fprintf(stderr, "fragtop: out of memory\n");
		return 1;
	}
	ui->interval = 1;
	ui->pti_interval = 10;
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:w:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (ft_opt_seconds("--delay", optarg, 0.1, 3600, &ui->interval))
				goto usage;
			break;
		case 'P':
			if (ft_opt_seconds("--pagetypeinfo-interval", optarg, 0, 86400, &ui->pti_interval))
				goto usage;
			break;
		case 'r':
			root = optarg;
			break;
		case 'C':
			color = false;
			break;
		case 'T':
			trace = false;
			break;
		case 'B':
			if (ft_opt_buffer_kb(optarg, &buffer_kb))
				goto usage;
			break;
		case 'R':
			read_only = true;
			break;
		case 'w':
			record_path = optarg;
			break;
		case 'M': {
			char *end;
			unsigned long long v = strtoull(optarg, &end, 10);

			if (*end || v < 4096 || v > (1ull << 40)) {
				fprintf(stderr, "fragtop: --map-rate: '%s' is not a number of PFNs per second "
					"between 4096 and 2^40\n", optarg);
				goto usage;
			}
			map_rate = v;
			break;
		}
		case 'E':
			ui->restore_on_exit = true;
			break;
		case 'h':
			ft_ui_usage(stdout);
			free(ui);
			return 0;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;
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
	ui->s = &ui->live->session;
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
	ft_diag_set_hook(diag_to_status, ui);

	ft_opt_catch_stop_signals(on_signal);

	if (!curses_start(ui, color)) {
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
			fprintf(stderr, "fragtop: cannot record to %s: %s%s\n", record_path, strerror(-err),
				err == -EEXIST ? " (fragtop record --force overwrites)" : "");
			ft_live_close(ui->live);
			free(ui->live);
			free(ui->ctl);
			free(ui);
			return 1;
		}
		ft_ui_status(ui, FT_DIAG_INFO, "recording to %s", record_path);
	}
	next = ft_now_ns() + (uint64_t)(ui->interval * 1e9);
	while (!ui->quit && !got_signal) {
		uint64_t now = ft_now_ns();
		int ch;

		if (!ui->paused && now >= next) {
			ft_live_tick(ui->live, false);
			next = now + (uint64_t)(ui->interval * 1e9);
			now = ft_now_ns();
		}
		draw(ui);
		/* wake at least every 250 ms to drain the trace buffers */
		{
			int ms = ui->paused ? 1000 : (int)((next > now ? next - now : 0) / 1000000) + 1;

			if (ui->live->tracing && ms > 250)
				ms = 250;
			timeout(ms);
		}
		ch = getch();
		ft_live_trace_poll(ui->live);
		/* the map is scanned only while it is on screen */
		{
			bool want = ui->view == &ft_view_map ||
				    (ui->view == &ft_view_help && ui->prev_view == &ft_view_map);

			if (want != ui->live->map_scan)
				ft_live_map_enable(ui->live, want);
			if (!ui->paused)
				ft_live_map_poll(ui->live);
		}
		if (ch != ERR) {
			handle_key(ui, ch);
			if (ui->paused)
				next = ft_now_ns() + (uint64_t)(ui->interval * 1e9);
		}
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
	return got_signal ? 128 + got_signal : 0;

usage:
	ft_ui_usage(stderr);
	free(ui);
	return 2;
}

/* ---- fragtop replay ---- */

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

static void replay_ask_seek(struct ft_ui *ui)
{
	char buf[32], *end;
	uint64_t t0, t1;
	double v;

	if (!ft_ui_prompt("seek to (seconds from the start, or N%): ", buf, sizeof(buf)))
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

static bool replay_key(struct ft_ui *ui, int ch)
{
	struct ft_replay *rp = ui->rp;

	switch (ch) {
	case '.':
	case KEY_SRIGHT:
		ui->paused = true;
		if (ft_replay_step(rp) <= 0)
			ft_ui_status(ui, FT_DIAG_INFO, "end of the recording");
		return true;
	case ',':
	case KEY_SLEFT:
		ui->paused = true;
		if (rp->session.ticks > 1)
			replay_seek_tick(ui, rp->session.ticks - 1);
		return true;
	case '>':
		ui->speed = ui->speed * 2 > 1000 ? 1000 : ui->speed * 2;
		ft_ui_status(ui, FT_DIAG_INFO, "speed x%g", ui->speed);
		return true;
	case '<':
		ui->speed = ui->speed / 2 < 1 ? 1 : ui->speed / 2;
		ft_ui_status(ui, FT_DIAG_INFO, "speed x%g", ui->speed);
		return true;
	case 'T':
		replay_ask_seek(ui);
		return true;
	case 'n': {
		size_t have = rp->session.nr_audits;

		while (rp->session.nr_audits == have && ft_replay_step(rp) > 0)
			;
		if (rp->session.nr_audits > have)
			ft_ui_status(ui, FT_DIAG_INFO, "control change: %s (%s)",
				     rp->session.audits[have].msg, rp->session.audits[have].outcome);
		else
			ft_ui_status(ui, FT_DIAG_INFO, "no control change after this point");
		ui->paused = true;
		return true;
	}
	case 'b':
	case 'B':
	case 'u':
	case 'd':
	case 'p':
	case 'w':
		ft_ui_status(ui, FT_DIAG_INFO, "replay: the recording is not a host; nothing to change or sample");
		return true;
	}
	return false;
}

const char *const ft_ui_replay_keys[][2] = {
	{ "space", "pause / resume" },
	{ ". ,", "one tick forward / back (pauses)" },
	{ "> <", "faster / slower (x1 ... x1000)" },
	{ "T", "seek: seconds from the start, or N%" },
	{ "n", "run to the next control change" },
	{ NULL, NULL },
};

static void ft_replay_usage(FILE *f)
{
	fprintf(f,
		"usage: fragtop replay FILE [--speed N] [--no-color]\n"
		"  The live views driven by a recording (no root needed).  Keys: space pause,\n"
		"  . , step forward/back, > < speed, T seek, n next control change, q quit.\n");
}

int ft_cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "speed", required_argument, NULL, 's' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *nc = getenv("NO_COLOR");
	bool color = !(nc && *nc), at_end = false;
	struct ft_ui *ui;
	uint64_t next;
	double speed = 1;
	int c, err;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (ft_opt_seconds("--speed", optarg, 1, 1000, &speed))
				return 2;
			break;
		case 'C':
			color = false;
			break;
		case 'h':
			ft_replay_usage(stdout);
			return 0;
		default:
			ft_replay_usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		ft_replay_usage(stderr);
		return 2;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "fragtop: replay needs a terminal; try 'fragtop report %s'\n", argv[optind]);
		return 1;
	}
	ui = calloc(1, sizeof(*ui));
	if (ui)
		ui->rp = calloc(1, sizeof(*ui->rp));
	if (!ui || !ui->rp) {
		free(ui);
		fprintf(stderr, "fragtop: out of memory\n");
		return 1;
	}
	err = ft_replay_open(ui->rp, argv[optind], 0);
	if (err) {
		fprintf(stderr, "fragtop: %s: %s\n", argv[optind],
			ui->rp->r.why[0] ? ui->rp->r.why : strerror(-err));
		ft_replay_close(ui->rp);
		free(ui->rp);
		free(ui);
		return 1;
	}
	if (ft_replay_step(ui->rp) <= 0) {
		fprintf(stderr, "fragtop: %s: no complete sample in the recording\n", argv[optind]);
		ft_replay_close(ui->rp);
		free(ui->rp);
		free(ui);
		return 1;
	}
	ui->s = &ui->rp->session;
	ui->speed = speed;
	ui->interval = 1;
	ui->ctl = calloc(1, sizeof(*ui->ctl));
	if (ui->ctl)
		ft_ctl_init(ui->ctl, -1, "replay: a recording is not a host");
	ft_opt_catch_stop_signals(on_signal);
	if (!curses_start(ui, color)) {
		ft_replay_close(ui->rp);
		free(ui->rp);
		free(ui->ctl);
		free(ui);
		return 1;
	}
	ft_diag_set_hook(diag_to_status, ui);
	if (!ui->rp->r.clean)
		ft_ui_status(ui, FT_DIAG_WARN, "%s: %s", ui->rp->path,
			     ui->rp->r.why[0] ? ui->rp->r.why : "not closed cleanly: read up to its last complete chunk");
	next = ft_now_ns();
	while (!ui->quit && !got_signal) {
		uint64_t now = ft_now_ns();
		int ch, ms;

		if (!ui->paused && !at_end && now >= next) {
			uint64_t before = ui->rp->session.tick_t_ns;

			if (ft_replay_step(ui->rp) <= 0) {
				at_end = true;
				ui->paused = true;
				ft_ui_status(ui, FT_DIAG_INFO, "end of the recording (, steps back, T seeks)");
			} else {
				uint64_t dt = ui->rp->session.tick_t_ns > before ? ui->rp->session.tick_t_ns - before : 1000000000ull;

				next = now + (uint64_t)((double)dt / ui->speed);
			}
		}
		draw(ui);
		now = ft_now_ns();
		ms = ui->paused ? 1000 : (int)((next > now ? next - now : 0) / 1000000) + 1;
		if (ms > 250)
			ms = 250;
		timeout(ms);
		ch = getch();
		if (ch != ERR) {
			bool was_paused = ui->paused;

			handle_key(ui, ch);
			if (ch == 'T' || ch == ',' || ch == ' ')
				at_end = false;
			if (was_paused && !ui->paused)
				next = ft_now_ns();
		}
	}
	endwin();
	ft_diag_set_hook(NULL, NULL);
	ft_replay_close(ui->rp);
	free(ui->rp);
	free(ui->ctl);
	free(ui);
	return got_signal ? 128 + got_signal : 0;
}
