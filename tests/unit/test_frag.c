// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernel/buddyinfo.h"
#include "model/frag.h"
#include "base/text.h"
#include "tests/helpers.h"

/*
 * The kernel's own debugfs extfrag/{unusable_index,extfrag_index}, captured
 * with the buddyinfo beside them, must equal what fragtop computes from
 * that buddyinfo, digit for digit.
 */
static int compare_debugfs(const char *kernel, const char *file, int which)
{
	struct ft_buddyinfo bi = { 0 };
	struct ft_cursor c;
	struct ft_span line;
	size_t blen, len;
	char *bbuf = fixture_read(kernel, "proc/buddyinfo", &blen);
	char *buf = fixture_read(kernel, file, &len);
	int lines = 0;

	if (!buf) {
		free(bbuf);
		return -1;
	}
	assert_int_equal(ft_buddyinfo_parse(bbuf, blen, &bi), 0);
	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		const struct ft_buddy_zone *z;
		char name[FT_ZONE_NAME_LEN], ours[32];
		int node, unusable[FT_MAX_ORDERS], fragidx[FT_MAX_ORDERS], o = 0;
		struct ft_span tok;

		if (!ft_span_trim(line).len)
			continue;
		assert_int_equal(ft_parse_node_zone(&line, &node, name, sizeof(name)), 0);
		z = ft_buddyinfo_find(&bi, node, name);
		assert_non_null(z);
		ft_frag_indices(z->blocks, bi.nr_orders, unusable, fragidx);
		while (ft_tok_next(&line, &tok)) {
			char theirs[32];

			assert_true(o < bi.nr_orders);
			ft_span_copy(&tok, theirs, sizeof(theirs));
			ft_thousandths_format(which ? fragidx[o] : unusable[o], ours, sizeof(ours));
			if (strcmp(ours, theirs))
				fail_msg("%s %s node %d zone %s order %d: kernel %s, fragtop %s",
					 kernel, file, node, name, o, theirs, ours);
			o++;
		}
		assert_int_equal(o, bi.nr_orders);
		lines++;
	}
	ft_buddyinfo_release(&bi);
	free(bbuf);
	free(buf);
	return lines;
}

static void test_kernel_debugfs(void **state)
{
	size_t i;
	int compared = 0;

	(void)state;
	for (i = 0; i < NR_FIXTURE_KERNELS; i++) {
		int a = compare_debugfs(fixture_kernels[i],
					"sys/kernel/debug/extfrag/unusable_index", 0);
		int b = compare_debugfs(fixture_kernels[i],
					"sys/kernel/debug/extfrag/extfrag_index", 1);

		if (a >= 0)
			compared += a;
		if (b >= 0)
			compared += b;
	}
	/* 6.18 idle (3 zones) + 6.18 frag (3) + 6.1 two nodes (5), both files */
	assert_int_equal(compared, 2 * (3 + 3 + 5));
}

static void test_edges(void **state)
{
	uint64_t none[11] = { 0 };
	uint64_t only0[11] = { 1000 };
	struct ft_frag_info info;
	char buf[16];

	(void)state;
	ft_frag_info(none, 11, 9, &info);
	assert_int_equal(ft_unusable_index(9, &info), 1000);	/* no free memory */
	assert_int_equal(ft_fragmentation_index(9, &info), 0);	/* no free blocks */
	ft_frag_info(only0, 11, 0, &info);
	assert_int_equal(ft_unusable_index(0, &info), 0);
	assert_int_equal(ft_fragmentation_index(0, &info), -1000);
	ft_frag_info(only0, 11, 9, &info);
	assert_int_equal(ft_unusable_index(9, &info), 1000);
	/* 1000 - (1000 + 1000*1000/512) / 1000 = 1000 - 2 */
	assert_int_equal(ft_fragmentation_index(9, &info), 998);
	ft_thousandths_format(-1000, buf, sizeof(buf));
	assert_string_equal(buf, "-1.000");
	ft_thousandths_format(998, buf, sizeof(buf));
	assert_string_equal(buf, "0.998");
	ft_thousandths_format(1000, buf, sizeof(buf));
	assert_string_equal(buf, "1.000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_debugfs),
		cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests_name("frag", tests, NULL, NULL);
}
