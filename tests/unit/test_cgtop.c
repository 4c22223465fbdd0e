// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analysis/cgtop.c: the exporter's bounded cgroups.  The K are chosen
 * again at each scrape by the figures; "other" grows by what the rows
 * not chosen counted since the last, and never goes back, so the growth
 * of the chosen and "other" adds up to every row's; untraced cgroups by
 * anonymous memory; the tasks without a cgroup served under their
 * bucket's name, not "other".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/cgtop.h"
#include "render/metrics.h"

static struct ft_procs t;
static struct ft_cgrows rows;
static struct ft_cgroups cg;
static struct ft_cgsel sel;
static struct ft_cgtop top;

static void proc(int pid, const char *path, uint64_t frag)
{
	ft_procs_count(&t, pid, 1, FT_PC_FRAGMENTING, frag);
	if (path)
		ft_procs_cgroup(&t, pid, path);
}

static void memcg(const char *path, uint64_t anon)
{
	struct ft_cgroup *g = &cg.g[cg.nr++];

	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "%s", path);
	g->mem.v[FT_CGM_ANON] = anon;
	g->mem.have = 1u << FT_CGM_ANON;
	g->procs = 1;
}

/*
 * What the family grew by since the last scrape equals what every row
 * did (as rate() sums it): each chosen series from its own last value
 * (a new one counts from its first sample, as Prometheus takes it),
 * "other" from its last, and "other" never goes back.
 */
static struct { char path[128]; uint64_t v; } last[FT_CGTOP_MAX];
static int nr_last;
static uint64_t last_other, last_all;

static void check_growth(void)
{
	uint64_t all = 0, grown = 0;
	int i, j;

	for (i = 0; i < rows.nr; i++)
		if (rows.r[i].other || rows.r[i].path[0])
			all += rows.r[i].c[FT_PC_FRAGMENTING];
	assert_true(top.other[FT_PC_FRAGMENTING] >= last_other);
	grown = top.other[FT_PC_FRAGMENTING] - last_other;
	for (i = 0; i < top.nr; i++)
		for (j = 0; j < nr_last; j++)
			if (!strcmp(last[j].path, top.r[i].path))
				grown += top.r[i].c[FT_PC_FRAGMENTING] - last[j].v;
	/*
	 * rows were only ever added to here: what they grew by is all's growth, unless a chosen one
	 * is new
	 */
	if (all >= last_all) {
		uint64_t fresh = 0;

		for (i = 0; i < top.nr; i++) {
			for (j = 0; j < nr_last && strcmp(last[j].path, top.r[i].path); j++)
				;
			if (j == nr_last)
				fresh += top.r[i].c[FT_PC_FRAGMENTING];
		}
		assert_true(grown + fresh >= all - last_all);
	}
	nr_last = top.nr;
	for (i = 0; i < top.nr; i++) {
		snprintf(last[i].path, sizeof(last[i].path), "%s", top.r[i].path);
		last[i].v = top.r[i].c[FT_PC_FRAGMENTING];
	}
	last_other = top.other[FT_PC_FRAGMENTING];
	last_all = all;
}

static void scrape(void)
{
	ft_cgrows_build(&t, &rows);
	ft_cgtop_pick(&sel, &rows, &cg, &top);
	check_growth();
}

static void fresh_sel(int k)
{
	ft_cgsel_init(&sel, k);
	nr_last = 0;
	last_other = last_all = 0;
}

static void test_pick(void **state)
{
	(void)state;
	ft_procs_init(&t);
	memset(&cg, 0, sizeof(cg));
	fresh_sel(2);
	proc(10, "/a", 5);
	proc(11, "/b", 9);
	proc(12, "/c", 1);
	proc(13, NULL, 2);		/* no cgroup taken */
	t.other[FT_PC_FRAGMENTING] = 3;	/* folded */
	memcg("/a", 100);
	memcg("/b", 10);
	memcg("/c", 1);
	memcg("/d", 1u << 30);		/* the most memory, nothing traced */
	scrape();
	assert_int_equal(top.nr, 2);
	assert_string_equal(top.r[0].path, "/b");	/* the most fragmenting first */
	assert_string_equal(top.r[1].path, "/a");
	assert_int_equal(top.r[0].c[FT_PC_FRAGMENTING], 9);
	assert_non_null(top.r[1].g);
	assert_int_equal(top.r[1].g->mem.v[FT_CGM_ANON], 100);
	/* the unread task is a bucket of its own, not "other" (the cgroups past the top K) */
	assert_int_equal(top.other[FT_PC_FRAGMENTING], 1 + 3);
	assert_int_equal(top.unread[FT_CGU_UNREAD][FT_PC_FRAGMENTING], 2);
	/*
	 * /c overtakes both: chosen at once, /a leaves (absent: stale); "other" keeps what it had
	 */
	proc(12, "/c", 100);
	scrape();
	assert_string_equal(top.r[0].path, "/c");
	assert_string_equal(top.r[1].path, "/b");
	assert_int_equal(top.r[0].c[FT_PC_FRAGMENTING], 101);
	assert_int_equal(top.other[FT_PC_FRAGMENTING], 1 + 3);
	/* /a, not chosen, counts 2 more: "other" grows by them, not by all /a ever counted */
	proc(10, "/a", 2);
	scrape();
	assert_int_equal(top.other[FT_PC_FRAGMENTING], 1 + 3 + 2);
	/* the folded row grows from 3 to 8: "other" by 5 */
	t.other[FT_PC_FRAGMENTING] = 8;
	scrape();
	assert_int_equal(top.other[FT_PC_FRAGMENTING], 1 + 3 + 2 + 5);
}

/*
 * 400 small cgroups at the first scrape cannot keep the places from
 * larger ones made later (the choice stuck, once: the 40 MB cgroups were
 * never exported).
 */
static void test_rechosen(void **state)
{
	char path[32];
	int i;

	(void)state;
	ft_procs_init(&t);
	memset(&cg, 0, sizeof(cg));
	fresh_sel(20);
	for (i = 0; i < 400; i++) {
		snprintf(path, sizeof(path), "/small-%03d", i);
		memcg(path, 4096);
	}
	scrape();
	assert_int_equal(top.nr, 20);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/big-%d", i);
		memcg(path, 40u << 20);
	}
	scrape();
	for (i = 0; i < 3; i++)
		assert_true(!strncmp(top.r[i].path, "/big-", 5));
	assert_int_equal(top.r[0].g->mem.v[FT_CGM_ANON], 40u << 20);
}

/* Nothing traced: the largest anonymous memory first, then the path. */
static void test_untraced(void **state)
{
	(void)state;
	ft_procs_init(&t);
	memset(&cg, 0, sizeof(cg));
	fresh_sel(3);
	memcg("/x", 5);
	memcg("/y", 50);
	memcg("/w", 5);
	memcg("/z", 1);
	scrape();
	assert_int_equal(top.nr, 3);
	assert_string_equal(top.r[0].path, "/y");
	assert_string_equal(top.r[1].path, "/w");
	assert_string_equal(top.r[2].path, "/x");
	/* no memory cgroups read at all: only the traced rows */
	ft_cgsel_init(&sel, 3);
	proc(20, "/t", 4);
	ft_cgrows_build(&t, &rows);
	ft_cgtop_pick(&sel, &rows, NULL, &top);
	assert_int_equal(top.nr, 1);
	assert_null(top.r[0].g);
	/* K is bounded */
	ft_cgsel_init(&sel, 0);
	assert_int_equal(sel.k, 1);
	ft_cgsel_init(&sel, FT_CGTOP_MAX + 5);
	assert_int_equal(sel.k, FT_CGTOP_MAX);
}

/* The exporter's family: the unread bucket by its name and reason's name, "other" without it. */
static void test_unread_served(void **state)
{
	static struct ft_session s;
	struct ft_metrics m = { .cgroups = &top, .only = FT_MF_CG_FRAG + 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	ft_session_init(&s);
	ft_procs_init(&t);
	memset(&cg, 0, sizeof(cg));
	ft_cgsel_init(&sel, 1);
	proc(10, "/a", 5);
	proc(11, "/b", 4);
	proc(12, NULL, 3);
	ft_procs_exit(&t, 12, 2);
	ft_cgrows_build(&t, &rows);
	ft_cgtop_pick(&sel, &rows, NULL, &top);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(ft_render_metrics_write(f, &s, &m), 0);
	fclose(f);
	assert_non_null(strstr(buf, "fragtop_cgroup_fragmenting_fallbacks_total{cgroup=\"/a\","
				    "name=\"/a\"} 5\n"));
	assert_non_null(strstr(buf, "fragtop_cgroup_fragmenting_fallbacks_total{cgroup=\"other\","
				    "name=\"other\"} 4\n"));
	assert_non_null(strstr(buf, "fragtop_cgroup_fragmenting_fallbacks_total{cgroup=\"(exited "
				    "unread)\",name=\"(exited unread)\"} 3\n"));
	assert_null(strstr(buf, "cgroup=\"(cgroup unread)\""));	/* an empty bucket has no series */
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_untraced),
		cmocka_unit_test(test_rechosen),
		cmocka_unit_test(test_unread_served),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
