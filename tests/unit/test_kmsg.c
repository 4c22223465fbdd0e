// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel/kmsg.c: warn_alloc()'s line as /dev/kmsg gives it (6.18's, with
 * the cpuset tail and a continuation line), its order, task and gfp; what
 * is not a failure, or is malformed, is refused; the count by order and
 * the newest kept; the window's largest order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/kmsg.h"

static int parse(const char *s, struct ft_kmsg_fail *f)
{
	return ft_kmsg_parse(s, strlen(s), f);
}

static void test_warn_alloc(void **st)
{
	struct ft_kmsg_fail f;

	(void)st;
	assert_int_equal(parse("4,7712,123456789,-;fio: page allocation failure: order:4, "
			       "mode:0x40dc0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO), "
			       "nodemask=(null),cpuset=/,mems_allowed=0\n", &f), 0);
	assert_int_equal(f.order, 4);
	assert_int_equal(f.seq, 7712);
	assert_int_equal(f.ts_us, 123456789);
	assert_string_equal(f.comm, "fio");
	assert_int_equal(f.mode, 0x40dc0);
	assert_string_equal(f.gfp, "GFP_KERNEL|__GFP_COMP|__GFP_ZERO");
	/* a task name with a colon and a space, an atomic one, a continuation line after */
	assert_int_equal(parse("4,1,2,c;kworker/u8:2 x: page allocation failure: order:0, "
			       "mode:0xa20(GFP_ATOMIC), nodemask=(null)\n SUBSYSTEM=net\n", &f), 0);
	assert_string_equal(f.comm, "kworker/u8:2 x");
	assert_int_equal(f.order, 0);
	assert_string_equal(f.gfp, "GFP_ATOMIC");
	/* a task name of 15 bytes, the most there is; a mask of 0 printed by %#x as "0" */
	assert_int_equal(parse("0,1,2,-;abcdefghijklmno: page allocation failure: order:9, "
			       "mode:0(), nodemask=(null)\n", &f), 0);
	assert_string_equal(f.comm, "abcdefghijklmno");
	assert_int_equal(f.order, 9);
	assert_int_equal(f.mode, 0);
}

static void test_refused(void **st)
{
	static const char *const bad[] = {
		"6,3,4,-;eth0: link up\n",			/* another message */
		"page allocation failure: order:4\n",		/* no header */
		/* a header that is not numbers */
		"4,x,2,-;a: page allocation failure: order:4\n",
		"4,1,2,-;a: page allocation failure: order:\n",	/* no order */
		"4,1,2,-;a: page allocation failure: order:99\n",	/* no such order */
		/* only in a continuation line */
		"4,1,2,-;\n a: page allocation failure: order:4\n",
		/* forged: a user's mount option echoed by the kernel (the phrase further in) */
		"3,9,9,-;tmpfs: Unknown parameter 'x: page allocation failure: order:10'\n",
		/*
		 * forged: the kernel's form written to /dev/kmsg by user space (facility LOG_USER
		 * and up)
		 */
		"12,9,9,-;fio: page allocation failure: order:4, mode:0x40dc0(GFP_KERNEL)\n",
		"8,9,9,-;fio: page allocation failure: order:4, mode:0x40dc0(GFP_KERNEL)\n",
		"164,9,9,-;fio: page allocation failure: order:4, mode:0x40dc0(GFP_KERNEL)\n",
		/* a name of 16 bytes: no task has one */
		"4,1,2,-;abcdefghijklmnop: page allocation failure: order:4, mode:0x40dc0\n",
		/* no name at all */
		"4,1,2,-;: page allocation failure: order:4, mode:0x40dc0\n",
		/* truncated: before the mode, inside it, or with no digit of it */
		"4,1,2,-;a: page allocation failure: order:10\n",
		"4,1,2,-;a: page allocation failure: order:10, mo",
		"4,1,2,-;a: page allocation failure: order:10, mode:0x",
		"4,1,2,-;a: page allocation failure: order:10 mode:0x40dc0\n",
		"",
	};
	struct ft_kmsg_fail f;
	size_t i;

	(void)st;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(bad[i], &f), -22);
	assert_int_equal(ft_kmsg_parse(NULL, 0, &f), -22);
}

static void test_count(void **st)
{
	struct ft_kmsg k = { 0 };
	struct ft_kmsg_fail f = { .order = 3 };
	uint64_t before[FT_KMSG_ORDERS];
	int i;

	(void)st;
	for (i = 0; i < 6; i++) {
		f.seq = (uint64_t)i;
		ft_kmsg_add(&k, &f);
	}
	memcpy(before, k.by_order, sizeof(before));
	assert_int_equal(ft_kmsg_max_order(before, k.by_order), -1);
	f.order = 40;		/* past the table: counted in its last row */
	ft_kmsg_add(&k, &f);
	assert_int_equal(k.failures, 7);
	assert_int_equal(k.by_order[3], 6);
	assert_int_equal(k.by_order[FT_KMSG_ORDERS - 1], 1);
	assert_int_equal(ft_kmsg_max_order(before, k.by_order), FT_KMSG_ORDERS - 1);
	/* the newest kept: the last one at (nlast - 1) % FT_KMSG_LAST */
	assert_int_equal(k.last[(k.nlast - 1) % FT_KMSG_LAST].order, 40);
	assert_int_equal(k.last[(k.nlast - 2) % FT_KMSG_LAST].seq, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warn_alloc),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
