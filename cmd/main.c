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
#include "base/suggest.h"
#include "cmd/cli.h"
#include "cmd/keys.h"

const struct ft_cmd *const ft_cmds[] = {
	&ft_cmd_top, &ft_cmd_snapshot, &ft_cmd_get, &ft_cmd_set, &ft_cmd_record,
	&ft_cmd_replay, &ft_cmd_report, &ft_cmd_compare, &ft_cmd_export, &ft_cmd_plot,
	&ft_cmd_exporter,
	&ft_cmd_fields, &ft_cmd_preflight, &ft_cmd_doctor, &ft_cmd_experiment, &ft_cmd_labels,
	&ft_cmd_fleet,
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

int ft_cli_unknown_cmd(const char *word)
{
	struct ft_suggest sg;
	const char *near;
	size_t i;

	ft_suggest_init(&sg, word);
	for (i = 0; i < ft_cmds_nr; i++)
		ft_suggest_try(&sg, ft_cmds[i]->name);
	ft_suggest_try(&sg, "help");
	ft_suggest_try(&sg, "version");
	near = ft_suggest_best(&sg);
	fprintf(stderr, "fragtop: '%s' is not a fragtop command%s%s%s\n'fragtop help' lists them\n",
		word,
		near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
	return 2;
}

/* Does option @arg of the TUI's table (the fullest) take the next word as its value? */
static bool takes_value(const char *arg)
{
	const struct ft_cmd *t = &ft_cmd_top;
	size_t i, n;

	if (arg[1] == '-') {	/* --name or --name=value */
		if (strchr(arg, '='))
			return false;
		for (i = 0; i < t->nr_opts; i++)
			if ((t->opts[i].name && !strcmp(arg + 2, t->opts[i].name)) ||
			    (t->opts[i].alias && !strcmp(arg + 2, t->opts[i].alias)))
				return t->opts[i].type != FT_OPT_FLAG;
		return false;
	}
	/* -abc: the last letter takes the next word if it wants a value and nothing follows it */
	n = strlen(arg);
	for (i = 0; n > 1 && i < t->nr_opts; i++)
		if (t->opts[i].short_name == arg[n - 1] || t->opts[i].alias_short == arg[n - 1])
			return t->opts[i].type != FT_OPT_FLAG && n == 2;
	return false;
}

/*
 * Options before the command go after it, as git takes its own anywhere:
 * `fragtop --no-config replay F` is `fragtop replay --no-config F`.  The
 * command's parser then says whether it takes them (help and version
 * take none: they are dropped).  Nothing moves unless the first word
 * that is not an option (or its value) names a command.  Returns argc.
 */
static int command_first(int argc, char **argv)
{
	int i, k;
	char *name;

	for (i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++)
		if (takes_value(argv[i]) && i + 1 < argc)
			i++;
	if (i <= 1 || i >= argc || argv[i][0] == '-' ||
	    !(ft_cli_find(argv[i]) || !strcmp(argv[i], "help") || !strcmp(argv[i], "version")))
		return argc;
	name = argv[i];
	if (!ft_cli_find(name)) {	/* help, version */
		for (k = i; k < argc; k++)
			argv[k - i + 1] = argv[k];
		return argc - i + 1;
	}
	for (k = i; k > 1; k--)
		argv[k] = argv[k - 1];
	argv[1] = name;
	return argc;
}

/*
 * `fragtop --no-config --version`: --version with only the global options
 * beside it, which go anywhere (the man page says so), is the version.
 */
static bool version_among_globals(int argc, char **argv)
{
	bool version = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V"))
			version = true;
		else if (strcmp(argv[i], "--no-config") && strcmp(argv[i], "--no-color"))
			return false;
	}
	return version;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: fragtop [COMMAND] [OPTIONS]   (fragtop COMMAND --help)\n\ncommands:\n");
	for (i = 0; i < ft_cmds_nr; i++)
		if (ft_cmds[i]->name)
			fprintf(f, "  %-10s %s\n", ft_cmds[i]->name, ft_cmds[i]->summary);
	fprintf(f, "  %-10s %s\n", "help", "this list, or 'help COMMAND' for a command's options");
	fprintf(f, "  %-10s %s\n", "version", "fragtop's version (also --version)");
	fprintf(f, "\nEvery command takes --%s and --%s, before or after its name.\n",
		ft_cli_globals[0],
		ft_cli_globals[1]);
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

static bool sanitized_out, sanitized_err;	/* stdout, stderr are the sanitiser's streams */

/*
 * Every byte a command writes to stderr passes the sanitiser (a server's
 * error text, a name from a recording or a tree), curses or not; a
 * headless command's stdout too (the TUI's ft_put() does its own).  0,
 * or 1 after saying why.
 */
static int sanitize(const struct ft_cmd *cmd)
{
	if ((!cmd->curses && ft_sanitize_stream(&stdout)) || ft_sanitize_stream(&stderr)) {
		fprintf(stderr, "fragtop: cannot set up the output\n");
		return 1;
	}
	sanitized_out = !cmd->curses;
	sanitized_err = true;
	setvbuf(stderr, NULL, _IOLBF, 0);
	return 0;
}

static int run(int argc, char **argv)
{
	const struct ft_cmd *cmd;

	argc = command_first(argc, argv);
	if (argc > 1 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
			 !strcmp(argv[1], "-h"))) {
		if (argc > 2 && !strcmp(argv[2], "--roff")) {
			/* the man page's option lists */
			ft_cli_roff(stdout, ft_cmds, ft_cmds_nr);
			return 0;
		}
		if (argc > 2 &&
		    (!strcmp(argv[2], "--roff-keys") || !strcmp(argv[2], "--markdown-keys"))) {
			/* the man page's KEYS, or the guide's key tables */
			ft_keys_write(stdout, !strcmp(argv[2], "--roff-keys"));
			return 0;
		}
		if (argc > 2 && !strcmp(argv[2], "version")) {
			printf("usage: fragtop version   (or fragtop --version): fragtop's "
			       "version\n");
			return 0;
		}
		if (argc > 2) {
			cmd = ft_cli_find(argv[2]);
			if (!cmd)
				return ft_cli_unknown_cmd(argv[2]);
			ft_cli_usage(cmd, stdout);
			return 0;
		}
		usage(stdout);
		return 0;
	}
	if (argc > 1 &&
	    (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	     !strcmp(argv[1], "version") ||
			 version_among_globals(argc, argv))) {
		printf("fragtop %s\n", FT_VERSION);
		return 0;
	}
	if (argc > 1 && argv[1][0] != '-') {
		cmd = ft_cli_find(argv[1]);
		if (!cmd)
			return ft_cli_unknown_cmd(argv[1]);
		if (sanitize(cmd))
			return 1;
		/*
		 * a killed experiment's knob back first, said (experiment does it for its own root)
		 */
		if (cmd != &ft_cmd_experiment)
			ft_experiment_restore_pending("/", true, false);
		return cmd->run(argc - 1, argv + 1);
	}
	if (sanitize(&ft_cmd_top))
		return 1;
	ft_experiment_restore_pending("/", true, false);
	return ft_cmd_top.run(argc, argv);	/* no command: the live TUI */
}

int main(int argc, char **argv)
{
	int rc = finish_output(run(argc, argv));

	/* what is still buffered goes out, and the streams' state is freed */
	if (sanitized_out && fclose(stdout) && !rc)
		rc = 1;
	if (sanitized_err)
		fclose(stderr);
	return rc;
}
