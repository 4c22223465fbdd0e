// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop set KNOB=VALUE...` and `fragtop get [KNOB...]`: the controls
 * without a terminal, with the TUI's validation and messages (both go
 * through controls/).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/suggest.h"
#include "controls/control.h"
#include "cmd/cli.h"
#include "render/knobs.h"

/* Say that @name is no knob, with the closest one when it is close (a typo). */
static void unknown_knob(const char *name)
{
	struct ft_suggest sg;
	const char *near;
	size_t i;

	ft_suggest_init(&sg, name);
	for (i = 0; i < ft_knobs_nr; i++)
		ft_suggest_try(&sg, ft_knobs[i].name);
	near = ft_suggest_best(&sg);
	fprintf(stderr, "fragtop: unknown knob '%s'%s%s%s ('fragtop get' lists them)\n", name,
		near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
}

static int open_root(const char *root)
{
	int fd = ft_root_open(root);

	if (fd < 0)
		fprintf(stderr, "fragtop: cannot open root %s: %s\n", root, strerror(-fd));
	return fd;
}

static struct {
	const char *root;
	bool dry_run, json;
} opt;

static const struct ft_opt set_opts[] = {
	FT_OPT_ROOT(opt.root),
	{ "dry-run", 'n', FT_OPT_FLAG, NULL, "validate only; write nothing", .var = &opt.dry_run },
};

static int run_set(int argc, char **argv)
{
	const char *root;
	bool dry;
	struct ft_ctl *ctl;
	int i, rootfd, bad = 0, failed = 0, first, rc;

	rc = ft_cli_parse(&ft_cmd_set, argc, argv, &first);
	if (rc >= 0)
		return rc;
	root = opt.root;
	dry = opt.dry_run;
	if (first == argc)
		return ft_cli_usage_error(&ft_cmd_set, "KNOB=VALUE expected");
	for (i = first; i < argc; i++)
		if (!strchr(argv[i], '='))
			return ft_cli_usage_error(&ft_cmd_set, "'%s' is not KNOB=VALUE", argv[i]);
	rootfd = open_root(root);
	if (rootfd < 0)
		return 1;

	/* 1: validate everything; nothing is written if anything is wrong */
	for (i = first; i < argc; i++) {
		char name[128], canon[FT_KNOB_TEXT], why[160], err_txt[96];
		const char *eq = strchr(argv[i], '=');
		const struct ft_knob *k;
		struct ft_knob_value cur = { .err = -EOPNOTSUPP };
		int node;

		snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]), argv[i]);
		k = ft_knob_find(name);
		if (!k) {
			unknown_knob(name);
			bad++;
			continue;
		}
		if (k->type != FT_KNOB_TRIGGER && ft_ctl_read(rootfd, k, &cur) == -ENOENT) {
			fprintf(stderr, "fragtop: %s: %s\n", k->name,
				ft_knob_strerror(k, cur.err, err_txt, sizeof(err_txt)));
			bad++;
			continue;
		}
		if (ft_knob_validate(k, eq + 1, &cur, canon, &node, why, sizeof(why))) {
			fprintf(stderr, "fragtop: %s: %s\n", k->name, why);
			bad++;
		}
	}
	if (bad) {
		fprintf(stderr, "fragtop: nothing changed\n");
		close(rootfd);
		return 1;
	}
	if (dry) {
		printf("all %d value%s valid; nothing written (--dry-run)\n", argc - first,
		       argc - first == 1 ? "" : "s");
		close(rootfd);
		return 0;
	}

	/* 2: write, read back; undo this command's writes if one fails */
	ctl = malloc(sizeof(*ctl));
	if (!ctl) {
		fprintf(stderr, "fragtop: out of memory\n");
		close(rootfd);
		return 1;
	}
	ft_ctl_init(ctl, rootfd, NULL);
	ctl->syslog = !strcmp(root, "/");	/* the host's own knobs: in the system log too */
	ctl->journal = ctl->syslog;
	ctl->by = "set";
	for (i = first; i < argc && !failed; i++) {
		char name[128];
		const char *eq = strchr(argv[i], '=');
		const struct ft_audit *a;

		snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]), argv[i]);
		a = ft_ctl_set(ctl, name, eq + 1);
		if (a->outcome == FT_CTL_OK) {
			printf("%s\n", a->msg);
		} else {
			fprintf(stderr, "fragtop: %s\n", a->msg);
			failed++;
		}
	}
	if (failed && ft_ctl_nr_changed(ctl)) {
		size_t from = ft_ctl_audit_kept(ctl), j;

		fprintf(stderr, "fragtop: putting back what this command changed\n");
		ft_ctl_restore_all(ctl);
		for (j = from; j < ft_ctl_audit_kept(ctl); j++)
			fprintf(stderr, "fragtop: %s\n", ft_ctl_audit_get(ctl, j)->msg);
	}
	free(ctl);
	close(rootfd);
	return failed ? 1 : 0;
}

/* Every knob as it reads under @rootfd (a trigger: whether it is there). */
static void read_all(int rootfd, struct ft_knob_reading *r)
{
	size_t i;

	for (i = 0; i < ft_knobs_nr; i++) {
		const struct ft_knob *k = &ft_knobs[i];

		r[i] = (struct ft_knob_reading){ .k = k, .v = { .err = -EOPNOTSUPP } };
		if (k->type == FT_KNOB_TRIGGER) {
			char path[256];

			ft_knob_path(k, 0, path, sizeof(path));
			r[i].available = faccessat(rootfd, path, F_OK, 0) == 0;
		} else {
			ft_ctl_read(rootfd, k, &r[i].v);
			r[i].available = r[i].v.err != -ENOENT;
		}
	}
}

static const struct ft_opt get_opts[] = {
	FT_OPT_ROOT(opt.root),
	FT_OPT_JSON(opt.json),
};

static int run_get(int argc, char **argv)
{
	const char *root;
	bool json;
	int i, rootfd, failed = 0, first, rc;

	rc = ft_cli_parse(&ft_cmd_get, argc, argv, &first);
	if (rc >= 0)
		return rc;
	root = opt.root;
	json = opt.json;
	rootfd = open_root(root);
	if (rootfd < 0)
		return 1;
	if (strcmp(root, "/"))	/* a tree's own pending restore (main() looks at the host's) */
		ft_experiment_restore_pending(root, true, false);
	if (first == argc) {
		struct ft_knob_reading *r = calloc(ft_knobs_nr, sizeof(*r));

		if (!r) {
			close(rootfd);
			return 1;
		}
		read_all(rootfd, r);
		if (json)
			ft_render_knobs_json(r, ft_knobs_nr);
		else
			ft_render_knobs_table(r, ft_knobs_nr);
		free(r);
		close(rootfd);
		return 0;
	}
	if (json) {
		fprintf(stderr, "fragtop: --json lists every knob; leave out the names\n");
		close(rootfd);
		return 2;
	}
	for (i = first; i < argc; i++) {
		const struct ft_knob *k = ft_knob_find(argv[i]);
		struct ft_knob_value v;
		char val[FT_KNOB_TEXT], why[96];

		if (!k) {
			unknown_knob(argv[i]);
			failed++;
			continue;
		}
		if (k->type == FT_KNOB_TRIGGER) {
			fprintf(stderr, "fragtop: %s is an action (write-only): it has no value\n",
				k->name);
			failed++;
			continue;
		}
		if (ft_ctl_read(rootfd, k, &v)) {
			fprintf(stderr, "fragtop: %s: %s\n", k->name,
				ft_knob_strerror(k, v.err, why, sizeof(why)));
			failed++;
			continue;
		}
		ft_knob_value_text(k, &v, val, sizeof(val));
		if (argc - first == 1)
			printf("%s\n", val);
		else
			printf("%s=%s\n", k->name, val);
	}
	close(rootfd);
	return failed ? 1 : 0;
}

const struct ft_cmd ft_cmd_set = {
	.name = "set",
	.args = "KNOB=VALUE...",
	.summary = "change knobs: validated, read back, undone on failure",
	.about = "Checks every value first (nothing is written if one is invalid), then\n"
		 "writes each, reads it back and reports old -> new.  If a write fails,\n"
		 "the knobs already changed by this command are put back.  KNOB is a name\n"
		 "from 'fragtop get' (\"vm.\" prefix optional); compact_node=N compacts node N.\n"
		 "Exit status: 0 all set, 1 a value was refused or a write failed, 2 usage.",
	FT_CMD_OPTS(set_opts),
	.run = run_set,
};

const struct ft_cmd ft_cmd_get = {
	.name = "get",
	.args = "[KNOB...]",
	.summary = "show the vm knobs (or one knob's value)",
	.about = "Without KNOB: every knob with its value, default, range and unit.\n"
		 "With one KNOB: just its value (for scripts); with several: KNOB=VALUE lines.\n"
		 "Exit status: 1 if a named knob is unknown, absent or unreadable.",
	FT_CMD_OPTS(get_opts),
	.run = run_get,
};
