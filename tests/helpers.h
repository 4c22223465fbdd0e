/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the cmocka tests: fixture loading.  Tests run from the repo root. */
#ifndef FT_TESTS_HELPERS_H
#define FT_TESTS_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FT_FIXTURES "tests/fixtures"

/* Whole file tests/fixtures/<kernel>/<rel>, NUL-terminated; NULL if absent. */
static inline char *fixture_read(const char *kernel, const char *rel, size_t *len)
{
	char path[512];
	char *buf = NULL;
	size_t cap = 0, n = 0;
	FILE *f;

	*len = 0;
	snprintf(path, sizeof(path), "%s/%s/%s", FT_FIXTURES, kernel, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	for (;;) {
		size_t r;

		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		if (!r)
			break;
		n += r;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Every fixture root, for tests that run over all of them. */
static const char *const fixture_kernels[] = {
	"6.18-idle", "6.18-frag", "6.1-2node-movable", "old-reserve",
};
#define NR_FIXTURE_KERNELS (sizeof(fixture_kernels) / sizeof(fixture_kernels[0]))

#endif
