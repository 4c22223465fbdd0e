// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernel/buddyinfo.h"
#include "tests/helpers.h"

static void test_fixtures(void **state)
{
	struct ft_buddyinfo bi = { 0 };
	const struct ft_buddy_zone *z;
	size_t len;
	char *buf;

	(void)state;
	buf = fixture_read("6.1-2node-movable", "proc/buddyinfo", &len);
	assert_non_null(buf);
	assert_int_equal(ft_buddyinfo_parse(buf, len, &bi), 0);
	assert_int_equal(bi.nr, 5);	/* only populated zones */
	assert_int_equal(bi.nr_orders, 11);
	z = ft_buddyinfo_find(&bi, 1, "Movable");
	assert_non_null(z);
	assert_int_equal(z->blocks[0], 1);
	assert_int_equal(z->blocks[10], 27);
	assert_null(ft_buddyinfo_find(&bi, 1, "DMA"));
	free(buf);

	buf = fixture_read("6.18-frag", "proc/buddyinfo", &len);
	assert_int_equal(ft_buddyinfo_parse(buf, len, &bi), 0);
	assert_int_equal(bi.nr, 3);
	z = ft_buddyinfo_find(&bi, 0, "Normal");
	assert_non_null(z);
	assert_int_equal(z->blocks[1], 2560);
	free(buf);
	ft_buddyinfo_release(&bi);
}

static void test_orders_by_count(void **state)
{
	/* arm64 64K pages: 14 orders; parse whatever count is printed */
	const char txt[] = "Node 0, zone   Normal 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n";
	const char too_many[] =
		"Node 0, zone Normal 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21\n";
	struct ft_buddyinfo bi = { 0 };

	(void)state;
	assert_int_equal(ft_buddyinfo_parse(txt, strlen(txt), &bi), 0);
	assert_int_equal(bi.nr_orders, 14);
	assert_int_equal(bi.zones[0].blocks[13], 14);
	assert_int_equal(ft_buddyinfo_parse(too_many, strlen(too_many), &bi), -E2BIG);
	ft_buddyinfo_release(&bi);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"Node 0, zone DMA 1 2 x\n",
		"Node 0, zone DMA\n",
		"Node 0, zone DMA 1 2 3\nNode 0, zone DMA32 1 2\n",	/* ragged */
		"garbage\n",
		"Node 0, zone DMA -1 2\n",
	};
	struct ft_buddyinfo bi = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ft_buddyinfo_parse(bad[i], strlen(bad[i]), &bi), -EINVAL);
	assert_int_equal(ft_buddyinfo_parse("", 0, &bi), -ENODATA);
	ft_buddyinfo_release(&bi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_orders_by_count),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests_name("buddyinfo", tests, NULL, NULL);
}
