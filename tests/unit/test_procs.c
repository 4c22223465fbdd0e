// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The process table: counts by pid, names, exits, a reused pid starting a
 * new row, folding when full (rows + other = totals), the difference of
 * two states, sorting and filtering.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/procs.h"

static struct ft_procs t, t0, d;

static uint64_t sum(const struct ft_procs *p, enum ft_proc_col c)
{
	uint64_t s = p->other[c];
	int i;

	for (i = 0; i < p->nr; i++)
		s += p->p[i].c[c];
	return s;
}

static void test_counts_names(void **state)
{
	const struct ft_proc *p;

	(void)state;
	ft_procs_init(&t);
	ft_procs_count(&t, 100, 5, FT_PC_EXTFRAG, 1);
	ft_procs_count(&t, 100, 6, FT_PC_FRAGMENTING, 1);
	ft_procs_count(&t, 200, 7, FT_PC_RECLAIM, 1);
	ft_procs_count(&t, 200, 7, FT_PC_RECLAIM_US, 250);
	assert_int_equal(t.nr, 2);
	p = ft_procs_find(&t, 100);
	assert_non_null(p);
	assert_string_equal(p->comm, "");
	assert_int_equal(p->last_ns, 6);
	ft_procs_name(&t, 100, "fio", 10);
	assert_string_equal(ft_procs_find(&t, 100)->comm, "fio");
	/* the same name again changes nothing */
	ft_procs_name(&t, 100, "fio", 11);
	assert_int_equal(t.nr, 2);
	assert_int_equal(ft_procs_find(&t, 200)->c[FT_PC_RECLAIM_US], 250);
	assert_null(ft_procs_find(&t, 300));
	/* a cgroup for a live row; none for an unknown pid */
	ft_procs_cgroup(&t, 100, "/system.slice/fio.service");
	ft_procs_cgroup(&t, 999, "/x");
	assert_string_equal(ft_procs_find(&t, 100)->cgroup, "/system.slice/fio.service");
	assert_int_equal(t.nr, 2);
	/* a bad column or pid is ignored */
	ft_procs_count(&t, 100, 1, FT_PC_NR, 1);
	ft_procs_count(&t, -1, 1, FT_PC_EXTFRAG, 1);
	assert_int_equal(t.nr, 2);
}

/* An exited pid keeps its row, marked; its number's next process gets a new row. */
static void test_exit_and_reuse(void **state)
{
	const struct ft_proc *p;
	int i, seen_old = 0, seen_new = 0;

	(void)state;
	ft_procs_init(&t);
	ft_procs_count(&t, 100, 1, FT_PC_FRAGMENTING, 3);
	ft_procs_name(&t, 100, "fio", 2);
	ft_procs_exit(&t, 100, 50);
	assert_null(ft_procs_find(&t, 100));
	assert_int_equal(t.nr, 1);
	assert_true(t.p[0].exited);
	assert_int_equal(t.p[0].exited_ns, 50);
	ft_procs_count(&t, 100, 60, FT_PC_FRAGMENTING, 1);
	ft_procs_name(&t, 100, "thpalloc", 61);
	assert_int_equal(t.nr, 2);
	p = ft_procs_find(&t, 100);
	assert_string_equal(p->comm, "thpalloc");
	assert_int_equal(p->c[FT_PC_FRAGMENTING], 1);
	/* reuse seen only by a new name: the old row is closed there */
	ft_procs_count(&t, 100, 70, FT_PC_FRAGMENTING, 2);
	ft_procs_name(&t, 100, "kworker/0:1", 71);
	assert_int_equal(t.nr, 3);
	assert_string_equal(ft_procs_find(&t, 100)->comm, "kworker/0:1");
	assert_int_equal(ft_procs_find(&t, 100)->c[FT_PC_FRAGMENTING], 0);
	for (i = 0; i < t.nr; i++) {
		seen_old += t.p[i].exited && !strcmp(t.p[i].comm, "fio") &&
		t.p[i].c[FT_PC_FRAGMENTING] == 3;
		seen_new += t.p[i].exited && !strcmp(t.p[i].comm, "thpalloc") &&
			    t.p[i].c[FT_PC_FRAGMENTING] == 3 && t.p[i].exited_ns == 71;
	}
	assert_int_equal(seen_old, 1);
	assert_int_equal(seen_new, 1);
	assert_int_equal(sum(&t, FT_PC_FRAGMENTING), 6);
	/* exiting an unknown pid does nothing */
	ft_procs_exit(&t, 12345, 80);
	assert_int_equal(t.nr, 3);
}

/* Full: the row idle the longest (exited first) folds into other; sums hold. */
static void test_fold(void **state)
{
	int pid;

	(void)state;
	ft_procs_init(&t);
	for (pid = 1; pid <= FT_PROCS_MAX; pid++)
		ft_procs_count(&t, pid, (uint64_t)pid, FT_PC_EXTFRAG, (uint64_t)pid);
	assert_int_equal(t.nr, FT_PROCS_MAX);
	ft_procs_exit(&t, 500, 1);
	ft_procs_count(&t, 5000, 2000, FT_PC_EXTFRAG, 7);	/* folds the exited 500 */
	assert_int_equal(t.folded, 1);
	assert_int_equal(t.other[FT_PC_EXTFRAG], 500);
	ft_procs_count(&t, 5001, 2001, FT_PC_EXTFRAG, 1);	/* folds pid 1: idle longest */
	assert_null(ft_procs_find(&t, 1));
	assert_int_equal(t.other[FT_PC_EXTFRAG], 501);
	assert_non_null(ft_procs_find(&t, 2));
	assert_int_equal(ft_procs_find(&t, 5000)->c[FT_PC_EXTFRAG], 7);
	assert_int_equal(sum(&t, FT_PC_EXTFRAG),
			 (uint64_t)FT_PROCS_MAX * (FT_PROCS_MAX + 1) / 2 + 8);
	/* every live pid is still found through the hash after the deletions */
	for (pid = 2; pid <= FT_PROCS_MAX; pid++)
		if (pid != 500)
			assert_int_equal(ft_procs_find(&t, pid)->c[FT_PC_EXTFRAG], (uint64_t)pid);
}

/* last - first: counts since first, folded rows taken off other. */
static void test_sub(void **state)
{
	int pid;

	(void)state;
	ft_procs_init(&t);
	for (pid = 1; pid <= FT_PROCS_MAX; pid++)
		ft_procs_count(&t, pid, (uint64_t)pid, FT_PC_FRAGMENTING, 10);
	t0 = t;
	ft_procs_count(&t, 7, 5000, FT_PC_FRAGMENTING, 3);
	ft_procs_count(&t, 99999, 5001, FT_PC_FRAGMENTING, 4);	/* folds pid 1 (10) */
	ft_procs_sub(&d, &t, &t0);
	assert_int_equal(ft_procs_find(&d, 7)->c[FT_PC_FRAGMENTING], 3);
	assert_int_equal(ft_procs_find(&d, 99999)->c[FT_PC_FRAGMENTING], 4);
	assert_int_equal(ft_procs_find(&d, 8)->c[FT_PC_FRAGMENTING], 0);
	assert_int_equal(d.other[FT_PC_FRAGMENTING], 0);
	assert_int_equal(sum(&d, FT_PC_FRAGMENTING), 7);
}

static void test_sort_filter(void **state)
{
	struct ft_procs_filter f = { 0 };
	int idx[8], n;

	(void)state;
	ft_procs_init(&t);
	ft_procs_count(&t, 30, 1, FT_PC_FRAGMENTING, 5);
	ft_procs_count(&t, 10, 1, FT_PC_FRAGMENTING, 9);
	ft_procs_count(&t, 20, 1, FT_PC_FRAGMENTING, 5);
	ft_procs_count(&t, 20, 1, FT_PC_COMPACTION_US, 1000);
	ft_procs_name(&t, 10, "fio", 1);
	ft_procs_name(&t, 20, "thpalloc", 1);
	ft_procs_name(&t, 30, "fio", 1);
	ft_procs_name(&t, 40, "idle", 1);		/* named, never counted */
	n = ft_procs_sorted(&t, FT_PC_FRAGMENTING, NULL, idx, 8);
	assert_int_equal(n, 4);
	assert_int_equal(t.p[idx[0]].pid, 10);
	assert_int_equal(t.p[idx[1]].pid, 20);	/* a tie: the lower pid first */
	assert_int_equal(t.p[idx[2]].pid, 30);
	n = ft_procs_sorted(&t, FT_PC_COMPACTION_US, NULL, idx, 1);
	assert_int_equal(n, 1);
	assert_int_equal(t.p[idx[0]].pid, 20);
	f.active_only = true;
	assert_int_equal(ft_procs_sorted(&t, FT_PC_FRAGMENTING, &f, idx, 8), 3);
	f.comm = "fio";
	n = ft_procs_sorted(&t, FT_PC_FRAGMENTING, &f, idx, 8);
	assert_int_equal(n, 2);
	assert_int_equal(t.p[idx[0]].pid, 10);
	assert_int_equal(t.p[idx[1]].pid, 30);
	/* exited before the cut: hidden */
	ft_procs_exit(&t, 10, 100);
	f.hide_exited_before = true;
	f.exited_before_ns = 200;
	n = ft_procs_sorted(&t, FT_PC_FRAGMENTING, &f, idx, 8);
	assert_int_equal(n, 1);
	assert_int_equal(t.p[idx[0]].pid, 30);
	f.exited_before_ns = 50;
	assert_int_equal(ft_procs_sorted(&t, FT_PC_FRAGMENTING, &f, idx, 8), 2);
}

/* Threads summed into their process: one row, the leader's name, exited when all are. */
static void test_by_process(void **state)
{
	static struct ft_procs g;
	const struct ft_proc *r;
	int i;

	(void)state;
	ft_procs_init(&t);
	/* four threads of 100 (a named leader, and threads named otherwise), one lone process */
	for (i = 0; i < 4; i++) {
		ft_procs_count(&t, 100 + i, 10 + (uint64_t)i, FT_PC_FRAGMENTING, (uint64_t)(i + 1));
		ft_procs_name(&t, 100 + i, i ? "worker" : "thpthreads", 1);
		ft_procs_group(&t, 100 + i, 100);
	}
	ft_procs_count(&t, 7, 1, FT_PC_FRAGMENTING, 5);
	ft_procs_name(&t, 7, "fio", 1);
	ft_procs_count(&t, 8, 1, FT_PC_EXTFRAG, 1);	/* group never said: its own */
	ft_procs_group(&t, 9, 9);			/* no row: nothing made */
	assert_int_equal(t.nr, 6);
	ft_procs_exit(&t, 101, 50);
	ft_procs_exit(&t, 102, 60);
	ft_procs_by_process(&g, &t);
	assert_int_equal(g.nr, 3);
	r = ft_procs_find(&g, 100);
	assert_non_null(r);
	assert_int_equal(r->threads, 4);
	assert_int_equal(r->c[FT_PC_FRAGMENTING], 1 + 2 + 3 + 4);
	assert_string_equal(r->comm, "thpthreads");
	assert_false(r->exited);
	assert_int_equal(sum(&g, FT_PC_FRAGMENTING), sum(&t, FT_PC_FRAGMENTING));
	assert_int_equal(ft_procs_find(&g, 7)->threads, 1);
	assert_int_equal(ft_procs_find(&g, 8)->tgid, 8);
	/*
	 * A leader named (from its thread) but whose cgroup was not read,
	 * first in the table: the process takes its threads' cgroup, and a
	 * leader's own, once read, stays first.
	 */
	{
		static struct ft_procs u, ug;

		ft_procs_init(&u);
		ft_procs_count(&u, 300, 1, FT_PC_FRAGMENTING, 1);
		ft_procs_name(&u, 300, "bash", 1);
		ft_procs_group(&u, 300, 300);
		ft_procs_count(&u, 301, 1, FT_PC_FRAGMENTING, 2);
		ft_procs_group(&u, 301, 300);
		ft_procs_cgroup(&u, 301, "/system.slice/job.service");
		ft_procs_by_process(&ug, &u);
		assert_int_equal(ug.nr, 1);
		assert_string_equal(ug.p[0].cgroup, "/system.slice/job.service");
		ft_procs_cgroup(&u, 300, "/leader");
		ft_procs_by_process(&ug, &u);
		assert_string_equal(ug.p[0].cgroup, "/leader");
	}
	/* every thread gone: the process is */
	ft_procs_exit(&t, 100, 70);
	ft_procs_exit(&t, 103, 65);
	ft_procs_by_process(&g, &t);
	assert_true(g.p[0].exited);
	assert_int_equal(g.p[0].exited_ns, 70);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_names),
		cmocka_unit_test(test_exit_and_reuse),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_sub),
		cmocka_unit_test(test_sort_filter),
		cmocka_unit_test(test_by_process),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
