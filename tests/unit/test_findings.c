// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analysis/findings.c: each rule on a crafted window where it fires (and
 * only it, or with the rules it implies), and on one just past its
 * threshold where it must not; a healthy window fires nothing and checks
 * every rule whose inputs it has; a missing figure makes a rule "not
 * checked", never passed; the most severe finding comes first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/findings.h"

static struct ft_find_in in;
static struct ft_findings fs;

/* A healthy window: every figure known, nothing near a threshold. */
static void healthy(void)
{
	static const double v[FT_FX_NR] = {
		[FT_FX_SECS] = 60, [FT_FX_FRAG] = 10, [FT_FX_FRAG_S] = 0.17,
		[FT_FX_BOOST_FACTOR] = 15000,
		[FT_FX_SCALE_FACTOR] = 10, [FT_FX_PROACTIVENESS] = 20,
		[FT_FX_THP_DEFRAG] = FT_DEFRAG_MADVISE,
		[FT_FX_THP_FAULTS] = 1000, [FT_FX_THP_FALLBACK_PCT] = 5, [FT_FX_FREE_PCT] = 40,
		[FT_FX_FREE_MB] = 8000, [FT_FX_IN_BLOCKS_PCT] = 80, [FT_FX_DIRECT] = 0,
		[FT_FX_DIRECT_P99_MS] = 0, [FT_FX_DIRECT_MS] = 0, [FT_FX_KCOMPACTD_WAKES] = 5,
		[FT_FX_BG_COMPACT] = 5, [FT_FX_FUTILE_PCT] = 10, [FT_FX_MIGRATE_SCANNED] = 1000,
		[FT_FX_AMPLIFICATION] = 2, [FT_FX_POLLUTED_PCT] = 5, [FT_FX_BOOSTED_PCT] = 2,
		[FT_FX_CEILING_PCT] = 50, [FT_FX_MEMSTALL_PCT] = 0.1, [FT_FX_COMPACT_SHARE_PCT] = 0,
		[FT_FX_ALLOC_FAILURES] = 0, [FT_FX_ALLOC_FAIL_ORDER] = -1,
		[FT_FX_MIN_FREE_KB] = 67584,
		[FT_FX_SIZES] = 1,
	};

	ft_find_in_init(&in);
	memcpy(in.v, v, sizeof(v));
	in.from_s = 0;
	in.to_s = 60;
	in.sizes_known = true;
	in.nr_sizes = 1;
	in.size[0] = (struct ft_find_size){ .node = 0, .kb = 2048, .need = 1, .now_lo = 100,
					    .now_hi = 100,
					    .after_lo = 200, .after_hi = 200, .after_known = true,
					    .free_cap = 4000 };
	snprintf(in.frag_proc.name, sizeof(in.frag_proc.name), "fio");
	in.frag_proc.pid = 42;
	in.frag_proc.pct = 61;
	snprintf(in.stall_cg.name, sizeof(in.stall_cg.name), "/db");
	in.stall_cg.pct = 90;
}

static int rule_index(const char *name)
{
	const struct ft_rule *r = ft_find_rule(name);

	assert_non_null(r);
	return (int)(r - ft_find_rules);
}

static const struct ft_finding *finding(const char *name)
{
	int i;

	for (i = 0; i < fs.nr; i++)
		if (!strcmp(fs.f[i].rule->name, name))
			return &fs.f[i];
	return NULL;
}

/* Exactly the rules named fired. */
static void fired_only(const char *const *names, int n)
{
	int i;

	ft_find_eval(&in, &fs);
	assert_int_equal(fs.nr, n);
	for (i = 0; i < n; i++) {
		assert_true(fs.fired[rule_index(names[i])]);
		assert_non_null(finding(names[i]));
	}
}

#define FIRES(...)	fired_only((const char *const[]){ __VA_ARGS__ }, \
				   (int)(sizeof((const char *const[]){ __VA_ARGS__ }) / \
					 sizeof(const char *)))
#define NOTHING()	fired_only(NULL, 0)

static void test_healthy(void **st)
{
	int i;

	(void)st;
	healthy();
	NOTHING();
	for (i = 0; i < FT_FIND_RULES; i++)
		assert_true(fs.checked[i]);
}

static void test_boost_off(void **st)
{
	const struct ft_finding *f;

	(void)st;
	healthy();
	in.v[FT_FX_BOOST_FACTOR] = 0;
	in.v[FT_FX_FRAG] = 5000;
	in.v[FT_FX_FRAG_S] = 83;
	FIRES("boost_off");
	f = finding("boost_off");
	assert_string_equal(f->knob, "watermark_boost_factor");
	assert_string_equal(f->value, "15000");
	assert_string_equal(f->who[1].name, "fio");
	assert_int_equal(f->nr_ev, 3);
	/* a handful of fallbacks is not a finding */
	in.v[FT_FX_FRAG] = 99;
	NOTHING();
	/* boosting on: not this rule */
	in.v[FT_FX_FRAG] = 5000;
	in.v[FT_FX_BOOST_FACTOR] = 15000;
	NOTHING();
}

static void test_thp_fragmented(void **st)
{
	(void)st;
	healthy();
	in.v[FT_FX_THP_FALLBACK_PCT] = 60;
	in.v[FT_FX_IN_BLOCKS_PCT] = 5;
	FIRES("thp_fragmented");
	assert_string_equal(finding("thp_fragmented")->knob, "compact_memory");
	in.v[FT_FX_IN_BLOCKS_PCT] = 25;		/* a quarter in whole blocks: not fragmentation */
	NOTHING();
	in.v[FT_FX_IN_BLOCKS_PCT] = 5;
	in.v[FT_FX_FREE_PCT] = 5;		/* little free: shortage, not fragmentation */
	NOTHING();
}

static void test_compaction_stalls(void **st)
{
	(void)st;
	healthy();
	in.v[FT_FX_DIRECT] = 50;
	in.v[FT_FX_DIRECT_P99_MS] = 30;
	FIRES("compaction_stalls");
	assert_string_equal(finding("compaction_stalls")->knob, "compaction_proactiveness");
	assert_string_equal(finding("compaction_stalls")->value, "40");
	assert_string_equal(finding("compaction_stalls")->who[0].name, "/db");
	in.v[FT_FX_DIRECT_P99_MS] = 9.9;
	NOTHING();
	in.v[FT_FX_DIRECT_P99_MS] = 30;
	in.v[FT_FX_DIRECT] = 9;
	NOTHING();
}

static void test_kcompactd_idle(void **st)
{
	(void)st;
	healthy();
	in.v[FT_FX_DIRECT] = 50;
	in.v[FT_FX_DIRECT_P99_MS] = 5;
	in.v[FT_FX_KCOMPACTD_WAKES] = 0;
	in.v[FT_FX_PROACTIVENESS] = 0;
	FIRES("kcompactd_idle");
	assert_string_equal(finding("kcompactd_idle")->value, "20");
	in.v[FT_FX_PROACTIVENESS] = 30;
	FIRES("kcompactd_idle");
	assert_string_equal(finding("kcompactd_idle")->value, "60");
	in.v[FT_FX_KCOMPACTD_WAKES] = 1;
	NOTHING();
}

static void test_futile(void **st)
{
	(void)st;
	healthy();
	in.v[FT_FX_FUTILE_PCT] = 80;
	in.v[FT_FX_MIGRATE_SCANNED] = 50000;
	snprintf(in.pinner, sizeof(in.pinner), "kworker at alloc_pages");
	FIRES("futile_compaction");
	assert_non_null(strstr(finding("futile_compaction")->detail, "kworker"));
	assert_string_equal(finding("futile_compaction")->knob, "");
	in.v[FT_FX_MIGRATE_SCANNED] = 9999;
	NOTHING();
}

static void test_pollution(void **st)
{
	(void)st;
	healthy();
	in.v[FT_FX_AMPLIFICATION] = 15;
	in.v[FT_FX_POLLUTED_PCT] = 30;
	FIRES("pollution_spread");
	/* boost on, no stall: nothing to turn */
	assert_string_equal(finding("pollution_spread")->knob, "");
	in.fragment_stall = true;
	FIRES("pollution_spread");
	assert_string_equal(finding("pollution_spread")->knob, "fragment_stall_order");
	in.v[FT_FX_AMPLIFICATION] = 9;
	NOTHING();
}

static void test_size_wont_fit(void **st)
{
	const struct ft_finding *f;

	(void)st;
	healthy();
	in.size[0].now_lo = in.size[0].now_hi = 0;
	in.size[0].after_lo = in.size[0].after_hi = 5;
	FIRES("size_wont_fit");
	f = finding("size_wont_fit");
	assert_int_equal(f->sev, FT_SEV_WARNING);
	assert_string_equal(f->knob, "compact_node");
	assert_string_equal(f->value, "0");
	assert_non_null(strstr(f->detail, "node 0: 1 x 2 MiB wanted, 0 now, 5 after compaction"));
	/* asked for 10: not even after compaction, critical, nothing to compact for */
	in.size[0] = (struct ft_find_size){ .node = 1, .kb = 1048576, .need = 10, .asked = true,
					    .now_lo = 2,
					    .now_hi = 2, .after_lo = 5, .after_hi = 5,
					    .after_known = true,
					    .free_cap = 12 };
	FIRES("size_wont_fit");
	f = finding("size_wont_fit");
	assert_int_equal(f->sev, FT_SEV_CRITICAL);
	assert_string_equal(f->knob, "");
	assert_non_null(strstr(f->detail, "node 1: 10 x 1 GiB wanted, 2 now, 5 after compaction"));
	/* without the map, "after" is not known: no verdict of never */
	in.size[0].after_known = false;
	FIRES("size_wont_fit");
	assert_int_equal(finding("size_wont_fit")->sev, FT_SEV_WARNING);
	assert_non_null(strstr(finding("size_wont_fit")->detail, "not known"));
	/* ... unless the free memory could not hold them: compaction makes no free memory */
	in.size[0].free_cap = 7;
	FIRES("size_wont_fit");
	assert_int_equal(finding("size_wont_fit")->sev, FT_SEV_CRITICAL);
	assert_non_null(strstr(finding("size_wont_fit")->detail,
			       "free memory above the watermark for 7"));
	/* it fits now */
	in.size[0].now_lo = in.size[0].now_hi = 10;
	NOTHING();
}

static void test_boost_ceiling(void **st)
{
	(void)st;
	healthy();
	in.v[FT_FX_CEILING_PCT] = 100;
	in.v[FT_FX_BOOSTED_PCT] = 40;
	FIRES("boost_ceiling");
	assert_string_equal(finding("boost_ceiling")->knob, "watermark_scale_factor");
	assert_string_equal(finding("boost_ceiling")->value, "20");
	in.v[FT_FX_BOOSTED_PCT] = 20;
	NOTHING();
}

static void test_thp_defrag(void **st)
{
	(void)st;
	healthy();
	in.v[FT_FX_THP_DEFRAG] = FT_DEFRAG_ALWAYS;
	in.v[FT_FX_DIRECT] = 50;
	in.v[FT_FX_DIRECT_P99_MS] = 30;
	FIRES("compaction_stalls", "thp_defrag_stalls");
	assert_string_equal(finding("thp_defrag_stalls")->value, "defer+madvise");
	in.v[FT_FX_THP_DEFRAG] = FT_DEFRAG_MADVISE;
	FIRES("compaction_stalls");
}

static void test_compaction_pressure(void **st)
{
	(void)st;
	healthy();
	in.v[FT_FX_MEMSTALL_PCT] = 5;
	in.v[FT_FX_COMPACT_SHARE_PCT] = 70;
	FIRES("compaction_pressure");
	assert_string_equal(finding("compaction_pressure")->knob, "compaction_proactiveness");
	in.v[FT_FX_COMPACT_SHARE_PCT] = 40;
	NOTHING();
	in.v[FT_FX_COMPACT_SHARE_PCT] = 70;
	in.v[FT_FX_MEMSTALL_PCT] = 0.5;
	NOTHING();
}

static void test_alloc_failures(void **st)
{
	(void)st;
	healthy();
	in.v[FT_FX_ALLOC_FAILURES] = 3;
	in.v[FT_FX_ALLOC_FAIL_ORDER] = 4;
	in.v[FT_FX_DIRECT] = 50;
	in.v[FT_FX_DIRECT_P99_MS] = 30;
	FIRES("alloc_failures", "compaction_stalls");
	/* the critical one first, whatever the table's order */
	assert_string_equal(fs.f[0].rule->name, "alloc_failures");
	assert_int_equal(fs.f[0].sev, FT_SEV_CRITICAL);
	/* order 4: fragmentation, not the reserve */
	assert_string_equal(fs.f[0].knob, "");
	in.v[FT_FX_ALLOC_FAIL_ORDER] = 0;		/* an atomic order-0 failure: the reserve */
	FIRES("alloc_failures", "compaction_stalls");
	assert_string_equal(fs.f[0].knob, "min_free_kbytes");
	assert_string_equal(fs.f[0].value, "101376");
	in.v[FT_FX_ALLOC_FAILURES] = 0;
	FIRES("compaction_stalls");
}

/* A figure the window lacks: the rules that need it are not checked, the others are. */
static void test_not_checked(void **st)
{
	int i;

	(void)st;
	healthy();
	in.v[FT_FX_FRAG] = NAN;
	in.v[FT_FX_ALLOC_FAILURES] = NAN;
	NOTHING();
	assert_false(fs.checked[rule_index("boost_off")]);
	assert_int_equal(fs.missing[rule_index("boost_off")], FT_FX_FRAG);
	assert_false(fs.checked[rule_index("alloc_failures")]);
	for (i = 0; i < FT_FIND_RULES; i++)
		if (i != rule_index("boost_off") && i != rule_index("alloc_failures"))
			assert_true(fs.checked[i]);
	/* an empty window: nothing fires, nothing is said to be checked but what needs no figure */
	ft_find_in_init(&in);
	NOTHING();
	for (i = 0; i < FT_FIND_RULES; i++)
		assert_false(fs.checked[i]);
}

/* Every rule is whole: a name, the texts, an action, its effect and source; thresholds by name. */
static void test_table(void **st)
{
	int i, j;

	(void)st;
	for (i = 0; i < FT_FIND_RULES; i++) {
		const struct ft_rule *r = &ft_find_rules[i];

		assert_non_null(r->fire);
		assert_non_null(strchr(r->explain, '\n'));		/* two lines */
		assert_null(strchr(strchr(r->explain, '\n') + 1, '\n'));
		assert_true(*r->title && *r->look && *r->action && *r->effect && *r->source);
		assert_true(r->nr_needs >= 1 && r->nr_needs <= FT_FIND_NEEDS);
		for (j = 0; j < FT_FIND_TH && r->th[j].name; j++)
			/* not NAN */
			assert_true(ft_find_th(r, r->th[j].name) == ft_find_th(r, r->th[j].name));
		for (j = 0; j < i; j++)
			assert_string_not_equal(r->name, ft_find_rules[j].name);
	}
	for (i = 0; i < FT_FX_NR; i++)
		assert_true(ft_find_figs[i].key && ft_find_figs[i].needs && ft_find_figs[i].help);
	assert_null(ft_find_rule("no_such_rule"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_boost_off),
		cmocka_unit_test(test_thp_fragmented),
		cmocka_unit_test(test_compaction_stalls),
		cmocka_unit_test(test_kcompactd_idle),
		cmocka_unit_test(test_futile),
		cmocka_unit_test(test_pollution),
		cmocka_unit_test(test_size_wont_fit),
		cmocka_unit_test(test_boost_ceiling),
		cmocka_unit_test(test_thp_defrag),
		cmocka_unit_test(test_compaction_pressure),
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_not_checked),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
