// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source's META inputs, as a recording's first chunk and the
 * session take them: the host first, its own pid, then header_page before any event's
 * format (the decoder cannot place an event's fields without it), every
 * event's format once, kernel_stack's last.  A renumbering of the texts
 * once put header_page last and live tracing counted nothing: this holds
 * the order without a kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collectors/live.h"
#include "collectors/live_int.h"

struct seen {
	int n;
	char first_line[FT_TRACE_TEXTS + 4][64];
	uint16_t type[FT_TRACE_TEXTS + 4];
};

static void take(void *ctx, const struct ft_rec_record *in)
{
	struct seen *s = ctx;
	size_t n;

	if (s->n >= FT_TRACE_TEXTS + 4)
		fail();
	s->type[s->n] = in->type;
	n = strcspn((const char *)in->data, "\n");
	n = n < in->len ? n : in->len;
	snprintf(s->first_line[s->n], sizeof(s->first_line[0]), "%.*s", (int)n,
		 (const char *)in->data);
	s->n++;
}

static void test_formats_order(void **state)
{
	static struct ft_live l;
	static struct seen s;
	char name[64];
	int i, k;

	(void)state;
	l.procfs.rootfd = -1;
	l.trace.on = true;
	for (i = 0; i < FT_TRACE_TEXTS; i++) {
		l.trace.t.text[i] = strdup("format text\n");
		l.trace.t.text_len[i] = strlen(l.trace.t.text[i]);
	}
	ft_live_meta(&l, take, &s);
	/* HOST, its own pid, header, each event, kernel_stack */
	assert_int_equal(s.n, 2 + FT_TRACE_TEXTS);
	assert_int_equal(s.type[0], FT_RR_HOST);
	/* FT_RS_SELF: a file of a series says whose rows are fragtop's */
	assert_int_equal(s.type[1], FT_RR_SOURCE);
	assert_int_equal(s.type[2], FT_RR_TRACE_FMT);
	assert_string_equal(s.first_line[2], "header_page");
	for (i = 0; i < FT_EV_NR; i++) {	/* each event once, after the header */
		int found = 0;

		snprintf(name, sizeof(name), "%s/%s", ft_trace_events[i].system,
			 ft_trace_events[i].event);
		for (k = 3; k < s.n; k++)
			found += !strcmp(s.first_line[k], name);
		assert_int_equal(found, 1);
	}
	assert_string_equal(s.first_line[s.n - 1], "ftrace/kernel_stack");
	for (i = 0; i < FT_TRACE_TEXTS; i++)
		free(l.trace.t.text[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
