// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench, tracepoints part (one run, ratios printed, nothing asserted):
 *
 *  1. offline: decode + aggregate of a large synthetic buffer of
 *     mm_page_alloc_extfrag records laid out from this repo's 6.18 format
 *     (goal > 20 million events/s);
 *  2. live (root + tracefs): fragtop's reader CPU per event under a high
 *     event rate.  kmem:mm_page_alloc/mm_page_free are enabled in our
 *     instance as well, for the bench only, and a child process faults and
 *     frees memory; the CPU of the drain calls (splice, read, kbuffer walk,
 *     decode) is divided by the records walked (goal < 100 ns).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#include "collectors/live.h"
#include "collectors/tracefs.h"
#include "model/events.h"
#include "model/tracedec.h"
#include "tests/helpers.h"
#include "tests/tracebuf.h"

struct page_ctx {
	struct ft_tracedec *dec;
	struct ft_events *ev;
};

/* What the session does with a live trace page: decode and aggregate. */
static void decode_page(void *ctx, int cpu, const void *buf, size_t len)
{
	struct page_ctx *p = ctx;

	ft_tracedec_subbuf(p->dec, buf, len, cpu, ft_events_add_cb, p->ev);
}

static double now_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int offline(void)
{
	enum { PAGES = 4096 };
	struct ft_tracedec d;
	struct ft_events *ev = malloc(sizeof(*ev));
	unsigned char *pages = malloc((size_t)PAGES * TB_PAGE);
	size_t len;
	char *fmt = fixture_read("6.18-idle", "sys/kernel/tracing/events/kmem/mm_page_alloc_extfrag/format", &len);
	char *hp;
	size_t hlen;
	uint64_t events = 0;
	double t0, dt;
	int p, r, rounds = 10;

	if (!ev || !pages || !fmt) {
		fprintf(stderr, "bench_trace: run from the repo root\n");
		return 1;
	}
	hp = fixture_read("6.18-idle", "sys/kernel/tracing/events/header_page", &hlen);
	ft_tracedec_init(&d);
	ft_tracedec_header_page(&d, hp, hlen);
	ft_tracedec_format(&d, "kmem", fmt, len);
	for (p = 0; p < PAGES; p++) {
		struct tracebuf tb;
		unsigned char rec[40];
		int i = 0;

		tb_init(&tb, (uint64_t)p * 1000000);
		for (;;) {
			memset(rec, 0, sizeof(rec));
			tb_set(rec, fmt, "common_type", tb_id(fmt));
			tb_set(rec, fmt, "common_pid", 1000 + (i % 7));
			tb_set(rec, fmt, "pfn", 4096 + (int64_t)(p * 131 + i) % 5000000);
			tb_set(rec, fmt, "fallback_order", i % 11);
			tb_set(rec, fmt, "alloc_migratetype", i % 3);
			tb_set(rec, fmt, "fallback_migratetype", (i + 1) % 3);
			tb_set(rec, fmt, "change_ownership", i % 5 == 0);
			if (tb_add(&tb, 100, rec, 36))
				break;
			i++;
		}
		tb_finish(&tb, 0);
		memcpy(pages + (size_t)p * TB_PAGE, tb.page, TB_PAGE);
	}
	ft_events_init(ev, 9);
	{
		struct ft_zone_range z[2] = { { 0, "DMA32", 4096, 1048576 }, { 0, "Normal", 1048576, 6553600 } };

		ft_events_set_zones(ev, z, 2);
	}
	t0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	for (r = 0; r < rounds; r++)
		for (p = 0; p < PAGES; p++) {
			int n = ft_tracedec_subbuf(&d, pages + (size_t)p * TB_PAGE, TB_PAGE, 0,
						   ft_events_add_cb, ev);

			events += n > 0 ? (uint64_t)n : 0;
		}
	dt = now_s(CLOCK_PROCESS_CPUTIME_ID) - t0;
	printf("offline decode+aggregate: %llu extfrag events in %.3f s CPU = %.1f M events/s "
	       "(%.1f ns/event; goal > 20 M/s)\n", (unsigned long long)events, dt,
	       (double)events / dt / 1e6, dt * 1e9 / (double)events);
	ft_tracedec_release(&d);
	free(ev);
	free(pages);
	free(fmt);
	free(hp);
	return 0;
}

static void churn(void)
{
	/* fault and free memory: page allocations and frees on every CPU */
	for (;;) {
		size_t sz = 64 << 20;
		char *m = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		size_t o;

		if (m == MAP_FAILED)
			_exit(1);
		for (o = 0; o < sz; o += 4096)
			m[o] = 1;
		munmap(m, sz);
	}
}

static int live(void)
{
	struct ft_trace t;
	struct ft_events *ev = malloc(sizeof(*ev));
	double cpu = 0, wall0, t0;
	pid_t kid[2];
	int err, k;

	if (geteuid() != 0) {
		printf("live reader: skipped (needs root)\n");
		return 0;
	}
	err = ft_trace_open(&t, ft_live_trace_kb());
	if (err) {
		printf("live reader: skipped (%s)\n", ft_trace_strerror(err));
		return 0;
	}
	tracefs_event_enable(t.inst, "kmem", "mm_page_alloc");
	tracefs_event_enable(t.inst, "kmem", "mm_page_free");
	ft_events_init(ev, 9);
	for (k = 0; k < 2; k++) {
		kid[k] = fork();
		if (kid[k] == 0)
			churn();
	}
	wall0 = now_s(CLOCK_MONOTONIC);
	while (now_s(CLOCK_MONOTONIC) - wall0 < 4) {
		usleep(50000);
		t0 = now_s(CLOCK_THREAD_CPUTIME_ID);
		ft_trace_drain(&t, decode_page, &(struct page_ctx){ &t.dec, ev });
		cpu += now_s(CLOCK_THREAD_CPUTIME_ID) - t0;
	}
	for (k = 0; k < 2; k++) {
		kill(kid[k], SIGKILL);
		waitpid(kid[k], NULL, 0);
	}
	printf("live reader: %llu records in 4 s (%.0f/s), reader CPU %.3f s = %.1f ns/event "
	       "(goal < 100 ns), %llu pages, lost %llu\n",
	       (unsigned long long)t.dec.walked, (double)t.dec.walked / 4.0, cpu,
	       cpu * 1e9 / (double)(t.dec.walked ? t.dec.walked : 1),
	       (unsigned long long)t.pages_read, (unsigned long long)ft_trace_lost(&t));
	ft_trace_close(&t);
	free(ev);
	return 0;
}

int main(void)
{
	printf("\nfragtop trace bench (one run; no thresholds asserted)\n");
	if (offline())
		return 1;
	return live();
}
