// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analysis/cgtop.c: the exporter's bounded cgroups.  The chosen and
 * "other" add up to every row; the choice sticks from scrape to scrape;
 * a cgroup gone frees its place; untraced cgroups by anonymous memory;
 * the tasks without a cgroup served under their bucket's name, not "other".
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

/* The chosen and "other" add up to every row's fragmenting fallbacks. */
static void check_sum(void)
{
	uint64_t all = 0, shown = top.other[FT_PC_FRAGMENTING];
	int i;

	for (i = 0; i < FT_CGU_NR; i++)
		shown += top.unread[i][FT_PC_FRAGMENTING];
	for (i = 0; i < rows.nr; i++)
		all += rows.r[i].c[FT_PC_FRAGMENTING];
	for (i = 0; i < top.nr; i++)
		shown += top.r[i].c[FT_PC_FRAGMENTING];
	assert_int_equal(shown, all);
}

static void scrape(void)
{
	ft_cgrows_build(&t, &rows);
	ft_cgtop_pick(&sel, &rows, &cg, &top);
	check_sum();
}

static void test_pick(void **state)
{
	(void)state;
	ft_procs_init(&t);
	memset(&cg, 0, sizeof(cg));
	ft_cgsel_init(&sel, 2);
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
	/* /c overtakes both: the choice sticks, "other" grows */
	proc(12, "/c", 100);
	scrape();
	assert_string_equal(top.r[0].path, "/b");
	assert_string_equal(top.r[1].path, "/a");
	assert_int_equal(top.other[FT_PC_FRAGMENTING], 101 + 3);
	/* /a gone (its rows folded, its cgroup removed): its place goes to /c */
	ft_procs_init(&t);
	proc(11, "/b", 9);
	proc(12, "/c", 101);
	t.other[FT_PC_FRAGMENTING] = 8;
	memmove(&cg.g[0], &cg.g[1], 3 * sizeof(cg.g[0]));
	cg.nr = 3;
	scrape();
	assert_int_equal(top.nr, 2);
	assert_string_equal(top.r[0].path, "/b");
	assert_string_equal(top.r[1].path, "/c");
	assert_int_equal(top.other[FT_PC_FRAGMENTING], 8);
}

/* Nothing traced: the largest anonymous memory first, then the path. */
static void test_untraced(void **state)
{
	(void)state;
	ft_procs_init(&t);
	memset(&cg, 0, sizeof(cg));
	ft_cgsel_init(&sel, 3);
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
	assert_non_null(strstr(buf, "fragtop_cgroup_fragmenting_fallbacks_total{cgroup=\"/a\",name=\"/a\"} 5\n"));
	assert_non_null(strstr(buf, "fragtop_cgroup_fragmenting_fallbacks_total{cgroup=\"other\",name=\"other\"} 4\n"));
	assert_non_null(strstr(buf, "fragtop_cgroup_fragmenting_fallbacks_total{cgroup=\"(exited unread)\","
				    "name=\"(exited unread)\"} 3\n"));
	assert_null(strstr(buf, "cgroup=\"(cgroup unread)\""));	/* an empty bucket has no series */
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_untraced),
		cmocka_unit_test(test_unread_served),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
