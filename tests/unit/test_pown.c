// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page_owner reader (collectors/pageowner.c) on a captured tree,
 * where the file is plain text read whole and indexed by PFN: a block's
 * pinning allocations come back as the kernel printed them, the others
 * counted; no file, a FIFO in its place and garbage are said, not
 * crashed on.  (Reading debugfs's page_owner, a pread a PFN, is checked
 * on the lab kernels: lab/run.sh --page-owner.)
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

#include "base/file.h"
#include "collectors/pageowner.h"
#include "kernel/pageowner.h"

#define ENTRY(pfn, type, comm) \
	"Page allocated via order 0, mask 0xcc0(GFP_KERNEL), pid 7, tgid 7 (" comm "), ts 1 ns\n" \
	"PFN " pfn " type " type " Block 0 type Movable Flags 0x0()\n" \
	" kmem_cache_alloc+0x1/0x2\n" \
	"\n"

/* three blocks of 512 pages from PFN 0x10000: block 0 mixed, block 1 movable, block 2 one pin */
static const char text[] =
	ENTRY("0x10000", "Unmovable", "init")
	ENTRY("0x10005", "Movable", "fio")
	ENTRY("0x101ff", "Reclaimable", "kswapd0")
	"not an entry\n\n"
	ENTRY("0x10200", "Movable", "fio")
	ENTRY("0x10400", "Unmovable", "kworker");

static char dir[] = "/tmp/test_pown.XXXXXX";

static int put_tree(const char *body, bool fifo)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "mkdir -p %s/sys/kernel/debug", dir);
	if (system(path))
		return -1;
	snprintf(path, sizeof(path), "%s/" FT_POWN_PATH, dir);
	unlink(path);
	if (fifo)
		return mkfifo(path, 0600);
	if (!body)
		return 0;
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(body, f);
	return fclose(f);
}

static void test_captured(void **state)
{
	struct ft_pown p;
	struct ft_pown_look k = { 0 };
	struct ft_po_tally t;
	struct ft_po_group g[4];
	int root;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(put_tree(text, false), 0);
	root = ft_root_open(dir);
	assert_true(root >= 0);
	assert_int_equal(ft_pown_open(&p, root), 0);
	assert_true(p.whole);
	assert_int_equal(p.nr_idx, 5);
	/* block 0: two pins kept as text, the movable page counted */
	assert_int_equal(ft_pown_block(&p, 0x10000, 512, &k), 0);
	assert_int_equal(k.entries, 3);
	assert_int_equal(k.other_pages, 1);
	assert_int_equal(k.cut, 0);
	assert_int_equal(ft_po_group(k.text, k.len, g, 4, &t), 1);
	assert_int_equal(t.pins, 2);
	assert_int_equal(t.entries, 2);
	assert_non_null(memmem(k.text, k.len, "(kswapd0)", 9));
	assert_null(memmem(k.text, k.len, "(fio)", 5));
	/* block 1: nothing pins it */
	assert_int_equal(ft_pown_block(&p, 0x10200, 512, &k), 0);
	assert_int_equal(k.entries, 1);
	assert_int_equal(k.len, 0);
	/* block 2, and past the end */
	assert_int_equal(ft_pown_block(&p, 0x10400, 512, &k), 0);
	assert_int_equal(k.entries, 1);
	assert_true(k.len > 0);
	assert_int_equal(ft_pown_block(&p, 0x20000, 512, &k), 0);
	assert_int_equal(k.entries, 0);
	assert_int_equal(ft_pown_block(&p, UINT64_MAX - 1, 512, &k), -EOVERFLOW);
	ft_pown_close(&p);
	free(k.text);
	close(root);
}

static void test_absent_and_hostile(void **state)
{
	struct ft_pown p;
	struct ft_pown_look k = { 0 };
	int root = ft_root_open(dir);

	(void)state;
	assert_true(root >= 0);
	assert_int_equal(put_tree(NULL, false), 0);	/* no file */
	assert_int_equal(ft_pown_open(&p, root), -ENOENT);
	assert_non_null(strstr(ft_pown_strerror(-ENOENT), "page_owner=on"));
	assert_int_equal(ft_pown_block(&p, 0, 512, &k), -ENOENT);
	ft_pown_close(&p);
	assert_int_equal(put_tree(NULL, true), 0);	/* a FIFO: refused at once, no hang */
	assert_true(ft_pown_open(&p, root) < 0);
	ft_pown_close(&p);
	assert_int_equal(put_tree("garbage\n\x1b[2J\n\n", false), 0);	/* no entry at all */
	assert_int_equal(ft_pown_open(&p, root), 0);
	assert_int_equal(p.nr_idx, 0);
	assert_int_equal(ft_pown_block(&p, 0, 512, &k), 0);
	assert_int_equal(k.entries, 0);
	ft_pown_close(&p);
	close(root);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captured),
		cmocka_unit_test(test_absent_and_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
