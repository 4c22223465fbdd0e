// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ft_zero(): the memory is zero afterwards, whatever it held, and its
 * whole pages leave RSS (read from /proc/self/smaps for the test's own
 * mapping) where a memset() would make all of them resident, on this
 * host's kernel without the shared zero page as on any other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "base/zero.h"

#define MAP	(8u << 20)

/* Rss of the mapping at @addr, in kB, from /proc/self/smaps; -1 if not found. */
static long rss_kb(const void *addr)
{
	char line[256];
	unsigned long lo, hi;
	long kb = -1;
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
		else if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

static void test_zeroes(void **state)
{
	/* anonymous memory, as ft_zero() asks (base/zero.h) */
	enum { LEN = 3 * 4096 + 123 };
	unsigned char *buf = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				  -1, 0);
	size_t off, len;

	(void)state;
	assert_true(buf != MAP_FAILED);
	/* every alignment and length, small and across pages */
	for (off = 0; off < 9; off++)
		for (len = 0; len + off <= LEN; len += 997) {
			memset(buf, 0xa5, LEN);
			ft_zero(buf + off, len);
			for (size_t i = 0; i < LEN; i++)
				assert_int_equal(buf[i], i >= off && i < off + len ? 0 : 0xa5);
		}
	munmap(buf, LEN);
}

static void test_stays_out_of_rss(void **state)
{
	unsigned char *p = mmap(NULL, MAP, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
				0);
	long before, after;

	(void)state;
	assert_true(p != MAP_FAILED);
	madvise(p, MAP, MADV_NOHUGEPAGE);	/* a huge page would make one write 2 MiB */
	p[5 * 4096 + 7] = 1;			/* one page written */
	p[MAP - 1] = 2;				/* and the last */
	before = rss_kb(p);
	ft_zero(p + 100, MAP - 200);
	after = rss_kb(p);
	assert_true(before >= 0 && after >= 0);
	assert_int_equal(p[5 * 4096 + 7], 0);
	assert_int_equal(p[MAP - 1], 2);	/* past the end asked for */
	assert_int_equal(p[MAP - 150], 0);
	/*
	 * nothing read into RSS (a kernel without the zero page allocates on a
	 * read): the page written inside dropped, the head's page written, the
	 * last page resident already; not the 2,048 a memset would touch
	 */
	assert_true(after <= before);
	assert_true(after < 64);
	munmap(p, MAP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zeroes),
		cmocka_unit_test(test_stays_out_of_rss),
	};
	return cmocka_run_group_tests_name("zero", tests, NULL, NULL);
}
