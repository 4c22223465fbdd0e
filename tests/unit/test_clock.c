// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ft_age_format(): an event's age in six characters at most, so that the
 * events view's rows never shift when an age passes 100 s (issue 38).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/clock.h"

static void check(double secs, const char *want)
{
	char buf[16];

	ft_age_format(secs, buf, sizeof(buf));
	assert_string_equal(buf, want);
	assert_true(strlen(buf) <= 6);
}

static void test_age(void **state)
{
	(void)state;
	check(0, "-0.0s");
	check(13.46, "-13.5s");
	check(99.94, "-99.9s");
	check(99.95, "-100s");		/* not "-100.0s": seven characters */
	check(100.4, "-100s");
	check(9999.4, "-9999s");
	check(9999.5, "-167m");
	check(3600.0 * 28, "-1680m");
	check(9999.5 * 60, "-167h");
	check(3600.0 * 9998, "-9998h");
	check(1e12, "-9999h");
	check(-5, "-0.0s");		/* from after now: a clock mismatch */
	check(0.0 / 0.0, "-0.0s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_age),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
