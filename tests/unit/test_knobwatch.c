// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The knob watch over a session: the recording's own changes (ok audits
 * only) in order, a value changed with no audit behind it as a change
 * from outside, a value changed by an audit not twice, nothing at the
 * baseline.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/knobwatch.h"

static void apply(struct ft_session *s, uint16_t type, uint16_t sub, const char *d)
{
	struct ft_rec_record in = { .type = type, .sub = sub, .len = (uint32_t)strlen(d), .t_ns = 1,
				    .data = (const uint8_t *)d };

	ft_session_apply(s, &in);
}

static char seen[8][160];
static int nr_seen;

static void on_change(void *ctx, const struct ft_knob_change *c)
{
	(void)ctx;
	assert_true(nr_seen < 8);
	snprintf(seen[nr_seen++], sizeof(seen[0]), "%s %s %s -> %s",
		 c->audit ? "ours" : "outside", c->knob ? c->knob->name : "?", c->old, c->new);
}

static void step(struct ft_knob_watch *w, struct ft_session *s)
{
	nr_seen = 0;
	ft_knob_watch_step(w, s, on_change, NULL);
}

static void test_ours_and_outside(void **state)
{
	static struct ft_session s;
	struct ft_knob_watch w;
	const struct ft_knob *boost = ft_knob_find("watermark_boost_factor");
	const struct ft_knob *scale = ft_knob_find("watermark_scale_factor");
	uint16_t kb, ks;

	(void)state;
	assert_non_null(boost);
	assert_non_null(scale);
	kb = (uint16_t)(boost - ft_knobs);
	ks = (uint16_t)(scale - ft_knobs);
	ft_session_init(&s);
	apply(&s, FT_RR_KNOB, kb, "15000\n");
	apply(&s, FT_RR_KNOB, ks, "10\n");
	apply(&s, FT_RR_AUDIT, 0, "knob=watermark_boost_factor\nold=1\nnew=2\nhow=set\noutcome=ok\nmsg=m\n");
	ft_knob_watch_start(&w, &s);
	step(&w, &s);
	assert_int_equal(nr_seen, 0);		/* the baseline and its audit */

	/* ours: an audit and the value it made; a failed one is not a change */
	apply(&s, FT_RR_AUDIT, 0, "knob=watermark_boost_factor\nold=15000\nnew=0\nhow=key\noutcome=ok\nmsg=m\n");
	apply(&s, FT_RR_AUDIT, 0, "knob=watermark_scale_factor\nold=10\nnew=99999\nhow=set\noutcome=refused\nmsg=m\n");
	apply(&s, FT_RR_KNOB, kb, "0\n");
	step(&w, &s);
	assert_int_equal(nr_seen, 1);
	assert_string_equal(seen[0], "ours watermark_boost_factor 15000 -> 0");

	/* outside: a value changed with no audit */
	apply(&s, FT_RR_KNOB, ks, "200\n");
	step(&w, &s);
	assert_int_equal(nr_seen, 1);
	assert_string_equal(seen[0], "outside watermark_scale_factor 10 -> 200");

	/* nothing changed: nothing */
	step(&w, &s);
	assert_int_equal(nr_seen, 0);

	/* ours and outside in one tick: ours first */
	apply(&s, FT_RR_KNOB, ks, "10\n");
	apply(&s, FT_RR_AUDIT, 0, "knob=watermark_boost_factor\nold=0\nnew=15000\nhow=undo\noutcome=ok\nmsg=m\n");
	apply(&s, FT_RR_KNOB, kb, "15000\n");
	step(&w, &s);
	assert_int_equal(nr_seen, 2);
	assert_string_equal(seen[0], "ours watermark_boost_factor 0 -> 15000");
	assert_string_equal(seen[1], "outside watermark_scale_factor 200 -> 10");
	ft_session_release(&s);
}

/* A zeroed watch: every audit from the first, no outside change at the first step. */
static void test_zeroed(void **state)
{
	static struct ft_session s;
	struct ft_knob_watch w;
	const struct ft_knob *boost = ft_knob_find("watermark_boost_factor");

	(void)state;
	ft_session_init(&s);
	apply(&s, FT_RR_KNOB, (uint16_t)(boost - ft_knobs), "15000\n");
	apply(&s, FT_RR_AUDIT, 0, "knob=watermark_boost_factor\nold=1\nnew=2\nhow=set\noutcome=ok\nmsg=m\n");
	memset(&w, 0, sizeof(w));
	step(&w, &s);
	assert_int_equal(nr_seen, 1);
	assert_string_equal(seen[0], "ours watermark_boost_factor 1 -> 2");
	apply(&s, FT_RR_KNOB, (uint16_t)(boost - ft_knobs), "0\n");
	step(&w, &s);
	assert_int_equal(nr_seen, 1);
	assert_string_equal(seen[0], "outside watermark_boost_factor 15000 -> 0");
	ft_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ours_and_outside),
		cmocka_unit_test(test_zeroed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
