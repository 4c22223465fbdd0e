// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel symbol names (kernel/ksyms.c) and fallbacks grouped by stack
 * (model/stacks.c).  The kallsyms lines are this 6.18 host's
 * (/proc/kallsyms as root), with a module's symbol in the form the kernel
 * prints it ("\t[module]").
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/ksyms.h"
#include "model/stacks.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff815a89c0 T __filemap_get_folio\n"
	"ffffffff81648f50 t allocate_slab\n"
	"ffffffff8163b950 T __alloc_frozen_pages_noprof\n"	/* out of order: sorted on parse */
	"ffffffff81638cc0 t get_page_from_freelist\n"
	"ffffffff82a00000 D init_task\n"			/* data: not a frame */
	"ffffffffc0a01000 t ext4_da_write_begin\t[ext4]\n"
	"not a line at all\n"
	"ffffffffc0a02000 W weak_one";				/* no newline at the end */

static void test_kallsyms(void **state)
{
	struct ft_kallsyms k;
	char b[FT_SYMNAME_LEN];

	(void)state;
	assert_int_equal(ft_kallsyms_parse(kallsyms, strlen(kallsyms), &k), 0);
	assert_int_equal(k.nr, 7);
	assert_int_equal(k.skipped, 2);
	/* a return address inside a function: the last symbol at or before it */
	assert_int_equal(ft_kallsyms_name(&k, 0xffffffff81638cc0ull + 0x3a1, b, sizeof(b)),
			 strlen("get_page_from_freelist+0x3a1"));
	assert_string_equal(b, "get_page_from_freelist+0x3a1");
	ft_kallsyms_name(&k, 0xffffffff8163b950ull, b, sizeof(b));
	assert_string_equal(b, "__alloc_frozen_pages_noprof+0x0");
	ft_kallsyms_name(&k, 0xffffffffc0a01010ull, b, sizeof(b));
	assert_string_equal(b, "ext4_da_write_begin+0x10 [ext4]");
	ft_kallsyms_name(&k, 0xffffffffc0a02001ull, b, sizeof(b));
	assert_string_equal(b, "weak_one+0x1");
	/* below the first symbol: no name */
	assert_int_equal(ft_kallsyms_name(&k, 0xffffffff80000000ull, b, sizeof(b)), 0);
	assert_string_equal(b, "");
	/* a buffer too small is cut, never overrun */
	assert_int_equal(ft_kallsyms_name(&k, 0xffffffff815a89c1ull, b, 8), 7);
	assert_string_equal(b, "__filem");
	ft_kallsyms_release(&k);
}

static void test_kallsyms_hidden(void **state)
{
	static const char hidden[] =
		"0000000000000000 T _stext\n0000000000000000 t get_page_from_freelist\n";
	struct ft_kallsyms k;

	(void)state;
	/* kernel.kptr_restrict: every address 0, nothing to name with */
	assert_int_equal(ft_kallsyms_parse(hidden, strlen(hidden), &k), -ENOENT);
	assert_true(k.hidden);
	ft_kallsyms_release(&k);
	assert_int_equal(ft_kallsyms_parse("", 0, &k), -ENOENT);
	assert_false(k.hidden);
	/* an address of 17 digits is no address */
	assert_int_equal(ft_kallsyms_parse("1ffffffff81000000 T x\n", 22, &k), -ENOENT);
	ft_kallsyms_release(&k);
}

static void test_symnames(void **state)
{
	struct ft_symnames t = { 0 };
	char longname[200];

	(void)state;
	assert_int_equal(ft_symnames_add(&t, 300, "c+0x1", 5), 0);
	assert_int_equal(ft_symnames_add(&t, 100, "a+0x1", 5), 0);
	assert_int_equal(ft_symnames_add(&t, 200, "b+0x1 [ext4]", 12), 0);
	assert_int_equal(t.nr, 3);
	assert_string_equal(ft_symnames_get(&t, 100), "a+0x1");
	assert_string_equal(ft_symnames_get(&t, 200), "b+0x1 [ext4]");
	assert_null(ft_symnames_get(&t, 150));
	/* a second name replaces the first */
	assert_int_equal(ft_symnames_add(&t, 100, "a2+0x2", 6), 0);
	assert_string_equal(ft_symnames_get(&t, 100), "a2+0x2");
	assert_int_equal(t.nr, 3);
	/* untrusted text: an escape, a newline, a NUL, nothing at all */
	assert_int_equal(ft_symnames_add(&t, 400, "\x1b]0;x\x07", 6), -EINVAL);
	assert_int_equal(ft_symnames_add(&t, 400, "a\nb", 3), -EINVAL);
	assert_int_equal(ft_symnames_add(&t, 400, "a\0b", 3), -EINVAL);
	assert_int_equal(ft_symnames_add(&t, 400, "", 0), -EINVAL);
	assert_int_equal(t.refused, 4);
	assert_null(ft_symnames_get(&t, 400));
	/* a long name is cut to FT_SYMNAME_LEN - 1 */
	memset(longname, 'x', sizeof(longname));
	assert_int_equal(ft_symnames_add(&t, 500, longname, sizeof(longname)), 0);
	assert_int_equal(strlen(ft_symnames_get(&t, 500)), FT_SYMNAME_LEN - 1);
	/* the table is bounded */
	for (uint64_t a = 1000; t.nr < FT_SYMNAMES_MAX; a++)
		assert_int_equal(ft_symnames_add(&t, a, "f", 1), 0);
	assert_int_equal(ft_symnames_add(&t, 1, "f", 1), -ENOSPC);
	ft_symnames_release(&t);
}

static void test_functions(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(ft_sym_function("allocate_slab+0x1a/0x40 [mod]", b, sizeof(b)),
			    "allocate_slab");
	assert_string_equal(ft_sym_function("x", b, sizeof(b)), "x");
	assert_true(ft_sym_is_allocator("get_page_from_freelist"));
	assert_true(ft_sym_is_allocator("__alloc_pages_slowpath.constprop.0"));
	assert_true(ft_sym_is_allocator("trace_event_raw_event_mm_page_alloc_extfrag"));
	assert_true(ft_sym_is_allocator("__traceiter_mm_page_alloc_extfrag"));
	assert_true(ft_sym_is_allocator("vma_alloc_folio_noprof"));
	assert_false(ft_sym_is_allocator("allocate_slab"));
	assert_false(ft_sym_is_allocator("do_anonymous_page"));
	assert_false(ft_sym_is_allocator("__filemap_get_folio"));
}

/* Addresses 1..9 named: 1, 2 tracing; 3 the allocator; 4.. callers. */
static void names(struct ft_symnames *t)
{
	static const char *const n[] = {
		NULL, "trace_event_raw_event_mm_page_alloc_extfrag+0x10",
		"__traceiter_mm_page_alloc_extfrag+0x4",
		"get_page_from_freelist+0x3a1", "allocate_slab+0x1", "___slab_alloc+0x2",
		"kmem_cache_alloc_noprof+0x3", "do_anonymous_page+0x4", "handle_mm_fault+0x5",
		"__filemap_get_folio+0x6",
	};

	for (uint64_t a = 1; a < sizeof(n) / sizeof(n[0]); a++)
		assert_int_equal(ft_symnames_add(t, a, n[a], strlen(n[a])), 0);
	/* another offset in the same function: another address, the same key */
	assert_int_equal(ft_symnames_add(t, 14, "allocate_slab+0x99", 18), 0);
}

static void row(struct ft_events *ev, const uint64_t *ip, int n, uint64_t frag)
{
	struct ft_trace_stack st = { .n = n, .all = n };
	uint32_t id;

	memcpy(st.ip, ip, (size_t)n * 8);
	id = ft_events_stack(ev, &st);
	assert_true(id >= 1 && id <= FT_EV_STACKS);
	ev->stacks[id - 1].fb.fragmenting += frag;
	ev->stacks[id - 1].fb.total += frag;
	ev->extfrag.fragmenting += frag;
	ev->extfrag.total += frag;
}

static void test_groups(void **state)
{
	struct ft_events *ev = calloc(1, sizeof(*ev));
	struct ft_symnames t = { 0 };
	struct ft_stack_group g[8];
	struct ft_stack_base *from = malloc(sizeof(*from));
	uint64_t other, unstacked, sum;
	static const uint64_t slab[] = { 1, 2, 3, 4, 5, 6 }, slab2[] = { 1, 2, 3, 14, 5, 6 },
			      fault[] = { 1, 2, 3, 7, 8 }, cache[] = { 1, 2, 3, 9, 99 };
	char head[128];
	size_t n, i;

	(void)state;
	names(&t);
	ft_events_init(ev, 9);
	row(ev, slab, 6, 5);
	row(ev, slab2, 6, 3);		/* another row, the same functions: one group */
	row(ev, fault, 5, 10);
	row(ev, cache, 5, 2);		/* 99 has no name: hex */
	ev->extfrag.fragmenting += 4;	/* four without a stack */
	n = ft_stack_groups(ev, NULL, NULL, &t, g, 8, &other, &unstacked);
	assert_int_equal(n, 3);
	assert_string_equal(g[0].key, "do_anonymous_page < handle_mm_fault");
	assert_int_equal(g[0].fragmenting, 10);
	assert_string_equal(g[1].key, "allocate_slab < ___slab_alloc < kmem_cache_alloc_noprof");
	assert_int_equal(g[1].fragmenting, 8);
	assert_int_equal(g[1].rows, 2);
	assert_int_equal(g[1].frames, 3);
	assert_string_equal(g[2].key, "__filemap_get_folio < 0x63");
	assert_int_equal(unstacked, 4);
	assert_int_equal(other, 0);
	for (sum = unstacked + other, i = 0; i < n; i++)
		sum += g[i].fragmenting;
	assert_int_equal(sum, ev->extfrag.fragmenting);
	assert_string_equal(ft_stack_head(&g[1], 2, head, sizeof(head)),
			    "allocate_slab < ___slab_alloc");
	assert_string_equal(ft_stack_head(&g[1], 9, head, sizeof(head)), g[1].key);
	/* a window: only what came after its start */
	ft_stack_base_take(from, ev);
	row(ev, cache, 5, 7);
	ev->stack_other.fragmenting += 1;	/* a stack past the table */
	ev->extfrag.fragmenting += 1;
	n = ft_stack_groups(ev, from, NULL, &t, g, 8, &other, &unstacked);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].fragmenting, 7);
	assert_int_equal(other, 1);
	assert_int_equal(unstacked, 0);
	/* at most @max written, all counted */
	n = ft_stack_groups(ev, NULL, NULL, &t, g, 1, &other, &unstacked);
	assert_int_equal(n, 3);
	assert_int_equal(g[0].fragmenting, 10);
	ft_symnames_release(&t);
	free(from);
	free(ev);
}

/* Every frame the allocator's (a stack cut short), or no frame named at all. */
static void test_groups_odd(void **state)
{
	struct ft_events *ev = calloc(1, sizeof(*ev));
	struct ft_symnames t = { 0 };
	struct ft_stack_group g[4];
	static const uint64_t only[] = { 1, 2, 3 }, deep[] = { 3, 4, 5, 6, 7, 8, 9, 4, 5, 6, 7, 8 };
	uint64_t other, unstacked;

	(void)state;
	names(&t);
	ft_events_init(ev, 9);
	row(ev, only, 3, 1);
	row(ev, deep, 12, 1);
	assert_int_equal(ft_stack_groups(ev, NULL, NULL, &t, g, 4, &other, &unstacked), 2);
	assert_string_equal(g[0].key, "(allocator only)");
	/* a group is its site and FT_STACK_GROUP_FRAMES - 1 callers */
	assert_int_equal(g[1].frames, FT_STACK_GROUP_FRAMES);
	ft_symnames_release(&t);
	free(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kallsyms_hidden),
		cmocka_unit_test(test_symnames),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_groups_odd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
