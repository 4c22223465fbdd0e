// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/diag.h"
#include "collectors/live.h"
#include "collectors/procfs.h"
#include "tests/helpers.h"

static int diag_count;
static char diag_last[512];

static void diag_hook(void *ctx, enum ft_diag_level level, const char *msg)
{
	(void)level;
	(void)ctx;
	diag_count++;
	snprintf(diag_last, sizeof(diag_last), "%s", msg);
}

static void test_collect_fixture_root(void **state)
{
	struct ft_procfs p;
	struct ft_raw raw;
	size_t len;
	char *zi = fixture_read("6.18-idle", "proc/zoneinfo", &len);

	(void)state;
	assert_int_equal(ft_procfs_open(&p, FT_FIXTURES "/6.18-idle"), 0);
	ft_procfs_collect(&p, 0xf, &raw);
	assert_true(raw.src[FT_SRC_ZONEINFO].fresh);
	assert_int_equal(raw.src[FT_SRC_ZONEINFO].err, 0);
	assert_int_equal(raw.src[FT_SRC_ZONEINFO].len, len);
	assert_memory_equal(raw.src[FT_SRC_ZONEINFO].buf, zi, len);
	/* fds stay open; a second read gives the same bytes */
	ft_procfs_collect(&p, 1u << FT_SRC_ZONEINFO, &raw);
	assert_int_equal(raw.src[FT_SRC_ZONEINFO].len, len);
	assert_false(raw.src[FT_SRC_VMSTAT].fresh);
	ft_procfs_close(&p);
	free(zi);
	assert_true(ft_procfs_open(&p, "/nonexistent-root") < 0);
}

/* A missing source is reported once, not every tick, and the rest works. */
static void test_missing_source_reported_once(void **state)
{
	struct ft_live l;
	int i;

	(void)state;
	ft_diag_set_hook(diag_hook, NULL);
	diag_count = 0;
	/* old-reserve has no proc/vmstat */
	assert_int_equal(ft_live_open(&l, FT_FIXTURES "/old-reserve", 10), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(ft_live_tick(&l, false), 0);
	assert_int_equal(diag_count, 1);
	assert_non_null(strstr(diag_last, "vmstat"));
	assert_false(ft_sample_has(&l.session.sample, FT_SRC_VMSTAT));
	assert_true(ft_sample_has(&l.session.sample, FT_SRC_PAGETYPEINFO));
	assert_string_equal(l.host.release, "3.10.0-1160.el7.x86_64");
	assert_int_equal(l.session.sample.nr_zones, 4);
	ft_live_close(&l);
	ft_diag_set_hook(NULL, NULL);
}

static void test_knobs_read(void **state)
{
	struct ft_live l;
	const struct ft_knob *k = ft_knob_find("vm.watermark_boost_factor");

	(void)state;
	assert_non_null(k);
	assert_null(ft_knob_find("no_such_knob"));
	assert_int_equal(ft_live_open(&l, FT_FIXTURES "/6.1-2node-movable", 0), 0);
	assert_int_equal(ft_live_tick(&l, false), 0);
	assert_int_equal(l.session.knobs[k - ft_knobs].err, 0);
	assert_int_equal(l.session.knobs[k - ft_knobs].num, 15000);
	k = ft_knob_find("fragment_stall_order");	/* unpatched kernel */
	assert_int_equal(l.session.knobs[k - ft_knobs].err, -ENOENT);
	k = ft_knob_find("defrag_mode");		/* 6.15+ only */
	assert_int_equal(l.session.knobs[k - ft_knobs].err, -ENOENT);
	ft_live_close(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect_fixture_root),
		cmocka_unit_test(test_missing_source_reported_once),
		cmocka_unit_test(test_knobs_read),
	};
	return cmocka_run_group_tests_name("procfs", tests, NULL, NULL);
}
