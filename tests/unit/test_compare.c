// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop compare`'s figures (analysis/compare.c), apart from how they
 * print: every row has a label and a unique key; the change and Welch's
 * p against the first group, with NaN where they mean nothing; a run's
 * metrics are those of the report of its window (the adverse recording,
 * cut in two at its control change), its duration the window's, and a
 * group of one run has that run's value as its mean and no sd; recordings
 * without stacks give no stack rows.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/compare.h"

static void test_rows(void **state)
{
	char key[96], other[96], name[96];
	int r, k;

	(void)state;
	for (r = 0; r < FT_CMP_NR; r++) {
		ft_cmp_row_key(r, key, sizeof(key));
		ft_cmp_row_name(r, name, sizeof(name));
		assert_true(key[0] && name[0]);
		/* JSON and CSV keys: snake_case (sizes as the kernel names them, "16kB") */
		for (k = 0; key[k]; k++)
			assert_true((key[k] >= 'a' && key[k] <= 'z') ||
				    (key[k] >= '0' && key[k] <= '9') ||
				    key[k] == '_' || (key[k] == 'B' && k > 0 && key[k - 1] == 'k'));
		for (k = 0; k < r; k++) {
			ft_cmp_row_key(k, other, sizeof(other));
			assert_string_not_equal(key, other);
		}
	}
}

static void test_change_and_p(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 }, one[] = { 4 },
	zero[] = { 0, 0 };
	struct ft_stats sa, sb, s1, s0, none;
	double p;

	(void)state;
	ft_stats_of(a, 5, &sa);
	ft_stats_of(b, 5, &sb);
	ft_stats_of(one, 1, &s1);
	ft_stats_of(zero, 2, &s0);
	ft_stats_of(a, 0, &none);
	assert_true(fabs(ft_cmp_change_pct(&sa, &sb) - 166.6667) < 0.001);	/* 3 -> 8 */
	assert_true(fabs(ft_cmp_change_pct(&sb, &sa) + 62.5) < 1e-9);		/* 8 -> 3 */
	assert_true(isnan(ft_cmp_change_pct(&none, &sa)));
	assert_true(isnan(ft_cmp_change_pct(&s0, &sa)));	/* a base of 0: no percentage */
	/* Welch: t = 5 at 8 degrees of freedom, two-sided p = 0.00106 */
	p = ft_cmp_p_value(&sa, &sb);
	assert_true(p > 0.0010 && p < 0.0011);
	assert_true(p < FT_CMP_ALPHA);
	assert_true(ft_cmp_p_value(&sa, &sa) > 0.99);
	assert_true(isnan(ft_cmp_p_value(&sa, &s1)));	/* one run: no p */
}

/* The adverse recording in two windows, as `compare before=F@..28 after=F@29..` */
static void test_measure(void **state)
{
	static struct ft_cmp_group g[2];
	static struct ft_cmp_stacks st;
	static struct ft_report rep;
	static const char *file = "tests/recordings/adverse-6.18.ftr";
	const struct ft_rep_window w[2] = { { NULL, "28" }, { "29", NULL } };
	double v[FT_CMP_NR];
	int k, r;

	(void)state;
	memset(g, 0, sizeof(g));
	for (k = 0; k < 2; k++) {
		snprintf(g[k].name, sizeof(g[k].name), "%s", k ? "after" : "before");
		g[k].nr = 1;
		g[k].run[0].file = strdup(file);
		g[k].run[0].w = w[k];
	}
	assert_int_equal(ft_cmp_measure(g, 2), 0);
	for (k = 0; k < 2; k++) {
		/* the run's metrics are its window's report's */
		assert_int_equal(ft_report_build(&rep, file, &w[k]), 0);
		ft_measure_report(&rep, v);
		assert_true(fabs(g[k].run[0].v[FT_CMP_DURATION] -
				 (double)(rep.last.t_ns - rep.first.t_ns) / 1e9) < 1e-9);
		ft_report_release(&rep);
		for (r = 0; r < FT_CMP_NR; r++) {
			const struct ft_stats *s = &g[k].st[r];

			if (isnan(v[r])) {
				assert_true(isnan(g[k].run[0].v[r]));
				assert_int_equal(s->n, 0);
				continue;
			}
			assert_true(g[k].run[0].v[r] == v[r]);
			assert_int_equal(s->n, 1);	/* one run: its value, no sd */
			assert_true(s->mean == v[r] && s->min == v[r] && s->max == v[r]);
			assert_true(isnan(s->sd));
		}
	}
	/* the windows meet at the change: together they are about the whole recording */
	assert_true(g[0].run[0].v[FT_CMP_DURATION] > 20 && g[1].run[0].v[FT_CMP_DURATION] > 40);
	ft_cmp_stacks(g, 2, &st);
	assert_int_equal(st.nr, 0);	/* recorded without --stacks */
	assert_false(g[0].run[0].have_stacks);
	ft_cmp_release(g, 2);
	for (k = 0; k < 2; k++)
		free(g[k].run[0].file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_change_and_p),
		cmocka_unit_test(test_measure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
