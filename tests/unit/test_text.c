// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/mm.h"
#include "base/text.h"

static struct ft_span S(const char *s)
{
	struct ft_span sp = { s, strlen(s) };
	return sp;
}

static void test_lines(void **state)
{
	const char buf[] = "one\ntwo  three\n\nlast";
	struct ft_cursor c;
	struct ft_span line, tok;
	int n = 0;

	(void)state;
	ft_cursor_init(&c, buf, strlen(buf));
	while (ft_line_next(&c, &line))
		n++;
	assert_int_equal(n, 4);

	line = S("  two  three ");
	assert_int_equal(ft_span_indent(&line), 2);
	assert_true(ft_tok_next(&line, &tok));
	assert_true(ft_span_eq(&tok, "two"));
	assert_true(ft_tok_next(&line, &tok));
	assert_true(ft_span_eq(&tok, "three"));
	assert_false(ft_tok_next(&line, &tok));
}

static void test_numbers(void **state)
{
	struct ft_span s;
	uint64_t u;
	int64_t i;

	(void)state;
	s = S("18446744073709551615");
	assert_int_equal(ft_span_u64(&s, &u), 0);
	assert_true(u == UINT64_MAX);
	s = S("18446744073709551616");
	assert_int_equal(ft_span_u64(&s, &u), -ERANGE);
	s = S("12a");
	assert_int_equal(ft_span_u64(&s, &u), -EINVAL);
	s = S("");
	assert_int_equal(ft_span_u64(&s, &u), -EINVAL);
	s = S("-9223372036854775808");
	assert_int_equal(ft_span_i64(&s, &i), 0);
	assert_true(i == INT64_MIN);
	s = S("-9223372036854775809");
	assert_int_equal(ft_span_i64(&s, &i), -ERANGE);
	s = S("-");
	assert_int_equal(ft_span_i64(&s, &i), -EINVAL);
	s = S("-42");
	assert_int_equal(ft_span_i64(&s, &i), 0);
	assert_int_equal(i, -42);
}

static void test_node_zone(void **state)
{
	struct ft_span line = S("Node    1, zone  Movable, type Unmovable 1 2");
	struct ft_span tok;
	char name[FT_ZONE_NAME_LEN];
	int node;

	(void)state;
	assert_int_equal(ft_parse_node_zone(&line, &node, name, sizeof(name)), 0);
	assert_int_equal(node, 1);
	assert_string_equal(name, "Movable");
	assert_true(ft_tok_next(&line, &tok));
	assert_true(ft_span_eq(&tok, "type"));

	line = S("Node x, zone DMA");
	assert_int_equal(ft_parse_node_zone(&line, &node, name, sizeof(name)), -EINVAL);
	line = S("Node 0, zone ThisNameIsWayTooLongForAZone");
	assert_int_equal(ft_parse_node_zone(&line, &node, name, sizeof(name)), -EINVAL);
	line = S("Node 0, zone");
	assert_int_equal(ft_parse_node_zone(&line, &node, name, sizeof(name)), -EINVAL);
}

static void test_grow_bounds(void **state)
{
	int *arr = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(ft_grow((void **)&arr, &cap, 5, sizeof(int), 10), 0);
	assert_true(cap >= 5 && cap <= 10);
	assert_int_equal(ft_grow((void **)&arr, &cap, 10, sizeof(int), 10), 0);
	assert_int_equal(cap, 10);
	assert_int_equal(ft_grow((void **)&arr, &cap, 11, sizeof(int), 10), -E2BIG);
	assert_int_equal(cap, 10);	/* refused: nothing changed */
	free(arr);
	/* from a first capacity, doubling past the need, never past max */
	arr = NULL;
	cap = 0;
	assert_int_equal(ft_grow_from((void **)&arr, &cap, 1, sizeof(int), 1000, 5000), 0);
	assert_int_equal(cap, 1000);
	assert_int_equal(ft_grow_from((void **)&arr, &cap, 1001, sizeof(int), 1000, 5000), 0);
	assert_int_equal(cap, 2000);
	assert_int_equal(ft_grow_from((void **)&arr, &cap, 4500, sizeof(int), 1000, 5000), 0);
	assert_int_equal(cap, 5000);
	arr[4499] = 1;
	/* an element count whose size overflows is refused, not wrapped */
	assert_int_equal(ft_grow_from((void **)&arr, &cap, SIZE_MAX / 2, 4, 8, SIZE_MAX), -E2BIG);
	free(arr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_node_zone),
		cmocka_unit_test(test_grow_bounds),
	};
	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
