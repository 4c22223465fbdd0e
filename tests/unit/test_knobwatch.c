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

#include "model/journal.h"
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
	apply(&s, FT_RR_AUDIT, 0,
	      "knob=watermark_boost_factor\nold=1\nnew=2\nhow=set\noutcome=ok\nmsg=m\n");
	ft_knob_watch_start(&w, &s);
	step(&w, &s);
	assert_int_equal(nr_seen, 0);		/* the baseline and its audit */

	/* ours: an audit and the value it made; a failed one is not a change */
	apply(&s, FT_RR_AUDIT, 0,
	      "knob=watermark_boost_factor\nold=15000\nnew=0\nhow=key\noutcome=ok\nmsg=m\n");
	apply(&s, FT_RR_AUDIT, 0,
	      "knob=watermark_scale_factor\nold=10\nnew=99999\nhow=set\noutcome=refused\nmsg=m\n");
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
	apply(&s, FT_RR_AUDIT, 0,
	      "knob=watermark_boost_factor\nold=0\nnew=15000\nhow=undo\noutcome=ok\nmsg=m\n");
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
	apply(&s, FT_RR_AUDIT, 0,
	      "knob=watermark_boost_factor\nold=1\nnew=2\nhow=set\noutcome=ok\nmsg=m\n");
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

static char who[8][160];

static void on_who(void *ctx, const struct ft_knob_change *c)
{
	(void)ctx;
	assert_true(nr_seen < 8);
	ft_knob_change_who(c, who[nr_seen], sizeof(who[0]));
	snprintf(seen[nr_seen++], sizeof(seen[0]), "%s %s -> %s", c->claim ? "claimed" : "outside",
		 c->old, c->new);
}

/*
 * Claims (model/journal.h): a journal line of another fragtop process
 * names the outside change of its knob to its value, within
 * FT_KNOB_CLAIM_TICKS ticks; another value, another knob or an older
 * claim names nothing; a malformed line is no claim.
 */
static void test_claims(void **state)
{
	static struct ft_session s;
	struct ft_knob_watch w;
	const struct ft_knob *boost = ft_knob_find("watermark_boost_factor");
	uint16_t kb;
	char text[512];
	const char *line =
		"t_ns=5 pid=4242 uid=0 by=set knob=watermark_boost_factor old=15000 new=0";
	static const char *const bad[] = {
		/* a field missing */
		"t_ns=5 pid=4242 uid=0 by=set knob=watermark_boost_factor old=15000",
		/* out of order */
		"pid=4242 t_ns=5 uid=0 by=set knob=watermark_boost_factor old=15000 new=0",
		"t_ns=5 pid=4242 uid=0 by=set knob=watermark_boost_factor old=15000 new=0\x1b[2J",
		"t_ns=5 pid=4242 uid=0 by=set knob=watermark_boost_factor old=15000 new=0 extra=1",
		"",
	};
	size_t i;
	int n;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ft_journal_claim(bad[i], strlen(bad[i]), text, sizeof(text)), -1);
	n = ft_journal_claim(line, strlen(line), text, sizeof(text));
	assert_true(n > 0);
	assert_non_null(strstr(text, "how=claim\noutcome=claim\n"));
	assert_non_null(strstr(text, "\nknob=watermark_boost_factor\nold=15000\nnew=0\n"));
	kb = (uint16_t)(boost - ft_knobs);
	ft_session_init(&s);
	apply(&s, FT_RR_KNOB, kb, "15000\n");
	ft_knob_watch_start(&w, &s);
	/* claimed: named, and not taken for this recording's own change */
	apply(&s, FT_RR_AUDIT, 0, text);
	apply(&s, FT_RR_KNOB, kb, "0\n");
	nr_seen = 0;
	ft_knob_watch_step(&w, &s, on_who, NULL);
	assert_int_equal(nr_seen, 1);
	assert_string_equal(seen[0], "claimed 15000 -> 0");
	assert_string_equal(who[0], "fragtop set (pid 4242, uid 0)");
	/* a claim of another value names nothing */
	apply(&s, FT_RR_KNOB, kb, "2500\n");
	nr_seen = 0;
	ft_knob_watch_step(&w, &s, on_who, NULL);
	assert_string_equal(seen[0], "outside 0 -> 2500");
	assert_string_equal(who[0], "outside fragtop");
	/*
	 * a claim at exactly FT_KNOB_CLAIM_TICKS ticks old names its change; one tick older,
	 * nothing
	 */
	line = "t_ns=6 pid=7 uid=0 by=tui knob=watermark_boost_factor old=2500 new=100";
	assert_true(ft_journal_claim(line, strlen(line), text, sizeof(text)) > 0);
	apply(&s, FT_RR_AUDIT, 0, text);
	s.ticks += FT_KNOB_CLAIM_TICKS;
	apply(&s, FT_RR_KNOB, kb, "100\n");
	nr_seen = 0;
	ft_knob_watch_step(&w, &s, on_who, NULL);
	assert_string_equal(who[0], "fragtop's TUI (pid 7, uid 0)");
	line = "t_ns=7 pid=7 uid=0 by=tui knob=watermark_boost_factor old=100 new=300";
	assert_true(ft_journal_claim(line, strlen(line), text, sizeof(text)) > 0);
	apply(&s, FT_RR_AUDIT, 0, text);
	s.ticks += FT_KNOB_CLAIM_TICKS + 1;
	apply(&s, FT_RR_KNOB, kb, "300\n");
	nr_seen = 0;
	ft_knob_watch_step(&w, &s, on_who, NULL);
	assert_string_equal(seen[0], "outside 100 -> 300");
	ft_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ours_and_outside),
		cmocka_unit_test(test_zeroed),
		cmocka_unit_test(test_claims),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
