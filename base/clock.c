// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/clock.h"

#include <stdio.h>
#include <time.h>

static uint64_t ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t ft_now_ns(void)
{
	return ns(CLOCK_MONOTONIC);
}

uint64_t ft_realtime_ns(void)
{
	return ns(CLOCK_REALTIME);
}

uint64_t ft_thread_cpu_ns(void)
{
	return ns(CLOCK_THREAD_CPUTIME_ID);
}

uint64_t ft_process_cpu_ns(void)
{
	return ns(CLOCK_PROCESS_CPUTIME_ID);
}

void ft_age_format(double secs, char *buf, size_t sz)
{
	if (!(secs >= 0))	/* negative or NaN: a clock mismatch, shown as now */
		secs = 0;
	if (secs < 99.95)
		snprintf(buf, sz, "%.1fs", -secs);
	else if (secs < 9999.5)
		snprintf(buf, sz, "%.0fs", -secs);
	else if (secs < 9999.5 * 60)
		snprintf(buf, sz, "%.0fm", -secs / 60);
	else
		snprintf(buf, sz, "%.0fh", secs < 9999.0 * 3600 ? -secs / 3600 : -9999.0);
}

bool ft_utc_format(double secs, char *buf, size_t sz)
{
	time_t t = (time_t)secs;
	struct tm tm;

	return gmtime_r(&t, &tm) && strftime(buf, sz, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
