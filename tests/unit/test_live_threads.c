// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source with its boost sampler thread running, as the TUI, the
 * recorder and the exporter run it: ticks, trace polls, heat and waits on
 * the main thread while the sampler reads zoneinfo (a fixture tree's) on
 * its own, then a close that joins it.  make check runs it in the plain,
 * ASan and TSan builds: the thread shares the accumulator, the heat and
 * the stop flag through a mutex and a condition variable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/clock.h"
#include "collectors/live.h"
#include "tests/helpers.h"

static void test_sampler_thread(void **state)
{
	static struct ft_live l;
	uint64_t end;
	int ticks = 0;

	(void)state;
	assert_int_equal(ft_live_open(&l, FT_FIXTURES "/6.18-idle", 0), 0);
	assert_true(l.boost.threaded);
	ft_live_boost_set(&l, 200);
	assert_true(l.boost.running);
	end = ft_now_ns() + 1500000000ull;
	while (ft_now_ns() < end) {
		ft_live_boost_heat(&l);
		assert_int_equal(ft_live_tick(&l, false), 0);
		ticks++;
		ft_live_wait(&l, ft_now_ns() + 50000000ull);
	}
	/* the ticks took the sampler's reads: a BOOST input each, with reads in it */
	assert_true(ticks >= 5);
	assert_true(l.session.boost_nr > 0);
	ft_live_boost_set(&l, 0);	/* stops and joins the thread */
	assert_false(l.boost.running);
	ft_live_boost_set(&l, 50);	/* and it starts again */
	assert_true(l.boost.running);
	ft_live_close(&l);		/* joins it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sampler_thread),
	};
	return cmocka_run_group_tests_name("live_threads", tests, NULL, NULL);
}
