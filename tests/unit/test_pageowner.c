// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page_owner parser (kernel/pageowner.c).  The entries below are laid
 * out by the format strings of print_page_owner() in Debian's
 * linux-source-6.12 (6.12.118: "PFN 0x%lx ...") and linux-source-6.1
 * (6.1.192: "PFN %lu ...", ", free_ts %llu ns"), with stacks as
 * stack_depot_snprint() prints them (" %pS" a line).  test_captured_612
 * and test_captured_61 read text captured from the lab's 6.12 and 6.1
 * kernels.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/pageowner.h"
#include "tests/helpers.h"

static const char text_612[] =
	"Page allocated via order 0, mask "
	"0x152c40(GFP_NOFS|__GFP_NOWARN|__GFP_NORETRY|__GFP_HARDWALL|__GFP_MOVABLE), pid 412, tgid "
	"412 (fio), ts 83216000123 ns\nPFN 0x100a3 type Movable Block 128 type Movable Flags "
	"0x17ffffc0000000(node=0|zone=2|lastcpupid=0x1fffff)\n post_alloc_hook+0x1a1/0x1d0\n"
	" get_page_from_freelist+0x3a1/0x10d0\n"
	" __alloc_pages_noprof+0x1c6/0x340\n"
	" alloc_pages_mpol_noprof+0x8f/0x1c0\n"
	" folio_alloc_noprof+0x5b/0xc0\n"
	" page_cache_ra_unbounded+0x11b/0x1f0\n"
	" filemap_get_pages+0x128/0x6d0\n"
	" filemap_read+0xec/0x360\n"
	" vfs_read+0x1d5/0x310\n"
	" ksys_read+0x6b/0xf0\n"
	" do_syscall_64+0x82/0x190\n"
	" entry_SYSCALL_64_after_hwframe+0x76/0x7e\n"
	"Charged to memcg fio.scope\n"
	"\n"
	"Page allocated via order 2, mask "
	"0x52dc0(GFP_KERNEL|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP|__GFP_ZERO), pid 88, tgid 88 "
	"(kworker/u8:3), ts 83216000999 ns\nPFN 0x100b0 type Unmovable Block 128 type Movable "
	"Flags 0x17ffffc0000040(head|node=0|zone=2)\n post_alloc_hook+0x1a1/0x1d0\n"
	" get_page_from_freelist+0x3a1/0x10d0\n"
	" __alloc_pages_noprof+0x1c6/0x340\n"
	" allocate_slab+0x7a/0x2f0\n"
	"Page has been migrated, last migrate reason: compaction\n"
	"Slab cache page\n"
	"\n";

static const char text_61[] =
	"Page allocated via order 0, mask 0x100cca(GFP_HIGHUSER_MOVABLE), pid 77, tgid 77 (bash), "
	"ts 4216000123 ns, free_ts 4100000000 ns\n"
	"PFN 65699 type Movable Block 128 type Movable Flags "
	"0xfffffc0080014(uptodate|lru|swapbacked|node=0|zone=1)\n "
	"get_page_from_freelist+0x3a1/0x10d0\n __alloc_pages+0x1c6/0x340\n"
	"\n";

static void test_612(void **state)
{
	struct ft_po_entry e;
	size_t off = 0;

	(void)state;
	assert_int_equal(ft_po_next(text_612, sizeof(text_612) - 1, &off, &e), 1);
	assert_int_equal(e.order, 0);
	assert_int_equal(e.gfp, 0x152c40);
	assert_string_equal(e.gfp_names,
			    "GFP_NOFS|__GFP_NOWARN|__GFP_NORETRY|__GFP_HARDWALL|__GFP_MOVABLE");
	assert_int_equal(e.pid, 412);
	assert_int_equal(e.tgid, 412);
	assert_string_equal(e.comm, "fio");
	assert_int_equal(e.ts_ns, 83216000123ull);
	assert_int_equal(e.pfn, 0x100a3);
	assert_int_equal(e.block, 128);
	assert_string_equal(e.page_mt, "Movable");
	assert_string_equal(e.block_mt, "Movable");
	assert_false(ft_po_pins(&e));
	assert_false(e.migrated);
	assert_int_equal(e.all_frames, 12);
	assert_int_equal(e.nr_frames, FT_PO_FRAMES);
	assert_string_equal(e.frames[0], "post_alloc_hook+0x1a1/0x1d0");
	assert_string_equal(e.frames[7], "filemap_read+0xec/0x360");
	/* the second: an unmovable slab page in a Movable block */
	assert_int_equal(ft_po_next(text_612, sizeof(text_612) - 1, &off, &e), 1);
	assert_int_equal(e.order, 2);
	assert_string_equal(e.comm, "kworker/u8:3");
	assert_int_equal(e.pfn, 0x100b0);
	assert_string_equal(e.page_mt, "Unmovable");
	assert_string_equal(e.block_mt, "Movable");
	assert_true(ft_po_pins(&e));
	assert_true(e.migrated);
	assert_int_equal(e.all_frames, 4);
	assert_string_equal(e.frames[3], "allocate_slab+0x7a/0x2f0");
	assert_int_equal(ft_po_next(text_612, sizeof(text_612) - 1, &off, &e), 0);
	assert_int_equal(off, sizeof(text_612) - 1);
}

static void test_61(void **state)
{
	struct ft_po_entry e;
	size_t off = 0;

	(void)state;
	assert_int_equal(ft_po_next(text_61, sizeof(text_61) - 1, &off, &e), 1);
	assert_int_equal(e.pfn, 65699);		/* decimal on 6.1 */
	assert_int_equal(e.block, 128);
	assert_string_equal(e.comm, "bash");
	assert_int_equal(e.ts_ns, 4216000123ull);
	assert_string_equal(e.gfp_names, "GFP_HIGHUSER_MOVABLE");
	assert_int_equal(e.nr_frames, 2);
	assert_int_equal(ft_po_next(text_61, sizeof(text_61) - 1, &off, &e), 0);
}

/* Equal stacks have equal ids, different ones different ids. */
static void test_stack_id(void **state)
{
	struct ft_po_entry a, b, c;
	size_t off = 0, o2 = 0;

	(void)state;
	assert_int_equal(ft_po_next(text_612, sizeof(text_612) - 1, &off, &a), 1);
	assert_int_equal(ft_po_next(text_612, sizeof(text_612) - 1, &off, &b), 1);
	assert_int_equal(ft_po_next(text_612, sizeof(text_612) - 1, &o2, &c), 1);
	assert_true(a.stack_id == c.stack_id);
	assert_true(a.stack_id != b.stack_id);
}

static int parse_all(const char *t, int *bad)
{
	struct ft_po_entry e;
	size_t off = 0, len = strlen(t);
	int n = 0, r;

	*bad = 0;
	while ((r = ft_po_next(t, len, &off, &e)) != 0) {
		assert_true(off <= len);
		if (r < 0)
			(*bad)++;
		else
			n++;
	}
	return n;
}

/*
 * What a hostile recording or a cut read can hold: each bad entry is skipped, the good ones kept.
 */
static void test_hostile(void **state)
{
	struct ft_po_entry e;
	size_t off = 0;
	int bad;
	/* a command that holds "), ts " itself: it ends at the last one */
	static const char comm[] =
		"Page allocated via order 0, mask 0x0(), pid 1, tgid 1 (a), ts 9 ns), ts 5 ns\n"
		"PFN 0x10 type Unmovable Block 0 type Movable Flags 0x0()\n"
		"\n";

	(void)state;
	assert_int_equal(ft_po_next(comm, sizeof(comm) - 1, &off, &e), 1);
	assert_string_equal(e.comm, "a), ts 9 ns");
	assert_int_equal(e.ts_ns, 5);
	/* garbage, an entry without its PFN line, a good one, a PFN past 64 bits, a cut one */
	assert_int_equal(parse_all("junk line\nmore\n\n"
				   "Page allocated via order 0, mask 0x0(), pid 1, tgid 1 (x), ts "
				   "1 ns\n\nPage allocated via order 3, mask 0xcc0(GFP_KERNEL), "
				   "pid 2, tgid 2 (y), ts 2 ns\nPFN 0x20 type Unmovable Block 0 "
				   "type Unmovable Flags 0x0()\n f+0x1/0x2\n\nPage allocated via "
				   "order 0, mask 0x0(), pid 1, tgid 1 (z), ts 1 ns\nPFN "
				   "0x1ffffffffffffffff type Movable Block 0 type Movable Flags "
				   "0\n\nPage allocated via order 99, mask 0x0(), pid 1, tgid 1 "
				   "(z), ts 1 ns\nPFN 0x20 type Movable Block 0 type Movable Flags "
				   "0\n\nPage allocated via order 0, mask 0x0(), pid 1, tgid 1 "
				   "(c), ts 1 ns\nPFN 0x20 type Movable Block 0 type Movable Flags "
				   "0\n f+0x1/0x2\n", &bad), 1);
	assert_int_equal(bad, 5);
	/* a block number past its PFN is no entry; a long frame and a long gfp text are cut */
	assert_int_equal(parse_all("Page allocated via order 0, mask 0x0(), pid 1, tgid 1 (c), ts "
				   "1 ns\nPFN 0x20 type Movable Block 33 type Movable Flags 0\n\n",
				   &bad), 0);
	{
		char t[1024];
		size_t o = 0;

		snprintf(t, sizeof(t), "Page allocated via order 0, mask 0x0(%0200d), pid -1, tgid "
				       "1 (%s), ts 1 ns\n"
			 "PFN 0x20 type %s Block 0 type Movable Flags 0\n %0300d\n\n", 0,
			 "a command far longer than fifteen", "AVeryLongMigratetypeName", 0);
		assert_int_equal(ft_po_next(t, strlen(t), &o, &e), 1);
		assert_int_equal(strlen(e.gfp_names), sizeof(e.gfp_names) - 1);
		assert_int_equal(strlen(e.comm), sizeof(e.comm) - 1);
		assert_int_equal(strlen(e.page_mt), sizeof(e.page_mt) - 1);
		assert_int_equal(strlen(e.frames[0]), FT_PO_FRAME_LEN - 1);
		assert_int_equal(e.pid, -1);
	}
}

/*
 * Every entry of the page_owner text captured from lab kernel @kernel
 * parses, PFNs ascend, blocks are PFN >> 9, each names its task and keeps
 * frames, and there are as many as heads in the text (at least 10); @each
 * sees each entry.  Returns the last PFN.
 */
static uint64_t walk_captured(const char *kernel, void (*each)(const struct ft_po_entry *, void *),
			      void *ctx)
{
	size_t len, off = 0;
	char *text = fixture_read(kernel, "sys/kernel/debug/page_owner", &len);
	struct ft_po_entry e;
	uint64_t prev = 0;
	int n = 0, heads = 0, r;
	const char *p;

	assert_non_null(text);
	for (p = text; (p = strstr(p, "Page allocated via")); p++)
		heads++;
	while ((r = ft_po_next(text, len, &off, &e)) != 0) {
		assert_int_equal(r, 1);
		assert_true(!n || e.pfn > prev);
		assert_int_equal(e.block, e.pfn >> 9);
		assert_true(e.comm[0] != '\0');
		assert_true(e.nr_frames >= 1 && e.nr_frames <= e.all_frames);
		each(&e, ctx);
		prev = e.pfn;
		n++;
	}
	assert_int_equal(n, heads);
	assert_true(n >= 10);
	free(text);
	return prev;
}

static void each_612(const struct ft_po_entry *e, void *ctx)
{
	assert_true(e->page_mt[0] && e->block_mt[0]);
	*(int *)ctx += e->gfp_names[0] != '\0';
}

/*
 * Captured text: /sys/kernel/debug/page_owner of the 6.12 lab kernel
 * (lab/fragment-stall-6.12.patch, CONFIG_PAGE_OWNER, booted with
 * page_owner=on by `lab/run.sh --page-owner`), entries picked from it in
 * file order.  Every entry parses; PFNs ascend (the file is in PFN order);
 * each names its block (PFN >> 9), its task and at least one frame.
 */
static void test_captured_612(void **state)
{
	int named = 0;

	(void)state;
	walk_captured("6.12-lab", each_612, &named);
	assert_true(named > 0);	/* a mask the kernel names (0x0 prints "()") */
}

/*
 * Text captured from the 6.1 lab kernel (lab/fragment-stall.patch,
 * CONFIG_PAGE_OWNER, page_owner=on, `lab/run.sh --page-owner`): decimal
 * PFNs and free_ts.  Every entry parses, PFNs ascend, blocks are PFN >> 9,
 * the movable page cache pages of fraggen name their task and stack.
 */
static void each_61(const struct ft_po_entry *e, void *ctx)
{
	if (strcmp(e->comm, "fraggen"))
		return;
	assert_string_equal(e->page_mt, "Movable");
	assert_false(ft_po_pins(e));
	assert_non_null(strstr(e->gfp_names, "__GFP_MOVABLE"));
	(*(int *)ctx)++;
}

static void test_captured_61(void **state)
{
	int fraggen = 0;

	(void)state;
	/* "PFN 547", decimal */
	assert_int_equal(walk_captured("6.1-lab", each_61, &fraggen), 547);
	assert_true(fraggen >= 1);
}

/*
 * Grouping by stack: text_612 twice over holds two pinning entries of one
 * stack (the kworker's order-2 slab page) beside two movable ones; a
 * second stack kept past @max goes to "other".
 */
static void test_group(void **state)
{
	char buf[sizeof(text_612) * 2 + sizeof(text_61)];
	struct ft_po_group g[2];
	struct ft_po_tally t;
	size_t n;

	(void)state;
	snprintf(buf, sizeof(buf), "%s%s", text_612, text_612);
	n = ft_po_group(buf, strlen(buf), g, 2, &t);
	assert_int_equal(n, 1);
	assert_int_equal(t.entries, 4);
	assert_int_equal(t.pins, 2);
	assert_int_equal(t.pin_pages, 8);
	assert_int_equal(t.bad, 0);
	assert_int_equal(g[0].count, 2);
	assert_int_equal(g[0].pages, 8);
	assert_string_equal(g[0].first.comm, "kworker/u8:3");
	assert_string_equal(g[0].first.frames[3], "allocate_slab+0x7a/0x2f0");
	/* a stack of one page and one of four, max 1: the four-page one is kept only if first */
	{
		const char two[] =
			"Page allocated via order 0, mask 0xcc0(GFP_KERNEL), pid 1, tgid 1 (init), "
			"ts 5 ns\nPFN 0x10200 type Reclaimable Block 129 type Movable Flags 0x0()\n"
			" kmem_cache_alloc+0x1/0x2\n"
			"\n";

		snprintf(buf, sizeof(buf), "%s%s", two, text_612);
		n = ft_po_group(buf, strlen(buf), g, 2, &t);
		assert_int_equal(n, 2);
		assert_int_equal(g[0].pages, 4);	/* the most pages first */
		assert_int_equal(g[1].pages, 1);
		assert_string_equal(g[1].first.page_mt, "Reclaimable");
		n = ft_po_group(buf, strlen(buf), g, 1, &t);
		assert_int_equal(n, 1);
		assert_int_equal(g[0].pages, 1);	/* the first stack seen */
		assert_int_equal(t.other, 1);
		assert_int_equal(t.other_pages, 4);
		assert_int_equal(t.pin_pages, 5);
	}
	/* garbage between entries is counted, not grouped */
	snprintf(buf, sizeof(buf), "junk\n\n%s", text_612);
	n = ft_po_group(buf, strlen(buf), g, 2, &t);
	assert_int_equal(n, 1);
	assert_int_equal(t.bad, 1);
	assert_int_equal(ft_po_group("", 0, g, 2, NULL), 0);
}

/* show_stacks (6.9+): frames, "nr_base_pages: N", a blank line. */
static void test_show_stacks(void **state)
{
	const char text[] =
		" prep_new_page+0x17/0x4a\n"
		" alloc_slab_page+0x19/0x85\n"
		"nr_base_pages: 2\n"
		"\n"
		" prep_new_page+0x17/0x4a\n"
		"nr_base_pages: x\n"		/* not a count */
		"\n"
		" seq_open+0x1f/0x5a\n"
		"\n"				/* no count */
		"nr_base_pages: 3\n"		/* no frames */
		"\n"
		" pcpu_alloc+0x1/0x2\n"
		"nr_base_pages: 18446744073709551615\n"
		"\n"
		" cut+0x1/0x2\n"
		"nr_base_pages: 7\n";		/* no blank line: cut */
	struct ft_po_entry e, again;
	uint64_t pages;
	size_t off = 0, off2 = 0;

	(void)state;
	assert_int_equal(ft_po_stack_next(text, strlen(text), &off, &e, &pages), 1);
	assert_int_equal(pages, 2);
	assert_int_equal(e.nr_frames, 2);
	assert_string_equal(e.frames[1], "alloc_slab_page+0x19/0x85");
	/* the same frames as a page_owner entry: the same stack id */
	{
		const char entry[] =
			"Page allocated via order 0, mask 0xcc0(GFP_KERNEL), pid 1, tgid 1 (init), "
			"ts 5 ns\nPFN 0x10200 type Unmovable Block 129 type Movable Flags 0x0()\n"
			" prep_new_page+0x17/0x4a\n"
			" alloc_slab_page+0x19/0x85\n"
			"\n";

		assert_int_equal(ft_po_next(entry, strlen(entry), &off2, &again), 1);
		assert_true(again.stack_id == e.stack_id);
	}
	assert_int_equal(ft_po_stack_next(text, strlen(text), &off, &e, &pages), -EINVAL);
	assert_int_equal(ft_po_stack_next(text, strlen(text), &off, &e, &pages), -EINVAL);
	assert_int_equal(ft_po_stack_next(text, strlen(text), &off, &e, &pages), -EINVAL);
	assert_int_equal(ft_po_stack_next(text, strlen(text), &off, &e, &pages), 1);
	assert_true(pages == UINT64_MAX);
	assert_string_equal(e.frames[0], "pcpu_alloc+0x1/0x2");
	assert_int_equal(ft_po_stack_next(text, strlen(text), &off, &e, &pages), -EINVAL);
	assert_int_equal(ft_po_stack_next(text, strlen(text), &off, &e, &pages), 0);
	assert_int_equal(off, strlen(text));
}

/* The stacks that own the most pages, most first; totals over all of them. */
static void test_stacks_top(void **state)
{
	const char text[] =
		" a+0x1/0x2\nnr_base_pages: 5\n\n"
		" b+0x1/0x2\nnr_base_pages: 50\n\n"
		"junk\n\n"
		" c+0x1/0x2\nnr_base_pages: 7\n\n"
		" d+0x1/0x2\nnr_base_pages: 1\n\n";
	struct ft_po_stack top[2];
	uint64_t total;
	size_t nr, bad, n;

	(void)state;
	n = ft_po_stacks_top(text, strlen(text), top, 2, &total, &nr, &bad);
	assert_int_equal(n, 2);
	assert_int_equal(nr, 4);
	assert_int_equal(bad, 1);
	assert_int_equal(total, 63);
	assert_int_equal(top[0].pages, 50);
	assert_string_equal(top[0].e.frames[0], "b+0x1/0x2");
	assert_int_equal(top[1].pages, 7);
	assert_int_equal(ft_po_stacks_top("", 0, top, 2, &total, &nr, &bad), 0);
	assert_int_equal(total, 0);
}

/* Pages that add up past 2^64: the total is marked saturated, and no share is given of it. */
static void test_stacks_saturated(void **state)
{
	const char text[] =
		" a+0x1/0x2\nnr_base_pages: 18446744073709551615\n\n"
		" b+0x1/0x2\nnr_base_pages: 2\n\n";
	struct ft_po_stack top[2];
	uint64_t total;
	size_t nr, bad;
	double p = -1;

	(void)state;
	assert_int_equal(ft_po_stacks_top(text, strlen(text), top, 2, &total, &nr, &bad), 2);
	assert_true(total == FT_PO_PAGES_SATURATED);
	assert_false(ft_po_share(top[0].pages, total, &p));
	assert_false(ft_po_share(1, 0, &p));
	assert_true(p == -1);
	assert_true(ft_po_share(1, 4, &p));
	assert_true(p == 25.0);
}

/* show_stacks captured from the 6.12 lab kernel: every stack parses, with frames and pages. */
static void test_captured_stacks_612(void **state)
{
	size_t len, off = 0;
	char *text = fixture_read("6.12-lab", "sys/kernel/debug/page_owner_stacks/show_stacks",
				  &len);
	struct ft_po_entry e;
	uint64_t pages, total = 0;
	int n = 0, r;
	const char *p;
	int counts = 0;

	(void)state;
	assert_non_null(text);
	for (p = text; (p = strstr(p, "nr_base_pages:")); p++)
		counts++;
	while ((r = ft_po_stack_next(text, len, &off, &e, &pages)) != 0) {
		assert_int_equal(r, 1);
		assert_true(e.nr_frames >= 1);
		assert_true(pages >= 1);
		total += pages;
		n++;
	}
	assert_int_equal(n, counts);
	assert_true(total >= (uint64_t)n);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_612),
		cmocka_unit_test(test_61),
		cmocka_unit_test(test_stack_id),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_captured_612),
		cmocka_unit_test(test_captured_61),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_show_stacks),
		cmocka_unit_test(test_captured_stacks_612),
		cmocka_unit_test(test_stacks_top),
		cmocka_unit_test(test_stacks_saturated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
