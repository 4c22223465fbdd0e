// SPDX-License-Identifier: GPL-2.0-or-later
/* Statistics against values known from elsewhere (R, tables, closed forms). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/stats.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void test_mean_sd(void **state)
{
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9, NAN };
	struct ft_stats s;

	(void)state;
	ft_stats_of(v, 9, &s);
	assert_int_equal(s.n, 8);
	near(s.mean, 5, 1e-12);
	near(s.sd, sqrt(32.0 / 7), 1e-12);	/* sample sd: sum of squares 32 over n - 1 */
	near(s.min, 2, 0);
	near(s.max, 9, 0);
	ft_stats_of(v, 1, &s);
	assert_int_equal(s.n, 1);
	assert_true(isnan(s.sd));
	ft_stats_of(v + 8, 1, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean));
}

static void test_betai(void **state)
{
	(void)state;
	near(ft_betai(2, 3, 0.5), 11.0 / 16, 1e-12);	/* closed form */
	near(ft_betai(1, 1, 0.3), 0.3, 1e-12);		/* uniform */
	near(ft_betai(0.5, 0.5, 0.5), 0.5, 1e-12);	/* symmetric */
	near(ft_betai(2, 3, 0), 0, 0);
	near(ft_betai(2, 3, 1), 1, 0);
	assert_true(isnan(ft_betai(2, 3, 1.5)));
	/* Student's t: the 95% two-sided critical values of the tables */
	near(ft_t_two_sided_p(2.228139, 10), 0.05, 1e-6);
	near(ft_t_two_sided_p(12.7062, 1), 0.05, 1e-5);
	near(ft_t_two_sided_p(1.959964, 1e7), 0.05, 1e-5);
	near(ft_t_two_sided_p(0, 5), 1, 1e-12);
}

/*
 * R: t.test(extra ~ group, data = sleep) (Welch):
 * t = -1.8608, df = 17.776, p-value = 0.07939.
 */
static void test_welch_sleep(void **state)
{
	static const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	static const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	struct ft_stats a, b;
	struct ft_welch w;

	(void)state;
	ft_stats_of(g1, 10, &a);
	ft_stats_of(g2, 10, &b);
	assert_true(ft_welch(&a, &b, &w));
	near(w.t, 1.8608, 1e-4);	/* b - a: the sign R prints for a - b, flipped */
	near(w.df, 17.776, 1e-3);
	near(w.p, 0.07939, 1e-5);
}

static void test_welch_edges(void **state)
{
	static const double one[] = { 5 }, same[] = { 3, 3, 3 }, other[] = { 4, 4, 4 };
	struct ft_stats a, b;
	struct ft_welch w;

	(void)state;
	ft_stats_of(one, 1, &a);
	ft_stats_of(same, 3, &b);
	assert_false(ft_welch(&a, &b, &w));
	assert_true(isnan(w.p));
	ft_stats_of(same, 3, &a);
	assert_true(ft_welch(&a, &b, &w));
	near(w.p, 1, 0);
	ft_stats_of(other, 3, &b);
	assert_true(ft_welch(&a, &b, &w));
	near(w.p, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_sd),
		cmocka_unit_test(test_betai),
		cmocka_unit_test(test_welch_sleep),
		cmocka_unit_test(test_welch_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
