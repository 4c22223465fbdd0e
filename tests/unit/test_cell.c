// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Floats in fixed cells (base/cell.c): every width the tables use holds
 * 1e308, -1e308, NaN and both infinities, and the ordinary figures keep
 * the decimals they asked for.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/cell.h"

static const double hostile[] = { 1e308, -1e308, NAN, INFINITY, -INFINITY, 1.8446744073709552e19,
				  -9.2e18, 123456789.5, -0.5, 5e-324, 0 };
#define NR_HOSTILE (sizeof(hostile) / sizeof(hostile[0]))

static void test_ordinary(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(ft_cell(b, sizeof(b), 12.34, 7, 1), "12.3");
	/* the decimal goes first */
	assert_string_equal(ft_cell(b, sizeof(b), 1234567, 7, 1), "1234567");
	assert_string_equal(ft_cell(b, sizeof(b), 12345678, 7, 1), "1.23e7");
	assert_string_equal(ft_cell(b, sizeof(b), 1e308, 7, 1), "1e308");
	assert_string_equal(ft_cell(b, sizeof(b), -1e308, 7, 1), "-1e308");
	assert_string_equal(ft_cell(b, sizeof(b), -1e308, 5, 1), "#####");	/* nothing fits */
	assert_string_equal(ft_cell(b, sizeof(b), NAN, 7, 1), "-");
	assert_string_equal(ft_cell(b, sizeof(b), INFINITY, 7, 1), "inf");
	assert_string_equal(ft_cell(b, sizeof(b), -INFINITY, 7, 1), "-inf");
	assert_string_equal(ft_cell(b, sizeof(b), 1.5e-7, 7, 3), "0.000");
	assert_string_equal(ft_cell_pct(b, sizeof(b), 99.5, 6, 1), "99.5%");
	assert_string_equal(ft_cell_pct(b, sizeof(b), 1e308, 7, 1), "1e308%");
	assert_string_equal(ft_cell_pct(b, sizeof(b), NAN, 7, 1), "-");
	/* the width is the cell's, at exactly the figure's length and one short of it */
	assert_string_equal(ft_cell(b, sizeof(b), 123.5, 5, 1), "123.5");
	assert_string_equal(ft_cell(b, sizeof(b), 123.5, 4, 1), "124");
	/* a buffer shorter than the width: the buffer wins */
	assert_string_equal(ft_cell(b, 4, 123.5, 7, 1), "124");
	assert_string_equal(ft_cell(b, 3, 123.5, 7, 1), "##");
}

static void test_every_width(void **state)
{
	char b[64];
	size_t i;
	int w, p;

	(void)state;
	for (i = 0; i < NR_HOSTILE; i++)
		for (w = 1; w <= 12; w++)
			for (p = 0; p <= 3; p++) {
				assert_true(strlen(ft_cell(b, sizeof(b), hostile[i], w,
							   p)) <= (size_t)w);
				assert_true(strlen(ft_cell_pct(b, sizeof(b), hostile[i], w,
							       p)) <= (size_t)w);
			}
}

static void test_tui_formats(void **state)
{
	char b[64];
	size_t i;
	int w;

	(void)state;
	for (i = 0; i < NR_HOSTILE; i++) {
		for (w = 4; w <= 10; w++) {	/* a unit's form takes 5 columns at most */
			ft_fmt_count(b, sizeof(b), hostile[i], w);
			assert_true(strlen(b) <= (size_t)(w > 5 ? w : 5));
			ft_fmt_rate(b, sizeof(b), hostile[i], w);
			assert_true(strlen(b) <= (size_t)(w > 5 ? w : 5));
		}
		ft_fmt_pct(b, sizeof(b), hostile[i]);
		assert_true(strlen(b) <= 5);
	}
	ft_fmt_count(b, sizeof(b), 1234567, 5);
	assert_string_equal(b, "1.23M");
	ft_fmt_count(b, sizeof(b), 999e18, 5);		/* the last unit */
	assert_string_equal(b, "999E");
	ft_fmt_count(b, sizeof(b), 1e21, 5);		/* past it */
	assert_string_equal(b, "1e21");
	ft_fmt_pct(b, sizeof(b), 99.96);
	assert_string_equal(b, "99.9");
	ft_fmt_pct(b, sizeof(b), 99999.4);
	assert_string_equal(b, "99999");
	ft_fmt_pct(b, sizeof(b), 99999.5);
	assert_string_equal(b, "1e5");
	ft_fmt_pages(b, sizeof(b), UINT64_MAX, 65536);
	assert_true(strlen(b) <= 6);
	ft_fmt_pages(b, sizeof(b), 512, 4096);
	assert_string_equal(b, "2.00M");
}

/*
 * An index from a float: both ends and half a step either side of each, and the values no index is.
 */
static void test_index(void **state)
{
	(void)state;
	assert_int_equal(ft_cell_index(-0.5, 0, 8), 0);
	assert_int_equal(ft_cell_index(0, 0, 8), 0);
	assert_int_equal(ft_cell_index(0.5, 0, 8), 0);
	assert_int_equal(ft_cell_index(7.5, 0, 8), 7);
	assert_int_equal(ft_cell_index(8, 0, 8), 8);
	assert_int_equal(ft_cell_index(8.5, 0, 8), 8);
	assert_int_equal(ft_cell_index(1e308, 0, 8), 8);
	assert_int_equal(ft_cell_index(-1e308, 0, 8), 0);
	assert_int_equal(ft_cell_index(INFINITY, 0, 8), 8);
	assert_int_equal(ft_cell_index(-INFINITY, 0, 8), 0);
	assert_int_equal(ft_cell_index(NAN, 0, 8), 0);
	assert_int_equal(ft_cell_index(-3.5, -4, -1), -4);
	assert_int_equal(ft_cell_index(-3.5 + 1e-9, -4, -1), -4);
	assert_int_equal(ft_cell_index(-0.5, -4, -1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ordinary),
		cmocka_unit_test(test_every_width),
		cmocka_unit_test(test_tui_formats),
		cmocka_unit_test(test_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
