// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analysis/findings_live.c: the sliding window over a session built from
 * a captured tree's files a tick a second.  A page allocation failure in
 * the kernel log fires alloc_failures while it is inside the window and
 * not once the window has passed it; the window spans about its length;
 * the knobs are the newest tick's; a seek back starts the window again;
 * before two ticks there is no window.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/findings_live.h"
#include "tests/session_fixture.h"

#define SEC	1000000000ull

static struct ft_session s;
static struct ft_find_live fl;
static struct ft_find_in in;
static struct ft_findings fs;

static void tick_at(unsigned int sec)
{
	uint8_t state[12] = { 0 };	/* the log read, nothing lost */

	fixture_apply(&s, FT_RR_SOURCE, FT_RS_KMSG, sec * SEC, state, sizeof(state));
	assert_true(fixture_tick(&s, "6.18-idle", sec * SEC));
	ft_find_live_tick(&fl, &s);
}

static void failure(unsigned int sec, int order)
{
	char rec[160];
	int n = snprintf(rec, sizeof(rec), "4,%u,%u,-;fio: page allocation failure: order:%d, "
					   "mode:0xcc0(GFP_KERNEL), "
			 "nodemask=(null)\n", sec, sec, order);

	fixture_apply(&s, FT_RR_KMSG, 0, sec * SEC, rec, (size_t)n);
}

static void knob(const char *name, const char *val, unsigned int sec)
{
	const struct ft_knob *k = ft_knob_find(name);

	fixture_apply(&s, FT_RR_KNOB, (uint16_t)(k - ft_knobs), sec * SEC, val, strlen(val));
}

static bool fires(const char *rule)
{
	assert_true(ft_find_in_live(&fl, &s, &in));
	ft_find_eval(&in, &fs);
	return ft_find_active(&fs, rule);
}

static int setup(void **st)
{
	(void)st;
	ft_session_init(&s);
	ft_find_live_init(&fl, 6);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	ft_session_release(&s);
	return 0;
}

static void test_window(void **st)
{
	unsigned int t;

	(void)st;
	tick_at(1);
	assert_false(ft_find_in_live(&fl, &s, &in));	/* one tick: no window yet */
	knob("watermark_boost_factor", "15000\n", 2);
	for (t = 2; t <= 5; t++)
		tick_at(t);
	assert_false(fires("alloc_failures"));
	assert_true(fs.checked[ft_find_rule("alloc_failures") - ft_find_rules]);
	failure(6, 2);
	tick_at(6);
	assert_true(fires("alloc_failures"));
	assert_int_equal((int)in.v[FT_FX_ALLOC_FAILURES], 1);
	assert_int_equal((int)in.v[FT_FX_ALLOC_FAIL_ORDER], 2);
	assert_int_equal((int)in.v[FT_FX_BOOST_FACTOR], 15000);
	/* the window is about its length: from the oldest point, 6 s and a step at most */
	assert_true(in.to_s - in.from_s <= 7.01 && in.to_s - in.from_s >= 1);
	for (t = 7; t <= 11; t++) {
		tick_at(t);
		assert_true(fires("alloc_failures"));	/* still inside: (5, 6] is in [5, t] */
	}
	tick_at(12);
	assert_false(fires("alloc_failures"));	/* the window, [6, 12], has passed it */
	for (t = 13; t <= 16; t++)
		tick_at(t);
	assert_false(fires("alloc_failures"));
	assert_int_equal((int)in.v[FT_FX_ALLOC_FAILURES], 0);
	assert_true(in.to_s - in.from_s <= 7.01);
	/* a knob changed shows at once: the newest tick's */
	knob("watermark_boost_factor", "0\n", 16);
	tick_at(17);
	assert_true(ft_find_in_live(&fl, &s, &in));
	assert_int_equal((int)in.v[FT_FX_BOOST_FACTOR], 0);
}

/* A tick before the newest point (a replay's seek back): the window starts again. */
static void test_seek_back(void **st)
{
	(void)st;
	tick_at(100);
	tick_at(101);
	assert_true(ft_find_in_live(&fl, &s, &in));
	ft_find_live_tick(&fl, &s);
	/*
	 * a seek back: replay restores the session as it was before (a checkpoint), here a fresh
	 * one
	 */
	ft_session_release(&s);
	ft_session_init(&s);
	tick_at(50);
	assert_int_equal(fl.n, 1);
	assert_false(ft_find_in_live(&fl, &s, &in));
	tick_at(51);
	assert_true(ft_find_in_live(&fl, &s, &in));
	assert_true(in.to_s - in.from_s < 1.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seek_back, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
