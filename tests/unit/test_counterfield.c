// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counter registry (model/counterfield.c): every row complete, keys
 * unique, each source one that exists; read from a session fed the 6.18
 * fixture's /proc/vmstat, each vmstat row equals its line and allocstall
 * the sum of the allocstall_* lines; traced rows are absent (and 0) while
 * the session does not trace; a kernel without a counter leaves its row
 * absent, never a stale value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/counterfield.h"
#include "model/events.h"
#include "tests/helpers.h"

static void tick(struct ft_session *s, const char *vmstat, size_t len)
{
	static uint64_t t;
	struct ft_rec_record in = { .type = FT_RR_PROC, .sub = FT_SRC_VMSTAT, .len = (uint32_t)len,
				    .t_ns = ++t, .data = (const uint8_t *)vmstat };
	struct ft_rec_record tk = { .type = FT_RR_TICK, .len = 8, .t_ns = t,
				    .data = (const uint8_t *)&t };

	ft_session_apply(s, &in);
	ft_session_apply(s, &tk);
}

/* The value of "@name N" in @text, or -1. */
static long long line_value(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ' ')
			return atoll(p + n + 1);
	return -1;
}

static void test_rows(void **state)
{
	size_t i, k;
	char src[96];

	(void)state;
	for (i = 0; i < FT_CF_NR; i++) {
		const struct ft_counter_field *f = &ft_counter_fields[i];

		assert_non_null(f->key);
		assert_non_null(f->unit);
		assert_non_null(f->help);
		assert_true(f->help[strlen(f->help) - 1] == '.');
		for (k = 0; k < i; k++)
			assert_string_not_equal(f->key, ft_counter_fields[k].key);
		if (f->src == FT_CF_TRACED)
			assert_true(f->metric >= 0 && f->metric < FT_M_NR);
		if (f->src == FT_CF_VMSTAT)
			assert_true(f->vm < FT_VM_NR);
		if (f->src == FT_CF_VMSTAT_SUM)
			assert_non_null(f->vmstat);
		if (f->src == FT_CF_EVENTS)
			assert_true(f->events + sizeof(uint64_t) <= sizeof(struct ft_events));
		ft_counter_source((enum ft_cf)i, src, sizeof(src));
		assert_true(!strncmp(src, "trace:", 6) || !strncmp(src, "vmstat:", 7));
		if (f->src == FT_CF_EVENTS)
			assert_true(f->event < FT_EV_NR);
	}
	assert_true(ft_counters_vmstat_mask() & (1u << FT_CF_COMPACT_STALL));
	assert_false(ft_counters_vmstat_mask() & (1u << FT_CF_EXTFRAG));
}

static void test_vmstat_6_18(void **state)
{
	static struct ft_session s;
	int64_t v[FT_CF_NR];
	size_t len, i;
	char *vm = fixture_read("6.18-frag", "proc/vmstat", &len);
	long long sum = 0;
	uint32_t present;
	const char *p;

	(void)state;
	assert_non_null(vm);
	ft_session_init(&s);
	tick(&s, vm, len);
	present = ft_counters_read(&s, v);
	for (i = 0; i < FT_CF_NR; i++) {
		const struct ft_counter_field *f = &ft_counter_fields[i];

		if (f->src == FT_CF_VMSTAT) {
			long long want = line_value(vm, ft_vm_names[f->vm]);

			assert_int_equal(!!(present & (1u << i)), want >= 0);
			assert_int_equal(v[i], want >= 0 ? want : 0);
		} else if (f->src == FT_CF_TRACED || f->src == FT_CF_EVENTS) {
			assert_false(present & (1u << i));	/* not tracing */
			assert_int_equal(v[i], 0);
		}
	}
	for (p = vm; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "allocstall_", 11))
			sum += atoll(strchr(p, ' ') + 1);
	assert_true(present & (1u << FT_CF_ALLOCSTALLS));
	assert_int_equal(v[FT_CF_ALLOCSTALLS], sum);
	assert_true(present & (1u << FT_CF_COMPACT_STALL));
	/* a second read gives the same */
	{
		int64_t w[FT_CF_NR];

		memset(w, 0xff, sizeof(w));
		assert_int_equal(ft_counters_read(&s, w), present);
		assert_memory_equal(v, w, sizeof(v));
	}
	free(vm);
	ft_session_release(&s);
}

static void test_absent(void **state)
{
	static struct ft_session s;
	static const char vm[] = "nr_free_pages 100\ncompact_stall 7\n";
	int64_t v[FT_CF_NR];
	uint32_t present;

	(void)state;
	ft_session_init(&s);
	tick(&s, vm, sizeof(vm) - 1);
	present = ft_counters_read(&s, v);
	assert_int_equal(present, 1u << FT_CF_COMPACT_STALL);
	assert_int_equal(v[FT_CF_COMPACT_STALL], 7);
	assert_int_equal(v[FT_CF_ALLOCSTALLS], 0);
	assert_int_equal(v[FT_CF_VM_FRAG_STALL], 0);
	ft_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_vmstat_6_18),
		cmocka_unit_test(test_absent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
