// SPDX-License-Identifier: GPL-2.0-or-later
/* analysis/cgrows.c: process rows summed by cgroup add up to the totals, "other" included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/cgrows.h"

static uint64_t total(const struct ft_procs *t, int k)
{
	uint64_t sum = t->other[k];
	int i;

	for (i = 0; i < t->nr; i++)
		sum += t->p[i].c[k];
	return sum;
}

static void check_sums(const struct ft_procs *t, const struct ft_cgrows *rows)
{
	int i, k;

	for (k = 0; k < FT_PC_NR; k++) {
		uint64_t sum = 0;

		for (i = 0; i < rows->nr; i++)
			sum += rows->r[i].c[k];
		assert_int_equal(sum, total(t, k));
	}
}

static void test_rollup(void **state)
{
	static struct ft_procs t;
	static struct ft_cgrows rows;
	const struct ft_cgrow *a, *b;

	(void)state;
	ft_procs_init(&t);
	/* two processes in /a, one in /b, one whose cgroup was never taken */
	ft_procs_count(&t, 10, 1, FT_PC_FRAGMENTING, 5);
	ft_procs_count(&t, 10, 1, FT_PC_COMPACTION_US, 700);
	ft_procs_count(&t, 11, 2, FT_PC_FRAGMENTING, 3);
	ft_procs_count(&t, 12, 3, FT_PC_FRAGMENTING, 20);
	ft_procs_count(&t, 13, 4, FT_PC_RECLAIM, 2);
	ft_procs_cgroup(&t, 10, "/a");
	ft_procs_cgroup(&t, 11, "/a");
	ft_procs_cgroup(&t, 12, "/b");
	ft_cgrows_build(&t, &rows);
	assert_int_equal(rows.nr, 3);
	assert_string_equal(rows.r[0].path, "/b");	/* the most fragmenting first */
	a = ft_cgrows_find(&rows, "/a");
	b = ft_cgrows_find(&rows, "/b");
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->procs, 2);
	assert_int_equal(a->c[FT_PC_FRAGMENTING], 8);
	assert_int_equal(a->c[FT_PC_COMPACTION_US], 700);
	assert_int_equal(b->c[FT_PC_FRAGMENTING], 20);
	assert_int_equal(ft_cgrows_find(&rows, "")->c[FT_PC_RECLAIM], 2);
	assert_null(ft_cgrows_find(&rows, "/c"));
	check_sums(&t, &rows);
	/* folded processes make an "other" row, last */
	t.other[FT_PC_FRAGMENTING] = 100;
	ft_cgrows_build(&t, &rows);
	assert_int_equal(rows.nr, 4);
	assert_true(rows.r[3].other);
	assert_int_equal(rows.r[3].c[FT_PC_FRAGMENTING], 100);
	check_sums(&t, &rows);
}

/* More cgroups than rows: the rest summed into "other", nothing lost. */
static void test_overflow(void **state)
{
	static struct ft_procs t;
	static struct ft_cgrows rows;
	char path[32];
	int i;

	(void)state;
	ft_procs_init(&t);
	for (i = 0; i < FT_CGROWS_MAX + 40; i++) {
		ft_procs_count(&t, 100 + i, (uint64_t)i, FT_PC_EXTFRAG, (uint64_t)i + 1);
		snprintf(path, sizeof(path), "/c%d", i);
		ft_procs_cgroup(&t, 100 + i, path);
	}
	ft_cgrows_build(&t, &rows);
	assert_int_equal(rows.nr, FT_CGROWS_MAX + 1);
	assert_true(rows.r[FT_CGROWS_MAX].other);
	assert_int_equal(rows.r[FT_CGROWS_MAX].procs, 40);
	check_sums(&t, &rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rollup),
		cmocka_unit_test(test_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
