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
 *     decode) is divided by the records walked (goal < 100 ns);
 *  3. --stacks, per event beside the event without a stack: offline, the
 *     decode + aggregate of the same fallbacks each followed by a 14-frame
 *     kernel_stack record (interned by stack); live (root), the kernel's
 *     cost of the stacktrace trigger in the allocating task: the system
 *     CPU of a child that faults the same memory with kmem:mm_page_alloc
 *     traced, with and without the trigger, per event traced.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#include "collectors/live.h"
#include "collectors/tracefs.h"
#include "model/events.h"
#include "kernel/tracedec.h"
#include "tests/bench/figure.h"
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

/* Fallback @i of page @p (40 bytes at @rec): orders 0 to @orders - 1, three migratetypes. */
static void fallback_rec(unsigned char *rec, const char *fmt, int p, int i, int orders)
{
	memset(rec, 0, 40);
	tb_set(rec, fmt, "common_type", tb_id(fmt));
	tb_set(rec, fmt, "common_pid", 1000 + (i % 7));
	tb_set(rec, fmt, "pfn", 4096 + (int64_t)(p * 131 + i) % 5000000);
	tb_set(rec, fmt, "fallback_order", i % orders);
	tb_set(rec, fmt, "alloc_migratetype", i % 3);
	tb_set(rec, fmt, "fallback_migratetype", (i + 1) % 3);
	tb_set(rec, fmt, "change_ownership", i % 5 == 0);
}

/*
 * Decode and aggregate @n sub-buffers @rounds times, as the session does,
 * into a fresh @ev with two zones; the events, and the CPU in *@dt.
 */
static uint64_t decode_all(struct ft_tracedec *d, const unsigned char *pages, int n, int rounds,
			   struct ft_events *ev, double *dt)
{
	struct ft_zone_range z[2] = { { 0, "DMA32", 4096, 1048576 },
				      { 0, "Normal", 1048576, 6553600 } };
	uint64_t events = 0;
	double t0;
	int p, r;

	ft_events_init(ev, 9);
	ft_events_set_zones(ev, z, 2);
	t0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	for (r = 0; r < rounds; r++)
		for (p = 0; p < n; p++) {
			int k = ft_tracedec_subbuf(d, pages + (size_t)p * TB_PAGE, TB_PAGE, 0,
						   ft_events_add_cb, ev);

			events += k > 0 ? (uint64_t)k : 0;
		}
	*dt = now_s(CLOCK_PROCESS_CPUTIME_ID) - t0;
	return events;
}

static int offline(void)
{
	enum { PAGES = 4096 };
	struct ft_tracedec d;
	struct ft_events *ev = malloc(sizeof(*ev));
	unsigned char *pages = malloc((size_t)PAGES * TB_PAGE);
	size_t len;
	char *fmt = fixture_read("6.18-idle",
				 "sys/kernel/tracing/events/kmem/mm_page_alloc_extfrag/format",
				 &len);
	char *hp;
	size_t hlen;
	uint64_t events = 0;
	double dt;
	int p, rounds = 10;

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
			fallback_rec(rec, fmt, p, i, 11);
			if (tb_add(&tb, 100, rec, 36))
				break;
			i++;
		}
		tb_finish(&tb, 0);
		memcpy(pages + (size_t)p * TB_PAGE, tb.page, TB_PAGE);
	}
	/* the best of five: a VM's CPU time moves by a third from run to run */
	for (p = 0; p < 5; p++) {
		double t;

		events = decode_all(&d, pages, PAGES, rounds, ev, &t);
		if (!p || t < dt)
			dt = t;
	}
	printf("offline decode+aggregate: %llu extfrag events in %.3f s CPU (best of 5) = %.1f M "
	       "events/s (%.1f ns/event; goal >= 25 M/s)\n", (unsigned long long)events, dt,
	       (double)events / dt / 1e6, dt * 1e9 / (double)events);
	bench_figure("decode.events_per_s", (double)events / dt / 1e6, "M/s");
	ft_tracedec_release(&d);
	free(ev);
	free(pages);
	free(fmt);
	free(hp);
	return 0;
}

static void intern_stack(void *ctx, const struct ft_trace_stack *st)
{
	ft_events_stack(ctx, st);
}

/* Fallbacks each followed by its kernel stack (one of 8), decoded as the session does. */
static int offline_stacks(void)
{
	enum { PAGES = 4096, FRAMES = 14 };
	struct ft_tracedec d;
	struct ft_events *ev = calloc(1, sizeof(*ev));
	unsigned char *pages = malloc((size_t)PAGES * TB_PAGE);
	size_t len, slen, hlen;
	char *fmt = fixture_read("6.18-idle",
				 "sys/kernel/tracing/events/kmem/mm_page_alloc_extfrag/format",
				 &len);
	char *sfmt = fixture_read("6.18-idle",
				  "sys/kernel/tracing/events/ftrace/kernel_stack/format", &slen);
	char *hp = fixture_read("6.18-idle", "sys/kernel/tracing/events/header_page", &hlen);
	uint64_t events = 0, stacks = 0;
	double dt;
	int p, rounds = 10, off;

	if (!ev || !pages || !fmt || !sfmt || !hp) {
		fprintf(stderr, "bench_trace: run from the repo root\n");
		return 1;
	}
	ft_tracedec_init(&d);
	ft_tracedec_header_page(&d, hp, hlen);
	ft_tracedec_format(&d, "kmem", fmt, len);
	ft_tracedec_format(&d, "ftrace", sfmt, slen);
	off = tb_field(sfmt, "caller[8]", NULL);
	for (p = 0; p < PAGES; p++) {
		struct tracebuf tb;
		unsigned char rec[40], srec[16 + 8 * FRAMES];
		int i = 0, k;

		tb_init(&tb, (uint64_t)p * 1000000);
		for (;;) {
			fallback_rec(rec, fmt, p, i, 9);
			memset(srec, 0, sizeof(srec));
			tb_set(srec, sfmt, "common_type", tb_id(sfmt));
			tb_set(srec, sfmt, "size", FRAMES);
			for (k = 0; k < FRAMES; k++) {
				uint64_t ip = 0xffffffff81000000ull + 0x1000u *
					(unsigned int)(i % 8) + (unsigned int)k;

				memcpy(srec + off + 8 * k, &ip, 8);
			}
			if (tb_add(&tb, 100, rec, 36) ||
			    tb_add(&tb, 0, srec, (size_t)off + 8 * FRAMES))
				break;
			i++;
		}
		tb_finish(&tb, 0);
		memcpy(pages + (size_t)p * TB_PAGE, tb.page, TB_PAGE);
	}
	d.on_stack = intern_stack;
	events = decode_all(&d, pages, PAGES, rounds, ev, &dt);
	stacks = (uint64_t)ev->nr_stacks;
	printf("offline with --stacks: %llu extfrag events, each with a %d-frame stack (%llu told "
	       "apart), in %.3f s CPU = %.1f ns/event (the line above: the event without its "
	       "stack)\n",
	       (unsigned long long)events, FRAMES, (unsigned long long)stacks, dt,
	       dt * 1e9 / (double)events);
	ft_tracedec_release(&d);
	free(ev);
	free(pages);
	free(fmt);
	free(sfmt);
	free(hp);
	return 0;
}

static void churn(void)
{
	/* fault and free memory: page allocations and frees on every CPU */
	for (;;) {
		size_t sz = 64 << 20;
		char *m = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
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
	struct ft_tracefs t;
	struct ft_events *ev = malloc(sizeof(*ev));
	double cpu = 0, wall0, t0;
	pid_t kid[2];
	int err, k;

	if (geteuid() != 0) {
		printf("live reader: skipped (needs root)\n");
		return 0;
	}
	err = ft_tracefs_open(&t, ft_live_trace_kb());
	if (err) {
		printf("live reader: skipped (%s)\n", ft_tracefs_strerror(err));
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
		ft_tracefs_drain(&t, decode_page, &(struct page_ctx){ &t.dec, ev });
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
	       (unsigned long long)t.pages_read, (unsigned long long)ft_tracefs_lost(&t));
	ft_tracefs_close(&t);
	free(ev);
	return 0;
}

/* Fault @mb MiB @rounds times in a child traced alone (set_event_pid); its system CPU, s. */
static double child_faults(struct ft_tracefs *t, int mb, int rounds)
{
	struct rusage ru;
	int go[2], st;
	pid_t kid;
	char pid[32];

	if (pipe(go))
		return NAN;
	kid = fork();
	if (kid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		for (int r = 0; r < rounds; r++) {
			size_t sz = (size_t)mb << 20;
			char *m = mmap(NULL, sz, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (m == MAP_FAILED)
				_exit(1);
			madvise(m, sz, MADV_NOHUGEPAGE);	/* a page allocation a fault */
			for (size_t o = 0; o < sz; o += 4096)
				m[o] = 1;
			munmap(m, sz);
		}
		_exit(0);
	}
	close(go[0]);
	snprintf(pid, sizeof(pid), "%d", (int)kid);
	tracefs_instance_file_write(t->inst, "set_event_pid", pid);
	if (write(go[1], "g", 1) != 1)
		kill(kid, SIGKILL);
	close(go[1]);
	if (kid < 0 || wait4(kid, &st, 0, &ru) != kid)
		return NAN;
	return (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* One traced run of child_faults(): its system CPU and the events traced, drained as they come. */
static double traced_faults(struct ft_tracefs *t, struct ft_events *ev, uint64_t *events)
{
	uint64_t w0 = t->dec.walked;
	double s = child_faults(t, 64, 8);

	ft_tracefs_drain(t, decode_page, &(struct page_ctx){ &t->dec, ev });
	*events = t->dec.walked - w0;
	return s;
}

static int live_stacks(void)
{
	struct ft_tracefs t;
	struct ft_events *ev = calloc(1, sizeof(*ev));
	uint64_t n0 = 0, n1 = 0, e;
	double s0 = 0, s1 = 0;
	int err, r;

	if (geteuid() != 0) {
		printf("live --stacks: skipped (needs root)\n");
		return 0;
	}
	/* 64 MiB a CPU: a run's records stay in the buffer */
	err = ft_tracefs_open(&t, 65536);
	if (err) {
		printf("live --stacks: skipped (%s)\n", ft_tracefs_strerror(err));
		return 0;
	}
	ft_events_init(ev, 9);
	tracefs_event_enable(t.inst, "kmem", "mm_page_alloc");
	/* alternate the two, three times each: the machine's noise falls on both */
	for (r = 0; r < 6; r++) {
		bool stacks = r % 2;

		if (stacks)
			tracefs_instance_file_append(t.inst, "events/kmem/mm_page_alloc/trigger",
						     "stacktrace");
		if (stacks) {
			s1 += traced_faults(&t, ev, &e);
			n1 += e / 2;	/* an event and its stack record */
		} else {
			s0 += traced_faults(&t, ev, &e);
			n0 += e;
		}
		if (stacks)
			tracefs_instance_file_append(t.inst, "events/kmem/mm_page_alloc/trigger",
						     "!stacktrace");
	}
	printf("live --stacks: the allocating task's system CPU per traced page allocation: %.0f "
	       "ns without a stack, %.0f ns with one (+%.0f ns; %llu and %llu events, lost %llu)\n",
	       s0 * 1e9 / (double)(n0 ? n0 : 1), s1 * 1e9 / (double)(n1 ? n1 : 1),
	       s1 * 1e9 / (double)(n1 ? n1 : 1) - s0 * 1e9 / (double)(n0 ? n0 : 1),
	       (unsigned long long)n0, (unsigned long long)n1,
	       (unsigned long long)ft_tracefs_lost(&t));
	ft_tracefs_close(&t);
	free(ev);
	return 0;
}

int main(void)
{
	printf("\nfragtop trace bench (one run; no thresholds asserted)\n");
	if (offline() || offline_stacks())
		return 1;
	if (getenv("FT_BENCH_OFFLINE"))	/* the decoder alone (under callgrind, say) */
		return 0;
	if (live())
		return 1;
	return live_stacks();
}
