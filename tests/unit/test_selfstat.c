// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exporter's process_* figures from /proc/PID/stat and /proc/stat:
 * fields counted after the command's last ')' (a command may hold ") "),
 * CPU in ticks, RSS in pages, the start after boot; malformed text
 * refused; btime found past a long intr line and in a buffer with no NUL.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/selfstat.h"

static void test_stat(void **state)
{
	/* proc(5): pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
	 * utime stime cutime cstime priority nice threads itrealvalue starttime vsize rss ... */
	static const char line[] = "4242 (fra) g (x) 2) S 1 4242 4242 0 -1 4194560 500 0 0 0 "
				   "250 50 0 0 20 0 2 0 12345 17055744 1113 18446744073709551615 1 "
				   "1 0\n";
	struct ft_selfstat s = { 0 };

	(void)state;
	assert_int_equal(ft_selfstat_parse(line, strlen(line), 100, 4096, 1796000000, &s), 0);
	assert_true(s.known);
	assert_true(fabs(s.cpu_seconds - 3.0) < 1e-9);		/* (250 + 50) / 100 */
	assert_int_equal(s.resident_bytes, 1113ull * 4096);
	assert_int_equal(s.virtual_bytes, 17055744);
	assert_true(fabs(s.start_time_seconds - (1796000000 + 123.45)) < 1e-6);
}

static void test_stat_refused(void **state)
{
	struct ft_selfstat s = { 0 };

	(void)state;
	assert_int_equal(ft_selfstat_parse("", 0, 100, 4096, 0, &s), -EINVAL);
	/* no ')' */
	assert_int_equal(ft_selfstat_parse("1 (x S 1 2", 10, 100, 4096, 0, &s), -EINVAL);
	/* cut short */
	assert_int_equal(ft_selfstat_parse("1 (x) S 1 2 3\n", 14, 100, 4096, 0, &s), -EINVAL);
	/* no tick rate */
	assert_int_equal(ft_selfstat_parse("1 (x) S 1 2 3\n", 14, 0, 4096, 0, &s), -EINVAL);
	assert_false(s.known);
}

static void test_btime(void **state)
{
	static char big[8192];
	uint64_t bt = 0;
	size_t n;

	(void)state;
	n = (size_t)snprintf(big, sizeof(big), "cpu  1 2 3\nintr 1");
	while (n < sizeof(big) - 64)
		big[n++] = ' ', big[n++] = '0';
	n += (size_t)snprintf(big + n, sizeof(big) - n, "\nctxt 5\nbtime 1796000000\nprocesses 9");
	assert_int_equal(ft_btime_parse(big, n, &bt), 0);
	assert_int_equal(bt, 1796000000);
	/* at the very end, with no newline and no NUL after it */
	memcpy(big, "btime 42", 8);
	big[8] = '9';
	assert_int_equal(ft_btime_parse(big, 8, &bt), 0);
	assert_int_equal(bt, 42);
	assert_int_equal(ft_btime_parse("cpu 1\n", 6, &bt), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_stat_refused),
		cmocka_unit_test(test_btime),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
