// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/vmstat.h"
#include "tests/helpers.h"

static void test_fixture_and_unknown_names(void **state)
{
	struct ft_vmstat vs = { 0 };
	size_t len, hint = 0;
	int64_t v;
	char *buf = fixture_read("6.18-idle", "proc/vmstat", &len);
	const char extra[] = "nr_free_pages 5\nfragment_stall 42\nsome_future_counter 7\n";

	(void)state;
	assert_int_equal(ft_vmstat_parse(buf, len, &vs), 0);
	assert_true(vs.nr > 150);
	assert_true(ft_vmstat_get(&vs, "compact_stall", &v, &hint));
	assert_true(ft_vmstat_get(&vs, "compact_stall", &v, &hint));	/* via hint */
	assert_false(ft_vmstat_get(&vs, "fragment_stall", &v, NULL));	/* unpatched */
	free(buf);

	assert_int_equal(ft_vmstat_parse(extra, strlen(extra), &vs), 0);
	assert_int_equal(vs.nr, 3);
	assert_true(ft_vmstat_get(&vs, "some_future_counter", &v, NULL));
	assert_int_equal(v, 7);
	assert_true(ft_vmstat_get(&vs, "fragment_stall", &v, NULL));
	assert_int_equal(v, 42);
	assert_string_equal(vs.items[2].name, "some_future_counter");
	ft_vmstat_release(&vs);
}

static void test_values(void **state)
{
	const char txt[] = "a -3\nb 18446744073709551615\n\nc 0\n";
	struct ft_vmstat vs = { 0 };
	int64_t v;

	(void)state;
	assert_int_equal(ft_vmstat_parse(txt, strlen(txt), &vs), 0);
	assert_true(ft_vmstat_get(&vs, "a", &v, NULL));
	assert_int_equal(v, -3);
	assert_true(ft_vmstat_get(&vs, "b", &v, NULL));
	assert_int_equal(v, -1);	/* a wrapped gauge */
	ft_vmstat_release(&vs);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"name\n", "name 1 2\n", "name x\n", "name 99999999999999999999\n",
	};
	struct ft_vmstat vs = { 0 };
	char longname[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ft_vmstat_parse(bad[i], strlen(bad[i]), &vs), -EINVAL);
	memset(longname, 'x', 100);
	strcpy(longname + 100, " 1\n");
	assert_int_equal(ft_vmstat_parse(longname, strlen(longname), &vs), -EINVAL);
	assert_int_equal(ft_vmstat_parse("", 0, &vs), -ENODATA);
	ft_vmstat_release(&vs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_and_unknown_names),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests_name("vmstat", tests, NULL, NULL);
}
