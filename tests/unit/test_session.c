// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session alone: names come only from NAME inputs (a replay never
 * asks the local /proc: this very process is unknown to it), malformed
 * inputs change nothing, a repeated format is parsed once (a file that
 * repeats them 1000 times costs one parse each), control
 * changes are bounded, and a checkpoint restores the same state.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/checkpoint.h"
#include "model/session.h"
#include "tests/session_fixture.h"
#include "tests/tracebuf.h"

static void apply(struct ft_session *s, uint16_t type, uint16_t sub, uint64_t t, const void *d,
		  size_t len)
{
	struct ft_rec_record in = { .type = type, .sub = sub, .len = (uint32_t)len, .t_ns = t,
				    .data = d };

	ft_session_apply(s, &in);
}

static void name(struct ft_session *s, uint32_t pid, const char *comm)
{
	uint8_t rec[64];
	size_t n = strlen(comm);

	memcpy(rec, &pid, 4);
	memcpy(rec + 4, comm, n);
	apply(s, FT_RR_NAME, 0, 1, rec, 4 + n);
}

static void test_names(void **state)
{
	static struct ft_session s;

	(void)state;
	ft_session_init(&s);
	/* no NAME input: unknown, even for a pid that is alive here */
	assert_null(ft_session_name(&s, (int)getpid()));
	assert_null(ft_session_name(&s, 1));
	name(&s, 4242, "fio");
	assert_string_equal(ft_session_name(&s, 4242), "fio");
	name(&s, 4242, "thpalloc");		/* the pid reused: the newer name */
	assert_string_equal(ft_session_name(&s, 4242), "thpalloc");
	name(&s, 4242 + FT_SESSION_NAMES, "other");	/* same slot: the older one is gone */
	assert_null(ft_session_name(&s, 4242));
	assert_string_equal(ft_session_name(&s, 4242 + FT_SESSION_NAMES), "other");
	/* malformed: too short, too long, pid 0 */
	{
		uint8_t bad[64] = { 0 };
		uint64_t before = s.bad_inputs;

		apply(&s, FT_RR_NAME, 0, 1, bad, 4);
		apply(&s, FT_RR_NAME, 0, 1, bad, 40);
		memcpy(bad + 4, "x", 1);
		apply(&s, FT_RR_NAME, 0, 1, bad, 5);
		assert_int_equal(s.bad_inputs, before + 3);
		/* an exit carries no command, a name always one */
		memcpy(bad, &(uint32_t){ 4242 }, 4);
		apply(&s, FT_RR_NAME, FT_NAME_EXITED, 1, bad, 5);
		apply(&s, FT_RR_NAME, 0, 1, bad, 4);
		assert_int_equal(s.bad_inputs, before + 5);
	}
	/* NAME inputs reach the process table: named, exited, reused */
	ft_procs_count(&s.events.procs, 777, 1, FT_PC_FRAGMENTING, 2);
	name(&s, 777, "fio");
	assert_string_equal(ft_procs_find(&s.events.procs, 777)->comm, "fio");
	{
		uint8_t cg[4 + 130];
		uint64_t before = s.bad_inputs;

		memcpy(cg, &(uint32_t){ 777 }, 4);
		memcpy(cg + 4, "/user.slice", 11);
		apply(&s, FT_RR_CGROUP, 0, 1, cg, 15);
		assert_string_equal(ft_procs_find(&s.events.procs, 777)->cgroup, "/user.slice");
		apply(&s, FT_RR_CGROUP, 0, 1, cg, 4);		/* no path */
		apply(&s, FT_RR_CGROUP, 0, 1, cg, 4 + 128);	/* too long */
		cg[6] = '\0';
		apply(&s, FT_RR_CGROUP, 0, 1, cg, 15);		/* a NUL inside */
		assert_int_equal(s.bad_inputs, before + 3);
		assert_string_equal(ft_procs_find(&s.events.procs, 777)->cgroup, "/user.slice");
	}
	{
		uint32_t pid = 777;

		apply(&s, FT_RR_NAME, FT_NAME_EXITED, 2, &pid, 4);
	}
	assert_null(ft_procs_find(&s.events.procs, 777));
	{
		int i, rows = s.events.procs.nr, exited = 0;

		for (i = 0; i < rows; i++)
			exited += s.events.procs.p[i].pid == 777 && s.events.procs.p[i].exited &&
				  s.events.procs.p[i].exited_ns == 2 &&
				  s.events.procs.p[i].c[FT_PC_FRAGMENTING] == 2;
		assert_int_equal(exited, 1);
		name(&s, 777, "thpalloc");
		assert_string_equal(ft_procs_find(&s.events.procs, 777)->comm, "thpalloc");
		assert_int_equal(s.events.procs.nr, rows + 1);
	}
	ft_session_release(&s);
}

static void test_audits_bounded(void **state)
{
	static struct ft_session s;
	const char a[] =
		"knob=watermark_boost_factor\nold=15000\nnew=0\nhow=set\noutcome=ok\nmsg=m\n";
	size_t i;

	(void)state;
	ft_session_init(&s);
	for (i = 0; i < FT_SESSION_MAX_AUDITS + 10; i++)
		apply(&s, FT_RR_AUDIT, 0, i, a, sizeof(a) - 1);
	assert_int_equal(s.nr_audits, FT_SESSION_MAX_AUDITS);
	assert_int_equal(s.audits_dropped, 10);
	assert_string_equal(s.audits[0].knob, "watermark_boost_factor");
	assert_string_equal(s.audits[0].new, "0");
	ft_session_release(&s);
}

/*
 * A tick earlier than the one before (a crafted recording; no source of
 * fragtop's makes one) is held at that tick's time and counted as
 * malformed: the recording's span never runs backwards (it was reported
 * 18446743991.6 s long).
 */
static void test_tick_backwards(void **state)
{
	static struct ft_session s;
	uint64_t rt = 0, t[3] = { 20000000000ull, 30000000000ull, 5000000000ull };
	int i;

	(void)state;
	ft_session_init(&s);
	for (i = 0; i < 3; i++)
		apply(&s, FT_RR_TICK, 0, t[i], &rt, 8);
	assert_int_equal(s.ticks, 3);
	assert_true(s.tick_t_ns == t[1]);
	assert_true(s.tick_t_ns >= s.first_t_ns);
	assert_int_equal(s.bad_inputs, 1);
	assert_non_null(strstr(s.bad[0].why, "earlier than the tick before"));
	ft_session_release(&s);
}

/* The map scan's SOURCE input: 40 bytes, or the 32 of files written before the put-off count. */
static void test_mapscan_source(void **state)
{
	static struct ft_session s;
	uint8_t b[40];
	double cpu = 0.1;
	uint64_t v[4] = { 334, 1, 1039000000, 2 };

	(void)state;
	ft_session_init(&s);
	memcpy(b, &cpu, 8);
	memcpy(b + 8, v, 32);
	apply(&s, FT_RR_SOURCE, FT_RS_MAPSCAN, 1, b, 40);
	assert_true(s.mapscan.known);
	assert_int_equal(s.mapscan.rescans, 334);
	assert_int_equal(s.mapscan.rescans_late, 1);
	assert_int_equal(s.mapscan.lag_max_ns, 1039000000);
	assert_int_equal(s.mapscan.rescans_deferred, 2);
	apply(&s, FT_RR_SOURCE, FT_RS_MAPSCAN, 2, b, 32);
	assert_int_equal(s.mapscan.rescans, 334);
	assert_int_equal(s.mapscan.rescans_deferred, 0);
	assert_int_equal(s.bad_inputs, 0);
	apply(&s, FT_RR_SOURCE, FT_RS_MAPSCAN, 3, b, 36);
	assert_int_equal(s.bad_inputs, 1);
	ft_session_release(&s);
}

/*
 * The reading fragtop's own pid (SOURCE FT_RS_SELF): its rows, its
 * threads' by their GROUP inputs, are its footprint; a bad one refused.
 */
static void test_self_source(void **state)
{
	static struct ft_session s;
	uint64_t own[FT_PC_NR];
	uint32_t pid = 4242, bad = 0;

	(void)state;
	ft_session_init(&s);
	apply(&s, FT_RR_SOURCE, FT_RS_SELF, 1, &pid, 4);
	assert_int_equal(s.self_pid, 4242);
	apply(&s, FT_RR_SOURCE, FT_RS_SELF, 2, &bad, 4);
	apply(&s, FT_RR_SOURCE, FT_RS_SELF, 3, &pid, 2);
	assert_int_equal(s.bad_inputs, 2);
	assert_int_equal(s.self_pid, 4242);
	ft_procs_count(&s.events.procs, 4242, 1, FT_PC_FRAGMENTING, 3);	/* its main thread */
	ft_procs_count(&s.events.procs, 4250, 1, FT_PC_FRAGMENTING, 2);	/* its writer thread */
	/* another process */
	ft_procs_count(&s.events.procs, 4251, 1, FT_PC_FRAGMENTING, 100);
	ft_procs_group(&s.events.procs, 4250, 4242);
	assert_int_equal(ft_procs_of_process(&s.events.procs, s.self_pid, own), 2);
	assert_int_equal(own[FT_PC_FRAGMENTING], 5);
	assert_true(fabs(ft_procs_frag_share(&s.events.procs, own[FT_PC_FRAGMENTING]) - 5.0 /
			 105) < 1e-12);
	assert_int_equal(ft_procs_of_process(&s.events.procs, 0, own), 0);
	assert_int_equal(own[FT_PC_FRAGMENTING], 0);
	ft_session_release(&s);
}

/* A file that repeats its trace formats: each is parsed once. */
static void test_formats_once(void **state)
{
	static struct ft_session s;
	static char buf[1 << 16];
	static const char *const files[] = {
		"header_page", "kmem/mm_page_alloc_extfrag",
	};
	int rep, f;

	(void)state;
	ft_session_init(&s);
	for (rep = 0; rep < 1000; rep++)
		for (f = 0; f < 2; f++) {
			char path[256];
			size_t hl = (size_t)snprintf(buf, sizeof(buf), "%s\n", files[f]), n;
			FILE *fp;

			snprintf(path, sizeof(path),
				 "tests/fixtures/6.18-idle/sys/kernel/tracing/events/%s%s",
				 files[f], f ? "/format" : "");
			fp = fopen(path, "r");
			assert_non_null(fp);
			n = fread(buf + hl, 1, sizeof(buf) - hl, fp);
			fclose(fp);
			apply(&s, FT_RR_TRACE_FMT, 0, 1, buf, hl + n);
		}
	assert_true(s.tracing);
	assert_true(ft_session_has_event(&s, FT_EV_EXTFRAG));
	assert_int_equal(s.formats_repeated, 2 * 999);
	ft_session_release(&s);
}

/* A format file of the 6.18-idle fixture as a TRACE_FMT input; its text in @text. */
static void fixture_format(struct ft_session *s, const char *name, const char *file, char *text,
			   size_t sz)
{
	static char buf[1 << 16];
	char path[256];
	size_t hl = (size_t)snprintf(buf, sizeof(buf), "%s\n", name), n;
	FILE *fp;

	snprintf(path, sizeof(path), "tests/fixtures/6.18-idle/sys/kernel/tracing/events/%s", file);
	fp = fopen(path, "r");
	assert_non_null(fp);
	n = fread(buf + hl, 1, sizeof(buf) - hl - 1, fp);
	fclose(fp);
	apply(s, FT_RR_TRACE_FMT, 0, 1, buf, hl + n);
	if (text) {
		assert_true(n < sz);
		memcpy(text, buf + hl, n);
		text[n] = '\0';
	}
}

/* One extfrag record in @tb, @delta after the last: its PFN and fallback order given. */
static void put_fallback(struct tracebuf *tb, const char *fmt, uint32_t delta, uint64_t pfn,
			 int fallback_order)
{
	static const char *const names[] = { "pfn", "alloc_order", "fallback_order",
		"alloc_migratetype", "fallback_migratetype", "change_ownership" };
	unsigned char rec[112] = { 0 };
	int64_t vals[] = { (int64_t)pfn, 0, fallback_order, 0, 1, 0 };
	int last = 8, size = 0, k;

	tb_set(rec, fmt, "common_type", tb_id(fmt));
	tb_set(rec, fmt, "common_pid", 1);
	for (k = 0; k < 6; k++) {
		int off = tb_field(fmt, names[k], &size);

		tb_set(rec, fmt, names[k], vals[k]);
		if (off + size > last)
			last = off + size;
	}
	assert_int_equal(tb_add(tb, delta, rec, (size_t)last), 0);
}

/* A sub-buffer of extfrag events at @ts[] (absolute ns), each PFN its stamp plus @cpu. */
static void fallbacks_at(struct ft_session *s, const char *fmt, uint16_t cpu, const uint64_t *ts,
			 int n)
{
	struct tracebuf tb;
	uint64_t prev = ts[0];
	int i;

	tb_init(&tb, ts[0]);
	for (i = 0; i < n; i++) {
		put_fallback(&tb, fmt, (uint32_t)(ts[i] - prev), ts[i] + cpu, 3);
		prev = ts[i];
	}
	apply(s, FT_RR_TRACE_PAGE, cpu, ts[n - 1], tb.page, tb_finish(&tb, 0));
}

/*
 * The events of a tick reach the aggregation in time order whatever
 * order their pages came in (CPU 1's page first); equal stamps by CPU,
 * then as they came.  A page that repeats a CPU's stamps (a hostile
 * file) is put in order too.
 */
static void test_trace_time_order(void **state)
{
	static struct ft_session s;
	static char fmt[1 << 16];
	static const uint64_t cpu1[] = { 1000, 3000, 5000 }, cpu0[] = { 2000, 3000, 4000 };
	static const uint64_t want[] = { 1000, 2000, 3000, 3000, 4000, 5000 };
	static const uint16_t want_cpu[] = { 1, 0, 0, 1, 0, 1 };
	uint64_t t = 1000000000ull, h;
	size_t i;

	(void)state;
	ft_session_init(&s);
	fixture_format(&s, "header_page", "header_page", NULL, 0);
	fixture_format(&s, "kmem/mm_page_alloc_extfrag", "kmem/mm_page_alloc_extfrag/format", fmt,
		       sizeof(fmt));
	assert_true(ft_session_has_event(&s, FT_EV_EXTFRAG));
	fallbacks_at(&s, fmt, 1, cpu1, 3);
	fallbacks_at(&s, fmt, 0, cpu0, 3);
	apply(&s, FT_RR_TICK, 0, t, &t, 8);
	assert_int_equal(s.events.fb_head, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(s.events.fb_ring[i].ts, want[i]);
		assert_int_equal(s.events.fb_ring[i].pfn, want[i] + want_cpu[i]);
	}
	/* the same stamps, each page once more on CPU 0: 1000 1000 2000 3000 3000 3000 ... */
	h = s.events.fb_head;
	fallbacks_at(&s, fmt, 0, cpu1, 3);
	fallbacks_at(&s, fmt, 0, cpu0, 3);
	fallbacks_at(&s, fmt, 0, cpu1, 3);
	t *= 2;
	apply(&s, FT_RR_TICK, 0, t, &t, 8);
	assert_int_equal(s.events.fb_head - h, 9);
	for (i = h + 1; i < s.events.fb_head; i++)
		assert_true(s.events.fb_ring[i - 1].ts <= s.events.fb_ring[i].ts);
	ft_session_release(&s);
}

/*
 * A burst's queue is not held through the quiet after it: a tick that
 * used a quarter of the room or more keeps it, a quieter one gives it
 * back; every record is counted either way.
 */
static void test_trace_queue_trimmed(void **state)
{
	static struct ft_session s;
	static char fmt[1 << 16];
	static uint64_t ts[50];
	uint64_t t = 1000000000ull, stamp = 1000, fb;
	int page, i;

	(void)state;
	ft_session_init(&s);
	fixture_format(&s, "header_page", "header_page", NULL, 0);
	fixture_format(&s, "kmem/mm_page_alloc_extfrag", "kmem/mm_page_alloc_extfrag/format", fmt,
		       sizeof(fmt));
	for (page = 0; page < 200; page++) {	/* 10,000 records before the tick */
		for (i = 0; i < 50; i++)
			ts[i] = stamp++;
		fallbacks_at(&s, fmt, (uint16_t)(page % 2), ts, 50);
	}
	assert_int_equal(s.trq.nr, 10000);
	assert_true(s.trq.cap >= 10000);
	apply(&s, FT_RR_TICK, 0, t, &t, 8);
	assert_int_equal(s.trq.nr, 0);
	assert_true(s.trq.cap >= 10000);	/* the tick used all of it */
	fb = s.events.fb_head;
	assert_int_equal(fb, 10000);
	for (i = 0; i < 50; i++)
		ts[i] = stamp++;
	fallbacks_at(&s, fmt, 0, ts, 50);
	t += 1000000000ull;
	apply(&s, FT_RR_TICK, 0, t, &t, 8);	/* 50 of 16k: the room goes back */
	assert_int_equal(s.trq.cap, 0);
	assert_null(s.trq.r);
	assert_int_equal(s.events.fb_head, fb + 50);
	fallbacks_at(&s, fmt, 1, ts, 50);	/* and comes again at the next record */
	assert_int_equal(s.trq.nr, 50);
	assert_int_equal(s.trq.cap, FT_TRQ_KEEP);
	t += 1000000000ull;
	apply(&s, FT_RR_TICK, 0, t, &t, 8);	/* the first room is kept however quiet */
	assert_int_equal(s.trq.cap, FT_TRQ_KEEP);
	assert_int_equal(s.events.fb_head, fb + 100);
	ft_session_release(&s);
}

static void tick(struct ft_session *s, uint64_t t);

/* A page of fallbacks at @ts[], each followed by a kernel stack of frames @stk[i] (0: no stack). */
static void fallbacks_with_stacks(struct ft_session *s, const char *fmt, const char *sfmt,
				  const uint64_t *ts,
				  const int *stk, int n)
{
	struct tracebuf tb;
	uint64_t prev = ts[0];
	int i, k, off = tb_field(sfmt, "caller[8]", NULL);

	tb_init(&tb, ts[0]);
	for (i = 0; i < n; i++) {
		unsigned char srec[16 + 8 * 4] = { 0 };

		/* fragmenting (order 3 < 9) unless the stack id is even and past 1: then order 9 */
		put_fallback(&tb, fmt, (uint32_t)(ts[i] - prev), ts[i], stk[i] > 1 &&
			     !(stk[i] % 2) ? 9 : 3);
		prev = ts[i];
		if (!stk[i])
			continue;
		tb_set(srec, sfmt, "common_type", tb_id(sfmt));
		tb_set(srec, sfmt, "size", 4);
		for (k = 0; k < 4; k++) {
			uint64_t ip = 0xffffffff81000000ull + 0x100u * (unsigned int)stk[i] +
				(unsigned int)k;

			memcpy(srec + off + 8 * k, &ip, 8);
		}
		assert_int_equal(tb_add(&tb, 0, srec, (size_t)off + 32), 0);
	}
	apply(s, FT_RR_TRACE_PAGE, 2, ts[n - 1], tb.page, tb_finish(&tb, 0));
}

/*
 * Fallbacks by kernel stack: each kernel_stack record goes with the
 * fallback before it on its CPU; equal stacks are one row, the counts of
 * every row add up to the stacked fallbacks, and a fallback without a
 * stack is in none.
 */
static void test_fallbacks_by_stack(void **state)
{
	static struct ft_session s;
	static char fmt[1 << 16], sfmt[1 << 12];
	static const uint64_t ts[] = { 100, 200, 300, 400, 500 };
	static const int stk[] = { 1, 1, 2, 0, 3 };
	uint64_t t = 1000000000ull;

	(void)state;
	ft_session_init(&s);
	fixture_format(&s, "header_page", "header_page", NULL, 0);
	fixture_format(&s, "kmem/mm_page_alloc_extfrag", "kmem/mm_page_alloc_extfrag/format", fmt,
		       sizeof(fmt));
	fixture_format(&s, "ftrace/kernel_stack", "ftrace/kernel_stack/format", sfmt, sizeof(sfmt));
	assert_true(s.dec.stack_type >= 0);
	tick(&s, t);		/* the zones and the pageblock order: what "fragmenting" needs */
	fallbacks_with_stacks(&s, fmt, sfmt, ts, stk, 5);
	t *= 2;
	apply(&s, FT_RR_TICK, 0, t, &t, 8);
	assert_int_equal(s.events.extfrag.total, 5);
	assert_int_equal(s.events.nr_stacks, 3);
	assert_int_equal(s.events.stacks[0].fb.total, 2);
	assert_int_equal(s.events.stacks[0].fb.fragmenting, 2);
	assert_int_equal(s.events.stacks[1].fb.total, 1);
	assert_int_equal(s.events.stacks[1].fb.fragmenting, 0);	/* order 9: not fragmenting */
	assert_int_equal(s.events.stacks[2].fb.total, 1);
	assert_int_equal(s.events.stacks[0].n, 4);
	assert_int_equal(s.events.stacks[1].ip[3], 0xffffffff81000000ull + 0x200 + 3);
	assert_int_equal(s.events.stack_other.total, 0);
	ft_session_release(&s);
}

/*
 * --stacks' other inputs: KSYM names a frame (untrusted: a name no
 * kallsyms line has is refused), SOURCE STACKS says the trigger's state,
 * and a checkpoint keeps the names as it keeps the formats.
 */
static void test_stack_names(void **state)
{
	static struct ft_session s;
	static char fmt[1 << 16], sfmt[1 << 12];
	static const uint64_t ts[] = { 100 };
	static const int stk[] = { 1 };
	uint8_t rec[8 + 64], src[8];
	uint64_t t = 1000000000ull, a = 0xffffffff81000000ull + 0x100;
	int32_t e = 0;
	uint32_t per = 250;
	void *blob;
	size_t len;

	(void)state;
	ft_session_init(&s);
	assert_false(ft_session_has_stacks(&s));
	fixture_format(&s, "header_page", "header_page", NULL, 0);
	fixture_format(&s, "kmem/mm_page_alloc_extfrag", "kmem/mm_page_alloc_extfrag/format", fmt,
		       sizeof(fmt));
	assert_false(ft_session_has_stacks(&s));
	fixture_format(&s, "ftrace/kernel_stack", "ftrace/kernel_stack/format", sfmt, sizeof(sfmt));
	assert_true(ft_session_has_stacks(&s));
	memcpy(rec, &a, 8);
	memcpy(rec + 8, "allocate_slab+0x1a", 18);
	apply(&s, FT_RR_KSYM, 0, t, rec, 8 + 18);
	assert_string_equal(ft_symnames_get(&s.syms, a), "allocate_slab+0x1a");
	memcpy(rec + 8, "[2J", 4);		/* a terminal escape: refused, counted */
	apply(&s, FT_RR_KSYM, 0, t, rec, 8 + 4);
	assert_string_equal(ft_symnames_get(&s.syms, a), "allocate_slab+0x1a");
	assert_int_equal(s.bad_inputs, 1);
	apply(&s, FT_RR_KSYM, 0, t, rec, 8);	/* no name */
	assert_int_equal(s.bad_inputs, 2);
	memcpy(src, &e, 4);
	memcpy(src + 4, &per, 4);
	apply(&s, FT_RR_SOURCE, FT_RS_STACKS, t, src, 8);
	assert_true(s.stacks_src.known);
	assert_int_equal(s.stacks_src.err, 0);
	assert_int_equal(s.stacks_src.per_sec, 250);
	apply(&s, FT_RR_SOURCE, FT_RS_STACKS, t, src, 4);	/* short */
	assert_int_equal(s.bad_inputs, 3);
	e = 5;						/* not an -errno */
	memcpy(src, &e, 4);
	apply(&s, FT_RR_SOURCE, FT_RS_STACKS, t, src, 8);
	assert_int_equal(s.bad_inputs, 4);
	assert_int_equal(s.stacks_src.err, 0);
	tick(&s, t);
	fallbacks_with_stacks(&s, fmt, sfmt, ts, stk, 1);
	t *= 2;
	apply(&s, FT_RR_TICK, 0, t, &t, 8);
	assert_int_equal(s.events.nr_stacks, 1);
	/* a checkpoint does not carry the names; restoring keeps the session's */
	assert_int_equal(ft_session_save(&s, &blob, &len), 0);
	assert_int_equal(ft_session_restore(&s, blob, len), 0);
	free(blob);
	assert_string_equal(ft_symnames_get(&s.syms, a), "allocate_slab+0x1a");
	assert_int_equal(s.events.nr_stacks, 1);
	ft_session_release(&s);
}

/* An OWNER input: the block at @pfn (512 pages), @text its pinning allocations. */
static void owner(struct ft_session *s, uint64_t t, uint64_t pfn, const char *text, size_t tlen)
{
	static uint8_t rec[FT_REC_OWNER_HDR + FT_REC_OWNER_TEXT + 16];
	uint32_t pages = 512, entries = 3, cut = 0, flags = 0;
	uint64_t other = 500;

	memcpy(rec, &pfn, 8);
	memcpy(rec + 8, &pages, 4);
	memcpy(rec + 12, &entries, 4);
	memcpy(rec + 16, &other, 8);
	memcpy(rec + 24, &cut, 4);
	memcpy(rec + 28, &flags, 4);
	memcpy(rec + FT_REC_OWNER_HDR, text, tlen);
	apply(s, FT_RR_OWNER, 0, t, rec, FT_REC_OWNER_HDR + tlen);
}

/*
 * page_owner looks: the newest of each block is kept, bounded, carried by
 * a checkpoint; malformed ones are counted and change nothing.
 */
static void test_owner_looks(void **state)
{
	static struct ft_session s, c;
	static char big[FT_REC_OWNER_TEXT];
	const struct ft_owner_look *o;
	int32_t e = -2;
	uint64_t pfn;
	void *blob;
	size_t len;

	(void)state;
	ft_session_init(&s);
	assert_null(ft_session_owner(&s, 0x10000));
	apply(&s, FT_RR_SOURCE, FT_RS_OWNER, 1, &e, 4);
	assert_true(s.owner_src.known);
	assert_int_equal(s.owner_src.err, -2);
	e = 2;	/* a positive errno is not one */
	apply(&s, FT_RR_SOURCE, FT_RS_OWNER, 1, &e, 4);
	assert_int_equal(s.owner_src.err, -2);
	assert_int_equal(s.bad_inputs, 1);
	owner(&s, 5, 0x10000, "first", 5);
	owner(&s, 6, 0x10200, "other", 5);
	owner(&s, 7, 0x10000, "second", 6);
	assert_int_equal(s.owners.nr, 2);
	o = ft_session_owner(&s, 0x10000);
	assert_non_null(o);
	assert_string_equal(ft_session_owner_text(&s, o), "second");
	assert_int_equal(o->entries, 3);
	assert_int_equal(o->other_pages, 500);
	assert_int_equal(o->t_ns, 7);
	/* too short, text too long, no pages: refused */
	apply(&s, FT_RR_OWNER, 0, 8, big, FT_REC_OWNER_HDR - 1);
	memset(big, 0, sizeof(big));
	apply(&s, FT_RR_OWNER, 0, 8, big, FT_REC_OWNER_HDR);	/* pages 0 */
	assert_int_equal(s.bad_inputs, 3);
	assert_int_equal(s.owners.nr, 2);
	/* show_stacks: the last one kept, NUL-ended, with its cut flag; a short one refused */
	{
		uint8_t st[64];
		uint32_t fl = FT_OWNER_STACKS_CUT;

		memcpy(st, &fl, 4);
		memcpy(st + 4, " a+0x1/0x2\nnr_base_pages: 5\n\n", 30);
		apply(&s, FT_RR_OWNER, FT_OWNER_STACKS, 9, st, 4 + 30);
		assert_int_equal(s.owners.stacks_len, 31);
		assert_string_equal(s.owners.stacks, " a+0x1/0x2\nnr_base_pages: 5\n\n");
		assert_true(s.owner_src.stacks_cut);
		assert_int_equal(s.owner_src.stacks_t_ns, 9);
		apply(&s, FT_RR_OWNER, FT_OWNER_STACKS, 10, st, 3);
		assert_int_equal(s.bad_inputs, 4);
		apply(&s, FT_RR_OWNER, 7, 10, st, 40);	/* a newer kind: skipped, not bad */
		assert_int_equal(s.bad_inputs, 4);
		assert_int_equal(s.owners.nr, 2);
	}
	/* a checkpoint carries the looks */
	assert_int_equal(ft_session_save(&s, &blob, &len), 0);
	ft_session_init(&c);
	assert_int_equal(ft_session_restore(&c, blob, len), 0);
	free(blob);
	o = ft_session_owner(&c, 0x10200);
	assert_non_null(o);
	assert_string_equal(ft_session_owner_text(&c, o), "other");
	assert_string_equal(c.owners.stacks, " a+0x1/0x2\nnr_base_pages: 5\n\n");
	assert_int_equal(c.owner_src.stacks_t_ns, 9);
	ft_session_release(&c);
	/* bounded: looks and text; the newest stay, texts intact */
	memset(big, 'x', sizeof(big));
	for (pfn = 0; pfn < 2 * FT_OWNERS_LOOKS; pfn++)
		owner(&s, 10 + pfn, 0x100000 + pfn * 512, big, pfn % 7 ? 10 : sizeof(big) - 1);
	assert_true(s.owners.nr <= FT_OWNERS_LOOKS);
	assert_true(s.owners.text_len <= FT_OWNERS_TEXT);
	o = ft_session_owner(&s, 0x100000 + (2 * FT_OWNERS_LOOKS - 1) * 512);
	assert_non_null(o);
	assert_int_equal(o->text_len, 10);	/* 2047 % 7 != 0 */
	assert_int_equal(strlen(ft_session_owner_text(&s, o)), 10);
	assert_null(ft_session_owner(&s, 0x100000));
	for (len = 0; len < s.owners.nr; len++)
		assert_int_equal(strlen(ft_session_owner_text(&s, &s.owners.looks[len])),
				 s.owners.looks[len].text_len);
	assert_int_equal(s.owner_src.looks, 3 + 2 * FT_OWNERS_LOOKS);
	ft_session_release(&s);
}

/* A tick of the 6.18-idle fixture's texts. */
static void tick(struct ft_session *s, uint64_t t)
{
	assert_true(fixture_procs(s, "6.18-idle", t));
	apply(s, FT_RR_KNOB, 0, t, "15000\n", 6);
	apply(s, FT_RR_TICK, 0, t, &t, 8);
}

static void test_checkpoint(void **state)
{
	static struct ft_session s;
	void *blob;
	size_t len;
	uint64_t ticks;
	size_t zones;

	(void)state;
	ft_session_init(&s);
	apply(&s, FT_RR_HOST, 0, 1, "hostname=h\npageblock_order=9\n", 29);
	tick(&s, 1000000000);
	name(&s, 77, "kcompactd0");
	tick(&s, 2000000000);
	ticks = s.ticks;
	zones = s.sample.nr_zones;
	assert_true(zones >= 3);
	assert_int_equal(ft_session_save(&s, &blob, &len), 0);
	tick(&s, 3000000000);
	name(&s, 77, "changed");
	assert_int_equal(s.ticks, ticks + 1);
	assert_int_equal(ft_session_restore(&s, blob, len), 0);
	assert_int_equal(s.ticks, ticks);
	assert_int_equal(s.tick_t_ns, 2000000000);
	assert_string_equal(ft_session_name(&s, 77), "kcompactd0");
	assert_int_equal(s.sample.nr_zones, zones);
	assert_non_null(s.sample.zones[0].zi);	/* the join points into the restored arrays */
	assert_int_equal(s.sample.zones[0].zi->node, 0);
	assert_int_equal(s.knobs[0].num, 15000);
	/* a damaged checkpoint is refused, and the session still works */
	((uint8_t *)blob)[len / 2] ^= 0xff;
	assert_int_not_equal(ft_session_restore(&s, blob, len), 0);
	assert_int_equal(ft_session_restore(&s, blob, 7), -EBADMSG);
	free(blob);
	tick(&s, 4000000000);
	assert_int_equal(s.sample.nr_zones, zones);
	ft_session_release(&s);
}

/*
 * The codec's tables place every member of the session, and of a map
 * zone, once: saved, kept by the restoring session, or an owned array's
 * pointer and counts (model/checkpoint.c).  What they leave must be
 * alignment padding: runs shorter than 8 bytes that end where the next
 * member's alignment starts.  So a pointer or any member of 8 bytes or
 * more added to either struct fails here until it is placed.  (GCC 12's
 * __builtin_clear_padding misplaces the padding of arrays of structs, so
 * the padding is told by its shape, not by the compiler.)
 */
static void check_cover(enum ft_ck_struct which, size_t size, const char *what)
{
	uint8_t *cover = calloc(size, 1);
	size_t k = 0, a, bad = 0;

	assert_non_null(cover);
	assert_int_equal(ft_checkpoint_cover(which, cover, size), 0);
	while (k < size) {
		if (cover[k]) {
			k++;
			continue;
		}
		for (a = k; k < size && !cover[k]; k++)
			;
		if (k - a >= 8 ||
		    !(k % 8 == 0 || (k - a < 4 && k % 4 == 0) || (k - a < 2 && k % 2 == 0))) {
			print_message("%s: bytes %zu..%zu are in no table of the codec\n", what, a,
				      k - 1);
			bad++;
		}
	}
	free(cover);
	assert_int_equal(bad, 0);
}

static void test_checkpoint_tables(void **state)
{
	(void)state;
	check_cover(FT_CK_SESSION, sizeof(struct ft_session), "struct ft_session");
	check_cover(FT_CK_PBZONE, sizeof(struct ft_pbmap_zone), "struct ft_pbmap_zone");
}

/*
 * Map input before the first tick (a recorder's first look at the map can
 * come before it): held, and applied once that tick lays the zones out,
 * not skipped.  A malformed input is counted and the first ones said:
 * what it was, after which tick, why.
 */
static void test_map_before_first_tick(void **state)
{
	static struct ft_session s, ref;
	static uint8_t rec[8 + 2 * FT_PB_SAMPLE_WORDS * 8];
	uint64_t pfn, w[2 * FT_PB_SAMPLE_WORDS], lru = 1u << FT_KPF_LRU;
	size_t i, zi;
	int k;

	(void)state;
	/* where block 5 of Normal is, from a session that has ticked */
	ft_session_init(&ref);
	apply(&ref, FT_RR_HOST, 0, 1, "hostname=h\npageblock_order=9\n", 29);
	tick(&ref, 1000000000);
	zi = ref.map.nr - 1;
	pfn = (ref.map.zones[zi].first_block + 5) << 9;
	ft_session_release(&ref);
	for (i = 0; i < FT_PB_SAMPLE_WORDS; i++) {
		w[i] = lru;
		w[FT_PB_SAMPLE_WORDS + i] = UINT64_MAX;
	}
	memcpy(rec, &pfn, 8);
	memcpy(rec + 8, w, sizeof(w));
	ft_session_init(&s);
	apply(&s, FT_RR_HOST, 0, 1, "hostname=h\npageblock_order=9\n", 29);
	apply(&s, FT_RR_KPF, (uint16_t)(zi | FT_KPF_SAMPLE), 2, rec, 8 + sizeof(w));
	assert_int_equal(s.bad_inputs, 0);
	assert_true(s.kpf_early_len > 8 + sizeof(w));
	tick(&s, 1000000000);
	assert_int_equal(s.kpf_early_len, 0);
	assert_null(s.kpf_early);
	assert_int_equal(s.bad_inputs, 0);
	assert_int_equal(s.map.zones[zi].sampled, 1);
	assert_int_equal(s.map.zones[zi].blocks[5].scls, FT_PB_MOVABLE);
	/* after the first tick, a malformed one is skipped and said */
	apply(&s, FT_RR_NAME, 0, 3, "abc", 3);
	assert_int_equal(s.bad_inputs, 1);
	assert_int_equal(s.bad[0].type, FT_RR_NAME);
	assert_int_equal(s.bad[0].len, 3);
	assert_int_equal(s.bad[0].tick, 1);
	assert_string_equal(s.bad[0].why, "process name: length");
	for (k = 0; k < FT_SESSION_BAD_KEPT + 3; k++)
		apply(&s, FT_RR_TRACE_LOST, 0, 4, "x", 1);
	assert_int_equal(s.bad_inputs, FT_SESSION_BAD_KEPT + 4);
	assert_string_equal(s.bad[FT_SESSION_BAD_KEPT - 1].why, "lost-events count: length");
	/* the first ones are kept */
	assert_string_equal(s.bad[0].why, "process name: length");
	ft_session_release(&s);
}

/*
 * The map's inputs: a sample (KPF with FT_KPF_SAMPLE) marks a block as
 * known from a few pages; a whole batch replaces it; malformed ones are
 * counted and change nothing.
 */
static void test_map_samples(void **state)
{
	static struct ft_session s;
	static uint8_t rec[8 + 512 * 16];
	const struct ft_pbmap_zone *z;
	uint64_t pfn, w[2 * FT_PB_SAMPLE_WORDS], lru = 1u << FT_KPF_LRU, bad;
	size_t i, zi;

	(void)state;
	ft_session_init(&s);
	apply(&s, FT_RR_HOST, 0, 1, "hostname=h\npageblock_order=9\n", 29);
	tick(&s, 1000000000);
	assert_int_equal(s.map.order, 9);
	zi = s.map.nr - 1;	/* Normal */
	z = &s.map.zones[zi];
	pfn = (z->first_block + 5) << 9;
	for (i = 0; i < FT_PB_SAMPLE_WORDS; i++) {
		w[i] = lru;
		w[FT_PB_SAMPLE_WORDS + i] = UINT64_MAX;
	}
	memcpy(rec, &pfn, 8);
	memcpy(rec + 8, w, sizeof(w));
	apply(&s, FT_RR_KPF, (uint16_t)(zi | FT_KPF_SAMPLE), 2, rec, 8 + sizeof(w));
	z = &s.map.zones[zi];
	assert_int_equal(z->sampled, 1);
	assert_int_equal(z->blocks[5].scls, FT_PB_MOVABLE);
	assert_int_equal(z->blocks[5].cls, FT_PB_UNSCANNED);
	assert_int_equal(s.bad_inputs, 0);
	/* malformed: a sample longer than a block, not on a block's first PFN, past the zone */
	bad = s.bad_inputs;
	apply(&s, FT_RR_KPF, (uint16_t)(zi | FT_KPF_SAMPLE), 2, rec, 8 + 513 * 16);
	pfn++;
	memcpy(rec, &pfn, 8);
	apply(&s, FT_RR_KPF, (uint16_t)(zi | FT_KPF_SAMPLE), 2, rec, 8 + sizeof(w));
	pfn = (z->first_block + z->nr_blocks) << 9;
	memcpy(rec, &pfn, 8);
	apply(&s, FT_RR_KPF, (uint16_t)(zi | FT_KPF_SAMPLE), 2, rec, 8 + sizeof(w));
	/* a length the model refuses (not a multiple of the runs) */
	pfn = (z->first_block + 6) << 9;
	memcpy(rec, &pfn, 8);
	apply(&s, FT_RR_KPF, (uint16_t)(zi | FT_KPF_SAMPLE), 2, rec,
	      8 + 16 * (FT_PB_SAMPLE_SPOTS + 1));
	assert_int_equal(s.bad_inputs, bad + 4);
	assert_int_equal(s.map.zones[zi].sampled, 1);
	/* a whole read of block 5 replaces its sample */
	pfn = (z->first_block + 5) << 9;
	memcpy(rec, &pfn, 8);
	for (i = 0; i < 512; i++) {
		uint64_t f = 1u << FT_KPF_BUDDY, c = 0;

		memcpy(rec + 8 + i * 8, &f, 8);
		memcpy(rec + 8 + 512 * 8 + i * 8, &c, 8);
	}
	apply(&s, FT_RR_KPF, (uint16_t)(zi | FT_KPF_RESCAN), 3, rec, 8 + 512 * 16);
	z = &s.map.zones[zi];
	assert_int_equal(z->sampled, 0);
	assert_int_equal(z->blocks[5].cls, FT_PB_FREE);
	assert_int_equal(z->blocks[5].scls, FT_PB_UNSCANNED);
	ft_session_release(&s);
}

/* Stall windows: the last 10 s and 1 min from the tick ring, since the start from the total. */
static void test_lat_window(void **state)
{
	static struct ft_session s;
	static char buf[1 << 16];
	struct ft_hist h;
	uint64_t t, k, want;
	size_t hl, n;
	FILE *fp;

	(void)state;
	ft_session_init(&s);
	hl = (size_t)snprintf(buf, sizeof(buf), "kmem/mm_page_alloc_extfrag\n");
	fp = fopen("tests/fixtures/6.18-idle/sys/kernel/tracing/events/kmem/mm_page_alloc_extfrag/f"
		   "ormat", "r");
	assert_non_null(fp);
	n = fread(buf + hl, 1, sizeof(buf) - hl, fp);
	fclose(fp);
	apply(&s, FT_RR_TRACE_FMT, 0, 1, buf, hl + n);
	assert_true(s.tracing);
	assert_true(ft_session_lat_window(&s, FT_LAT_COMPACTION, 10, &h) == 0);
	assert_int_equal(h.count, 0);
	/* tick k (at k s) brings k stalls of 10*k us, as the decoder would count them */
	for (k = 1; k <= 100; k++) {
		for (t = 0; t < k; t++)
			ft_hist_add(&s.events.lat[FT_LAT_COMPACTION], 10 * k);
		t = k * 1000000000ull;
		apply(&s, FT_RR_TICK, 0, t, &t, 8);
	}
	assert_true(ft_session_lat_window(&s, FT_LAT_COMPACTION, 10, &h) == 10.0);
	for (want = 0, k = 91; k <= 100; k++)
		want += k;
	assert_int_equal(h.count, want);
	assert_int_equal(h.max_us, 1000);
	assert_true(ft_hist_percentile(&h, 0.1) >= 910 &&
		    ft_hist_percentile(&h, 0.1) <= 910 + 910 / 16);
	assert_true(ft_session_lat_window(&s, FT_LAT_COMPACTION, 60, &h) == 60.0);
	for (want = 0, k = 41; k <= 100; k++)
		want += k;
	assert_int_equal(h.count, want);
	/* longer than the ring: what it holds, and says so */
	assert_true(ft_session_lat_window(&s, FT_LAT_COMPACTION, 3600, &h) == FT_LAT_RING);
	assert_int_equal(h.count, want);
	/* since the start: everything */
	assert_true(ft_session_lat_window(&s, FT_LAT_COMPACTION, 0, &h) == 99.0);
	assert_int_equal(h.count, 5050);
	assert_int_equal(ft_session_lat_window(&s, FT_LAT_RECLAIM, 10, &h) > 0, 1);
	assert_int_equal(h.count, 0);
	/* the newest tick alone, as plot's heat map reads it */
	assert_true(ft_session_lat_last(&s, FT_LAT_COMPACTION, &h));
	assert_int_equal(h.count, 100);
	assert_int_equal(h.bucket[ft_hist_bucket(1000)], 100);
	/* a tick keeps only its non-empty buckets: here one */
	assert_int_equal(s.lat.cells[(s.lat.state.n - 1) % FT_LAT_RING][FT_LAT_COMPACTION].nr, 1);
	assert_int_equal(s.lat.cells[(s.lat.state.n - 1) % FT_LAT_RING][FT_LAT_RECLAIM].nr, 0);
	/* a bucket's count past 2^32 in one tick is kept whole (two cells) */
	s.events.lat[FT_LAT_RECLAIM].bucket[ft_hist_bucket(50)] += 5000000000ull;
	s.events.lat[FT_LAT_RECLAIM].count += 5000000000ull;
	s.events.lat[FT_LAT_RECLAIM].sum_us += 50 * 5000000000ull;
	s.events.lat[FT_LAT_RECLAIM].max_us = 50;
	t = 101 * 1000000000ull;
	apply(&s, FT_RR_TICK, 0, t, &t, 8);
	assert_int_equal(s.lat.cells[(s.lat.state.n - 1) % FT_LAT_RING][FT_LAT_RECLAIM].nr, 2);
	assert_true(ft_session_lat_window(&s, FT_LAT_RECLAIM, 10, &h) > 0);
	assert_int_equal(h.count, 5000000000ull);
	assert_int_equal(h.bucket[ft_hist_bucket(50)], 5000000000ull);
	assert_int_equal(h.max_us, 50);
	ft_session_release(&s);
}

/* History: one value per tick per zone, NAN before the start, knob changes marked. */
static void test_history(void **state)
{
	static struct ft_session s;
	double v[4];
	uint8_t mk[4];
	uint64_t t[4], t3 = 3000000000ull;
	size_t i;
	int normal = -1;

	(void)state;
	ft_session_init(&s);
	apply(&s, FT_RR_HOST, 0, 1, "hostname=h\npageblock_order=9\n", 29);
	tick(&s, 1000000000);
	tick(&s, 2000000000);
	apply(&s, FT_RR_KNOB, 0, t3, "0\n", 2);	/* the boost factor 15000 -> 0 */
	apply(&s, FT_RR_TICK, 0, t3, &t3, 8);
	for (i = 0; i < s.sample.nr_zones; i++)
		if (!strcmp(s.sample.zones[i].zi->name, "Normal"))
			normal = (int)i;
	assert_true(normal >= 0);
	ft_session_history(&s, normal, FT_ZH_FREE, 0, 4, v, mk, t);
	assert_true(isnan(v[0]));
	assert_int_equal(t[0], 0);
	for (i = 1; i < 4; i++) {
		assert_true(v[i] == (double)s.sample.zones[normal].zi->free);
		assert_int_equal(t[i], i * 1000000000ull);
	}
	assert_int_equal(mk[1], 0);	/* the first value is no change */
	assert_int_equal(mk[2], 0);	/* nor the same one again */
	assert_int_equal(mk[3], 1);	/* ft_knobs[0] changed in the third tick */
	ft_session_history(&s, normal, FT_ZH_UNUSABLE, 0, 1, v, NULL, NULL);
	assert_true(v[0] >= 0 && v[0] <= 1);
	assert_true(fabs(v[0] - s.sample.zones[normal].unusable[9] / 1000.0) < 1e-6);
	/* one tick back: the second tick, unmarked */
	ft_session_history(&s, normal, FT_ZH_FREE, 1, 1, v, mk, t);
	assert_int_equal(t[0], 2000000000ull);
	assert_int_equal(mk[0], 0);
	/* no sampler, no trace: share boosted and fallback rate unknown */
	ft_session_history(&s, normal, FT_ZH_BOOSTED, 0, 1, v, NULL, NULL);
	assert_true(isnan(v[0]));
	ft_session_history(&s, normal, FT_ZH_FRAG_RATE, 0, 1, v, NULL, NULL);
	assert_true(isnan(v[0]));
	/* the ring wraps: the newest FT_HISTORY_LEN ticks stay */
	for (i = 4; i < FT_HISTORY_LEN + 10; i++) {
		uint64_t tt = i * 1000000000ull;

		apply(&s, FT_RR_TICK, 0, tt, &tt, 8);
	}
	ft_session_history(&s, normal, FT_ZH_FREE, FT_HISTORY_LEN - 2, 2, v, NULL, t);
	assert_false(isnan(v[0]) || isnan(v[1]));
	ft_session_history(&s, normal, FT_ZH_FREE, FT_HISTORY_LEN - 1, 2, v, NULL, t);
	assert_true(isnan(v[0]) && !isnan(v[1]));	/* one past the oldest kept */
	ft_session_history(&s, FT_BOOST_ZONES, FT_ZH_FREE, 0, 1, v, NULL, NULL);
	assert_true(isnan(v[0]));
	/* the rings hold the host's zones, no more: one past them reads as never known */
	assert_int_equal(s.hist.zones, s.sample.nr_zones);
	ft_session_history(&s, (int)s.sample.nr_zones, FT_ZH_FREE, 0, 4, v, NULL, NULL);
	for (i = 0; i < 4; i++)
		assert_true(isnan(v[i]));
	ft_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_audits_bounded),
		cmocka_unit_test(test_tick_backwards),
		cmocka_unit_test(test_mapscan_source),
		cmocka_unit_test(test_self_source),
		cmocka_unit_test(test_formats_once),
		cmocka_unit_test(test_trace_time_order),
		cmocka_unit_test(test_trace_queue_trimmed),
		cmocka_unit_test(test_fallbacks_by_stack),
		cmocka_unit_test(test_stack_names),
		cmocka_unit_test(test_owner_looks),
		cmocka_unit_test(test_checkpoint),
		cmocka_unit_test(test_checkpoint_tables),
		cmocka_unit_test(test_map_samples),
		cmocka_unit_test(test_map_before_first_tick),
		cmocka_unit_test(test_lat_window),
		cmocka_unit_test(test_history),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
