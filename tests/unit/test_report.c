// SPDX-License-Identifier: GPL-2.0-or-later
/* Report windows: seconds, or a time of day at or after the recording's start. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "analysis/report.h"

/* 2026-11-29 22:50:08 UTC */
#define START_NS (1795992608ull * 1000000000ull + 250000000ull)

static void test_window_secs(void **state)
{
	char why[160];
	double s;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(ft_report_window_secs("32.5", START_NS, &s, why, sizeof(why)), 0);
	assert_true(s == 32.5);
	assert_int_equal(ft_report_window_secs("0", START_NS, &s, why, sizeof(why)), 0);
	assert_true(s == 0);
	/* a time of day: seconds from the start (which is 22:50:08.25) */
	assert_int_equal(ft_report_window_secs("22:50:38", START_NS, &s, why, sizeof(why)), 0);
	assert_true(fabs(s - 29.75) < 1e-6);
	assert_int_equal(ft_report_window_secs("22:52", START_NS, &s, why, sizeof(why)), 0);
	assert_true(fabs(s - 111.75) < 1e-6);
	/* earlier in the day than the start: the next day's */
	assert_int_equal(ft_report_window_secs("00:10", START_NS, &s, why, sizeof(why)), 0);
	assert_true(fabs(s - (86400 - (22 * 3600 + 50 * 60 + 8.25) + 600)) < 1e-6);
	/* the start's own second, a fraction before it: 0 */
	assert_int_equal(ft_report_window_secs("22:50:08", START_NS, &s, why, sizeof(why)), 0);
	assert_true(s == 0);
	/* in another zone the same wall time is another instant */
	setenv("TZ", "CET-1", 1);
	tzset();
	assert_int_equal(ft_report_window_secs("23:50:38", START_NS, &s, why, sizeof(why)), 0);
	assert_true(fabs(s - 29.75) < 1e-6);
	setenv("TZ", "UTC", 1);
	tzset();
	/* refused, said */
	assert_int_equal(ft_report_window_secs("-1", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_report_window_secs("abc", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_report_window_secs("24:00", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_report_window_secs("10:60", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_report_window_secs("10:5x", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_report_window_secs("10:05:07:01", START_NS, &s, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(ft_report_window_secs("inf", START_NS, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(ft_report_window_secs("10:00", 0, &s, why, sizeof(why)), -EINVAL);
	assert_non_null(why[0] ? why : NULL);
}

/*
 * A window [from, to] takes the ticks a little off its ends (a tick is
 * read at 9.998 s for the 10 s cadence), both included: the nearest, within
 * half the recording's interval, learnt from its first two ticks.
 */
static void test_window_where(void **state)
{
	static const double drift[] = { 0, 1.002, 2.003, 12.036, 22.057, 32.072, 33.074 };
	struct ft_rep_cut c;
	size_t i;

	(void)state;
	/* the baseline */
	assert_int_equal(ft_report_window_where(7.998, 8, 10, FT_REP_WINDOW_SLACK), 0);
	assert_int_equal(ft_report_window_where(9.998, 8, 10, FT_REP_WINDOW_SLACK), 0);
	/* a late 10 s tick */
	assert_int_equal(ft_report_window_where(10.03, 8, 10, FT_REP_WINDOW_SLACK), 0);
	assert_int_equal(ft_report_window_where(10.998, 8, 10, FT_REP_WINDOW_SLACK), 1);
	assert_int_equal(ft_report_window_where(7.9, 8, 10, FT_REP_WINDOW_SLACK), -1);
	assert_int_equal(ft_report_window_where(1e9, 0, INFINITY, FT_REP_WINDOW_SLACK), 0);
	assert_int_equal(ft_report_window_where(30, 30, 30, 0), 0);	/* a point: one tick */
	/* a 1 s recording: the slack is half a second once two ticks are seen */
	ft_report_cut_init(&c, 8, 10);
	assert_int_equal(ft_report_cut_where(&c, 0), -1);
	assert_int_equal(ft_report_cut_where(&c, 0.998), -1);
	assert_true(fabs(c.slack - 0.5 * 0.998) < 1e-9);
	assert_int_equal(ft_report_cut_where(&c, 7.4), -1);
	assert_int_equal(ft_report_cut_where(&c, 7.6), 0);
	assert_int_equal(ft_report_cut_where(&c, 10.4), 0);
	assert_int_equal(ft_report_cut_where(&c, 10.6), 1);
	/* an older recorder's drift: [12, 32] is the ticks at 12.036 to 32.072 */
	ft_report_cut_init(&c, 12, 32);
	for (i = 0; i < sizeof(drift) / sizeof(drift[0]); i++)
		assert_int_equal(ft_report_cut_where(&c, drift[i]),
				 drift[i] < 12 ? -1 : drift[i] > 33 ? 1 : 0);
	/* a 0.1 s recording: [8, 10] does not take the ticks at 7.9 or 10.1 */
	ft_report_cut_init(&c, 8, 10);
	ft_report_cut_where(&c, 0);
	ft_report_cut_where(&c, 0.1);
	assert_int_equal(ft_report_cut_where(&c, 7.9), -1);
	assert_int_equal(ft_report_cut_where(&c, 7.999), 0);
	assert_int_equal(ft_report_cut_where(&c, 10.1), 1);
}

/* The memory stall between two points: PSI's growth, and direct compaction's traced share of it. */
static void test_memstall(void **state)
{
	static struct ft_report rep;
	static struct ft_rep_point a, b;
	struct ft_rep_memstall m;

	(void)state;
	/* no pressure in either */
	assert_int_equal(ft_report_memstall(&rep, &a, &b, &m), -ENODATA);
	a.psi = b.psi = a.psi_full = b.psi_full = true;
	a.psi_some_us = 1000000, b.psi_some_us = 5000000;
	a.psi_full_us = 100, b.psi_full_us = 600;
	a.lat[FT_LAT_COMPACTION].sum_us = 500000, b.lat[FT_LAT_COMPACTION].sum_us = 1500000;
	assert_int_equal(ft_report_memstall(&rep, &a, &b, &m), 0);
	assert_int_equal(m.some_us, 4000000);
	assert_int_equal(m.full_us, 500);
	assert_true(isnan(m.compaction_us));	/* compaction not traced: no share */
	assert_true(isnan(m.share));
	rep.lat_present[FT_LAT_COMPACTION] = true;
	assert_int_equal(ft_report_memstall(&rep, &a, &b, &m), 0);
	assert_true(fabs(m.compaction_us - 1000000) < 1e-9);
	assert_true(fabs(m.share - 0.25) < 1e-12);
	b.psi_full = false;	/* a kernel without the full line */
	assert_int_equal(ft_report_memstall(&rep, &a, &b, &m), 0);
	assert_true(m.full_us == UINT64_MAX);
	b.psi_some_us = 10;	/* went back: not the same counters */
	assert_int_equal(ft_report_memstall(&rep, &a, &b, &m), -ENODATA);
	b.psi_some_us = a.psi_some_us;	/* no stall: no share */
	assert_int_equal(ft_report_memstall(&rep, &a, &b, &m), 0);
	assert_true(isnan(m.share));
}

/* A cgroup's memory stall over the window: its memory.pressure at both ends. */
static void test_cgroup_stall(void **state)
{
	static struct ft_report rep;
	static struct ft_cgroups a, b;
	struct ft_rep_memstall m;

	(void)state;
	memset(&rep, 0, sizeof(rep));
	/* none recorded */
	assert_int_equal(ft_report_cgroup_stall(&rep, "/pod", 100, &m), -ENODATA);
	a.nr = b.nr = 1;
	snprintf(a.g[0].path, sizeof(a.g[0].path), "/pod");
	snprintf(b.g[0].path, sizeof(b.g[0].path), "/pod");
	a.g[0].psi.some = (struct ft_psi_line){ .have = true, .total_us = 1000 };
	b.g[0].psi.some = (struct ft_psi_line){ .have = true, .total_us = 401000 };
	rep.cgroups_first = &a;
	rep.cgroups = &b;
	rep.lat_present[FT_LAT_COMPACTION] = true;
	assert_int_equal(ft_report_cgroup_stall(&rep, "/pod", 100000, &m), 0);
	assert_int_equal(m.some_us, 400000);
	assert_true(m.full_us == UINT64_MAX);	/* no full line */
	assert_true(fabs(m.share - 0.25) < 1e-12);
	assert_int_equal(ft_report_cgroup_stall(&rep, "/other", 1, &m), -ENODATA);
	assert_int_equal(ft_report_cgroup_stall(&rep, "", 1, &m), -ENODATA);
	/* made within the window: from 0, unless the first table left cgroups out */
	a.nr = 0;
	assert_int_equal(ft_report_cgroup_stall(&rep, "/pod", 100000, &m), 0);
	assert_int_equal(m.some_us, 401000);
	a.dropped = 3;
	assert_int_equal(ft_report_cgroup_stall(&rep, "/pod", 100000, &m), -ENODATA);
	a.dropped = 0;
	a.nr = 1;
	b.g[0].psi.some.have = false;	/* v1: no pressure file */
	assert_int_equal(ft_report_cgroup_stall(&rep, "/pod", 1, &m), -ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_secs),
		cmocka_unit_test(test_window_where),
		cmocka_unit_test(test_memstall),
		cmocka_unit_test(test_cgroup_stall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
