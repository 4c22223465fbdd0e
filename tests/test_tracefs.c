// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The private instance on the real kernel: created with our events,
 * top-level tracing untouched, removed on close; stale instances of dead
 * fragtops removed, everyone else's kept.  Skipped without root or tracefs.
 * Everything it creates is removed in the teardown, pass or fail.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "collectors/tracefs.h"
#include "tests/helpers.h"

#define TRACING "/sys/kernel/tracing"

static char stale[128], other[128];

static bool is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0 || !is_dir(TRACING "/instances"))
		return 0;
	/* a pid above pid_max can belong to no process */
	snprintf(stale, sizeof(stale), TRACING "/instances/" FT_TRACE_PREFIX "%d", 4194305 + 7);
	snprintf(other, sizeof(other), TRACING "/instances/notfragtop-test-%d", (int)getpid());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (stale[0])
		rmdir(stale);
	if (other[0])
		rmdir(other);
	return 0;
}

static void test_instance_lifecycle(void **state)
{
	struct ft_trace t;
	char dir[256], path[512];
	int top_before, err;

	(void)state;
	if (!stale[0])
		skip();
	top_before = read_int(TRACING "/events/kmem/mm_page_alloc_extfrag/enable");
	err = ft_trace_open(&t, 1024);
	assert_int_equal(err, 0);
	snprintf(dir, sizeof(dir), TRACING "/instances/%s", t.name);
	assert_true(is_dir(dir));
	assert_true(ft_trace_has(&t, FT_EV_EXTFRAG));
	assert_true(ft_trace_has(&t, FT_EV_COMPACT_BEGIN));
	assert_false(ft_trace_has(&t, FT_EV_FRAG_STALL));	/* unpatched kernel */
	snprintf(path, sizeof(path), "%s/events/kmem/mm_page_alloc_extfrag/enable", dir);
	assert_int_equal(read_int(path), 1);
	snprintf(path, sizeof(path), "%s/buffer_size_kb", dir);
	assert_true(read_int(path) >= 1024);	/* rounded up to whole pages */
	/* the top-level buffer is not ours to touch */
	assert_int_equal(read_int(TRACING "/events/kmem/mm_page_alloc_extfrag/enable"), top_before);
	ft_trace_close(&t);
	assert_false(is_dir(dir));
	ft_trace_close(&t);	/* twice is harmless */
}

static void test_remove_stale(void **state)
{
	struct ft_trace mine;

	(void)state;
	if (!stale[0])
		skip();
	assert_int_equal(mkdir(stale, 0755), 0);
	assert_int_equal(mkdir(other, 0755), 0);
	assert_int_equal(ft_trace_open(&mine, 0), 0);
	assert_true(ft_trace_remove_stale() >= 1);
	assert_false(is_dir(stale));		/* dead fragtop: removed */
	assert_true(is_dir(other));		/* not ours: kept */
	{
		char dir[256];

		snprintf(dir, sizeof(dir), TRACING "/instances/%s", mine.name);
		assert_true(is_dir(dir));	/* live fragtop (us): kept */
	}
	ft_trace_close(&mine);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instance_lifecycle),
		cmocka_unit_test(test_remove_stale),
	};
	return cmocka_run_group_tests_name("tracefs", tests, setup, teardown);
}
