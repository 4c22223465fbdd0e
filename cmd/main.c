// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fragtop: top for Linux memory fragmentation.  Dispatches to the live TUI
 * (default) or a headless command from the table in cmd/cli.c; only
 * main() exits.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/sanitize.h"
#include "cmd/cli.h"
#include "cmd/keys.h"

const struct ft_cmd *const ft_cmds[] = {
	&ft_cmd_top, &ft_cmd_snapshot, &ft_cmd_get, &ft_cmd_set, &ft_cmd_record,
	&ft_cmd_replay, &ft_cmd_report, &ft_cmd_compare, &ft_cmd_export, &ft_cmd_plot, &ft_cmd_exporter,
	&ft_cmd_fields,
};
const size_t ft_cmds_nr = sizeof(ft_cmds) / sizeof(ft_cmds[0]);

const struct ft_cmd *ft_cli_find(const char *name)
{
	size_t i;

	for (i = 0; i < ft_cmds_nr; i++)
		if (name ? ft_cmds[i]->name && !strcmp(ft_cmds[i]->name, name) : !ft_cmds[i]->name)
			return ft_cmds[i];
	return NULL;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: fragtop [COMMAND] [OPTIONS]   (fragtop COMMAND --help)\n\ncommands:\n");
	for (i = 0; i < ft_cmds_nr; i++)
		if (ft_cmds[i]->name)
			fprintf(f, "  %-10s %s\n", ft_cmds[i]->name, ft_cmds[i]->summary);
	fprintf(f, "  %-10s %s\n", "help", "this list, or 'help COMMAND' for a command's options");
	fprintf(f, "\nWithout a command, fragtop runs the live TUI:\n\n");
	ft_cli_usage(&ft_cmd_top, f);
}

/*
 * Output that did not reach its file is a failure, as in git and coreutils:
 * `fragtop snapshot --json > /dev/full` must not exit 0.
 */
static int finish_output(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "fragtop: writing the output: %s\n", strerror(errno ? errno : EIO));
		return rc ? rc : 1;
	}
	return rc;
}

static bool sanitized;	/* stdout and stderr are the sanitiser's streams */

static int run(int argc, char **argv)
{
	const struct ft_cmd *cmd;

	if (argc > 1 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
			 !strcmp(argv[1], "-h"))) {
		if (argc > 2 && !strcmp(argv[2], "--roff")) {
			ft_cli_roff(stdout, ft_cmds, ft_cmds_nr);	/* the man page's option lists */
			return 0;
		}
		if (argc > 2 && (!strcmp(argv[2], "--roff-keys") || !strcmp(argv[2], "--markdown-keys"))) {
			/* the man page's KEYS, or the README's key tables */
			ft_keys_write(stdout, !strcmp(argv[2], "--roff-keys"));
			return 0;
		}
		if (argc > 2) {
			cmd = ft_cli_find(argv[2]);
			if (!cmd) {
				fprintf(stderr, "fragtop: unknown command '%s'\n", argv[2]);
				return 2;
			}
			ft_cli_usage(cmd, stdout);
			return 0;
		}
		usage(stdout);
		return 0;
	}
	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("fragtop %s\n", FT_VERSION);
		return 0;
	}
	if (argc > 1 && argv[1][0] != '-') {
		cmd = ft_cli_find(argv[1]);
		if (!cmd) {
			fprintf(stderr, "fragtop: unknown command '%s'\n", argv[1]);
			usage(stderr);
			return 2;
		}
		/*
		 * A headless command prints names from recordings and trees: every
		 * byte it writes passes the sanitiser (the TUI's ft_put() does its own).
		 */
		if (!cmd->curses) {
			if (ft_sanitize_stream(&stdout) || ft_sanitize_stream(&stderr)) {
				fprintf(stderr, "fragtop: cannot set up the output\n");
				return 1;
			}
			setvbuf(stderr, NULL, _IOLBF, 0);
			sanitized = true;
		}
		return cmd->run(argc - 1, argv + 1);
	}
	return ft_cmd_top.run(argc, argv);	/* no command: the live TUI */
}

int main(int argc, char **argv)
{
	int rc = finish_output(run(argc, argv));

	if (sanitized) {
		/* what is still buffered goes out, and the streams' state is freed */
		if (fclose(stdout) && !rc)
			rc = 1;
		fclose(stderr);
	}
	return rc;
}
