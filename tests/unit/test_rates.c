// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/rates.h"
#include "kernel/vmstat.h"
#include "tests/helpers.h"

static void parse(const char *txt, struct ft_vmstat *vs)
{
	assert_int_equal(ft_vmstat_parse(txt, strlen(txt), vs), 0);
}

static void test_rates(void **state)
{
	struct ft_vmstat a = { 0 }, b = { 0 };
	struct ft_rates r;

	(void)state;
	parse("compact_stall 10\ncompact_success 4\ncompact_fail 6\nthp_fault_alloc 100\n"
	      "thp_fault_fallback 50\nallocstall_dma32 1\nallocstall_normal 2\n"
	      "pgalloc_normal 1000\npgalloc_dma32 10\npgscan_kswapd 5\n", &a);
	parse("compact_stall 30\ncompact_success 19\ncompact_fail 11\nthp_fault_alloc 190\n"
	      "thp_fault_fallback 60\nallocstall_dma32 1\nallocstall_normal 6\n"
	      "pgalloc_normal 3000\npgalloc_dma32 30\npgscan_kswapd 3\n", &b);
	ft_rates_compute(&a, &b, 2.0, &r);
	assert_true(r.valid);
	assert_true(r.v[FT_RATE_COMPACT_STALL] == 10.0);
	assert_true(r.v[FT_RATE_COMPACT_SUCCESS] == 7.5);
	assert_true(r.v[FT_RATE_ALLOCSTALL] == 2.0);		/* family sum */
	assert_true(r.v[FT_RATE_PGALLOC] == 1010.0);
	assert_true(isnan(r.v[FT_RATE_PGSCAN_KSWAPD]));		/* went backwards */
	assert_true(isnan(r.v[FT_RATE_PGSTEAL_DIRECT]));	/* absent */
	assert_true(fabs(r.thp_success - 0.9) < 1e-12);		/* 90 / (90 + 10) */
	assert_true(r.compact_success == 0.75);			/* 15 / 20 */
	assert_true(ft_rates_vmstat(&a, &b, "pgalloc_normal", 2.0) == 1000.0);
	assert_true(isnan(ft_rates_vmstat(&a, &b, "pgalloc_movable", 2.0)));

	/* no THP fault, no stall in the interval: undefined, not 0 % */
	ft_rates_compute(&a, &a, 1.0, &r);
	assert_true(isnan(r.thp_success));
	assert_true(isnan(r.compact_success));
	assert_true(r.v[FT_RATE_COMPACT_STALL] == 0.0);

	ft_rates_compute(NULL, &b, 1.0, &r);
	assert_false(r.valid);
	ft_rates_compute(&a, &b, 0, &r);
	assert_false(r.valid);
	ft_vmstat_release(&a);
	ft_vmstat_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
	};
	return cmocka_run_group_tests_name("rates", tests, NULL, NULL);
}
