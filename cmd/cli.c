// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/cli.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const struct ft_cmd *const ft_cmds[] = {
	&ft_cmd_top, &ft_cmd_snapshot, &ft_cmd_get, &ft_cmd_set, &ft_cmd_record,
	&ft_cmd_replay, &ft_cmd_report, &ft_cmd_compare, &ft_cmd_export, &ft_cmd_plot, &ft_cmd_exporter,
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

static const char *cmd_name(const struct ft_cmd *cmd)
{
	return cmd->name ? cmd->name : "";
}

static void synopsis(const struct ft_cmd *cmd, FILE *f)
{
	fprintf(f, "usage: fragtop%s%s [OPTIONS]%s%s\n", cmd->name ? " " : "", cmd_name(cmd),
		cmd->args ? " " : "", cmd->args ? cmd->args : "");
}

/* "-i, --interval SECS" */
static int opt_label(const struct ft_opt *o, char *buf, size_t sz)
{
	char sh[8] = "    ";

	if (o->short_name)
		snprintf(sh, sizeof(sh), "-%c, ", o->short_name);
	return snprintf(buf, sz, "%s--%s%s%s", sh, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/*
 * @text from column @indent on, words wrapped before column 80; a \n in
 * the text is taken as a blank (the tables break lines for the man page).
 */
static void put_wrapped(FILE *f, const char *text, int indent)
{
	int col = indent, room = 80 - indent;
	const char *p = text;

	if (room < 20)
		room = 20;
	while (*p) {
		size_t wl;

		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		wl = strcspn(p, " \n");
		if (col > indent && col + 1 + (int)wl > indent + room) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, wl, f);
		col += (int)wl;
		p += wl;
	}
	fputc('\n', f);
}

void ft_cli_usage(const struct ft_cmd *cmd, FILE *f)
{
	char label[64];
	size_t i;
	int w = 0;

	synopsis(cmd, f);
	put_wrapped(f, cmd->summary, 0);
	for (i = 0; i < cmd->nr_opts; i++) {
		int n = opt_label(&cmd->opts[i], label, sizeof(label));

		if (n > w && n <= 30)
			w = n;
	}
	if (cmd->nr_opts)
		fprintf(f, "\noptions:\n");
	for (i = 0; i < cmd->nr_opts; i++) {
		const struct ft_opt *o = &cmd->opts[i];
		int n = opt_label(o, label, sizeof(label));

		if (n > w)
			fprintf(f, "  %s\n  %*s  ", label, w, "");
		else
			fprintf(f, "  %-*s  ", w, label);
		put_wrapped(f, o->help, w + 4);
		if (o->alias)
			fprintf(f, "  %*s  (also %s%c%s--%s, the older name)\n", w, "",
				o->alias_short ? "-" : "", o->alias_short ? o->alias_short : ' ',
				o->alias_short ? ", " : "", o->alias);
	}
	fprintf(f, "  %-*s  %s\n", w, "-h, --help", "this help");
	if (cmd->about)
		fprintf(f, "\n%s\n", cmd->about);
}

int ft_cli_usage_error(const struct ft_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fragtop%s%s: ", cmd->name ? " " : "", cmd_name(cmd));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	synopsis(cmd, stderr);
	fprintf(stderr, "'fragtop %s%s--help' lists the options\n", cmd_name(cmd), cmd->name ? " " : "");
	return 2;
}

static int convert(const struct ft_cmd *cmd, const struct ft_opt *o, const char *arg,
		   struct ft_optval *v)
{
	char *end;
	double d;

	v->set = true;
	v->str = arg;
	switch (o->type) {
	case FT_OPT_FLAG:
	case FT_OPT_STR:
		return 0;
	case FT_OPT_SECS:
		d = strtod(arg, &end);
		if (end == arg || *end || !(d >= o->lo && d <= o->hi))
			return ft_cli_usage_error(cmd, "--%s: '%s' is not a number of seconds in [%g, %g]",
						  o->name, arg, o->lo, o->hi);
		v->num = d;
		return 0;
	case FT_OPT_NUM:
		d = strtod(arg, &end);
		if (end == arg || *end || !(d >= o->lo && d <= o->hi))
			return ft_cli_usage_error(cmd, "--%s: '%s' is not a number in [%g, %g]",
						  o->name, arg, o->lo, o->hi);
		v->num = d;
		return 0;
	case FT_OPT_UINT: {
		unsigned long long u = strtoull(arg, &end, 10);

		if (end == arg || *end || arg[0] == '-' || !((double)u >= o->lo && (double)u <= o->hi))
			return ft_cli_usage_error(cmd, "--%s: '%s' is not a whole number in [%.0f, %.0f]",
						  o->name, arg, o->lo, o->hi);
		v->num = (double)u;
		return 0;
	}
	}
	return 2;
}

/* getopt's val for option @i and its alias: past every char. */
#define LONG_VAL(i)	(1000 + (int)(i))

int ft_cli_parse(const struct ft_cmd *cmd, int argc, char **argv, struct ft_optval *v, int *first)
{
	struct option *lo;
	char shorts[128] = ":h";
	size_t i, n = 0, sl = 2;
	int c, rc = -1;

	memset(v, 0, cmd->nr_opts * sizeof(*v));
	lo = calloc(cmd->nr_opts * 2 + 2, sizeof(*lo));
	if (!lo) {
		fprintf(stderr, "fragtop: out of memory\n");
		return 1;
	}
	for (i = 0; i < cmd->nr_opts; i++) {
		const struct ft_opt *o = &cmd->opts[i];
		int has = o->type == FT_OPT_FLAG ? no_argument : required_argument;

		lo[n++] = (struct option){ o->name, has, NULL, LONG_VAL(i) };
		if (o->alias)
			lo[n++] = (struct option){ o->alias, has, NULL, LONG_VAL(i) };
		for (c = 0; c < 2; c++) {
			char sc = c ? o->alias_short : o->short_name;

			if (!sc || sl + 3 >= sizeof(shorts))
				continue;
			shorts[sl++] = sc;
			if (has == required_argument)
				shorts[sl++] = ':';
		}
	}
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	shorts[sl] = '\0';
	opterr = 0;
	optind = 1;
	while (rc < 0 && (c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct ft_opt *o = NULL;

		if (c == 'h') {
			ft_cli_usage(cmd, stdout);
			rc = 0;
			break;
		}
		if (c == '?' || c == ':') {
			char what[64];

			if (optopt > 0 && optopt < 256)
				snprintf(what, sizeof(what), "-%c", optopt);
			else
				snprintf(what, sizeof(what), "%.60s", argv[optind - 1]);
			rc = ft_cli_usage_error(cmd, "%s: unknown option or missing argument", what);
			break;
		}
		if (c >= LONG_VAL(0))
			i = (size_t)(c - LONG_VAL(0));
		else
			for (i = 0; i < cmd->nr_opts; i++)
				if (cmd->opts[i].short_name == c || cmd->opts[i].alias_short == c)
					break;
		if (i >= cmd->nr_opts) {
			rc = ft_cli_usage_error(cmd, "unknown option");
			break;
		}
		o = &cmd->opts[i];
		if (convert(cmd, o, optarg, &v[i]))
			rc = 2;
	}
	free(lo);
	*first = optind;
	return rc;
}

/* man(7): a backslash and a leading dot or quote must be escaped. */
void ft_cli_roff_text(FILE *f, const char *s)
{
	bool bol = true;

	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else if (bol && (*s == '.' || *s == '\''))
			fprintf(f, "\\&%c", *s);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

void ft_cli_roff(FILE *f)
{
	size_t c, i;

	for (c = 0; c < ft_cmds_nr; c++) {
		const struct ft_cmd *cmd = ft_cmds[c];

		fprintf(f, ".SS \"fragtop%s%s\"\n", cmd->name ? " " : "", cmd_name(cmd));
		ft_cli_roff_text(f, cmd->summary);
		fprintf(f, "\n");
		for (i = 0; i < cmd->nr_opts; i++) {
			const struct ft_opt *o = &cmd->opts[i];

			fprintf(f, ".TP\n");
			if (o->short_name)
				fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
			fprintf(f, "\\fB\\-\\-");
			ft_cli_roff_text(f, o->name);
			fprintf(f, "\\fR");
			if (o->arg)
				fprintf(f, " \\fI%s\\fR", o->arg);
			fprintf(f, "\n");
			ft_cli_roff_text(f, o->help);
			if (o->alias) {
				fprintf(f, " (also \\fB");
				if (o->alias_short)
					fprintf(f, "\\-%c\\fR, \\fB", o->alias_short);
				fprintf(f, "\\-\\-");
				ft_cli_roff_text(f, o->alias);
				fprintf(f, "\\fR)");
			}
			fprintf(f, "\n");
		}
		if (cmd->about) {
			fprintf(f, ".PP\n");
			ft_cli_roff_text(f, cmd->about);
			fprintf(f, "\n");
		}
	}
}
