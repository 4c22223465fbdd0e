// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sub-buffer walk (kernel/ringbuf.c) on pages built word by word: data
 * events short and long, time extends, an absolute time stamp, padding,
 * the missed-events flags, and lengths that run past the page, which end
 * the walk as bad and never read past it.  (Every page of every kept
 * recording was checked against libtraceevent's kbuffer when the walk was
 * written: the same events, times and sizes.)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/ringbuf.h"

struct page {
	unsigned char b[4096];
	uint32_t at;			/* data bytes written */
};

static void word(struct page *p, uint32_t v)
{
	memcpy(p->b + FT_RB_HEADER + p->at, &v, 4);
	p->at += 4;
}

static void head(struct page *p, uint64_t ts, uint64_t flags)
{
	uint64_t commit = p->at | flags;

	memcpy(p->b, &ts, 8);
	memcpy(p->b + 8, &commit, 8);
}

static void test_walk(void **state)
{
	struct page *p = calloc(1, sizeof(*p));
	struct ft_rb_page pg;
	const unsigned char *e;
	uint32_t size;
	uint64_t ts;

	(void)state;
	word(p, 2 | (10u << 5));		/* data, 2 words, +10 */
	word(p, 0xaaaa);
	word(p, 0xbbbb);
	word(p, 30 | (3u << 5));		/* time extend: +3 + (1 << 27) */
	word(p, 1);
	word(p, 0 | (5u << 5));			/* long data: 12 bytes of payload, +5 */
	word(p, 12 + 4);
	word(p, 1); word(p, 2); word(p, 3);
	word(p, 29 | (7u << 5));		/* padding (a discarded event): 16 bytes, +7 */
	/* its length after the header, this word included */
	word(p, 12);
	word(p, 0); word(p, 0);
	word(p, 1 | (1u << 5));			/* data, 1 word, +1 */
	word(p, 0xcccc);
	head(p, 1000, 0);
	assert_int_equal(ft_rb_load(&pg, p->b, sizeof(p->b)), 0);
	assert_int_equal(pg.lost, 0);
	e = ft_rb_next(&pg, &size, &ts);
	assert_non_null(e);
	assert_int_equal(size, 8);
	assert_int_equal(ts, 1010);
	assert_int_equal(e[0], 0xaa);
	e = ft_rb_next(&pg, &size, &ts);
	assert_non_null(e);
	assert_int_equal(size, 12);
	assert_int_equal(ts, 1010 + 3 + (1ull << 27) + 5);
	assert_int_equal(e[0], 1);
	e = ft_rb_next(&pg, &size, &ts);
	assert_non_null(e);
	assert_int_equal(size, 4);
	assert_int_equal(ts, 1010 + 3 + (1ull << 27) + 5 + 7 + 1);
	assert_int_equal(e[0], 0xcc);
	assert_null(ft_rb_next(&pg, &size, &ts));
	assert_false(pg.bad);
	assert_null(ft_rb_next(&pg, &size, &ts));	/* and stays at the end */
	free(p);
}

static void test_time_stamp(void **state)
{
	struct page *p = calloc(1, sizeof(*p));
	struct ft_rb_page pg;
	uint32_t size;
	uint64_t ts, page_ts = (3ull << 59) | 5000;

	(void)state;
	word(p, 31 | (100u << 5));		/* absolute: 100 + (2 << 27), top bits the page's */
	word(p, 2);
	word(p, 1 | (4u << 5));
	word(p, 0);
	head(p, page_ts, 0);
	assert_int_equal(ft_rb_load(&pg, p->b, sizeof(p->b)), 0);
	assert_non_null(ft_rb_next(&pg, &size, &ts));
	assert_int_equal(ts, ((3ull << 59) | (100 + (2ull << 27))) + 4);
	free(p);
}

static void test_missed(void **state)
{
	struct page *p = calloc(1, sizeof(*p));
	struct ft_rb_page pg;
	uint64_t n = 42;

	(void)state;
	word(p, 1);
	word(p, 0);
	head(p, 1, 1ull << 31);			/* missed, not counted */
	assert_int_equal(ft_rb_load(&pg, p->b, sizeof(p->b)), 0);
	assert_int_equal(pg.lost, -1);
	memcpy(p->b + FT_RB_HEADER + p->at, &n, 8);	/* counted, after the data */
	head(p, 1, (1ull << 31) | (1ull << 30));
	assert_int_equal(ft_rb_load(&pg, p->b, sizeof(p->b)), 0);
	assert_int_equal(pg.lost, 42);
	/* the count would lie past the page: missed, not counted */
	assert_int_equal(ft_rb_load(&pg, p->b, FT_RB_HEADER + p->at + 4), 0);
	assert_int_equal(pg.lost, -1);
	free(p);
}

static void test_malformed(void **state)
{
	struct page *p = calloc(1, sizeof(*p));
	struct ft_rb_page pg;
	uint32_t size;
	uint64_t ts;

	(void)state;
	/* a page shorter than its header, a commit past the page */
	assert_int_equal(ft_rb_load(&pg, p->b, 15), -EINVAL);
	p->at = 100;
	head(p, 0, 0);
	assert_int_equal(ft_rb_load(&pg, p->b, FT_RB_HEADER + 99), -EINVAL);
	/* a data event longer than what is left: bad, nothing read past it */
	memset(p, 0, sizeof(*p));
	word(p, 1);
	word(p, 7);
	word(p, 28);			/* 112 bytes claimed, 0 left after the word */
	head(p, 0, 0);
	assert_int_equal(ft_rb_load(&pg, p->b, sizeof(p->b)), 0);
	assert_non_null(ft_rb_next(&pg, &size, &ts));
	assert_null(ft_rb_next(&pg, &size, &ts));
	assert_true(pg.bad);
	/* a long event whose length word is under 4, or past the page */
	memset(p, 0, sizeof(*p));
	word(p, 0);
	word(p, 2);
	head(p, 0, 0);
	assert_int_equal(ft_rb_load(&pg, p->b, sizeof(p->b)), 0);
	assert_null(ft_rb_next(&pg, &size, &ts));
	assert_true(pg.bad);
	memset(p, 0, sizeof(*p));
	word(p, 0);
	word(p, 4000);
	head(p, 0, 0);
	assert_int_equal(ft_rb_load(&pg, p->b, sizeof(p->b)), 0);
	assert_null(ft_rb_next(&pg, &size, &ts));
	assert_true(pg.bad);
	/* padding past the page ends the walk; a last word cut in half too */
	memset(p, 0, sizeof(*p));
	word(p, 29);
	word(p, 1u << 30);
	head(p, 0, 0);
	assert_int_equal(ft_rb_load(&pg, p->b, sizeof(p->b)), 0);
	assert_null(ft_rb_next(&pg, &size, &ts));
	memset(p, 0, sizeof(*p));
	word(p, 30);
	p->at -= 2;
	head(p, 0, 0);
	assert_int_equal(ft_rb_load(&pg, p->b, sizeof(p->b)), 0);
	assert_null(ft_rb_next(&pg, &size, &ts));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_time_stamp),
		cmocka_unit_test(test_missed),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests_name("ringbuf", tests, NULL, NULL);
}
