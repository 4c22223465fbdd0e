// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernel/zoneinfo.h"
#include "tests/helpers.h"

static const struct ft_zi_zone *find(const struct ft_zoneinfo *zi, int node, const char *name)
{
	size_t i;

	for (i = 0; i < zi->nr; i++)
		if (zi->zones[i].node == node && !strcmp(zi->zones[i].name, name))
			return &zi->zones[i];
	return NULL;
}

static void test_618(void **state)
{
	struct ft_zoneinfo zi = { 0 };
	const struct ft_zi_zone *z;
	size_t len;
	char *buf = fixture_read("6.18-idle", "proc/zoneinfo", &len);

	(void)state;
	assert_non_null(buf);
	assert_int_equal(ft_zoneinfo_parse(buf, len, &zi), 0);
	assert_int_equal(zi.nr, 5);	/* DMA DMA32 Normal Movable Device */
	z = find(&zi, 0, "DMA");
	assert_non_null(z);
	assert_int_equal(z->free, 3840);
	assert_int_equal(z->min, 51);
	assert_int_equal(z->low, 63);
	assert_int_equal(z->high, 75);
	assert_int_equal(z->promo, 87);
	assert_int_equal(z->spanned, 4095);
	assert_int_equal(z->present, 3998);
	assert_int_equal(z->managed, 3840);
	assert_int_equal(z->start_pfn, 1);
	assert_true(z->has & FT_ZI_BOOST);
	assert_true(z->has & FT_ZI_PROMO);
	assert_int_equal(z->nr_protection, 5);
	assert_int_equal(z->protection[1], 3018);
	/* 6.15+: free pages in whole pageblocks, the zone's own counter */
	assert_true(z->has & FT_ZI_FREE_BLOCKS);
	assert_int_equal(z->free_blocks, 3584);
	z = find(&zi, 0, "Normal");
	assert_non_null(z);
	assert_int_equal(z->free_blocks, 368128);
	/* Empty zones are listed, without start_pfn. */
	z = find(&zi, 0, "Device");
	assert_non_null(z);
	assert_false(ft_zi_populated(z));
	assert_false(z->has & FT_ZI_START_PFN);
	ft_zoneinfo_release(&zi);
	free(buf);
}

static void test_61_two_nodes(void **state)
{
	struct ft_zoneinfo zi = { 0 };
	const struct ft_zi_zone *z;
	size_t len, i, populated = 0;
	char *buf = fixture_read("6.1-2node-movable", "proc/zoneinfo", &len);

	(void)state;
	assert_non_null(buf);
	assert_int_equal(ft_zoneinfo_parse(buf, len, &zi), 0);
	assert_int_equal(zi.nr, 10);
	for (i = 0; i < zi.nr; i++)
		populated += ft_zi_populated(&zi.zones[i]) ? 1 : 0;
	assert_int_equal(populated, 5);
	z = find(&zi, 1, "Movable");
	assert_non_null(z);
	assert_true(ft_zi_populated(z));
	assert_true(z->has & FT_ZI_BOOST);
	assert_false(z->has & FT_ZI_PROMO);	/* 6.1 has no promo watermark */
	assert_false(z->has & FT_ZI_FREE_BLOCKS);	/* nor nr_free_pages_blocks (6.15) */
	z = find(&zi, 1, "DMA32");
	assert_non_null(z);
	assert_int_equal(z->start_pfn, 262144);
	ft_zoneinfo_release(&zi);
	free(buf);
}

static void test_old_no_boost(void **state)
{
	struct ft_zoneinfo zi = { 0 };
	const struct ft_zi_zone *z;
	size_t len;
	char *buf = fixture_read("old-reserve", "proc/zoneinfo", &len);

	(void)state;
	assert_non_null(buf);
	assert_int_equal(ft_zoneinfo_parse(buf, len, &zi), 0);
	assert_int_equal(zi.nr, 4);
	z = find(&zi, 0, "DMA");
	assert_false(z->has & FT_ZI_BOOST);
	assert_false(z->has & FT_ZI_START_PFN);
	assert_int_equal(z->boost, 0);
	z = find(&zi, 0, "Normal");
	assert_int_equal(z->free, 150402);
	assert_int_equal(z->start_pfn, 1048576);
	assert_false(ft_zi_populated(find(&zi, 0, "Movable")));
	ft_zoneinfo_release(&zi);
	free(buf);
}

static void test_malformed(void **state)
{
	struct ft_zoneinfo zi = { 0 };
	static const char *const bad[] = {
		"junk before\nNode 0, zone DMA\n  pages free 1\n",
		"Node 0, zone DMA\n  pages free x\n",
		"Node 0 zone DMA\n",
		"Node 0, zone DMA\n  pages free 1\n        min 1\n",	/* truncated */
		"Node 0, zone DMA\n  pages free 1\n min 1\n low 1\n high 1\n spanned 1\n present "
		"1\n managed 1\n protection: (0, x)\n",
		"Node 0, zone DMA\n  pages free 1\n min 1\n low 1\n high 1\n spanned 1\n present "
		"1\n managed 1\n  start_pfn: \n",
	};
	const char good[] = "Node 0, zone DMA\n  pages free 1\n min 2\n low 3\n high 4\n spanned "
			    "5\n present 6\n managed 7\n";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ft_zoneinfo_parse(bad[i], strlen(bad[i]), &zi), -EINVAL);
	assert_int_equal(ft_zoneinfo_parse("", 0, &zi), -ENODATA);
	assert_int_equal(ft_zoneinfo_parse("\n\n", 2, &zi), -ENODATA);
	assert_int_equal(ft_zoneinfo_parse(good, strlen(good), &zi), 0);
	assert_int_equal(zi.zones[0].managed, 7);
	ft_zoneinfo_release(&zi);
}

/* Every cut of a real file parses or fails cleanly, never half-filled. */
static void test_every_prefix(void **state)
{
	struct ft_zoneinfo zi = { 0 };
	size_t len, cut;
	char *buf = fixture_read("6.1-2node-movable", "proc/zoneinfo", &len);
	int ok = 0;

	(void)state;
	assert_non_null(buf);
	for (cut = 0; cut <= len; cut += 7) {
		int err = ft_zoneinfo_parse(buf, cut, &zi);

		if (!err) {
			size_t i;

			ok++;
			for (i = 0; i < zi.nr; i++)
				assert_int_equal(zi.zones[i].has & FT_ZI_REQUIRED, FT_ZI_REQUIRED);
		} else {
			assert_true(err == -EINVAL || err == -ENODATA);
		}
	}
	assert_true(ok > 0);
	ft_zoneinfo_release(&zi);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_618),
		cmocka_unit_test(test_61_two_nodes),
		cmocka_unit_test(test_old_no_boost),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_every_prefix),
	};
	return cmocka_run_group_tests_name("zoneinfo", tests, NULL, NULL);
}
