// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/sysfile.h"
#include "tests/helpers.h"

static void test_int(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(ft_sysfile_parse_int("15000\n", 6, &v), 0);
	assert_int_equal(v, 15000);
	assert_int_equal(ft_sysfile_parse_int("  -1 \n", 6, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(ft_sysfile_parse_int("", 0, &v), -EINVAL);
	assert_int_equal(ft_sysfile_parse_int("1 2\n", 4, &v), -EINVAL);
	assert_int_equal(ft_sysfile_parse_int("abc\n", 4, &v), -EINVAL);
}

static void test_selector(void **state)
{
	struct ft_selector sel;
	size_t len;
	char *buf = fixture_read("6.18-idle", "sys/kernel/mm/transparent_hugepage/defrag", &len);
	const char en[] = "always [madvise] never\n";

	(void)state;
	assert_int_equal(ft_sysfile_parse_selector(en, strlen(en), &sel), 0);
	assert_int_equal(sel.nr_options, 3);
	assert_int_equal(sel.selected, 1);
	assert_string_equal(sel.options[1], "madvise");
	assert_non_null(buf);
	assert_int_equal(ft_sysfile_parse_selector(buf, len, &sel), 0);
	assert_int_equal(sel.nr_options, 5);	/* always defer defer+madvise madvise never */
	assert_string_equal(sel.options[2], "defer+madvise");
	free(buf);

	assert_int_equal(ft_sysfile_parse_selector("a b c\n", 6, &sel), -EINVAL);
	assert_int_equal(ft_sysfile_parse_selector("[a] [b]\n", 8, &sel), -EINVAL);
	assert_int_equal(ft_sysfile_parse_selector("[]\n", 3, &sel), -EINVAL);
	assert_int_equal(ft_sysfile_parse_selector("a[b] c\n", 7, &sel), -EINVAL);
	assert_int_equal(ft_sysfile_parse_selector("[a]\nb\n", 6, &sel), -EINVAL);
	assert_int_equal(ft_sysfile_parse_selector("", 0, &sel), -EINVAL);
	assert_int_equal(ft_sysfile_parse_selector("1 2 3 4 5 6 7 8 [9]", 19, &sel), -E2BIG);
}

static void test_meminfo(void **state)
{
	const char t[] = "MemTotal:       24591904 kB\nMemFree:        23000000 kB\n"
			 "MemAvailable:   23456789 kB\nBuffers: 1 kB\nMemAvailableX: 5 kB\n";
	uint64_t kb = 0;

	(void)state;
	assert_int_equal(ft_sysfile_meminfo(t, strlen(t), "MemTotal", &kb), 0);
	assert_int_equal(kb, 24591904);
	assert_int_equal(ft_sysfile_meminfo(t, strlen(t), "MemAvailable", &kb), 0);
	assert_int_equal(kb, 23456789);
	/* a key is a whole name before its colon, not a prefix of one */
	assert_int_equal(ft_sysfile_meminfo(t, strlen(t), "Mem", &kb), -ENOENT);
	assert_int_equal(ft_sysfile_meminfo(t, strlen(t), "SwapTotal", &kb), -ENOENT);
	assert_int_equal(ft_sysfile_meminfo("MemTotal: lots kB\n", 18, "MemTotal", &kb), -EINVAL);
	assert_int_equal(ft_sysfile_meminfo("MemTotal:", 9, "MemTotal", &kb), -EINVAL);
	/* the buffer is not NUL-ended: nothing past len is read */
	assert_int_equal(ft_sysfile_meminfo(t, 8, "MemTotal", &kb), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_selector),
		cmocka_unit_test(test_meminfo),
	};
	return cmocka_run_group_tests_name("sysfile", tests, NULL, NULL);
}
