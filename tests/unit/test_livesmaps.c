// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * collectors/live_smaps.c on a planted tree: the asked processes'
 * smaps_rollup becomes SMAPS inputs the session keeps; each is read at
 * most every smaps.every_ns (the cost account's "smaps" counts the
 * opens); nothing is read unless asked, or when off; a gone process, a
 * FIFO and a file without the lines are read around.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/cost.h"
#include "collectors/live.h"
#include "collectors/live_int.h"

static char dir[] = "/tmp/fragtop-livesmaps-XXXXXX";

static void plant(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static uint64_t smaps_opens(void)
{
	struct ft_cost c;

	ft_cost_get(&c);
	return c.src[FT_COST_SMAPS].opens;
}

static void test_read(void **state)
{
	static struct ft_live l;
	const struct ft_session_smaps *e;
	int pids[] = { 123, 124, 125, 126 };
	const uint64_t sec = 1000000000;
	uint64_t o0;
	char path[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/proc/%d", dir, pids[i]);
		mkdir(path, 0755);
	}
	plant("proc/123/smaps_rollup",
	      "00400000-7ffc0000 ---p 00000000 00:00 0 [rollup]\nRss: 4096 kB\nAnonymous:        "
	      "8192 kB\nAnonHugePages:    6144 kB\n");
	plant("proc/125/smaps_rollup", "Rss: 4 kB\n");	/* no Anonymous line: read around */
	snprintf(path, sizeof(path), "%s/proc/126/smaps_rollup", dir);
	assert_int_equal(mkfifo(path, 0600), 0);	/* never waited on */
	/* 124 has no file: gone */
	l.procfs.rootfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(l.procfs.rootfd >= 0);
	ft_session_init(&l.session);
	l.smaps.every_ns = 10ull * sec;

	o0 = smaps_opens();
	ft_live_smaps_read(&l, 1ull * sec);	/* nothing asked: nothing read */
	assert_int_equal(smaps_opens(), o0);
	ft_live_smaps_want(&l, pids, 4);
	ft_live_smaps_read(&l, 2ull * sec);
	e = ft_session_smaps(&l.session, 123);
	assert_non_null(e);
	assert_int_equal(e->v.anon, 8192ull << 10);
	assert_int_equal(e->v.anon_huge, 6144ull << 10);
	assert_null(ft_session_smaps(&l.session, 124));
	assert_null(ft_session_smaps(&l.session, 125));
	assert_null(ft_session_smaps(&l.session, 126));
	assert_true(l.session.bad_inputs >= 1);	/* 125's text, said as a bad input */
	/* 123 and 125 at least (a FIFO is refused before or at open) */
	assert_true(smaps_opens() - o0 >= 2);
	o0 = smaps_opens();
	/* asked again 5 s later: not due */
	ft_live_smaps_want(&l, pids, 1);
	ft_live_smaps_read(&l, 7ull * sec);
	assert_int_equal(smaps_opens(), o0);
	/* 10 s after the first read: read again, the new value kept */
	plant("proc/123/smaps_rollup", "Anonymous:        8192 kB\nAnonHugePages:       0 kB\n");
	ft_live_smaps_want(&l, pids, 1);
	ft_live_smaps_read(&l, 12ull * sec);
	assert_int_equal(smaps_opens(), o0 + 1);
	assert_int_equal(ft_session_smaps(&l.session, 123)->v.anon_huge, 0);
	/* off: nothing read */
	l.smaps.every_ns = 0;
	ft_live_smaps_want(&l, pids, 1);
	ft_live_smaps_read(&l, 100ull * sec);
	assert_int_equal(smaps_opens(), o0 + 1);
	ft_session_release(&l.session);
	close(l.procfs.rootfd);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
