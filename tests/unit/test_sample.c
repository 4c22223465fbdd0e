// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/sample.h"
#include "tests/helpers.h"

struct bufs {
	char *b[FT_SRC_NR];
	size_t len[FT_SRC_NR];
};

static const char *const rel[FT_SRC_NR] = {
	"proc/zoneinfo", "proc/buddyinfo", "proc/pagetypeinfo", "proc/vmstat",
	"proc/pressure/memory",
};

static void load(const char *kernel, struct bufs *b)
{
	int i;

	for (i = 0; i < FT_SRC_NR; i++)
		b->b[i] = fixture_read(kernel, rel[i], &b->len[i]);
}

static void unload(struct bufs *b)
{
	int i;

	for (i = 0; i < FT_SRC_NR; i++)
		free(b->b[i]);
}

static void raw_from(struct ft_raw *raw, const struct bufs *b, unsigned int mask, uint64_t t)
{
	int i;

	memset(raw, 0, sizeof(*raw));
	raw->t_ns = t;
	for (i = 0; i < FT_SRC_NR; i++) {
		if (!(mask & (1u << i)))
			continue;
		raw->src[i].fresh = true;
		raw->src[i].buf = b->b[i];
		raw->src[i].len = b->len[i];
		raw->src[i].err = b->b[i] ? 0 : -ENOENT;
	}
}

static void test_join_two_nodes(void **state)
{
	struct ft_sample s;
	struct ft_raw raw;
	struct bufs b;
	size_t i, populated = 0;

	(void)state;
	load("6.1-2node-movable", &b);
	ft_sample_init(&s);
	raw_from(&raw, &b, 0xf, 1000000000);
	assert_int_equal(ft_sample_update(&s, &raw), 0);
	assert_int_equal(s.valid, 0xf);
	assert_int_equal(s.nr_zones, 10);
	assert_int_equal(s.nr_orders, 11);
	assert_int_equal(s.pageblock_order, 9);
	for (i = 0; i < s.nr_zones; i++) {
		const struct ft_zone *z = &s.zones[i];

		if (!ft_zi_populated(z->zi)) {
			assert_null(z->bi);
			assert_null(z->pti);
			continue;
		}
		populated++;
		assert_non_null(z->bi);
		assert_non_null(z->pti);
		assert_int_equal(z->bi->node, z->zi->node);
		assert_string_equal(z->pti->name, z->zi->name);
	}
	assert_int_equal(populated, 5);
	assert_false(s.rates.valid);	/* one sample only */

	/* second tick one second later: rates, and pagetypeinfo kept */
	raw_from(&raw, &b, 0xf & ~(1u << FT_SRC_PAGETYPEINFO), 2000000000);
	assert_int_equal(ft_sample_update(&s, &raw), 0);
	assert_true(ft_sample_has(&s, FT_SRC_PAGETYPEINFO));
	assert_int_equal(s.src_t_ns[FT_SRC_PAGETYPEINFO], 1000000000);
	assert_true(s.rates.valid);
	assert_true(s.rates.dt == 1.0);
	assert_true(s.rates.v[FT_RATE_COMPACT_STALL] == 0.0);
	ft_sample_release(&s);
	unload(&b);
}

/* No root: pagetypeinfo unreadable.  Everything else still works. */
static void test_no_pagetypeinfo(void **state)
{
	struct ft_sample s;
	struct ft_raw raw;
	struct bufs b;

	(void)state;
	load("6.18-idle", &b);
	ft_sample_init(&s);
	s.pageblock_order_fallback = 9;
	raw_from(&raw, &b, 0xf, 1);
	raw.src[FT_SRC_PAGETYPEINFO].err = -EACCES;
	assert_int_equal(ft_sample_update(&s, &raw), 0);
	assert_false(ft_sample_has(&s, FT_SRC_PAGETYPEINFO));
	assert_int_equal(s.err[FT_SRC_PAGETYPEINFO], -EACCES);
	assert_int_equal(s.pageblock_order, 9);
	assert_int_equal(s.nr_orders, 11);
	assert_non_null(s.zones[1].bi);
	assert_null(s.zones[1].pti);
	assert_int_equal(s.zones[0].unusable[10], 200);	/* DMA, as debugfs says */
	ft_sample_release(&s);
	unload(&b);
}

static void test_bad_zoneinfo(void **state)
{
	struct ft_sample s;
	struct ft_raw raw;
	struct bufs b;
	static char junk[] = "this is not zoneinfo\n";

	(void)state;
	load("6.18-idle", &b);
	ft_sample_init(&s);
	raw_from(&raw, &b, 0xf, 1);
	raw.src[FT_SRC_ZONEINFO].buf = junk;
	raw.src[FT_SRC_ZONEINFO].len = strlen(junk);
	assert_int_equal(ft_sample_update(&s, &raw), -EINVAL);
	assert_int_equal(s.nr_zones, 0);
	assert_true(ft_sample_has(&s, FT_SRC_BUDDYINFO));
	/* and recovers on the next good tick */
	raw_from(&raw, &b, 0xf, 2);
	assert_int_equal(ft_sample_update(&s, &raw), 0);
	assert_int_equal(s.nr_zones, 5);
	ft_sample_release(&s);
	unload(&b);
}

/* One tick with only /proc/pressure/memory's @text at @t_ns (NULL: the file is absent). */
static int pressure_tick(struct ft_sample *s, const char *text, uint64_t t_ns)
{
	struct ft_raw raw = { .t_ns = t_ns };

	raw.src[FT_SRC_PRESSURE].fresh = true;
	raw.src[FT_SRC_PRESSURE].buf = text;
	raw.src[FT_SRC_PRESSURE].len = text ? strlen(text) : 0;
	raw.src[FT_SRC_PRESSURE].err = text ? 0 : -ENOENT;
	return ft_sample_update(s, &raw);
}

/*
 * The host's pressure: parsed, and the stall rates from two reads; a total that went back has none.
 */
static void test_pressure(void **state)
{
	struct ft_sample s;

	(void)state;
	ft_sample_init(&s);
	pressure_tick(&s, "some avg10=1.50 avg60=0.25 avg300=0.05 total=1000000\n"
		      "full avg10=0.50 avg60=0.00 avg300=0.00 total=400000\n", 1000000000ull);
	assert_true(ft_sample_has(&s, FT_SRC_PRESSURE));
	assert_true(s.psi.some.avg10 > 1.49 && s.psi.some.avg10 < 1.51);
	assert_true(isnan(s.psi_some_ms));	/* one read: no rate yet */
	/* 2 s later: 500 ms more of some, 100 ms more of full */
	pressure_tick(&s, "some avg10=2.00 avg60=0.30 avg300=0.05 total=1500000\n"
		      "full avg10=0.60 avg60=0.00 avg300=0.00 total=500000\n", 3000000000ull);
	assert_true(fabs(s.psi_some_ms - 250.0) < 1e-9);
	assert_true(fabs(s.psi_full_ms - 50.0) < 1e-9);
	/* a kernel before 5.12 (v1 pressure has no full line) after a restart of the counters */
	pressure_tick(&s, "some avg10=0.00 avg60=0.00 avg300=0.00 total=10\n", 4000000000ull);
	assert_true(isnan(s.psi_some_ms));
	assert_true(isnan(s.psi_full_ms));
	assert_false(s.psi.full.have);
	/* malformed, then absent: not had, and no rate from the reads around them */
	pressure_tick(&s, "some avg10=x\n", 5000000000ull);
	assert_false(ft_sample_has(&s, FT_SRC_PRESSURE));
	assert_int_equal(s.err[FT_SRC_PRESSURE], -EINVAL);
	pressure_tick(&s, NULL, 6000000000ull);
	assert_int_equal(s.err[FT_SRC_PRESSURE], -ENOENT);
	pressure_tick(&s, "some avg10=0.00 avg60=0.00 avg300=0.00 total=20\n", 7000000000ull);
	assert_true(ft_sample_has(&s, FT_SRC_PRESSURE));
	assert_true(isnan(s.psi_some_ms));
	ft_sample_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_two_nodes),
		cmocka_unit_test(test_no_pagetypeinfo),
		cmocka_unit_test(test_bad_zoneinfo),
		cmocka_unit_test(test_pressure),
	};
	return cmocka_run_group_tests_name("sample", tests, NULL, NULL);
}
