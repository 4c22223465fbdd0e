// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cost account: paths are counted as their source, base/file.c counts
 * opens, reads and bytes as it does them, a held file opens once, the
 * per-size THP tree is listed once and read again without an open, the
 * COST record round-trips (a newer writer's extra sources are skipped, a
 * hostile one refused), the session's last tick is the difference of
 * its two newest snapshots, and a long-running process keeps a fixed mmap
 * threshold.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/cost.h"
#include "base/file.h"
#include "collectors/thp.h"
#include "model/cost.h"
#include "tests/helpers.h"

static void test_sources(void **state)
{
	(void)state;
	assert_int_equal(ft_cost_src_of("proc/zoneinfo"), FT_COST_ZONEINFO);
	assert_int_equal(ft_cost_src_of("/proc/vmstat"), FT_COST_VMSTAT);
	assert_int_equal(ft_cost_src_of("proc/pagetypeinfo"), FT_COST_PAGETYPEINFO);
	assert_int_equal(ft_cost_src_of("proc/meminfo"), FT_COST_MEMINFO);
	assert_int_equal(ft_cost_src_of("proc/sys/vm/watermark_boost_factor"), FT_COST_KNOBS);
	assert_int_equal(ft_cost_src_of("sys/kernel/mm/transparent_hugepage/enabled"),
			 FT_COST_KNOBS);
	assert_int_equal(ft_cost_src_of("sys/kernel/mm/transparent_hugepage"), FT_COST_THP);
	assert_int_equal(ft_cost_src_of("sys/kernel/mm/transparent_hugepage/hugepages-64kB/stats/sp"
					"lit"),
			 FT_COST_THP);
	assert_int_equal(ft_cost_src_of("sys/devices/system/node/node0/compact"), FT_COST_KNOBS);
	assert_int_equal(ft_cost_src_of("proc/kpageflags"), FT_COST_KPAGEFLAGS);
	assert_int_equal(ft_cost_src_of("proc/iomem"), FT_COST_KPAGEFLAGS);
	assert_int_equal(ft_cost_src_of("sys/kernel/debug/page_owner_stacks/show_stacks"),
			 FT_COST_PAGE_OWNER);
	assert_int_equal(ft_cost_src_of("proc/4242/comm"), FT_COST_PID);
	assert_int_equal(ft_cost_src_of("proc/self/comm"), FT_COST_OTHER);
	assert_int_equal(ft_cost_src_of("sys/kernel/tracing/saved_cmdlines"), FT_COST_TRACE);
	assert_int_equal(ft_cost_src_of("etc/passwd"), FT_COST_OTHER);
	assert_int_equal(ft_cost_src_of("sys/fs/cgroup/system.slice/memory.stat"), FT_COST_CGROUP);
	assert_int_equal(ft_cost_src_of("proc/pressure/memory"), FT_COST_PRESSURE);
	assert_int_equal(ft_cost_src_of("var/log/pods"), FT_COST_CGROUP);
	for (int i = 0; i < FT_COST_NR; i++)
		assert_non_null(ft_cost_src_names[i]);
}

/* A held file is opened once; each read is counted with its bytes, the read that ends it too. */
static void test_held_file(void **state)
{
	int root = ft_root_open(FT_FIXTURES "/6.18-idle");
	struct ft_cost a, b, c;
	struct ft_file f;

	(void)state;
	assert_true(root >= 0);
	ft_file_init(&f, "proc/vmstat");
	ft_cost_get(&a);
	assert_int_equal(ft_file_read(&f, root), 0);
	ft_cost_get(&b);
	assert_int_equal(b.src[FT_COST_VMSTAT].opens - a.src[FT_COST_VMSTAT].opens, 1);
	assert_int_equal(b.src[FT_COST_VMSTAT].bytes - a.src[FT_COST_VMSTAT].bytes, f.len);
	/* data, then 0 */
	assert_true(b.src[FT_COST_VMSTAT].reads - a.src[FT_COST_VMSTAT].reads >= 2);
	assert_int_equal(ft_file_read(&f, root), 0);
	ft_cost_get(&c);
	assert_int_equal(c.src[FT_COST_VMSTAT].opens, b.src[FT_COST_VMSTAT].opens);	/* held */
	assert_int_equal(c.src[FT_COST_VMSTAT].bytes - b.src[FT_COST_VMSTAT].bytes, f.len);
	ft_file_close(&f);
	/* an attribute read whole in one read: one call */
	ft_file_init(&f, "proc/sys/vm/watermark_boost_factor");
	f.single = true;
	assert_int_equal(ft_file_read(&f, root), 0);
	ft_cost_get(&a);
	assert_int_equal(ft_file_read(&f, root), 0);
	ft_cost_get(&b);
	assert_int_equal(b.src[FT_COST_KNOBS].reads - a.src[FT_COST_KNOBS].reads, 1);
	ft_file_close(&f);
	assert_true(f.single);		/* what the owner set stays over a close */
	close(root);
}

/*
 * The THP tree: listed and opened by the first read; the next one opens nothing and reads the same.
 */
static void test_thp_held(void **state)
{
	static char one[65536], two[65536];
	int root = ft_root_open(FT_FIXTURES "/6.18-mthp");
	struct ft_thpsrc t = { 0 };
	struct ft_cost a, b, c;
	long n1, n2;

	(void)state;
	assert_true(root >= 0);
	ft_cost_get(&a);
	n1 = ft_thpsrc_read(&t, root, one, sizeof(one));
	ft_cost_get(&b);
	n2 = ft_thpsrc_read(&t, root, two, sizeof(two));
	ft_cost_get(&c);
	assert_true(n1 > 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(one, two, (size_t)n1);
	/* 9 sizes, ~19 files */
	assert_true(b.src[FT_COST_THP].opens - a.src[FT_COST_THP].opens > 150);
	assert_int_equal(c.src[FT_COST_THP].opens, b.src[FT_COST_THP].opens);
	/* a sysfs attribute is one read */
	/* 8 kB has no enabled */
	assert_int_equal(c.src[FT_COST_THP].reads - b.src[FT_COST_THP].reads, t.nr - 1);
	ft_thpsrc_close(&t);
	ft_cost_get(&a);
	/* opened again, not listed */
	assert_int_equal(ft_thpsrc_read(&t, root, two, sizeof(two)), n1);
	ft_cost_get(&b);
	assert_int_equal(b.src[FT_COST_THP].opens - a.src[FT_COST_THP].opens, t.nr);
	ft_thpsrc_release(&t);
	close(root);
	root = ft_root_open(FT_FIXTURES "/6.1-2node-movable");
	assert_int_equal(ft_thpsrc_read(&t, root, one, sizeof(one)), -ENOENT);
	ft_cost_get(&a);
	/* not looked for again */
	assert_int_equal(ft_thpsrc_read(&t, root, one, sizeof(one)), -ENOENT);
	ft_cost_get(&b);
	assert_int_equal(b.src[FT_COST_THP].opens, a.src[FT_COST_THP].opens);
	ft_thpsrc_release(&t);
	close(root);
}

/*
 * A long-running fragtop keeps malloc's mmap threshold: a block the size
 * of a burst's buffers freed, the next large one is still mapped (and so
 * given back when freed) rather than cut from a heap that then stays.
 */
static void test_long_running(void **state)
{
	struct mallinfo2 a, b;
	void *big, *mid;

	(void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	skip();		/* the sanitizer's allocator is not glibc's */
#endif
	ft_cost_long_running();
	big = malloc(1 << 20);
	assert_non_null(big);
	memset(big, 1, 1 << 20);
	free(big);		/* glibc's own rule would raise the threshold to 1 MB here */
	a = mallinfo2();
	mid = malloc(200 << 10);
	assert_non_null(mid);
	b = mallinfo2();
	assert_true(b.hblkhd - a.hblkhd >= 200 << 10);
	free(mid);
	assert_int_equal(mallinfo2().hblkhd, a.hblkhd);
}

static void test_record(void **state)
{
	uint8_t b[FT_COST_REC_LEN + 64];
	struct ft_cost c = { .heap = 123456 }, d;
	uint32_t nr;
	size_t n;

	(void)state;
	for (int i = 0; i < FT_COST_NR; i++)
		c.src[i] = (struct ft_cost_counts){ (uint64_t)i, (uint64_t)i * 10,
						    (uint64_t)i << 40 };
	n = ft_costrec_encode(&c, b, sizeof(b));
	assert_int_equal(n, FT_COST_REC_LEN);
	assert_int_equal(ft_costrec_decode(b, n, &d), 0);
	assert_memory_equal(&c, &d, sizeof(c));
	assert_int_equal(ft_costrec_encode(&c, b, FT_COST_REC_LEN - 1), 0);
	/* a newer writer's extra source is skipped, the heap still read */
	memmove(b + 8 + FT_COST_NR * 24 + 24, b + 8 + FT_COST_NR * 24, 8);
	memset(b + 8 + FT_COST_NR * 24, 0x77, 24);
	nr = FT_COST_NR + 1;
	memcpy(b, &nr, 4);
	assert_int_equal(ft_costrec_decode(b, n + 24, &d), 0);
	assert_memory_equal(&c, &d, sizeof(c));
	/* lengths that do not add up, absurd counts */
	assert_int_equal(ft_costrec_decode(b, n, &d), -EINVAL);
	assert_int_equal(ft_costrec_decode(b, 7, &d), -EINVAL);
	nr = 0xffffffffu;
	memcpy(b, &nr, 4);
	assert_int_equal(ft_costrec_decode(b, n + 24, &d), -EINVAL);
	nr = 1;
	memcpy(b, &nr, 4);
	memcpy(b + 4, &(uint32_t){ 2 }, 4);	/* fewer than 3 counts a source */
	assert_int_equal(ft_costrec_decode(b, 8 + 16 + 8, &d), -EINVAL);
}

static void test_seen(void **state)
{
	struct ft_cost_seen s = { 0 };
	struct ft_cost c = { 0 }, t;

	(void)state;
	assert_false(ft_costrec_tick(&s, &t));
	c.src[FT_COST_ZONEINFO] = (struct ft_cost_counts){ 1, 3, 9000 };
	c.heap = 10;
	ft_costrec_push(&s, &c, 1000);
	assert_true(s.known);
	assert_false(ft_costrec_tick(&s, &t));	/* one snapshot: no tick yet */
	c.src[FT_COST_ZONEINFO] = (struct ft_cost_counts){ 1, 6, 18000 };
	c.heap = 20;
	ft_costrec_push(&s, &c, 2000);
	assert_true(ft_costrec_tick(&s, &t));
	assert_int_equal(t.src[FT_COST_ZONEINFO].opens, 0);
	assert_int_equal(t.src[FT_COST_ZONEINFO].reads, 3);
	assert_int_equal(t.src[FT_COST_ZONEINFO].bytes, 9000);
	assert_int_equal(t.heap, 20);
	assert_int_equal(ft_cost_total(&t).reads, 3);
	/* counts that went back (another process's file of a series): no tick */
	c.src[FT_COST_ZONEINFO].reads = 1;
	ft_costrec_push(&s, &c, 3000);
	assert_false(ft_costrec_tick(&s, &t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_held_file),
		cmocka_unit_test(test_thp_held),
		cmocka_unit_test(test_long_running),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_seen),
	};
	return cmocka_run_group_tests_name("cost", tests, NULL, NULL);
}
