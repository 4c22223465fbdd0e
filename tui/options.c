// SPDX-License-Identifier: GPL-2.0-or-later
#include "tui/options.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ft_opt_seconds(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= lo && v <= hi)) {
		fprintf(stderr, "fragtop: %s: '%s' is not a number of seconds in [%g, %g]\n",
			opt, arg, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int ft_opt_buffer_kb(const char *arg, size_t *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 4 || v > 4L << 20) {
		fprintf(stderr, "fragtop: --trace-buffer-kb: '%s' is not a size in KiB (4-4194304)\n",
			arg);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

void ft_opt_catch_stop_signals(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
