// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "Did you mean": the distance counts a swap of neighbours as one edit;
 * the closest name is offered when it is close for the word's length and
 * alone; nothing is offered for a word far from every name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/suggest.h"

static const char *offer(const char *word, const char *const *names)
{
	static struct ft_suggest s;

	ft_suggest_init(&s, word);
	for (; *names; names++)
		ft_suggest_try(&s, *names);
	return ft_suggest_best(&s);
}

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(ft_suggest_distance("snapshto", "snapshot"), 1);	/* a swap */
	assert_int_equal(ft_suggest_distance("jsn", "json"), 1);
	assert_int_equal(ft_suggest_distance("intervall", "interval"), 1);
	assert_int_equal(ft_suggest_distance("", "abc"), 3);
	assert_int_equal(ft_suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(ft_suggest_distance("same", "same"), 0);
}

static void test_offer(void **state)
{
	static const char *const cmds[] = { "snapshot", "get", "set", "record", "replay", "report",
					    "compare",
					    "export", "plot", "exporter", "fields", "help",
					    "version", NULL };
	static const char *const knobs[] = { "watermark_boost_factor", "watermark_scale_factor",
					     "extfrag_threshold", NULL };

	(void)state;
	assert_string_equal(offer("snapshto", cmds), "snapshot");
	assert_string_equal(offer("repot", cmds), "report");
	assert_string_equal(offer("watermark_bost_factor", knobs), "watermark_boost_factor");
	assert_null(offer("xyzzy", cmds));		/* far from everything */
	assert_null(offer("rep", cmds));		/* 3 letters: none within 1 */
	assert_null(offer("bet", (const char *const[]){ "get", "set", NULL }));	/* two as close */
	assert_null(offer("", cmds));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_offer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
