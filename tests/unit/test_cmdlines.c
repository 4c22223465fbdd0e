// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tracer's saved_cmdlines (kernel/cmdlines.c): the names of tasks gone
 * before /proc was read.  The lines are this 6.18 host's, as the kernel
 * prints them ("%d %s\n"), with the kernel's "<...>" and a command with a
 * space, then what a broken or hostile text could hold.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdlines.h"

static const char host[] =
	"5219 fragload.sh\n"
	"22 ksoftirqd/1\n"
	"5360 fio\n"
	"15 rcu_preempt\n"
	"5367 fio\n"
	"91 kworker/u10:0\n"
	"7001 Web Content\n"
	"7002 <...>\n"
	"1 systemd\n";

static void test_host_text(void **state)
{
	struct ft_cmdlines c = { 0 };
	size_t i;

	(void)state;
	assert_int_equal(ft_cmdlines_parse(host, sizeof(host) - 1, &c), 0);
	assert_int_equal(c.nr, 8);
	assert_int_equal(c.skipped, 1);	/* "<...>" names nothing */
	for (i = 1; i < c.nr; i++)
		assert_true(c.v[i - 1].pid < c.v[i].pid);
	assert_string_equal(ft_cmdlines_find(&c, 5219), "fragload.sh");
	assert_string_equal(ft_cmdlines_find(&c, 22), "ksoftirqd/1");
	assert_string_equal(ft_cmdlines_find(&c, 91), "kworker/u10:0");
	assert_string_equal(ft_cmdlines_find(&c, 7001), "Web Content");
	assert_string_equal(ft_cmdlines_find(&c, 1), "systemd");
	assert_null(ft_cmdlines_find(&c, 7002));
	assert_null(ft_cmdlines_find(&c, 5366));
	assert_null(ft_cmdlines_find(&c, 0));
	/* parsing again replaces the table */
	assert_int_equal(ft_cmdlines_parse("3 a", 3, &c), 0);
	assert_int_equal(c.nr, 1);
	assert_string_equal(ft_cmdlines_find(&c, 3), "a");
	assert_null(ft_cmdlines_find(&c, 1));
	ft_cmdlines_release(&c);
	assert_int_equal(c.nr, 0);
	assert_null(c.v);
}

static void test_hostile(void **state)
{
	static const char bad[] =
		"\n"
		"0 swapper\n"			/* pid 0 is not a task's */
		"4194305 toobig\n"		/* above PID_MAX_LIMIT */
		"123456789 long\n"
		"-5 neg\n"
		"12\n"				/* no command */
		"13 \n"				/* an empty one */
		"14  spaced\n"			/* the command is what follows the first space */
		"x15 y\n"
		"16 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
		"17 first\n"
		"17 second\n"
		"17 third\n"
		"18 tail-without-newline";
	char nul[] = "19 a\0b\n20 ok\n";
	struct ft_cmdlines c = { 0 };

	(void)state;
	assert_int_equal(ft_cmdlines_parse(bad, sizeof(bad) - 1, &c), 0);
	assert_int_equal(c.skipped, 7);	/* the empty line is not counted */
	assert_null(ft_cmdlines_find(&c, 0));
	assert_null(ft_cmdlines_find(&c, 12));
	assert_null(ft_cmdlines_find(&c, 13));
	assert_string_equal(ft_cmdlines_find(&c, 14), " spaced");
	assert_int_equal(strlen(ft_cmdlines_find(&c, 16)), FT_CMDLINE_LEN - 1);
	assert_string_equal(ft_cmdlines_find(&c, 17), "third");	/* the last line of a pid */
	assert_string_equal(ft_cmdlines_find(&c, 18), "tail-without-newline");
	assert_int_equal(c.nr, 4);
	/* a NUL inside a command: not the kernel's text */
	assert_int_equal(ft_cmdlines_parse(nul, sizeof(nul) - 1, &c), 0);
	assert_null(ft_cmdlines_find(&c, 19));
	assert_string_equal(ft_cmdlines_find(&c, 20), "ok");
	/* nothing */
	assert_int_equal(ft_cmdlines_parse("", 0, &c), 0);
	assert_int_equal(c.nr, 0);
	assert_null(ft_cmdlines_find(&c, 1));
	ft_cmdlines_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_text),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests_name("cmdlines", tests, NULL, NULL);
}
