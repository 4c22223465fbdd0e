// SPDX-License-Identifier: GPL-2.0-or-later
/* Chart scales: the linear map and nice ticks covering a range. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/scale.h"

static void test_px(void **state)
{
	struct ft_scale x = { 0, 100, 50, 850 }, y = { 0, 10, 200, 20 };

	(void)state;
	assert_true(ft_scale_px(&x, 0) == 50);
	assert_true(ft_scale_px(&x, 50) == 450);
	assert_true(ft_scale_px(&x, 100) == 850);
	assert_true(ft_scale_px(&x, 200) == 850);	/* clamped */
	assert_true(ft_scale_px(&x, -5) == 50);
	assert_true(ft_scale_px(&y, 10) == 20);		/* up is smaller */
	assert_true(ft_scale_px(&y, 5) == 110);
	assert_true(ft_scale_px(&y, NAN) == 200);
}

static void check(double lo, double hi, size_t max, const double *want, size_t nwant, double wstep)
{
	double t[32], step;
	size_t n = ft_nice_ticks(lo, hi, max, t, 32, &step), i;

	assert_int_equal(n, nwant);
	assert_true(fabs(step - wstep) < 1e-9 * wstep);
	for (i = 0; i < n; i++)
		assert_true(fabs(t[i] - want[i]) < 1e-9 * (fabs(want[i]) + 1));
	/* the ticks cover the range */
	assert_true(t[0] <= lo + 1e-9 && t[n - 1] >= hi - 1e-9);
}

static void test_ticks(void **state)
{
	(void)state;
	check(0, 117.3, 6, (const double[]){ 0, 50, 100, 150 }, 4, 50);
	check(0, 100, 6, (const double[]){ 0, 20, 40, 60, 80, 100 }, 6, 20);
	check(0, 0.891, 5, (const double[]){ 0, 0.5, 1 }, 3, 0.5);
	check(0, 38335, 5, (const double[]){ 0, 10000, 20000, 30000, 40000 }, 5, 10000);
	check(3.2, 7.9, 6, (const double[]){ 3, 4, 5, 6, 7, 8 }, 6, 1);
	check(-3, 3, 4, (const double[]){ -5, 0, 5 }, 3, 5);
	check(0, 0, 5, (const double[]){ 0, 0.5, 1 }, 3, 0.5);	/* degenerate: [0, 1] */
	check(257, 257, 5, (const double[]){ 0, 200, 400, 600 }, 4, 200);
	/* many ticks allowed: the step stays nice (0.05, not 1/49) */
	{
		double t[64], step;

		assert_int_equal(ft_nice_ticks(0, 1, 50, t, 64, &step), 21);
		assert_true(fabs(step - 0.05) < 1e-12);
		assert_true(fabs(t[20] - 1) < 1e-9);
		/* a short buffer: as many as fit */
		assert_int_equal(ft_nice_ticks(0, 1, 50, t, 4, &step), 4);
	}
	assert_int_equal(ft_nice_ticks(NAN, 1, 5, (double[8]){ 0 }, 8, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_px),
		cmocka_unit_test(test_ticks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
