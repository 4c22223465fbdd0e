/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The clocks fragtop uses: CLOCK_MONOTONIC stamps every input (ticks,
 * trace pages, map batches) and CLOCK_REALTIME says when a tick happened
 * for people.  Views never read a clock: they take the session's time.
 * The thread's CPU time is what fragtop's own budgets are counted in.
 */
#ifndef FT_BASE_CLOCK_H
#define FT_BASE_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint64_t ft_now_ns(void);		/* CLOCK_MONOTONIC */
uint64_t ft_realtime_ns(void);		/* CLOCK_REALTIME */
uint64_t ft_thread_cpu_ns(void);	/* CLOCK_THREAD_CPUTIME_ID */
uint64_t ft_process_cpu_ns(void);	/* CLOCK_PROCESS_CPUTIME_ID: every thread */

/*
 * An age of @secs before now in six characters at most, for a column
 * that must not shift: "-13.5s" under 100 s, then "-100s", "-167m",
 * "-28h" (at most "-9999h").  @buf holds 8 bytes at least.
 */
void ft_age_format(double secs, char *buf, size_t sz);

/*
 * @secs since the epoch as RFC 3339 in UTC, "2026-12-05T04:21:53Z"; false when it cannot be
 * written.
 */
bool ft_utc_format(double secs, char *buf, size_t sz);

#endif
