// SPDX-License-Identifier: GPL-2.0-or-later
/* Report windows: seconds, or a time of day at or after the recording's start. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

#include "analysis/report.h"

/* 2026-11-29 22:50:08 UTC */
#define START_NS (1795992608ull * 1000000000ull + 250000000ull)

static void test_window_secs(void **state)
{
	char why[160];
	double s;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(ft_rep_window_secs("32.5", START_NS, &s, why, sizeof(why)), 0);
	assert_true(s == 32.5);
	assert_int_equal(ft_rep_window_secs("0", START_NS, &s, why, sizeof(why)), 0);
	assert_true(s == 0);
	/* a time of day: seconds from the start (which is 22:50:08.25) */
	assert_int_equal(ft_rep_window_secs("22:50:38", START_NS, &s, why, sizeof(why)), 0);
	assert_true(fabs(s - 29.75) < 1e-6);
	assert_int_equal(ft_rep_window_secs("22:52", START_NS, &s, why, sizeof(why)), 0);
	assert_true(fabs(s - 111.75) < 1e-6);
	/* earlier in the day than the start: the next day's */
	assert_int_equal(ft_rep_window_secs("00:10", START_NS, &s, why, sizeof(why)), 0);
	assert_true(fabs(s - (86400 - (22 * 3600 + 50 * 60 + 8.25) + 600)) < 1e-6);
	/* the start's own second, a fraction before it: 0 */
	assert_int_equal(ft_rep_window_secs("22:50:08", START_NS, &s, why, sizeof(why)), 0);
	assert_true(s == 0);
	/* in another zone the same wall time is another instant */
	setenv("TZ", "CET-1", 1);
	tzset();
	assert_int_equal(ft_rep_window_secs("23:50:38", START_NS, &s, why, sizeof(why)), 0);
	assert_true(fabs(s - 29.75) < 1e-6);
	setenv("TZ", "UTC", 1);
	tzset();
	/* refused, said */
	assert_int_equal(ft_rep_window_secs("-1", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_rep_window_secs("abc", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_rep_window_secs("24:00", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_rep_window_secs("10:60", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_rep_window_secs("10:5x", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_rep_window_secs("10:05:07:01", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_rep_window_secs("inf", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_rep_window_secs("10:00", 0, &s, why, sizeof(why)), -EINVAL);
	assert_non_null(why[0] ? why : NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_secs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
