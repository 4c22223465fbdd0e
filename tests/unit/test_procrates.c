// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-process rates (analysis/procrates.c): none before two ticks, the
 * count's growth over the tick's seconds after; a reused row (made anew)
 * has none until its next tick; a seek or a switch to the thread table
 * starts again.
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

#include "analysis/procrates.h"

static struct ft_session s;
static struct ft_procs t;
static struct ft_procrates r;

static void at(uint64_t tick, double secs)
{
	s.ticks = tick;
	s.tick_t_ns = (uint64_t)(secs * 1e9);
}

static void test_rates(void **state)
{
	(void)state;
	memset(&r, 0, sizeof(r));
	t.nr = 2;
	t.p[0].born = 0;
	t.p[1].born = 1;
	t.p[0].c[FT_PC_FRAGMENTING] = 10;
	t.p[1].c[FT_PC_FRAGMENTING] = 0;
	at(1, 1.0);
	ft_procrates_update(&r, &s, &t, false);
	assert_true(isnan(ft_procrates_get(&r, 0)));	/* one tick: no rate yet */
	t.p[0].c[FT_PC_FRAGMENTING] = 30;
	t.p[1].c[FT_PC_FRAGMENTING] = 5;
	at(2, 3.0);
	ft_procrates_update(&r, &s, &t, false);
	assert_true(ft_procrates_get(&r, 0) == 10.0);	/* 20 over 2 s */
	assert_true(ft_procrates_get(&r, 1) == 2.5);
	/* the same tick again (a redraw): the same rates */
	ft_procrates_update(&r, &s, &t, false);
	assert_true(ft_procrates_get(&r, 0) == 10.0);
	/* row 1 reused by a new process: no rate for it, row 0 goes on */
	t.p[1].born = 7;
	t.p[0].c[FT_PC_FRAGMENTING] = 31;
	at(3, 4.0);
	ft_procrates_update(&r, &s, &t, false);
	assert_true(ft_procrates_get(&r, 0) == 1.0);
	assert_true(isnan(ft_procrates_get(&r, 1)));
	/* a seek back: start again */
	at(1, 1.0);
	ft_procrates_update(&r, &s, &t, false);
	assert_true(isnan(ft_procrates_get(&r, 0)));
	/* the thread table: start again */
	at(2, 2.0);
	ft_procrates_update(&r, &s, &t, false);
	at(3, 3.0);
	ft_procrates_update(&r, &s, &t, true);
	assert_true(isnan(ft_procrates_get(&r, 0)));
	assert_true(isnan(ft_procrates_get(&r, -1)));
	assert_true(isnan(ft_procrates_get(&r, FT_PROCS_MAX)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
