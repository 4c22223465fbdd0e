/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the cmocka tests that drive a session: an input applied, and
 * a whole tick of a captured tree's /proc files (tests/fixtures/<kernel>).
 * Tests run from the repo root.
 */
#ifndef FT_TESTS_SESSION_FIXTURE_H
#define FT_TESTS_SESSION_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/session.h"

static inline void fixture_apply(struct ft_session *s, uint16_t type, uint16_t sub, uint64_t t,
				 const void *d,
				 size_t len)
{
	struct ft_rec_record in = { .type = type, .sub = sub, .len = (uint32_t)len, .t_ns = t,
				    .data = d };

	ft_session_apply(s, &in);
}

/*
 * tests/fixtures/@kernel's zoneinfo, buddyinfo, pagetypeinfo and vmstat
 * as PROC inputs at @t.  False when a file is missing (nothing applied
 * past it).
 */
static inline bool fixture_procs(struct ft_session *s, const char *kernel, uint64_t t)
{
	static const char *const src[] = { "zoneinfo", "buddyinfo", "pagetypeinfo", "vmstat" };
	static char buf[1 << 17];
	char path[256];
	int i;

	for (i = 0; i < 4; i++) {
		FILE *f;
		size_t n;

		snprintf(path, sizeof(path), "tests/fixtures/%s/proc/%s", kernel, src[i]);
		f = fopen(path, "r");
		if (!f)
			return false;
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		fixture_apply(s, FT_RR_PROC, (uint16_t)i, t, buf, n);
	}
	return true;
}

/* One tick at @t of tests/fixtures/@kernel: its PROC inputs, then the TICK. */
static inline bool fixture_tick(struct ft_session *s, const char *kernel, uint64_t t)
{
	if (!fixture_procs(s, kernel, t))
		return false;
	fixture_apply(s, FT_RR_TICK, 0, t, &t, 8);
	return true;
}

#endif
