// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop` without a command: the live TUI.  Its options, the live source
 * and the controls are set up here; the loop, the views and the live
 * mode's keys are tui/'s.  The terminal is restored on q, SIGINT, SIGTERM
 * and SIGHUP, and then what the controls changed is said on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cost.h"
#include "base/outfile.h"
#include "cmd/cli.h"
#include "cmd/costlog.h"
#include "cmd/liveopts.h"
#include "cmd/rc.h"
#include "cmd/signals.h"
#include "tui/ui.h"
#include "tui/view.h"

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
			fprintf(stderr, "fragtop: restore: %s\n",
				ft_ctl_audit_get(ui->ctl, i)->msg);
		return;
	}
	for (i = 0; i < ft_knobs_nr && i < 64; i++) {
		struct ft_knob_value v;
		char now[FT_KNOB_TEXT];

		if (!ui->ctl->orig[i][0] || ft_ctl_read(ui->ctl->rootfd, &ft_knobs[i], &v))
			continue;
		ft_knob_value_text(&ft_knobs[i], &v, now, sizeof(now));
		if (strcmp(now, ui->ctl->orig[i]))
			fprintf(stderr, "fragtop: left changed: %s %s (was %s; --restore-on-exit "
					"puts it back)\n",
				ft_knobs[i].name, now, ui->ctl->orig[i]);
	}
}

static struct {
	struct ft_liveopts live;
	double interval;
	bool interval_given, no_color, read_only, restore, no_config;
	const char *write, *cost_log;
	uint64_t iterations;
} o;

static const struct ft_opt top_opts[] = {
	{ "interval", 'i', FT_OPT_SECS, "SECS", "seconds between samples", 0.1, 3600, "delay", 'd',
	  .var = &o.interval, .def = "1", .given = &o.interval_given },
	FT_OPT_PTI_INTERVAL(o.live.pti_interval),
	FT_OPT_ROOT(o.live.root),
	FT_OPT_NO_COLOR(o.no_color),
	FT_OPT_NO_TRACE(o.live.no_trace),
	FT_OPT_TRACE_BUFFER(o.live.trace_kb),
	FT_OPT_STACKS(o.live.stacks, o.live.stacks_per_sec),
	{ "read-only", 0, FT_OPT_FLAG, NULL, "never write a knob (keys that would are refused)",
	  .var = &o.read_only },
	{ "map-cpu", 0, FT_OPT_NUM, "PCT",
	  "CPU fragtop may use in all while the map view is shown, % of\n"
	  "a core: its scan takes what the ticks and the drawing leave\n"
	  "(at least half), blocks fallbacks named first, then round-robin", 0.1, 100,
	  .var = &o.live.map_cpu, .def = "2", .given = &o.live.map_cpu_given },
	FT_OPT_MAP_FORCE(o.live.map_force),
	{ "map-rate", 0, FT_OPT_UINT, "PFNS", "also cap the map scan at PFNS PFNs per second",
	  4096, 1099511627776.0, .var = &o.live.map_rate, .def_help = "no cap" },
	{ "write", 'w', FT_OPT_STR, "FILE", "record the session to FILE (see 'fragtop record')",
	  .var = &o.write },
	{ "restore-on-exit", 0, FT_OPT_FLAG, NULL, "on exit, put back every knob fragtop changed",
	  .var = &o.restore },
	FT_OPT_BOOST_HZ(o.live.boost_hz, o.live.boost_given),
	{ "smaps-interval", 0, FT_OPT_SECS, "SECS",
	  "how often the processes view reads the shown processes'\n"
	  "/proc/PID/smaps_rollup for its THP% column (the kernel walks\n"
	  "their page tables to print it; 0: never)", 0, 3600, .var = &o.live.smaps_interval,
	  .def = "10", .given = &o.live.smaps_given },
	FT_OPT_NO_CONFIG(o.no_config),
	{ "iterations", 'n', FT_OPT_UINT, "N", "quit after N samples are drawn (as top -n)", 1,
	  1e12,
	  .var = &o.iterations, .def_help = "until q" },
	FT_OPT_COST_LOG(o.cost_log),
};

/* --cost-log's line after each tick, with the view on screen. */
static void log_cost(void *ctx, struct ft_ui *ui)
{
	const struct ft_view *v = ui->view;
	char what[64];

	snprintf(what, sizeof(what), "top %s", v ? v->name : "starting");
	ft_costlog_tick(ctx, ui->s, what);
}

static void free_ui(struct ft_ui *ui)
{
	if (ui->live)
		ft_live_close(ui->live);
	free(ui->live);
	free(ui->ctl);
	free(ui);
}

/* The UI over a live source under --root, with its controls: NULL after saying why. */
static struct ft_ui *open_ui(void)
{
	const char *root = o.live.root;
	struct ft_ui *ui = calloc(1, sizeof(*ui));

	if (ui) {
		ui->live = calloc(1, sizeof(*ui->live));
		ui->ctl = calloc(1, sizeof(*ui->ctl));
	}
	if (!ui || !ui->live || !ui->ctl) {
		fprintf(stderr, "fragtop: out of memory\n");
		if (ui) {
			free(ui->live);
			ui->live = NULL;
			free_ui(ui);
		}
		return NULL;
	}
	if (ft_liveopts_open(ui->live, &o.live)) {
		free(ui->live);
		ui->live = NULL;
		free_ui(ui);
		return NULL;
	}
	/* the views say what they show (struct ft_view's wants) once the loop runs */
	ft_live_want(ui->live, 0);
	ui->interval = o.interval;
	ui->pti_interval = o.live.pti_interval;
	ui->restore_on_exit = o.restore;
	ft_ctl_init(ui->ctl, ui->live->procfs.rootfd,
		    o.read_only ? "fragtop runs --read-only" :
		    strcmp(root, "/") ? "--root: a captured tree is not changed from the TUI "
					"('fragtop set --root' writes to it)" :
		    NULL);
	ui->ctl->syslog = !strcmp(root, "/");
	ui->ctl->journal = ui->ctl->syslog;
	ui->ctl->by = "tui";
	ft_ui_live_mode(ui);
	return ui;
}

static int run_top(int argc, char **argv)
{
	static struct ft_rc_file rc;
	static struct ft_costlog cost_log;
	const char *nc = getenv("NO_COLOR");
	struct ft_ui *ui;
	int err, first;

	err = ft_cli_parse(&ft_cmd_top, argc, argv, &first);
	if (err >= 0)
		return err;
	if (first != argc)
		return ft_cli_unknown_cmd(argv[first]);
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr,
			"fragtop: the live view needs a terminal; try 'fragtop snapshot'\n");
		return 1;
	}
	if (!o.no_config) {
		ft_settings_load(&rc);
		if (rc.rc.interval > 0 && !o.interval_given)
			o.interval = rc.rc.interval;	/* -i says more than the file */
	}
	ft_cost_long_running();
	if (ft_costlog_open(&cost_log, o.cost_log))
		return 1;
	ui = open_ui();
	if (!ui) {
		ft_costlog_close(&cost_log);
		return 1;
	}
	ui->iterations = o.iterations;
	if (cost_log.f) {
		ui->on_tick = log_cost;
		ui->on_tick_ctx = &cost_log;
	}
	ft_cmd_rc_attach(ui, o.no_config ? NULL : &rc);
	ui->stop = ft_catch_stop();
	ui->tstp = &ft_tstp_flag;
	ui->on_tstp = ft_on_tstp;
	ft_diag_set_hook(ft_ui_diag, ui);
	ft_live_tick(ui->live, false);
	ft_liveopts_trace(ui->live, &o.live);
	if (o.write) {
		err = ft_ui_record_start(ui, o.write);
		if (err) {
			char why[160];

			ft_diag_set_hook(NULL, NULL);
			fprintf(stderr, "fragtop: cannot record to %s: %s\n", o.write,
				ft_outfile_strerror(err, NULL, why, sizeof(why)));
			free_ui(ui);
			return 1;
		}
		ft_ui_status(ui, FT_DIAG_INFO, "recording to %s", o.write);
	}
	/* said on stderr before the screen took it: again here */
	if (*ft_experiment_restore_note())
		ft_ui_status(ui, FT_DIAG_WARN, "%s", ft_experiment_restore_note());
	ft_tick_start(&ui->tick, (uint64_t)(ui->interval * 1e9),
		      ft_now_ns() + (uint64_t)(ui->interval * 1e9));
	err = ft_ui_run(ui, !(nc && *nc) && !o.no_color && (o.no_config || rc.rc.color != 0));
	ft_diag_set_hook(NULL, NULL);
	if (err < 0) {
		if (ui->rec)
			ft_recorder_stop(ui->rec);
		free(ui->rec);
		free_ui(ui);
		return 1;
	}
	finish_controls(ui);
	/* killed (TERM, HUP, INT): the settings stay as they were */
	if (!o.no_config && !ft_stop_signal())
		ft_cmd_rc_finish(&rc);
	if (ui->rec) {
		char msg[1200];

		/* a last tick: the events since the previous one go into the file */
		if (ui->live->trace.on)
			ft_tracefs_stop(&ui->live->trace.t);
		ft_live_tick(ui->live, false);
		ft_ui_record_stop(ui, msg, sizeof(msg));
		fprintf(stderr, "fragtop: %s\n", msg);
	}
	free_ui(ui);
	ft_costlog_close(&cost_log);
	return ft_stop_signal() ? 128 + ft_stop_signal() : 0;
}

const struct ft_cmd ft_cmd_top = {
	.name = NULL,
	.summary = "the live TUI: per node and zone, free memory by order and migratetype,\n"
		   "pageblocks, watermarks and boost, fallbacks and stalls; keys change the vm "
		   "knobs",
	FT_CMD_OPTS(top_opts),
	.run = run_top,
	.curses = true,
};
