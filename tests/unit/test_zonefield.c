// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The zone field registry (model/zonefield.c): every row complete and
 * named as node_exporter names things (unique keys and families, a unit
 * in the family's name, help a sentence), and its values read from a
 * session fed the 6.18 fixture equal to zoneinfo's lines; on a kernel
 * without nr_free_pages_blocks and boost (the 3.10 fixture) those fields
 * are absent, never 0; the boost sampler's fields appear with its tick.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/boost.h"
#include "model/zonefield.h"
#include "tests/helpers.h"

static void apply(struct ft_session *s, uint16_t type, uint16_t sub, const void *d, size_t len)
{
	struct ft_rec_record in = { .type = type, .sub = sub, .len = (uint32_t)len, .t_ns = 1,
				    .data = d };

	ft_session_apply(s, &in);
}

/* One tick of a fixture's zoneinfo and buddyinfo. */
static void feed(struct ft_session *s, const char *kernel)
{
	size_t len;
	char *zi = fixture_read(kernel, "proc/zoneinfo", &len);
	uint64_t t = 1;

	assert_non_null(zi);
	apply(s, FT_RR_HOST, 0, "pageblock_order=9\n", 18);	/* as the live source says it */
	apply(s, FT_RR_PROC, FT_SRC_ZONEINFO, zi, len);
	free(zi);
	zi = fixture_read(kernel, "proc/buddyinfo", &len);
	assert_non_null(zi);
	apply(s, FT_RR_PROC, FT_SRC_BUDDYINFO, zi, len);
	free(zi);
	apply(s, FT_RR_TICK, 0, &t, 8);
}

/* Does @s end in @suffix? */
static bool ft_str_ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void test_rows(void **state)
{
	int i, k;

	(void)state;
	for (i = 0; i < FT_ZF_NR; i++) {
		const struct ft_zone_field *f = &ft_zone_fields[i];

		assert_non_null(f->key);
		assert_non_null(f->get);
		assert_non_null(f->unit);
		assert_non_null(f->help);
		assert_true(f->help[strlen(f->help) - 1] == '.');
		for (k = 0; k < i; k++) {
			assert_string_not_equal(f->key, ft_zone_fields[k].key);
			if (f->metric && ft_zone_fields[k].metric)
				assert_string_not_equal(f->metric, ft_zone_fields[k].metric);
		}
		if (!f->metric)
			continue;
		/* node_exporter's naming: the prefix, and the unit at the end */
		assert_int_equal(strncmp(f->metric, "fragtop_zone_", 13), 0);
		/* the exporter's base units: pages go out as bytes (node_exporter's convention) */
		/* things counted (node_memory_HugePages_Total): no unit */
		if (!strcmp(f->unit, "count"))
			assert_false(ft_str_ends(f->metric, "_bytes") ||
				     ft_str_ends(f->metric, "_ratio") ||
				     ft_str_ends(f->metric, "_total"));
		else
			assert_true(ft_str_ends(f->metric,
						!strcmp(f->unit, "pages") ? "_bytes" : "_ratio"));
	}
}

/* The value of zoneinfo's line "@key N" in zone @zone of @kernel's fixture (node 0), or -1. */
static long long zoneinfo_value(const char *kernel, const char *zone, const char *key)
{
	size_t len, kl = strlen(key);
	char *t = fixture_read(kernel, "proc/zoneinfo", &len), *p, head[64];
	long long v = -1;

	assert_non_null(t);
	snprintf(head, sizeof(head), "Node 0, zone %8s\n", zone);
	p = strstr(t, head);
	assert_non_null(p);
	for (p = strchr(p, '\n'); p && v < 0; p = strchr(p + 1, '\n')) {
		const char *l = p + 1;

		if (!strncmp(l, "Node ", 5))
			break;
		while (*l == ' ')
			l++;
		if (!strncmp(l, key, kl) && l[kl] == ' ')
			v = atoll(l + kl);
	}
	free(t);
	return v;
}

static void test_values_6_18(void **state)
{
	static struct ft_session s;
	char buf[32];
	size_t i, normal = SIZE_MAX;

	(void)state;
	ft_session_init(&s);
	feed(&s, "6.18-frag");
	for (i = 0; i < s.sample.nr_zones; i++)
		if (!strcmp(s.sample.zones[i].zi->name, "Normal"))
			normal = i;
	assert_true(normal != SIZE_MAX);
	assert_true(ft_zone_field_text(&s, normal, FT_ZF_FREE, buf, sizeof(buf)));
	assert_int_equal(atoll(buf), zoneinfo_value("6.18-frag", "Normal", "pages free"));
	assert_true(ft_zone_field_text(&s, normal, FT_ZF_FREE_IN_BLOCKS, buf, sizeof(buf)));
	assert_int_equal(atoll(buf), zoneinfo_value("6.18-frag", "Normal", "nr_free_pages_blocks"));
	assert_true(ft_zone_field_text(&s, normal, FT_ZF_MANAGED, buf, sizeof(buf)));
	assert_int_equal(atoll(buf), zoneinfo_value("6.18-frag", "Normal", "managed"));
	assert_true(ft_zone_field_text(&s, normal, FT_ZF_BOOST, buf, sizeof(buf)));
	assert_true(ft_zone_field_text(&s, normal, FT_ZF_UNUSABLE_PBO, buf, sizeof(buf)));
	assert_true(buf[0] == '0' || buf[0] == '1');
	/* no sampler: its fields are absent, and say so with "" */
	assert_false(ft_zone_field_text(&s, normal, FT_ZF_BOOST_PEAK, buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_false(ft_zone_field_text(&s, normal, FT_ZF_BOOSTED, buf, sizeof(buf)));
	/* past the zones: absent */
	assert_false(ft_zone_field_text(&s, s.sample.nr_zones, FT_ZF_FREE, buf, sizeof(buf)));
	ft_session_release(&s);
}

static void test_absent_old_kernel(void **state)
{
	static struct ft_session s;
	char buf[32];
	size_t i;

	(void)state;
	ft_session_init(&s);
	feed(&s, "old-reserve");
	assert_true(s.sample.nr_zones > 0);
	for (i = 0; i < s.sample.nr_zones; i++) {
		assert_true(ft_zone_field_text(&s, i, FT_ZF_FREE, buf, sizeof(buf)));
		assert_false(ft_zone_field_text(&s, i, FT_ZF_FREE_IN_BLOCKS, buf, sizeof(buf)));
		assert_false(ft_zone_field_text(&s, i, FT_ZF_BOOST, buf, sizeof(buf)));
	}
	ft_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_values_6_18),
		cmocka_unit_test(test_absent_old_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
