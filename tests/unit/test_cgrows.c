// SPDX-License-Identifier: GPL-2.0-or-later
/* analysis/cgrows.c: process rows summed by cgroup add up to the totals, "other" included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/cgrows.h"

static uint64_t total(const struct ft_procs *t, int k)
{
	uint64_t sum = t->other[k];
	int i;

	for (i = 0; i < t->nr; i++)
		sum += t->p[i].c[k];
	return sum;
}

static void check_sums(const struct ft_procs *t, const struct ft_cgrows *rows)
{
	int i, k;

	for (k = 0; k < FT_PC_NR; k++) {
		uint64_t sum = 0;

		for (i = 0; i < rows->nr; i++)
			sum += rows->r[i].c[k];
		assert_int_equal(sum, total(t, k));
	}
}

static void test_rollup(void **state)
{
	static struct ft_procs t;
	static struct ft_cgrows rows;
	const struct ft_cgrow *a, *b;

	(void)state;
	ft_procs_init(&t);
	/* two processes in /a, one in /b, one whose cgroup was never taken */
	ft_procs_count(&t, 10, 1, FT_PC_FRAGMENTING, 5);
	ft_procs_count(&t, 10, 1, FT_PC_COMPACTION_US, 700);
	ft_procs_count(&t, 11, 2, FT_PC_FRAGMENTING, 3);
	ft_procs_count(&t, 12, 3, FT_PC_FRAGMENTING, 20);
	ft_procs_count(&t, 13, 4, FT_PC_RECLAIM, 2);
	ft_procs_cgroup(&t, 10, "/a");
	ft_procs_cgroup(&t, 11, "/a");
	ft_procs_cgroup(&t, 12, "/b");
	ft_cgrows_build(&t, &rows);
	assert_int_equal(rows.nr, 3);
	assert_string_equal(rows.r[0].path, "/b");	/* the most fragmenting first */
	a = ft_cgrows_find(&rows, "/a");
	b = ft_cgrows_find(&rows, "/b");
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->procs, 2);
	assert_int_equal(a->c[FT_PC_FRAGMENTING], 8);
	assert_int_equal(a->c[FT_PC_COMPACTION_US], 700);
	assert_int_equal(b->c[FT_PC_FRAGMENTING], 20);
	assert_null(ft_cgrows_find(&rows, ""));	/* no cgroup is not a cgroup */
	assert_string_equal(rows.r[2].path, "");
	assert_int_equal(rows.r[2].unread, FT_CGU_UNREAD);	/* it lives: not read */
	assert_string_equal(ft_cgrow_name(&rows.r[2]), "(cgroup unread)");
	assert_int_equal(rows.r[2].c[FT_PC_RECLAIM], 2);
	assert_null(ft_cgrows_find(&rows, "/c"));
	check_sums(&t, &rows);
	/* folded processes make an "other" row, last */
	t.other[FT_PC_FRAGMENTING] = 100;
	ft_cgrows_build(&t, &rows);
	assert_int_equal(rows.nr, 4);
	assert_true(rows.r[3].other);
	assert_int_equal(rows.r[3].c[FT_PC_FRAGMENTING], 100);
	check_sums(&t, &rows);
}

/*
 * The tasks without a cgroup: one bucket per reason, each with one name
 * (the same in every output) and a reason that holds for all its tasks.
 */
static void test_unread_buckets(void **state)
{
	static struct ft_procs t;
	static struct ft_cgrows rows;
	int i, seen[FT_CGU_NR] = { 0 };

	(void)state;
	/* a source that took no cgroups at all (an old recording): that reason, not "exited" */
	ft_procs_init(&t);
	ft_procs_count(&t, 10, 1, FT_PC_FRAGMENTING, 5);
	ft_procs_name(&t, 10, "bash", 1);
	ft_procs_exit(&t, 10, 2);
	ft_cgrows_build(&t, &rows);
	assert_int_equal(rows.nr, 1);
	assert_int_equal(rows.r[0].unread, FT_CGU_NOT_RECORDED);
	assert_string_equal(ft_cgrow_name(&rows.r[0]), "(no cgroups)");
	/* cgroups taken: one that exited unread, one alive unread, one read */
	ft_procs_count(&t, 11, 3, FT_PC_FRAGMENTING, 7);
	ft_procs_count(&t, 12, 3, FT_PC_FRAGMENTING, 1);
	ft_procs_count(&t, 13, 3, FT_PC_FRAGMENTING, 2);
	ft_procs_cgroup(&t, 13, "/x");
	ft_procs_exit(&t, 11, 4);
	ft_cgrows_build(&t, &rows);
	assert_int_equal(rows.nr, 3);
	for (i = 0; i < rows.nr; i++)
		seen[rows.r[i].unread] += (int)rows.r[i].c[FT_PC_FRAGMENTING];
	/* pid 10 exited too: the reason now holds for it */
	assert_int_equal(seen[FT_CGU_EXITED], 5 + 7);
	assert_int_equal(seen[FT_CGU_UNREAD], 1);
	assert_int_equal(seen[FT_CGU_READ], 2);
	assert_int_equal(seen[FT_CGU_NOT_RECORDED], 0);
	assert_string_equal(ft_cgrow_name(&rows.r[0]), "(exited unread)");
	assert_string_equal(ft_cg_unread_reasons[FT_CGU_EXITED],
			    "the processes exited before fragtop read their cgroup");
	check_sums(&t, &rows);
	/* by process, the counters of the inputs stay (the report's table is by process) */
	{
		static struct ft_procs byp;

		ft_procs_by_process(&byp, &t);
		assert_int_equal(byp.cgrouped, 1);
		assert_int_equal(byp.named, 1);
	}
}

/* More cgroups than rows: the rest summed into "other", nothing lost. */
static void test_overflow(void **state)
{
	static struct ft_procs t;
	static struct ft_cgrows rows;
	char path[32];
	int i;

	(void)state;
	ft_procs_init(&t);
	for (i = 0; i < FT_CGROWS_MAX + 40; i++) {
		ft_procs_count(&t, 100 + i, (uint64_t)i, FT_PC_EXTFRAG, (uint64_t)i + 1);
		snprintf(path, sizeof(path), "/c%d", i);
		ft_procs_cgroup(&t, 100 + i, path);
	}
	ft_cgrows_build(&t, &rows);
	assert_int_equal(rows.nr, FT_CGROWS_MAX + 1);
	assert_true(rows.r[FT_CGROWS_MAX].other);
	assert_int_equal(rows.r[FT_CGROWS_MAX].procs, 40);
	check_sums(&t, &rows);
}

/*
 * The memory cgroups joined: each row finds its cgroup; cgroups with tasks and no trace get a row
 * before "other".
 */
static void test_join(void **state)
{
	static struct ft_procs t;
	static struct ft_cgrows rows;
	static struct ft_cgroups c;
	int i;

	(void)state;
	ft_procs_init(&t);
	ft_procs_count(&t, 10, 1, FT_PC_FRAGMENTING, 5);
	ft_procs_cgroup(&t, 10, "/a");
	ft_procs_count(&t, 11, 1, FT_PC_FRAGMENTING, 1);	/* no cgroup taken */
	t.other[FT_PC_FRAGMENTING] = 7;
	ft_cgrows_build(&t, &rows);
	assert_int_equal(rows.nr, 3);
	memset(&c, 0, sizeof(c));
	c.nr = 4;
	snprintf(c.g[0].path, sizeof(c.g[0].path), "/");
	c.g[0].procs = 40;
	snprintf(c.g[1].path, sizeof(c.g[1].path), "/idle");	/* memory, no task: no row */
	snprintf(c.g[2].path, sizeof(c.g[2].path), "/a");
	c.g[2].procs = 1;
	snprintf(c.g[3].path, sizeof(c.g[3].path), "/b");
	c.g[3].procs = 2;
	ft_cgrows_join(&rows, &c);
	assert_int_equal(rows.nr, 5);
	assert_string_equal(rows.r[0].path, "/a");
	assert_int_equal(rows.r[0].cg, 2);
	assert_string_equal(rows.r[1].path, "");
	assert_int_equal(rows.r[1].cg, -1);
	assert_string_equal(rows.r[2].path, "/");
	assert_int_equal(rows.r[2].cg, 0);
	assert_string_equal(rows.r[3].path, "/b");
	assert_int_equal(rows.r[3].cg, 3);
	assert_int_equal(rows.r[3].c[FT_PC_FRAGMENTING], 0);
	assert_true(rows.r[4].other);
	assert_int_equal(rows.r[4].cg, -1);
	check_sums(&t, &rows);
	assert_int_equal(rows.untraced_left_out, 0);
	/* NULL (never read) leaves the rows as built */
	ft_cgrows_build(&t, &rows);
	ft_cgrows_join(&rows, NULL);
	assert_int_equal(rows.nr, 3);
	/* a full table: the untraced are counted, not shown */
	c.nr = FT_CG_MAX;
	for (i = 0; i < FT_CG_MAX; i++) {
		snprintf(c.g[i].path, sizeof(c.g[i].path), "/pod%d", i);
		c.g[i].procs = 1;
	}
	ft_cgrows_build(&t, &rows);
	ft_cgrows_join(&rows, &c);
	assert_int_equal(rows.nr, FT_CGROWS_MAX + 1);
	assert_true(rows.r[FT_CGROWS_MAX].other);
	assert_int_equal(rows.untraced_left_out, FT_CG_MAX - (FT_CGROWS_MAX - 2));
	check_sums(&t, &rows);
}

/*
 * A systemd-driver containerd path (191 bytes) joins its processes to
 * its memory: the process side (/proc/PID/cgroup through
 * ft_cgroup_of_proc()) and the cgroup side (the CGROUPS input's "cg"
 * line) key it whole (it was cut to 127 on one side and kept as '~' and
 * its last 158 on the other, and never joined).
 */
static void test_join_long_path(void **state)
{
	static struct ft_procs t;
	static struct ft_cgrows rows;
	static struct ft_cgroups c;
	static const char path[] = "/kubepods.slice/kubepods-burstable.slice/"
		"kubepods-burstable-pod0b1c2d3e_4f50_6172_8394_a5b6c7d8e9f0.slice/"
		"cri-containerd-4c1b2d3e4f5061728394a5b6c7d8e9f04c1b2d3e4f5061728394a5b6c7d8e9f0.sc"
		"ope";
	char proc[512], text[1024], key[FT_CG_PATH];

	(void)state;
	assert_int_equal(strlen(path), 191);	/* a 64-hex container id */
	snprintf(proc, sizeof(proc), "0::%s\n", path);
	assert_int_equal(ft_cgroup_of_proc(proc, strlen(proc), key, sizeof(key)), 0);
	assert_string_equal(key, path);		/* whole */
	ft_procs_init(&t);
	ft_procs_count(&t, 10, 1, FT_PC_FRAGMENTING, 5);
	ft_procs_cgroup(&t, 10, key);
	snprintf(text, sizeof(text), "version 2\ncg %s\nprocs 1\nstat anon 41943040\n", path);
	assert_int_equal(ft_cgroup_table_parse(text, strlen(text), &c), 0);
	ft_cgrows_build(&t, &rows);
	ft_cgrows_join(&rows, &c);
	assert_string_equal(rows.r[0].path, path);
	assert_int_equal(rows.r[0].cg, 0);
	assert_int_equal(c.g[rows.r[0].cg].mem.v[FT_CGM_ANON], 41943040);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rollup),
		cmocka_unit_test(test_unread_buckets),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_join_long_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
