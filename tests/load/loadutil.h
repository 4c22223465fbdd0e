/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the load tools of tests/load share (each is built alone with cc,
 * so these are static): the monotonic clock and a bounded number from
 * argv that exits with usage (2) when it is not one.
 */
#ifndef FT_TESTS_LOADUTIL_H
#define FT_TESTS_LOADUTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* @s as a number in @lo..@hi, else "PROG: WHAT must be LO..HI" and exit 2. */
static long number(const char *prog, const char *s, long lo, long hi, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "%s: %s must be %ld..%ld, not '%s'\n", prog, what, lo, hi, s);
		exit(2);
	}
	return v;
}

#endif
