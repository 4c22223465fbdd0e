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

static char stale[128], other[128], oldform[128], otherns[128];

/* our namespace, for the names this test makes */
static unsigned long long my_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) ? 0 : (unsigned long long)st.st_ino;
}

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
	snprintf(stale, sizeof(stale), TRACING "/instances/" FT_TRACE_PREFIX "%d-%llu-5",
		 4194305 + 7,
		 my_ns());
	snprintf(other, sizeof(other), TRACING "/instances/notfragtop-test-%d", (int)getpid());
	/* an older fragtop's name, and one from another PID namespace: not provably stale */
	snprintf(oldform, sizeof(oldform), TRACING "/instances/" FT_TRACE_PREFIX "%d", 4194305 + 8);
	snprintf(otherns, sizeof(otherns), TRACING "/instances/" FT_TRACE_PREFIX "1-%llu-5",
		 my_ns() + 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (stale[0])
		rmdir(stale);
	if (other[0])
		rmdir(other);
	if (oldform[0])
		rmdir(oldform);
	if (otherns[0])
		rmdir(otherns);
	return 0;
}

static void test_instance_lifecycle(void **state)
{
	struct ft_tracefs t;
	char dir[256], path[512];
	int top_before, err;

	(void)state;
	if (!stale[0])
		skip();
	top_before = read_int(TRACING "/events/kmem/mm_page_alloc_extfrag/enable");
	err = ft_tracefs_open(&t, 1024);
	assert_int_equal(err, 0);
	snprintf(dir, sizeof(dir), TRACING "/instances/%s", t.name);
	assert_true(is_dir(dir));
	assert_true(ft_tracefs_has(&t, FT_EV_EXTFRAG));
	assert_true(ft_tracefs_has(&t, FT_EV_COMPACT_BEGIN));
	assert_false(ft_tracefs_has(&t, FT_EV_FRAG_STALL));	/* unpatched kernel */
	snprintf(path, sizeof(path), "%s/events/kmem/mm_page_alloc_extfrag/enable", dir);
	assert_int_equal(read_int(path), 1);
	snprintf(path, sizeof(path), "%s/buffer_size_kb", dir);
	assert_true(read_int(path) >= 1024);	/* rounded up to whole pages */
	/* the top-level buffer is not ours to touch */
	assert_int_equal(read_int(TRACING "/events/kmem/mm_page_alloc_extfrag/enable"), top_before);
	ft_tracefs_close(&t);
	assert_false(is_dir(dir));
	ft_tracefs_close(&t);	/* twice is harmless */
}

static void test_remove_stale(void **state)
{
	struct ft_tracefs mine;

	(void)state;
	if (!stale[0])
		skip();
	assert_int_equal(mkdir(stale, 0755), 0);
	assert_int_equal(mkdir(other, 0755), 0);
	assert_int_equal(mkdir(oldform, 0755), 0);
	assert_int_equal(mkdir(otherns, 0755), 0);
	{
		/* another fragtop's tracing goes on: its events are not turned off */
		char en[512];
		FILE *f;

		snprintf(en, sizeof(en), "%s/events/kmem/mm_page_alloc_extfrag/enable", otherns);
		f = fopen(en, "w");
		assert_non_null(f);
		fputs("1\n", f);
		fclose(f);
		assert_int_equal(ft_tracefs_open(&mine, 0), 0);
		/* tests run side by side: another fragtop's start may have removed it first */
		assert_true(ft_tracefs_remove_stale() >= 0);
		assert_int_equal(read_int(en), 1);
	}
	assert_false(is_dir(stale));		/* dead fragtop of our namespace: removed */
	assert_true(is_dir(other));		/* not ours: kept */
	assert_true(is_dir(oldform));		/* not provably a fragtop's: kept */
	assert_true(is_dir(otherns));		/* another namespace's: kept */
	{
		char dir[256];

		snprintf(dir, sizeof(dir), TRACING "/instances/%s", mine.name);
		assert_true(is_dir(dir));	/* live fragtop (us): kept */
	}
	ft_tracefs_close(&mine);
}

static unsigned long long fake_start(long pid)
{
	return pid == 100 ? 777 : pid == 200 ? 888 : 0;	/* 100 and 200 alive */
}

/* The ownership rule alone, with made-up pids: no tracefs needed. */
static void test_stale_rule(void **state)
{
	(void)state;
	assert_true(ft_tracefs_instance_stale("fragtop-300-42-1", 1, 42, fake_start));	/* gone */
	/* pid reused */
	assert_true(ft_tracefs_instance_stale("fragtop-100-42-1", 1, 42, fake_start));
	/* alive */
	assert_false(ft_tracefs_instance_stale("fragtop-100-42-777", 1, 42, fake_start));
	/* other ns */
	assert_false(ft_tracefs_instance_stale("fragtop-300-43-1", 1, 42, fake_start));
	/* ourselves */
	assert_false(ft_tracefs_instance_stale("fragtop-1-42-5", 1, 42, fake_start));
	/* old form */
	assert_false(ft_tracefs_instance_stale("fragtop-300", 1, 42, fake_start));
	/* leading 0 */
	assert_false(ft_tracefs_instance_stale("fragtop-0300-42-1", 1, 42, fake_start));
	assert_false(ft_tracefs_instance_stale("fragtop-300-42-1x", 1, 42, fake_start));
	assert_false(ft_tracefs_instance_stale("fragtop-+300-42-1", 1, 42, fake_start));
	assert_false(ft_tracefs_instance_stale("fragtop- 300-42-1", 1, 42, fake_start));
	/* ns unknown */
	assert_false(ft_tracefs_instance_stale("fragtop-300-42-1", 1, 0, fake_start));
	assert_false(ft_tracefs_instance_stale("notfragtop-300-42-1", 1, 42, fake_start));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stale_rule),
		cmocka_unit_test(test_instance_lifecycle),
		cmocka_unit_test(test_remove_stale),
	};
	return cmocka_run_group_tests_name("tracefs", tests, setup, teardown);
}
