// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop replay FILE`: the replay source on a recording, drawn by the
 * TUI's replay mode (tui/mode_replay.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "collectors/replay.h"
#include "cmd/cli.h"
#include "cmd/rc.h"
#include "cmd/signals.h"
#include "tui/ui.h"

static struct {
	double speed;
	bool no_color, no_config;
} o;

static const struct ft_opt replay_opts[] = {
	{ "speed", 0, FT_OPT_SECS, "N", "recorded seconds per second (1-1000)", 1, 1000,
	  .var = &o.speed,
	  .def = "1" },
	FT_OPT_NO_COLOR(o.no_color),
	FT_OPT_NO_CONFIG(o.no_config),
};

static int run_replay(int argc, char **argv)
{
	static struct ft_rc_file rc;
	const char *nc = getenv("NO_COLOR");
	bool color;
	struct ft_ui *ui;
	double speed;
	int err, first;

	err = ft_cli_parse(&ft_cmd_replay, argc, argv, &first);
	if (err >= 0)
		return err;
	if (first != argc - 1)
		return ft_cli_usage_error(&ft_cmd_replay, "one recording expected");
	speed = o.speed;
	color = !(nc && *nc) && !o.no_color;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "fragtop: replay needs a terminal; try 'fragtop report %s'\n",
			argv[first]);
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
	err = ft_replay_open(ui->rp, argv[first], NULL);
	if (err) {
		fprintf(stderr, "fragtop: %s: %s\n", argv[first],
			ui->rp->r.why[0] ? ui->rp->r.why : strerror(-err));
		ft_replay_close(ui->rp);
		free(ui->rp);
		free(ui);
		return 1;
	}
	if (ft_replay_step(ui->rp) <= 0) {
		fprintf(stderr, "fragtop: %s: no complete sample in the recording\n", argv[first]);
		ft_replay_close(ui->rp);
		free(ui->rp);
		free(ui);
		return 1;
	}
	ui->speed = speed;
	ui->interval = 1;
	ui->ctl = calloc(1, sizeof(*ui->ctl));
	if (ui->ctl)
		ft_ctl_init(ui->ctl, -1, "replay: a recording is not a host");
	ft_ui_replay_mode(ui);
	if (!o.no_config) {
		ft_settings_load(&rc);
		color = color && rc.rc.color != 0;
	}
	ft_cmd_rc_attach(ui, o.no_config ? NULL : &rc);
	ui->stop = ft_catch_stop();
	ui->tstp = &ft_tstp_flag;
	ui->on_tstp = ft_on_tstp;
	ft_diag_set_hook(ft_ui_diag, ui);
	if (!ui->rp->r.clean)
		ft_ui_status(ui, FT_DIAG_WARN, "%s: %s", ui->rp->path,
			     ui->rp->r.why[0] ? ui->rp->r.why : "not closed cleanly: read up to "
								"its last complete chunk");
	ft_tick_start(&ui->tick, (uint64_t)(1e9 / ui->speed),
		      ft_now_ns() + (uint64_t)(1e9 / ui->speed));
	err = ft_ui_run(ui, color);
	ft_diag_set_hook(NULL, NULL);
	/* the settings file is the live TUI's: a replay reads it and never writes it */
	ft_replay_close(ui->rp);
	free(ui->rp);
	free(ui->ctl);
	free(ui);
	if (err < 0)
		return 1;
	return ft_stop_signal() ? 128 + ft_stop_signal() : 0;
}

const struct ft_cmd ft_cmd_replay = {
	.name = "replay",
	.args = "FILE",
	.summary = "the live views driven by a recording (no root needed)",
	.about = "Keys: space pause, . , step forward/back, > < speed, T seek, n next control\n"
		 "change, q quit; the rest as in the live TUI.",
	FT_CMD_OPTS(replay_opts),
	.run = run_replay,
	.curses = true,
};
