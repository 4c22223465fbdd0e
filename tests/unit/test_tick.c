// SPDX-License-Identifier: GPL-2.0-or-later
/* The fixed cadence: phase kept, missed ticks skipped, never two at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/tick.h"

#define S 1000000000ull

static void test_cadence(void **state)
{
	struct ft_tick t;

	(void)state;
	ft_tick_start(&t, S, 10 * S);
	assert_true(ft_tick_due(&t, 10 * S));		/* the first at once */
	assert_false(ft_tick_due(&t, 10 * S));		/* not twice */
	assert_int_equal(ft_tick_left_ns(&t, 10 * S + S / 4), 3 * S / 4);
	assert_false(ft_tick_due(&t, 11 * S - 1));
	assert_true(ft_tick_due(&t, 11 * S + S / 3));	/* a late wake ... */
	assert_int_equal(t.next_ns, 12 * S);		/* ... keeps the phase */
	assert_true(ft_tick_due(&t, 15 * S + S / 2));	/* 12, 13, 14, 15 missed: one tick */
	assert_int_equal(t.next_ns, 16 * S);
	assert_false(ft_tick_due(&t, 15 * S + S / 2 + 1));
	assert_int_equal(ft_tick_left_ns(&t, 17 * S), 0);
}

static void test_restart(void **state)
{
	struct ft_tick t;

	(void)state;
	ft_tick_start(&t, S, 0);
	assert_true(ft_tick_due(&t, 0));
	ft_tick_restart(&t, S / 10, S / 2);		/* a new interval, from now */
	assert_int_equal(t.next_ns, S / 2 + S / 10);
	assert_false(ft_tick_due(&t, S / 2 + S / 20));
	assert_true(ft_tick_due(&t, S / 2 + S / 10));
	ft_tick_start(&t, 0, 5);			/* a zero period is one ns, not a hang */
	assert_true(ft_tick_due(&t, 5));
	assert_true(ft_tick_due(&t, 6));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cadence),
		cmocka_unit_test(test_restart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
