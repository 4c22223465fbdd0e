// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/clock.h"

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
