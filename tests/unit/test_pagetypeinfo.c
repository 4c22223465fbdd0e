// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernel/buddyinfo.h"
#include "kernel/pagetypeinfo.h"
#include "tests/helpers.h"

static void test_618(void **state)
{
	struct ft_pagetypeinfo pti = { 0 };
	const struct ft_pti_zone *z;
	size_t len;
	char *buf = fixture_read("6.18-idle", "proc/pagetypeinfo", &len);
	int mov, unmov;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(ft_pagetypeinfo_parse(buf, len, &pti), 0);
	assert_int_equal(pti.pageblock_order, 9);
	assert_int_equal(pti.pages_per_block, 512);
	assert_int_equal(pti.nr_orders, 11);
	assert_int_equal(pti.nr_types, 5);
	assert_string_equal(pti.types[3], "HighAtomic");
	assert_int_equal(pti.nr, 3);
	mov = ft_pagetypeinfo_type(&pti, "Movable");
	unmov = ft_pagetypeinfo_type(&pti, "Unmovable");
	z = ft_pagetypeinfo_find(&pti, 0, "DMA");
	assert_non_null(z);
	assert_int_equal(z->free[mov][10], 3);
	assert_int_equal(z->free[unmov][8], 1);
	assert_int_equal(z->blocks[unmov], 1);
	assert_int_equal(z->blocks[mov], 7);
	assert_false(z->has_mixed);
	ft_pagetypeinfo_release(&pti);
	free(buf);
}

/* The per-node header repeats; zones of both nodes are found. */
static void test_61_two_nodes(void **state)
{
	struct ft_pagetypeinfo pti = { 0 };
	struct ft_buddyinfo bi = { 0 };
	size_t len, blen, i;
	char *buf = fixture_read("6.1-2node-movable", "proc/pagetypeinfo", &len);
	char *bbuf = fixture_read("6.1-2node-movable", "proc/buddyinfo", &blen);

	(void)state;
	assert_int_equal(ft_pagetypeinfo_parse(buf, len, &pti), 0);
	assert_int_equal(ft_buddyinfo_parse(bbuf, blen, &bi), 0);
	assert_int_equal(pti.nr, 5);
	assert_non_null(ft_pagetypeinfo_find(&pti, 1, "Movable"));
	assert_non_null(ft_pagetypeinfo_find(&pti, 1, "DMA32"));
	/* The per-type free counts add up to buddyinfo (one idle capture). */
	for (i = 0; i < bi.nr; i++) {
		const struct ft_pti_zone *z = ft_pagetypeinfo_find(&pti, bi.zones[i].node,
								   bi.zones[i].name);
		int o, t;

		assert_non_null(z);
		for (o = 0; o < pti.nr_orders; o++) {
			uint64_t sum = 0;

			for (t = 0; t < pti.nr_types; t++)
				sum += z->free[t][o];
			assert_int_equal(sum, bi.zones[i].blocks[o]);
		}
	}
	ft_pagetypeinfo_release(&pti);
	ft_buddyinfo_release(&bi);
	free(buf);
	free(bbuf);
}

static void test_old_reserve_mixed_capped(void **state)
{
	struct ft_pagetypeinfo pti = { 0 };
	const struct ft_pti_zone *z;
	size_t len;
	char *buf = fixture_read("old-reserve", "proc/pagetypeinfo", &len);
	int mov, res, cma;

	(void)state;
	assert_int_equal(ft_pagetypeinfo_parse(buf, len, &pti), 0);
	assert_int_equal(pti.nr_types, 6);
	assert_string_equal(pti.types[1], "Reclaimable");	/* old column order */
	mov = ft_pagetypeinfo_type(&pti, "Movable");
	res = ft_pagetypeinfo_type(&pti, "Reserve");
	cma = ft_pagetypeinfo_type(&pti, "CMA");
	assert_true(mov >= 0 && res >= 0 && cma >= 0);
	z = ft_pagetypeinfo_find(&pti, 0, "DMA32");
	assert_int_equal(z->free[mov][0], 100000);
	assert_true(z->capped[mov] & 1u);
	assert_false(z->capped[mov] & 2u);
	assert_int_equal(z->blocks[mov], 1520);
	assert_int_equal(z->blocks[res], 2);
	assert_true(z->has_mixed);
	assert_int_equal(z->mixed[mov], 12);
	z = ft_pagetypeinfo_find(&pti, 0, "Normal");
	assert_int_equal(z->mixed[ft_pagetypeinfo_type(&pti, "Unmovable")], 37);
	ft_pagetypeinfo_release(&pti);
	free(buf);
}

static void test_malformed(void **state)
{
	static const char head[] = "Page block order: 9\nPages per block:  512\n\n"
		"Free pages count per migrate type at order 0 1 2\n";
	static const char *const bad_tail[] = {
		"Node 0, zone DMA, type Movable 1 2\n",			/* short row */
		"Node 0, zone DMA, type Movable 1 2 3 4\n",		/* long row */
		"Node 0, zone DMA, type Movable 1 x 3\n",
		"Node 0, zone DMA, type Movable 1 2 3\n",		/* no blocks table */
		"Node 0, zone DMA, type Movable 1 2 3\n\nNumber of blocks type Movable\nNode 0, "
		"zone DMA 1 2\n",
		"Node 0, zone DMA, type Movable 1 2 3\nsomething else\n",
	};
	static const char good_tail[] = "Node 0, zone DMA, type Movable 1 2 >100000\n\n"
		"Number of blocks type Movable\nNode 0, zone DMA 1\n";
	struct ft_pagetypeinfo pti = { 0 };
	char buf[1024];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_tail) / sizeof(bad_tail[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", head, bad_tail[i]);
		assert_int_equal(ft_pagetypeinfo_parse(buf, strlen(buf), &pti), -EINVAL);
	}
	snprintf(buf, sizeof(buf), "%s%s", head, good_tail);
	assert_int_equal(ft_pagetypeinfo_parse(buf, strlen(buf), &pti), 0);
	assert_int_equal(pti.zones[0].free[0][2], 100000);
	/* Pages per block must agree with the order. */
	snprintf(buf, sizeof(buf), "Page block order: 9\nPages per block: 256\n\n"
		 "Free pages count per migrate type at order 0 1 2\n%s", good_tail);
	assert_int_equal(ft_pagetypeinfo_parse(buf, strlen(buf), &pti), -EINVAL);
	assert_int_equal(ft_pagetypeinfo_parse("", 0, &pti), -ENODATA);
	ft_pagetypeinfo_release(&pti);
}

static void test_every_prefix(void **state)
{
	struct ft_pagetypeinfo pti = { 0 };
	size_t len, cut;
	char *buf = fixture_read("6.1-2node-movable", "proc/pagetypeinfo", &len);
	int ok = 0;

	(void)state;
	for (cut = 0; cut <= len; cut++) {
		int err = ft_pagetypeinfo_parse(buf, cut, &pti);

		if (!err)
			ok++;
		else
			assert_true(err == -EINVAL || err == -ENODATA);
	}
	/* whole file, and the cuts that end a node's section exactly */
	assert_true(ok >= 1);
	ft_pagetypeinfo_release(&pti);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_618),
		cmocka_unit_test(test_61_two_nodes),
		cmocka_unit_test(test_old_reserve_mixed_capped),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_every_prefix),
	};
	return cmocka_run_group_tests_name("pagetypeinfo", tests, NULL, NULL);
}
