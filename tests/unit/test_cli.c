// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option table (cmd/cli.c): every row bound to its variable gets its
 * default before argv is read, then the command line's value; ranges,
 * callbacks and "given" flags; the help says each default from its row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cli.h"

static struct {
	bool flag;
	const char *str;
	double secs, pct;
	uint64_t count;
	int period;
	bool count_given;
} o;

static int parse_period(const char *arg, void *var, char *why, size_t sz)
{
	int *p = var;

	if (!strcmp(arg, "daily"))
		*p = 86400;
	else if (!strcmp(arg, "hourly"))
		*p = 3600;
	else {
		snprintf(why, sz, "is neither daily nor hourly");
		return -1;
	}
	return 0;
}

static const struct ft_opt opts[] = {
	{ "flag", 'f', FT_OPT_FLAG, NULL, "a flag", .var = &o.flag },
	{ "str", 's', FT_OPT_STR, "TEXT", "some text", .var = &o.str, .def = "none" },
	FT_OPT_INTERVAL(o.secs, 0.5, "10"),
	{ "pct", 0, FT_OPT_NUM, "PCT", "a share (of a core)", 0.1, 100, .var = &o.pct, .def = "2" },
	{ "count", 'n', FT_OPT_UINT, "N", "how many", 1, 100, .var = &o.count, .def_help = "all",
	  .given = &o.count_given },
	{ "period", 0, FT_OPT_CB, "P", "daily or hourly", .var = &o.period, .def = "daily",
	  .parse = parse_period },
};

static int run_none(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static const struct ft_cmd cmd = {
	.name = "test", .summary = "a command for the test", FT_CMD_OPTS(opts), .run = run_none,
};

/* argv from a string of words */
static int parse(const char *line, int *first)
{
	static char buf[512];
	static char *argv[32];
	int argc = 0;
	char *p;

	snprintf(buf, sizeof(buf), "test %s", line);
	for (p = strtok(buf, " "); p && argc < 31; p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc] = NULL;
	return ft_cli_parse(&cmd, argc, argv, first);
}

static void test_defaults(void **state)
{
	int first;

	(void)state;
	memset(&o, 0x55, sizeof(o));
	assert_int_equal(parse("", &first), -1);
	assert_false(o.flag);
	assert_string_equal(o.str, "none");
	assert_true(o.secs == 10);
	assert_true(o.pct == 2);
	assert_int_equal(o.count, 0);		/* no default: zero */
	assert_false(o.count_given);
	assert_int_equal(o.period, 86400);	/* the callback parsed "daily" */
	assert_int_equal(first, 1);
}

static void test_values(void **state)
{
	int first;

	(void)state;
	assert_int_equal(parse("-f -s hello -i 0.5 --pct 50 -n 7 --period hourly FILE", &first),
			 -1);
	assert_true(o.flag);
	assert_string_equal(o.str, "hello");
	assert_true(o.secs == 0.5);
	assert_true(o.pct == 50);
	assert_int_equal(o.count, 7);
	assert_true(o.count_given);
	assert_int_equal(o.period, 3600);
	assert_int_equal(first, 12);	/* FILE: the operand after 11 words */
	/* the older name of the interval */
	assert_int_equal(parse("--delay 3", &first), -1);
	assert_true(o.secs == 3);
	assert_int_equal(parse("-d 4", &first), -1);
	assert_true(o.secs == 4);
	/* a second parse starts from the defaults again */
	assert_int_equal(parse("", &first), -1);
	assert_false(o.flag);
	assert_false(o.count_given);
	assert_true(o.secs == 10);
}

static void test_refused(void **state)
{
	int first;

	(void)state;
	assert_int_equal(parse("-i 0.1", &first), 2);		/* below the range */
	assert_int_equal(parse("-i abc", &first), 2);
	assert_int_equal(parse("-n 0", &first), 2);
	assert_int_equal(parse("-n 101", &first), 2);
	assert_int_equal(parse("-n -3", &first), 2);
	assert_int_equal(parse("--pct 1e9", &first), 2);
	assert_int_equal(parse("--period weekly", &first), 2);	/* the callback's no */
	assert_int_equal(parse("--nope", &first), 2);
	assert_int_equal(parse("-s", &first), 2);		/* a missing argument */
}

static void test_help(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	ft_cli_usage(&cmd, f);
	fclose(f);
	/* each default from its row, inside a closing parenthesis when there is one */
	assert_non_null(strstr(buf, "some text (default none)"));
	assert_non_null(strstr(buf, "seconds between samples (default 10)"));
	assert_non_null(strstr(buf, "a share (of a core; default 2)"));
	assert_non_null(strstr(buf, "how many (default: all)"));
	assert_non_null(strstr(buf, "daily or hourly (default daily)"));
	assert_null(strstr(buf, "a flag (default"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
