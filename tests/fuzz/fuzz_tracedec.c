// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: ft_tracedec_subbuf() + aggregation on arbitrary
 * sub-buffer bytes, with the 6.18 formats loaded (run from the repo root),
 * kernel_stack's too: a stack record keeps at most FT_STACK_DEPTH frames
 * and never more than it holds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/events.h"
#include "kernel/tracedec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ft_tracedec dec;
static struct ft_events ev;
static int ready;

static void load(const char *rel, const char *system)
{
	char path[512], *buf = malloc(1 << 16);
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "tests/fixtures/6.18-idle/sys/kernel/tracing/events/%s", rel);
	f = fopen(path, "r");
	if (!f || !buf)
		abort();
	n = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	if (system)
		ft_tracedec_format(&dec, system, buf, n);
	else if (ft_tracedec_header_page(&dec, buf, n))
		abort();
	free(buf);
}

static void on_stack(void *ctx, const struct ft_trace_stack *st)
{
	(void)ctx;
	if (st->n < 0 || st->n > FT_STACK_DEPTH || st->n > st->all ||
	    (st->n < st->all && st->n != FT_STACK_DEPTH))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char page[4096] __attribute__((aligned(8)));
	int i;

	if (!ready) {
		char rel[256];

		ft_tracedec_init(&dec);
		load("header_page", NULL);
		for (i = 0; i < FT_EV_NR; i++) {
			snprintf(rel, sizeof(rel), "%s/%s/format", ft_trace_events[i].system,
				 ft_trace_events[i].event);
			{
				char p[512];
				FILE *f;

				snprintf(p, sizeof(p),
					 "tests/fixtures/6.18-idle/sys/kernel/tracing/events/%s",
					 rel);
				f = fopen(p, "r");
				if (!f)
					continue;
				fclose(f);
			}
			load(rel, ft_trace_events[i].system);
		}
		load("ftrace/kernel_stack/format", "ftrace");
		dec.on_stack = on_stack;
		ft_events_init(&ev, 9);
		ready = 1;
	}
	/* the reader hands over whole pages: pad short inputs with zeros */
	memset(page, 0, sizeof(page));
	memcpy(page, data, size < sizeof(page) ? size : sizeof(page));
	ft_tracedec_subbuf(&dec, page, sizeof(page), 0, ft_events_add_cb, &ev);
	ft_tracedec_subbuf(&dec, data, size, 1, ft_events_add_cb, &ev);
	return 0;
}
