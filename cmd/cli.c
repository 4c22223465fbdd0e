// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/cli.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/suggest.h"
#include "render/roff.h"

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
	return snprintf(buf, sz, "%s--%s%s%s", sh, o->name, o->arg ? " " : "",
			o->arg ? o->arg : "");
}

/*
 * The row's help and what it says of the default: "... (default 10)", or
 * inside a closing parenthesis the help already has: "(IPv4; default ...)".
 */
static void default_help(const struct ft_opt *o, char *buf, size_t sz)
{
	const char *def = o->def_help ? o->def_help : o->def;
	size_t n = strlen(o->help);

	if (!def)
		snprintf(buf, sz, "%s", o->help);
	else if (n && o->help[n - 1] == ')')
		snprintf(buf, sz, "%.*s; default%s %s)", (int)(n - 1), o->help,
			 o->def_help ? ":" : "", def);
	else
		snprintf(buf, sz, "%s (default%s %s)", o->help, o->def_help ? ":" : "", def);
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
	char label[64], help[1024];
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
		default_help(o, help, sizeof(help));
		put_wrapped(f, help, w + 4);
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
	fprintf(stderr, "'fragtop %s%s--help' lists the options\n", cmd_name(cmd),
		cmd->name ? " " : "");
	return 2;
}

/* Store @arg (from the command line, or the row's default) in the row's variable. */
static int convert(const struct ft_cmd *cmd, const struct ft_opt *o, const char *arg)
{
	char *end, why[160];
	double d;

	switch (o->type) {
	case FT_OPT_FLAG:
		*(bool *)o->var = true;
		return 0;
	case FT_OPT_STR:
		*(const char **)o->var = arg;
		return 0;
	case FT_OPT_CB:
		why[0] = '\0';
		if (o->parse(arg, o->var, why, sizeof(why)))
			return ft_cli_usage_error(cmd, "--%s: '%s' %s", o->name, arg, why);
		return 0;
	case FT_OPT_SECS:
	case FT_OPT_NUM:
		d = strtod(arg, &end);
		if (end == arg || *end || !(d >= o->lo && d <= o->hi))
			return ft_cli_usage_error(cmd, "--%s: '%s' is not a number%s in [%g, %g]",
						  o->name, arg,
						  o->type == FT_OPT_SECS ? " of seconds" : "",
						  o->lo, o->hi);
		*(double *)o->var = d;
		return 0;
	case FT_OPT_UINT: {
		unsigned long long u = strtoull(arg, &end, 10);

		if (end == arg || *end || arg[0] == '-' ||
		    !((double)u >= o->lo && (double)u <= o->hi))
			return ft_cli_usage_error(cmd, "--%s: '%s' is not a whole number in [%.0f, "
						       "%.0f]",
						  o->name, arg, o->lo, o->hi);
		*(uint64_t *)o->var = u;
		return 0;
	}
	}
	return 2;
}

/* Every bound variable to its default: the row's, else false, NULL or 0. */
static int set_defaults(const struct ft_cmd *cmd)
{
	size_t i;

	for (i = 0; i < cmd->nr_opts; i++) {
		const struct ft_opt *o = &cmd->opts[i];

		if (o->given)
			*o->given = false;
		if (!o->var)
			continue;
		if (o->def) {
			if (convert(cmd, o, o->def)) {
				fprintf(stderr,
					"fragtop: --%s: a bad default in the option table\n",
					o->name);
				return 1;
			}
			continue;
		}
		switch (o->type) {
		case FT_OPT_FLAG: *(bool *)o->var = false; break;
		case FT_OPT_STR: *(const char **)o->var = NULL; break;
		case FT_OPT_SECS: case FT_OPT_NUM: *(double *)o->var = 0; break;
		case FT_OPT_UINT: *(uint64_t *)o->var = 0; break;
		case FT_OPT_CB: break;	/* the variable's own initial value */
		}
	}
	return 0;
}

/* getopt's val for option @i and its alias: past every char. */
#define LONG_VAL(i)	(1000 + (int)(i))

const char *const ft_cli_globals[2] = { "no-config", "no-color" };

#define GLOBAL_VAL	1	/* getopt's val for a global flag the command does not use */

/* Does @cmd have the long option @name? */
static bool cli_has(const struct ft_cmd *cmd, const char *name)
{
	size_t i;

	for (i = 0; i < cmd->nr_opts; i++)
		if (cmd->opts[i].name && !strcmp(cmd->opts[i].name, name))
			return true;
	return false;
}

/* @cmd's long option closest to @word ("jsn" -> "json"), or NULL. */
static const char *closest_option(const struct ft_cmd *cmd, const char *word)
{
	struct ft_suggest sg;
	size_t i;

	ft_suggest_init(&sg, word);
	for (i = 0; i < cmd->nr_opts; i++) {
		ft_suggest_try(&sg, cmd->opts[i].name);
		ft_suggest_try(&sg, cmd->opts[i].alias);
	}
	ft_suggest_try(&sg, "help");
	return ft_suggest_best(&sg);
}

/*
 * getopt refused @arg (optopt set for a short option): say whether the
 * option is unknown (with the closest one, as git does) or lacks its value.
 */
static int bad_option(const struct ft_cmd *cmd, bool missing, const char *arg)
{
	char word[64];
	const char *near;
	size_t i;

	if (optopt > 0 && optopt < 256) {	/* a short option */
		for (i = 0; missing && i < cmd->nr_opts; i++)
			if (cmd->opts[i].short_name == optopt || cmd->opts[i].alias_short == optopt)
				return ft_cli_usage_error(cmd, "-%c needs a value (%s)", optopt,
							  cmd->opts[i].arg ?
								  cmd->opts[i].arg : "?");
		return ft_cli_usage_error(cmd, "-%c: unknown option", optopt);
	}
	snprintf(word, sizeof(word), "%s",
		 arg + (arg[0] == '-' && arg[1] == '-' ? 2 : arg[0] == '-'));
	word[strcspn(word, "=")] = '\0';
	for (i = 0; missing && i < cmd->nr_opts; i++)
		if ((cmd->opts[i].name && !strcmp(cmd->opts[i].name, word)) ||
		    (cmd->opts[i].alias && !strcmp(cmd->opts[i].alias, word)))
			return ft_cli_usage_error(cmd, "--%s needs a value (%s)", word,
						  cmd->opts[i].arg ? cmd->opts[i].arg : "?");
	if (missing)	/* an abbreviation getopt took for a long option */
		return ft_cli_usage_error(cmd, "%.60s needs a value", arg);
	near = closest_option(cmd, word);
	if (!strncmp(arg, "--", 2) && near)
		return ft_cli_usage_error(cmd, "--%s: unknown option; did you mean --%s?", word,
					  near);
	return ft_cli_usage_error(cmd, "%.60s: unknown option", arg);
}

int ft_cli_parse(const struct ft_cmd *cmd, int argc, char **argv, int *first)
{
	struct option *lo;
	char shorts[128] = ":h";
	size_t i, n = 0, sl = 2;
	int c, rc = -1;

	*first = 1;
	if (set_defaults(cmd))
		return 1;
	lo = calloc(cmd->nr_opts * 2 + 2 + sizeof(ft_cli_globals) / sizeof(ft_cli_globals[0]),
		    sizeof(*lo));
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
	/*
	 * the global flags, taken by every command (as git takes its own anywhere): a no-op where
	 * unused
	 */
	for (i = 0; i < sizeof(ft_cli_globals) / sizeof(ft_cli_globals[0]); i++)
		if (!cli_has(cmd, ft_cli_globals[i]))
			lo[n++] = (struct option){ ft_cli_globals[i], no_argument, NULL,
						   GLOBAL_VAL };
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
			rc = bad_option(cmd, c == ':', argv[optind - 1]);
			break;
		}
		if (c == GLOBAL_VAL)
			continue;
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
		if (o->given)
			*o->given = true;
		if (o->var && convert(cmd, o, optarg))
			rc = 2;
	}
	free(lo);
	*first = optind;
	return rc;
}

/* man(7): a backslash and a leading dot or quote must be escaped. */
void ft_cli_roff(FILE *f, const struct ft_cmd *const *cmds, size_t nr)
{
	char help[1024];
	size_t c, i;

	for (c = 0; c < nr; c++) {
		const struct ft_cmd *cmd = cmds[c];

		fprintf(f, ".SS \"fragtop%s%s\"\n", cmd->name ? " " : "", cmd_name(cmd));
		ft_roff_text(f, cmd->summary);
		fprintf(f, "\n");
		for (i = 0; i < cmd->nr_opts; i++) {
			const struct ft_opt *o = &cmd->opts[i];

			fprintf(f, ".TP\n");
			if (o->short_name)
				fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
			fprintf(f, "\\fB\\-\\-");
			ft_roff_text(f, o->name);
			fprintf(f, "\\fR");
			if (o->arg)
				fprintf(f, " \\fI%s\\fR", o->arg);
			fprintf(f, "\n");
			default_help(o, help, sizeof(help));
			ft_roff_text(f, help);
			if (o->alias) {
				fprintf(f, " (also \\fB");
				if (o->alias_short)
					fprintf(f, "\\-%c\\fR, \\fB", o->alias_short);
				fprintf(f, "\\-\\-");
				ft_roff_text(f, o->alias);
				fprintf(f, "\\fR)");
			}
			fprintf(f, "\n");
		}
		if (cmd->about) {
			fprintf(f, ".PP\n");
			ft_roff_text(f, cmd->about);
			fprintf(f, "\n");
		}
	}
}
