// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/vmstat.h"
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

/* The bound on a value, at 2^56 and one past it either way: a made-up file refused whole. */
static void test_bound(void **state)
{
	static const char *const ok[] = { "a 72057594037927936\n", "a -72057594037927936\n",
					  "a 18374686479671623680\n" };	/* -2^56, wrapped */
	static const char *const past[] = { "a 72057594037927937\n", "a -72057594037927937\n",
					    "a 9223372036854775807\n", "a 18374686479671623679\n" };
	struct ft_vmstat vs = { 0 };
	int64_t v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(ft_vmstat_parse(ok[i], strlen(ok[i]), &vs), 0);
		assert_true(ft_vmstat_get(&vs, "a", &v, NULL));
		assert_true(v == FT_VMSTAT_VALUE_MAX || v == -FT_VMSTAT_VALUE_MAX);
	}
	for (i = 0; i < sizeof(past) / sizeof(past[0]); i++)
		assert_int_equal(ft_vmstat_parse(past[i], strlen(past[i]), &vs), -ERANGE);
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

/* The known counters are indexed as the text is parsed: the index is what a by-name look finds. */
static void test_index(void **state)
{
	struct ft_vmstat vs = { 0 };
	size_t len, i;
	int64_t v, w;
	char *buf = fixture_read("6.18-frag", "proc/vmstat", &len);
	const char dup[] = "compact_stall 1\nnr_free_pages 5\ncompact_stall 2\n";

	(void)state;
	for (i = 1; i < FT_VM_NR; i++)	/* sorted, for the lookup */
		assert_true(strcmp(ft_vm_names[i - 1], ft_vm_names[i]) < 0);
	assert_non_null(buf);
	assert_int_equal(ft_vmstat_parse(buf, len, &vs), 0);
	for (i = 0; i < FT_VM_NR; i++) {
		bool by_name = ft_vmstat_get(&vs, ft_vm_names[i], &w, NULL);

		assert_int_equal(ft_vmstat_value(&vs, (enum ft_vm)i, &v), by_name);
		if (by_name)
			assert_int_equal(v, w);
	}
	assert_true(ft_vmstat_value(&vs, FT_VM_COMPACT_STALL, &v));
	assert_false(ft_vmstat_value(&vs, FT_VM_FRAGMENT_STALL, &v));	/* not on a stock kernel */
	/* a text without them: none found, nothing stale from the last */
	assert_int_equal(ft_vmstat_parse(dup, sizeof(dup) - 1, &vs), 0);
	assert_true(ft_vmstat_value(&vs, FT_VM_COMPACT_STALL, &v));
	assert_int_equal(v, 1);		/* the first of a name, as ft_vmstat_get() */
	assert_false(ft_vmstat_value(&vs, FT_VM_PGSCAN_KSWAPD, &v));
	/* rebuilt from the items alone (a checkpoint restores items, not the index) */
	for (i = 0; i < FT_VM_NR; i++)
		vs.at[i] = 0x7fff;
	ft_vmstat_index(&vs);
	assert_true(ft_vmstat_value(&vs, FT_VM_NR_FREE_PAGES, &v));
	assert_int_equal(v, 5);
	assert_false(ft_vmstat_value(&vs, FT_VM_THP_FAULT_ALLOC, &v));
	ft_vmstat_release(&vs);
	assert_false(ft_vmstat_value(&vs, FT_VM_NR_FREE_PAGES, &v));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_and_unknown_names),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_index),
	};
	return cmocka_run_group_tests_name("vmstat", tests, NULL, NULL);
}
