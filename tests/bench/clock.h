/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The benches' clocks, in milliseconds. */
#ifndef FT_TESTS_BENCH_CLOCK_H
#define FT_TESTS_BENCH_CLOCK_H

#include <time.h>

static inline double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline double wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#endif
