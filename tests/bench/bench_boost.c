// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench: the boost sampler's cost.  Reads zoneinfo's boost lines as
 * the live source does (kept-open pread, the scan, the fold) a few
 * thousand times and prints the CPU per read and per second at 50 Hz,
 * against a full zoneinfo parse for scale.  One run, no threshold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "collectors/live.h"
#include "model/zoneinfo.h"
#include "tests/bench/clock.h"

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
	l.boost_threaded = false;	/* reads on demand, timed here */
	ft_live_boost_set(&l, FT_LIVE_BOOST_HZ);
	c0 = cpu_ms();
	for (i = 0; i < n; i++) {
		l.boost_next_ns = 0;	/* due now */
		ft_live_boost_poll(&l);
	}
	per_read = (cpu_ms() - c0) * 1000 / n;
	c0 = cpu_ms();
	for (i = 0; i < n; i++)
		ft_zoneinfo_parse(l.boost_file.buf, l.boost_file.len, &zi);
	per_parse = (cpu_ms() - c0) * 1000 / n;
	printf("\nboost sampler (one run)\n");
	printf("  one read of every zone's boost (pread + scan + fold): %.1f us CPU, %zu bytes\n",
	       per_read, l.boost_file.len);
	printf("  at %d Hz: %.2f ms CPU per second = %.3f%% of a core (a full zoneinfo parse: %.1f us)\n",
	       FT_LIVE_BOOST_HZ, per_read * FT_LIVE_BOOST_HZ / 1000, per_read * FT_LIVE_BOOST_HZ / 1e4,
	       per_parse);
	ft_zoneinfo_release(&zi);
	ft_live_close(&l);
	return 0;
}
