// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Multi-size THP: the collector reads every size directory of the 6.18
 * fixture (captured from the development host) with the counters its
 * stats/ lists, and the parser gives them back by size and name; a tree
 * with no sizes (the 6.1 fixture) is -ENOENT; malformed lines are
 * skipped and counted; settings keep their selected word.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/cost.h"
#include "base/file.h"
#include "collectors/thp.h"
#include "kernel/thp.h"

static char buf[65536];

/* The value of the fixture file @rel (a number), or -1. */
static long long fixture_num(const char *rel)
{
	char path[512], v[64];
	FILE *f;
	long long n = -1;

	snprintf(path, sizeof(path),
		 "tests/fixtures/6.18-mthp/sys/kernel/mm/transparent_hugepage/%s", rel);
	f = fopen(path, "r");
	if (f && fgets(v, sizeof(v), f))
		n = atoll(v);
	if (f)
		fclose(f);
	return n;
}

static void test_fixture(void **state)
{
	static struct ft_thp t;
	int fd = ft_root_open("tests/fixtures/6.18-mthp"), i;
	const struct ft_thp_size *z;
	char sel[32];
	uint64_t v;
	long n;

	(void)state;
	assert_true(fd >= 0);
	n = ft_thpsrc_read_once(fd, buf, sizeof(buf));
	close(fd);
	assert_true(n > 0);
	assert_int_equal(ft_thp_parse(buf, (size_t)n, &t), 0);
	assert_int_equal(t.nr, 9);		/* 8 kB to 2 MiB */
	for (i = 1; i < t.nr; i++)
		assert_true(t.s[i].kb > t.s[i - 1].kb);	/* smallest first */
	assert_int_equal(t.s[0].kb, 8);
	assert_string_equal(t.s[0].enabled, "");	/* 8 kB is shmem-only */
	assert_true(t.s[0].shmem[0]);
	z = ft_thp_find(&t, 64);
	assert_non_null(z);
	assert_int_equal(z->nr_stats, 18);		/* as the stats/ directory lists them */
	assert_true(ft_thp_stat(z, "anon_fault_fallback_charge", &v));
	assert_true(ft_thp_stat(z, "split_deferred", &v));
	assert_false(ft_thp_stat(z, "no_such_counter", &v));
	z = ft_thp_find(&t, 2048);
	assert_non_null(z);
	assert_true(ft_thp_stat(z, "anon_fault_alloc", &v));
	assert_int_equal((long long)v, fixture_num("hugepages-2048kB/stats/anon_fault_alloc"));
	assert_true(ft_thp_stat(z, "anon_fault_fallback", &v));
	assert_int_equal((long long)v, fixture_num("hugepages-2048kB/stats/anon_fault_fallback"));
	assert_string_equal(ft_thp_selected(z->enabled, sel, sizeof(sel)), "inherit");
	assert_null(ft_thp_find(&t, 4));
}

static void test_no_sizes(void **state)
{
	int fd = ft_root_open("tests/fixtures/6.1-2node-movable");

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ft_thpsrc_read_once(fd, buf, sizeof(buf)), -ENOENT);
	close(fd);
}

static void test_parse(void **state)
{
	static struct ft_thp t;
	static const char text[] =
		"64 enabled always inherit [madvise] never\n"
		"64 stats/anon_fault_alloc 12\n"
		"16 stats/anon_fault_alloc 3\n"
		"64 stats/anon_fault_fallback 4\n"
		"x stats/a 1\n"			/* no size */
		"64 stats/Bad-Name 1\n"		/* not a counter's name */
		"64 stats/split -1\n"		/* not a count */
		"64\n"				/* no name */
		"0 enabled [never]\n"		/* no such size */
		"64 shmem_enabled \033[31m[never]\n";	/* control bytes blanked */
	uint64_t v;
	char sel[16];

	(void)state;
	assert_int_equal(ft_thp_parse(text, sizeof(text) - 1, &t), 5);
	assert_int_equal(t.nr, 2);
	assert_int_equal(t.s[0].kb, 16);
	assert_true(ft_thp_stat(&t.s[1], "anon_fault_alloc", &v) && v == 12);
	assert_true(ft_thp_stat(&t.s[1], "anon_fault_fallback", &v) && v == 4);
	assert_string_equal(ft_thp_selected(t.s[1].enabled, sel, sizeof(sel)), "madvise");
	assert_null(strchr(t.s[1].shmem, '\033'));
	assert_string_equal(ft_thp_selected("always never", sel, sizeof(sel)), "");
	{
		static struct ft_thp later;
		static const char t2[] =
			"64 stats/anon_fault_alloc 20\n16 stats/anon_fault_alloc 1\n";

		ft_thp_parse(t2, sizeof(t2) - 1, &later);
		assert_true(ft_thp_growth(&t, &later, 64, "anon_fault_alloc", &v) && v == 8);
		/* went back */
		assert_false(ft_thp_growth(&t, &later, 16, "anon_fault_alloc", &v));
		assert_false(ft_thp_growth(&t, &later, 64, "anon_fault_fallback", &v));	/* gone */
		/* no such size */
		assert_false(ft_thp_growth(&t, &later, 32, "anon_fault_alloc", &v));
	}
}

/*
 * A value past 2^64-1 is no kernel counter: skipped, not kept at its ceiling; 2^64-1 itself is one.
 */
static void test_saturated(void **state)
{
	static struct ft_thp t;
	static const char text[] =
		"64 stats/anon_fault_alloc 18446744073709551616\n"
		"64 stats/anon_fault_fallback 18446744073709551615\n";
	uint64_t v;

	(void)state;
	assert_int_equal(ft_thp_parse(text, sizeof(text) - 1, &t), 1);
	assert_false(ft_thp_stat(&t.s[0], "anon_fault_alloc", &v));
	assert_true(ft_thp_stat(&t.s[0], "anon_fault_fallback", &v) && v == UINT64_MAX);
}

/*
 * A captured tree of 1,000 size directories, one with 104 counters, read
 * into a small buffer: the 16 smallest sizes and 32 counters a size are
 * listed, and once the buffer is full no more files are opened (before,
 * the list failed past 4,096 files and the release of the half-made list
 * closed descriptor 0 and crashed).
 */
static void test_bounded(void **state)
{
	char root[] = "/tmp/fragtop-thp-XXXXXX", path[512], small[1024];
	struct ft_thpsrc src = { 0 };
	struct ft_cost c0, c1;
	uint64_t opened;
	int fd, i, k;
	long n;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	for (i = 0; i < 1000; i++) {
		snprintf(path, sizeof(path),
			 "mkdir -p %s/sys/kernel/mm/transparent_hugepage/hugepages-%dkB/stats",
			 root, 16 * (1000 - i));
		assert_int_equal(system(path), 0);
		for (k = 0; k < 4; k++) {
			snprintf(path, sizeof(path),
				 "%s/sys/kernel/mm/transparent_hugepage/hugepages-%dkB/stats/c%d",
				 root, 16 * (1000 - i), k);
			f = fopen(path, "w");
			assert_non_null(f);
			fputs("1\n", f);
			fclose(f);
		}
	}
	for (k = 4; k < 104; k++) {	/* and one size with 104 counters: the first 32 are taken */
		snprintf(path, sizeof(path),
			 "%s/sys/kernel/mm/transparent_hugepage/hugepages-16kB/stats/c%d", root, k);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs("1\n", f);
		fclose(f);
	}
	fd = ft_root_open(root);
	assert_true(fd >= 0);
	ft_cost_get(&c0);
	n = ft_thpsrc_read(&src, fd, small, sizeof(small));
	ft_cost_get(&c1);
	ft_thpsrc_close(&src);
	close(fd);
	snprintf(path, sizeof(path), "rm -rf %s", root);
	assert_int_equal(system(path), 0);
	assert_true(n > 0 && (size_t)n < sizeof(small));
	assert_int_equal(src.sizes_left_out, 1000 - FT_THP_SRC_MAX_SIZES);
	/* enabled, shmem_enabled and 4 counters a size; 16 kB's 32 */
	assert_int_equal(src.nr, FT_THP_SRC_MAX_SIZES * 6 + FT_THP_SRC_MAX_STATS - 4);
	assert_int_equal(src.stats_left_out, 104 - FT_THP_SRC_MAX_STATS);
	assert_true(src.files_left_out > 0);
	assert_int_equal(strncmp(small, "16 stats/c", 10), 0);	/* the smallest first */
	/*
	 * the tree's directory and 16 stats/ listed, and the files up to the one that did not fit
	 */
	opened = c1.src[FT_COST_THP].opens - c0.src[FT_COST_THP].opens;
	assert_true(opened <= 1 + FT_THP_SRC_MAX_SIZES + src.nr - src.files_left_out + 1);
	ft_thpsrc_release(&src);
}

/* A size's "inherit" means the top-level setting's word. */
static void test_effective(void **state)
{
	char w[24];

	(void)state;
	assert_false(ft_thp_effective("always inherit [madvise] never", "[always] madvise never", w,
				      sizeof(w)));
	assert_string_equal(w, "madvise");
	assert_true(ft_thp_effective("always [inherit] madvise never", "always [madvise] never", w,
				     sizeof(w)));
	assert_string_equal(w, "madvise");
	assert_true(ft_thp_effective("always [inherit] madvise never", "never", w, sizeof(w)));
	assert_string_equal(w, "never");
	assert_true(ft_thp_effective("always [inherit] madvise never", NULL, w, sizeof(w)));
	assert_string_equal(w, "");
	assert_false(ft_thp_effective("", "[always] madvise never", w, sizeof(w)));
	assert_string_equal(w, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_no_sizes),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_effective),
		cmocka_unit_test(test_saturated),
		cmocka_unit_test(test_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
