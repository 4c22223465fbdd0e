// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fragtop: top for Linux memory fragmentation.  Dispatches to the live TUI
 * (default) or a headless command; only main() exits.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tui/knobcmd.h"
#include "tui/record.h"
#include "tui/report.h"
#include "tui/snapshot.h"
#include "tui/ui.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "top", ft_cmd_top, "live TUI (the default)" },
	{ "snapshot", ft_cmd_snapshot, "print one sample as a table or JSON" },
	{ "get", ft_cmd_get, "show the vm knobs (or one knob's value)" },
	{ "set", ft_cmd_set, "change knobs: validated, read back, undone on failure" },
	{ "record", ft_cmd_record, "record a session to a file, headless" },
	{ "replay", ft_cmd_replay, "the live views driven by a recording" },
	{ "report", ft_cmd_report, "sum up a recording (text or --json)" },
	{ "compare", ft_cmd_compare, "compare two recordings metric by metric" },
	{ "export", ft_cmd_export, "a recording's time series as CSV or JSON" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: fragtop [COMMAND] [OPTIONS]   (fragtop COMMAND --help)\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nWithout a command, fragtop runs the live TUI with the options given.\n");
}

/*
 * Output that did not reach its file is a failure, as in git and coreutils:
 * `fragtop snapshot --json > /dev/full` must not exit 0.
 */
static int finish_output(int rc)
{
	int err = 0;

	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	if (err) {
		fprintf(stderr, "fragtop: writing the output: %s\n", strerror(err));
		return rc ? rc : 1;
	}
	return rc;
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
	return finish_output(run(argc, argv));
}

static int run(int argc, char **argv)
{
	size_t i;

	if (argc > 1 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		ft_ui_usage(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("fragtop %s\n", FT_VERSION);
		return 0;
	}
	if (argc > 1 && argv[1][0] != '-') {
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].run(argc - 1, argv + 1);
		fprintf(stderr, "fragtop: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	return ft_cmd_top(argc, argv);
}
