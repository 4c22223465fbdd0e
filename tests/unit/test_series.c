// SPDX-License-Identifier: GPL-2.0-or-later
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/series.h"

static struct ft_series s;

static void test_get_max_mean(void **state)
{
	unsigned long i;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_true(isnan(ft_series_get(&s, 0)));
	assert_true(isnan(ft_series_mean(&s, 10)));
	ft_series_push(&s, NAN);	/* the first tick has no rate */
	ft_series_push(&s, 4);
	ft_series_push(&s, 0);
	ft_series_push(&s, 8);
	assert_true(ft_series_get(&s, 0) == 8);
	assert_true(ft_series_get(&s, 2) == 4);
	assert_true(ft_series_max(&s, 3) == 8);
	assert_true(ft_series_mean(&s, 2) == 4);	/* 8, 0 */
	assert_true(ft_series_mean(&s, 10) == 4);	/* 8, 0, 4; NaN skipped */
	/* the ring wraps: only the newest FT_SERIES_LEN values remain */
	for (i = 0; i < FT_SERIES_LEN + 5; i++)
		ft_series_push(&s, (double)i);
	assert_true(ft_series_get(&s, 0) == FT_SERIES_LEN + 4);
	assert_true(isnan(ft_series_get(&s, FT_SERIES_LEN)));
	assert_true(ft_series_mean(&s, 3) == FT_SERIES_LEN + 3);
	assert_true(ft_series_mean(&s, 100000) == (5 + FT_SERIES_LEN + 4) / 2.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_max_mean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
