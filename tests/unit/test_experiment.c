// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analysis/experiment.c: the blocks' order (ABBA alternates the rounds,
 * random shuffles each round and is the same for the same seed, every
 * value once a round either way); the guards on a session built from a
 * captured tree's files (a kernel log failure breaches alloc_failures
 * from the start on, and nothing breaches without its input); the
 * metrics by key and which way is better.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/experiment.h"
#include "tests/session_fixture.h"

static void test_abba(void **st)
{
	int b[FT_EXP_BLOCKS], want2[] = { 0, 1, 1, 0, 0, 1, 1, 0 }, want3[] = { 0, 1, 2, 2, 1, 0 };

	(void)st;
	assert_int_equal(ft_exp_schedule(2, 4, FT_EXP_ABBA, 0, b), 8);
	assert_memory_equal(b, want2, sizeof(want2));
	assert_int_equal(ft_exp_schedule(3, 2, FT_EXP_ABBA, 0, b), 6);
	assert_memory_equal(b, want3, sizeof(want3));
	/* one value: nothing to test */
	assert_int_equal(ft_exp_schedule(1, 4, FT_EXP_ABBA, 0, b), -1);
	/* past the blocks kept */
	assert_int_equal(ft_exp_schedule(8, 9, FT_EXP_ABBA, 0, b), -1);
}

static void test_random(void **st)
{
	int a[FT_EXP_BLOCKS], b[FT_EXP_BLOCKS], r, i, seen;
	bool differs = false;

	(void)st;
	assert_int_equal(ft_exp_schedule(4, 8, FT_EXP_RANDOM, 42, a), 32);
	assert_int_equal(ft_exp_schedule(4, 8, FT_EXP_RANDOM, 42, b), 32);
	/* the seed said in the output reproduces it */
	assert_memory_equal(a, b, 32 * sizeof(int));
	for (r = 0; r < 8; r++) {
		for (i = 0, seen = 0; i < 4; i++)
			seen |= 1 << a[4 * r + i];
		assert_int_equal(seen, 15);		/* every value once a round */
		differs |= a[4 * r] != 0 || a[4 * r + 1] != 1;
	}
	assert_true(differs);				/* shuffled, not the table's order */
}

static void test_metrics(void **st)
{
	(void)st;
	assert_int_equal(ft_exp_metric("extfrag_fragmenting_per_s"), FT_CMP_FRAG_S);
	assert_int_equal(ft_exp_metric("no_such_row"), -1);
	assert_true(ft_exp_lower_better(FT_CMP_FRAG_S));
	assert_false(ft_exp_lower_better(FT_CMP_THP_OK));
	assert_true(ft_exp_lower_better(FT_CMP_LAT0 + 3 * FT_LAT_COMPACTION + 1));
}

static void test_guards(void **st)
{
	static struct ft_session s;
	struct ft_exp_guards g;
	struct ft_exp_guard_base b;
	uint8_t state[12] = { 0 };
	char why[200];
	const char rec[] =
		"4,9,9,-;fio: page allocation failure: order:0, mode:0xa20(GFP_ATOMIC)\n";
	const char forged_user[] =
		"12,7,7,-;fio: page allocation failure: order:0, mode:0xa20(GFP_ATOMIC)\n";
	const char forged_tmpfs[] =
		"3,8,8,-;tmpfs: Unknown parameter 'x: page allocation failure: order:10'\n";
	const char cut[] = "4,8,8,-;fio: page allocation failure: order:9";
	int i;

	(void)st;
	for (i = 0; i < FT_EXP_G_NR; i++)
		g.limit[i] = ft_exp_guard_defaults[i];
	ft_session_init(&s);
	fixture_apply(&s, FT_RR_SOURCE, FT_RS_KMSG, 1, state, sizeof(state));
	assert_true(fixture_tick(&s, "6.18-idle", 1000000000ull));
	ft_exp_guard_begin(&b, &s, true);
	assert_int_equal(ft_exp_guard_check(&g, &b, &s, why, sizeof(why)), -1);
	/*
	 * forged ones trip nothing: user space's (LOG_USER), the phrase echoed inside another
	 * message, a cut line
	 */
	fixture_apply(&s, FT_RR_KMSG, 0, 2, forged_user, sizeof(forged_user) - 1);
	fixture_apply(&s, FT_RR_KMSG, 0, 2, forged_tmpfs, sizeof(forged_tmpfs) - 1);
	fixture_apply(&s, FT_RR_KMSG, 0, 2, cut, sizeof(cut) - 1);
	assert_true(fixture_tick(&s, "6.18-idle", 1500000000ull));
	assert_int_equal(ft_exp_guard_check(&g, &b, &s, why, sizeof(why)), -1);
	assert_int_equal(s.kmsg.failures, 0);
	fixture_apply(&s, FT_RR_KMSG, 0, 2, rec, sizeof(rec) - 1);
	assert_true(fixture_tick(&s, "6.18-idle", 2000000000ull));
	assert_int_equal(ft_exp_guard_check(&g, &b, &s, why, sizeof(why)), FT_EXP_G_ALLOC_FAILURES);
	assert_non_null(strstr(why, "1 page allocation failures in the kernel log, above 0"));
	/* a block's start does not forget it: failures count from the experiment's start */
	ft_exp_guard_begin(&b, &s, false);
	assert_int_equal(ft_exp_guard_check(&g, &b, &s, why, sizeof(why)), FT_EXP_G_ALLOC_FAILURES);
	/* off: nothing breaches (the tree has no pressure, no tracing, no THP faults) */
	g.limit[FT_EXP_G_ALLOC_FAILURES] = NAN;
	assert_int_equal(ft_exp_guard_check(&g, &b, &s, why, sizeof(why)), -1);
	ft_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abba),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_guards),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
