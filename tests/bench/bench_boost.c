// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench: the boost sampler's cost.  Reads zoneinfo's boost lines as
 * the live source does (kept-open pread, the scan, the fold) a few
 * thousand times and prints the CPU per read and per second at 50 Hz,
 * against a full zoneinfo parse for scale.  One run, no threshold.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "collectors/live.h"
#include "kernel/zoneinfo.h"
#include "tests/bench/clock.h"

#define SAMPLE_S	5.0

/* Every thread's scheduler run time but the calling one's, in seconds. */
static double others_cpu_s(void)
{
	char path[300], buf[128];
	double sum = 0;
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	pid_t self = (pid_t)syscall(SYS_gettid);

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		FILE *f;
		unsigned long long ns;

		if (e->d_name[0] == '.' || atoi(e->d_name) == self)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat", e->d_name);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f) && sscanf(buf, "%llu", &ns) == 1)
			sum += (double)ns / 1e9;
		if (f)
			fclose(f);
	}
	closedir(d);
	return sum;
}

/* The sampler thread's CPU over SAMPLE_S seconds, kept at the full rate (@hot) or not. */
static double thread_cpu_s(struct ft_live *l, bool hot)
{
	double c0 = others_cpu_s(), end = wall_ms() + SAMPLE_S * 1000;

	while (wall_ms() < end) {
		if (hot)
			ft_live_boost_heat(l);
		usleep(100000);
	}
	return others_cpu_s() - c0;
}

int main(void)
{
	static struct ft_live l;
	struct ft_zoneinfo zi = { 0 };
	double c0, per_read, per_parse;
	int i, n = 5000;

	if (ft_live_open(&l, "/", 10)) {
		fprintf(stderr, "bench_boost: cannot open /\n");
		return 1;
	}
	l.boost.threaded = false;	/* reads on demand, timed here */
	ft_live_boost_set(&l, FT_LIVE_BOOST_HZ);
	c0 = cpu_ms();
	for (i = 0; i < n; i++) {
		l.boost.next_ns = 0;	/* due now */
		ft_live_boost_poll(&l);
	}
	per_read = (cpu_ms() - c0) * 1000 / n;
	c0 = cpu_ms();
	for (i = 0; i < n; i++)
		ft_zoneinfo_parse(l.boost.file.buf, l.boost.file.len, &zi);
	per_parse = (cpu_ms() - c0) * 1000 / n;
	printf("\nboost sampler (one run)\n");
	printf("  one read of every zone's boost (pread + scan + fold): %.1f us CPU, %zu bytes\n",
	       per_read, l.boost.file.len);
	printf("  (back to back, no wake-up in it; a full zoneinfo parse: %.1f us)\n", per_parse);
	ft_zoneinfo_release(&zi);
	ft_live_close(&l);

	/*
	 * The sampler as it runs: its own thread, woken FT_LIVE_BOOST_HZ times
	 * a second while heated (here: heated all along), every wake-up in the
	 * scheduler's count of that thread; then left alone (idle rate)
	 */
	{
		static struct ft_live t;
		double hot, idle;

		if (ft_live_open(&t, "/", 10))
			return 1;
		ft_live_boost_set(&t, FT_LIVE_BOOST_HZ);
		hot = thread_cpu_s(&t, true);
		/* cooled down to the idle rate */
		usleep((useconds_t)(FT_LIVE_BOOST_HOT / 1000 + 1000000));
		idle = thread_cpu_s(&t, false);
		printf("  its thread at %d Hz, wake-ups included: %.3f%% of a core; at the idle "
		       "rate: %.3f%%\n",
		       FT_LIVE_BOOST_HZ, hot * 100 / SAMPLE_S, idle * 100 / SAMPLE_S);
		ft_live_close(&t);
	}
	return 0;
}
