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
#include "base/outfile.h"
#include "cmd/cli.h"
#include "cmd/signals.h"
#include "tui/ui.h"

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
	ft_ui_live_mode(ui);
	ui->ctl->syslog = !strcmp(root, "/");
	ui->stop = ft_catch_stop();
	ft_diag_set_hook(ft_ui_diag, ui);

	ft_live_tick(ui->live, false);
	if (trace)
		ft_live_trace_start(ui->live, buffer_kb);
	if (record_path) {
		err = ft_ui_record_start(ui, record_path);
		if (err) {
			char why[160];

			ft_diag_set_hook(NULL, NULL);
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
	if (ft_ui_run(ui, color) < 0) {
		ft_diag_set_hook(NULL, NULL);
		if (ui->rec)
			ft_recorder_stop(ui->rec);
		free(ui->rec);
		ft_live_close(ui->live);
		free(ui->live);
		free(ui->ctl);
		free(ui);
		return 1;
	}
	ft_diag_set_hook(NULL, NULL);
	finish_controls(ui);
	if (ui->rec) {
		char msg[1200];

		/* a last tick: the events since the previous one go into the file */
		if (ui->live->tracing)
			ft_trace_stop(&ui->live->trace);
		ft_live_tick(ui->live, false);
		ft_ui_record_stop(ui, msg, sizeof(msg));
		fprintf(stderr, "fragtop: %s\n", msg);
	}
	ft_live_close(ui->live);
	free(ui->live);
	free(ui->ctl);
	free(ui);
	return ft_stop_signal() ? 128 + ft_stop_signal() : 0;
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
