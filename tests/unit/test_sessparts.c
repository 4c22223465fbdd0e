// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's parts, each alone: the trace reorder queue, the latency
 * ring, the history rings, direct compaction's cost, the page_owner store,
 * the host facts and the "key=value" reader they share.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/counterfield.h"
#include "model/direct.h"
#include "model/history.h"
#include "kernel/hostfacts.h"
#include "model/latring.h"
#include "model/owners.h"
#include "base/text.h"
#include "model/trq.h"

/* the order the queue hands fallbacks over, by their PFNs */
static uint64_t seen[64];
static size_t nr_seen;

static void saw(void *ctx, uint64_t pfn, int pid, bool fragmenting)
{
	(void)ctx;
	(void)pid;
	(void)fragmenting;
	if (nr_seen < 64)
		seen[nr_seen++] = pfn;
}

static struct ft_trace_rec fb(uint64_t ts, int cpu, uint64_t pfn)
{
	struct ft_trace_rec r = { .kind = FT_EV_EXTFRAG, .ts = ts, .cpu = cpu, .pid = 1 };

	r.u.extfrag.pfn = pfn;
	return r;
}

static void test_trq_order(void **state)
{
	static struct ft_events ev;
	struct ft_trq q = { 0 };
	/* two CPUs' sub-buffers read one after the other; a tie in ts goes by CPU, then arrival */
	const struct ft_trace_rec in[] = {
		fb(0x100000002, 1, 1), fb(0x100000005, 1, 2), fb(0x100000005, 1, 3),
		fb(0x100000001, 0, 4), fb(0x100000005, 0, 5), fb(0x200000000, 0, 6),
	};
	const uint64_t want[] = { 4, 1, 5, 2, 3, 6 };
	size_t i;

	(void)state;
	ft_events_init(&ev, 9);
	ev.on_fallback = saw;
	nr_seen = 0;
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		ft_trq_push(&q, &ev, &in[i]);
	assert_int_equal(q.nr, 6);
	assert_int_equal(ft_trq_last(&q)->u.extfrag.pfn, 6);
	assert_int_equal(nr_seen, 0);		/* nothing counted before the flush */
	ft_trq_flush(&q, &ev);
	assert_int_equal(q.nr, 0);
	assert_null(ft_trq_last(&q));
	assert_int_equal(nr_seen, 6);
	assert_memory_equal(seen, want, sizeof(want));
	/* in order already: as they came */
	nr_seen = 0;
	ft_trq_push(&q, &ev, &in[3]);
	ft_trq_push(&q, &ev, &in[0]);
	ft_trq_flush(&q, &ev);
	assert_int_equal(nr_seen, 2);
	assert_int_equal(seen[0], 4);
	assert_int_equal(seen[1], 1);
	ft_trq_release(&q);
	assert_null(q.r);
}

static void test_trq_trim(void **state)
{
	static struct ft_events ev;
	struct ft_trq q = { 0 };
	struct ft_trace_rec r = fb(1, 0, 1);
	size_t i;

	(void)state;
	ft_events_init(&ev, 9);
	for (i = 0; i < 4 * FT_TRQ_KEEP; i++)
		ft_trq_push(&q, &ev, &r);
	assert_true(q.cap >= 4 * FT_TRQ_KEEP);
	ft_trq_flush(&q, &ev);
	ft_trq_trim(&q, 4 * FT_TRQ_KEEP);	/* the tick used all of it: kept */
	assert_non_null(q.r);
	ft_trq_trim(&q, 10);			/* a quiet tick after the burst: given back */
	assert_null(q.r);
	assert_int_equal(q.cap, 0);
	ft_trq_push(&q, &ev, &r);
	ft_trq_trim(&q, 1);			/* the first room is kept however quiet */
	assert_int_equal(q.cap, FT_TRQ_KEEP);
	ft_trq_release(&q);
}

static void test_latring(void **state)
{
	static struct ft_latring r;
	struct ft_hist tot[FT_LAT_NR], out;
	uint64_t t;

	(void)state;
	memset(&r, 0, sizeof(r));
	memset(tot, 0, sizeof(tot));
	assert_false(ft_latring_last(&r, FT_LAT_COMPACTION, &out));
	assert_int_equal(ft_latring_newest_ns(&r), 0);
	/* 70 one-second ticks; tick k has k stalls of 100 us of compaction, none of reclaim */
	for (t = 1; t <= 70; t++) {
		uint64_t k;

		for (k = 0; k < t; k++)
			ft_hist_add(&tot[FT_LAT_COMPACTION], 100);
		ft_latring_push(&r, tot, (t - 1) * 1000000000ull, t * 1000000000ull);
	}
	assert_int_equal(ft_latring_newest_ns(&r), 70000000000ull);
	assert_true(ft_latring_last(&r, FT_LAT_COMPACTION, &out));
	assert_int_equal(out.count, 70);
	assert_int_equal(out.sum_us, 7000);
	assert_true(ft_latring_last(&r, FT_LAT_RECLAIM, &out));
	assert_int_equal(out.count, 0);
	/* the last 10 s: ticks 61..70 started within them */
	assert_true(fabs(ft_latring_window(&r, FT_LAT_COMPACTION, 10, 70000000000ull, &out) -
			 10) < 1e-9);
	assert_int_equal(out.count, 61 + 62 + 63 + 64 + 65 + 66 + 67 + 68 + 69 + 70);
	assert_int_equal(out.bucket[ft_hist_bucket(100)], out.count);
	/* longer than the ring: what it holds, FT_LAT_RING ticks */
	assert_true(fabs(ft_latring_window(&r, FT_LAT_COMPACTION, 3600, 70000000000ull, &out) -
			 FT_LAT_RING) < 1e-9);
	assert_int_equal(out.count, (11 + 70) * FT_LAT_RING / 2);
	ft_latring_release(&r);
	assert_int_equal(r.state.n, 0);
}

static void test_history(void **state)
{
	static struct ft_history h;
	float v[2][FT_ZH_NR];
	double out[4];
	uint8_t marks[4];
	uint64_t t[4];
	int m;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (m = 0; m < FT_ZH_NR; m++)
		v[0][m] = v[1][m] = NAN;
	v[0][FT_ZH_FREE] = 100;
	ft_history_push(&h, (const float (*)[FT_ZH_NR])v, 1, 5, 1000, 0);
	v[0][FT_ZH_FREE] = 200;
	v[1][FT_ZH_FREE] = 7;		/* a second zone from the second tick: NAN before it */
	ft_history_push(&h, (const float (*)[FT_ZH_NR])v, 2, 6, 2000, 3);
	assert_int_equal(h.zones, 2);
	ft_history_get(&h, 0, FT_ZH_FREE, 0, 4, out, marks, t);
	assert_true(isnan(out[0]) && isnan(out[1]));
	assert_true(out[2] == 100 && out[3] == 200);
	assert_int_equal(marks[3], 3);
	assert_int_equal(marks[2], 0);
	assert_int_equal(t[2], 1000);
	assert_int_equal(t[0], 0);
	ft_history_get(&h, 1, FT_ZH_FREE, 0, 2, out, NULL, NULL);
	assert_true(isnan(out[0]) && out[1] == 7);
	ft_history_get(&h, -1, FT_ZH_FREE, 1, 1, out, NULL, NULL);	/* stalls, one tick back */
	assert_true(out[0] == 5);
	ft_history_get(&h, 2, FT_ZH_FREE, 0, 1, out, NULL, NULL);	/* a zone never seen */
	assert_true(isnan(out[0]));
	/* a tick without the second zone: NAN there, the ring keeps its place */
	ft_history_push(&h, (const float (*)[FT_ZH_NR])v, 1, 6, 3000, 0);
	ft_history_get(&h, 1, FT_ZH_FREE, 0, 1, out, NULL, NULL);
	assert_true(isnan(out[0]));
}

static void test_direct(void **state)
{
	struct ft_direct d = { 0 };
	int64_t v[FT_CF_NR] = { 0 };
	uint32_t have = 1u << FT_CF_MIGRATE_SCANNED;

	(void)state;
	v[FT_CF_MIGRATE_SCANNED] = 1000;
	v[FT_CF_DAEMON_MIGRATE_SCANNED] = 400;
	ft_direct_tick(&d, v, have, 0);		/* the base */
	assert_int_equal(d.cost.ticks, 0);
	v[FT_CF_MIGRATE_SCANNED] = 1500;	/* 500 more, 100 of them kcompactd's */
	v[FT_CF_DAEMON_MIGRATE_SCANNED] = 500;
	v[FT_CF_COMPACT_STALL] = 2;
	ft_direct_tick(&d, v, have, 0);
	assert_int_equal(d.cost.ticks, 1);
	assert_int_equal(d.cost.migrate, 400);
	assert_int_equal(d.cost.stalls, 2);
	/* a foreign background compaction ended: this tick and the next are left out */
	v[FT_CF_MIGRATE_SCANNED] = 9000;
	v[FT_CF_COMPACT_STALL] = 3;
	ft_direct_tick(&d, v, have, 1);
	v[FT_CF_MIGRATE_SCANNED] = 9100;
	ft_direct_tick(&d, v, have, 1);
	assert_int_equal(d.cost.ticks_out, 2);
	assert_int_equal(d.cost.stalls_out, 1);
	assert_int_equal(d.cost.migrate, 400);
	v[FT_CF_MIGRATE_SCANNED] = 9150;	/* counted again */
	ft_direct_tick(&d, v, have, 1);
	assert_int_equal(d.cost.migrate, 450);
	v[FT_CF_MIGRATE_SCANNED] = 100;		/* a counter that went back adds nothing */
	ft_direct_tick(&d, v, have, 1);
	assert_int_equal(d.cost.migrate, 450);
	ft_direct_tick(&d, v, 0, 1);		/* without the scanners' rows: not a tick */
	assert_int_equal(d.cost.ticks, 3);
}

/* The scanners' pages by who ran them: direct (the account), kcompactd's, the rest. */
static void test_direct_kinds(void **state)
{
	struct ft_direct d = { 0 };
	int64_t first[FT_CF_NR] = { 0 }, now[FT_CF_NR] = { 0 };
	struct ft_scan_kinds k;

	(void)state;
	first[FT_CF_MIGRATE_SCANNED] = 1000;
	first[FT_CF_DAEMON_MIGRATE_SCANNED] = 100;
	/* 5000 more: 300 kcompactd's, 700 direct, the rest compact_memory's */
	now[FT_CF_MIGRATE_SCANNED] = 6000;
	now[FT_CF_DAEMON_MIGRATE_SCANNED] = 400;
	now[FT_CF_FREE_SCANNED] = 50;
	d.cost.migrate = 700;
	/* more than the growth (a counter went back): no rest */
	d.cost.free = 60;
	ft_direct_kinds(&d, first, now, &k);
	assert_int_equal(k.direct[0], 700);
	assert_int_equal(k.kcompactd[0], 300);
	assert_int_equal(k.other[0], 4000);
	assert_int_equal(k.direct[0] + k.kcompactd[0] + k.other[0], 5000);
	assert_int_equal(k.direct[1], 60);
	assert_int_equal(k.other[1], 0);
}

static void test_owners(void **state)
{
	struct ft_owners o = { 0 };
	struct ft_owner_look l = { .pages = 512, .entries = 1 };
	const struct ft_owner_look *f;
	char text[32];
	uint64_t pfn;
	size_t i;

	(void)state;
	l.pfn = 512;
	assert_int_equal(ft_owners_add(&o, &l, "first", 5), 0);
	l.pfn = 1024;
	assert_int_equal(ft_owners_add(&o, &l, "other", 5), 0);
	l.pfn = 512;
	/* replaces the block's look */
	assert_int_equal(ft_owners_add(&o, &l, "second!", 7), 0);
	assert_int_equal(o.nr, 2);
	f = ft_owners_find(&o, 512);
	assert_non_null(f);
	assert_string_equal(ft_owners_text(&o, f), "second!");
	assert_null(ft_owners_find(&o, 2048));
	/* past FT_OWNERS_LOOKS the oldest half goes, the texts packed */
	for (pfn = 0; pfn < 3 * FT_OWNERS_LOOKS; pfn++) {
		int n = snprintf(text, sizeof(text), "look %llu", (unsigned long long)pfn);

		l.pfn = (pfn + 4) * 512;
		assert_int_equal(ft_owners_add(&o, &l, text, (size_t)n), 0);
	}
	assert_true(o.nr <= FT_OWNERS_LOOKS);
	assert_non_null(ft_owners_find(&o, (3 * FT_OWNERS_LOOKS + 3) * 512ull));
	assert_null(ft_owners_find(&o, 512));
	for (i = 0; i < o.nr; i++)
		assert_int_equal(strlen(ft_owners_text(&o, &o.looks[i])), o.looks[i].text_len);
	assert_int_equal(ft_owners_set_stacks(&o, "a\nb", 3), 0);
	assert_int_equal(o.stacks_len, 4);
	assert_string_equal(o.stacks, "a\nb");
	ft_owners_release(&o);
	assert_int_equal(o.nr, 0);
}

static void test_hostfacts(void **state)
{
	static const char host[] = "hostname=db1\nrelease=6.18.0\npage_size=4096\npmd_order=9\n"
		"hugepage_kb=2048,1048576\nmthp_kb=16,64,32,2048\nroot=/\n";
	static const char bad[] = "page_size=3000\npmd_order=99\npageblock_order=10\n";
	struct ft_host_facts h;
	char buf[16];

	(void)state;
	ft_hostfacts_init(&h);
	assert_int_equal(h.page_size, 4096);
	assert_int_equal(h.pmd_order, -1);
	ft_hostfacts_parse(&h, host, sizeof(host) - 1);
	assert_string_equal(h.hostname, "db1");
	assert_string_equal(h.release, "6.18.0");
	assert_int_equal(h.pmd_order, 9);
	assert_int_equal(h.pageblock_order, 9);		/* none given: the PMD's */
	assert_int_equal(h.nr_huge, 2);
	assert_int_equal(h.huge_kb[1], 1048576);
	assert_int_equal(h.nr_mthp, 3);			/* ascending: 32 after 64 is not taken */
	assert_string_equal(ft_hostfacts_get(&h, "root", buf, sizeof(buf)), "/");
	assert_string_equal(ft_hostfacts_get(&h, "absent", buf, sizeof(buf)), "");
	/* out of range: not taken */
	ft_hostfacts_init(&h);
	ft_hostfacts_parse(&h, bad, strlen(bad));
	assert_int_equal(h.page_size, 4096);
	assert_int_equal(h.pmd_order, -1);
	assert_int_equal(h.pageblock_order, 10);
}

static void test_text_kv(void **state)
{
	static const char t[] = "knob=watermark_boost_factor\nold=15000\nnew=0\nmsg=a=b";
	char out[8];

	(void)state;
	ft_text_kv(t, sizeof(t) - 1, "old", out, sizeof(out));
	assert_string_equal(out, "15000");
	ft_text_kv(t, sizeof(t) - 1, "knob", out, sizeof(out));
	assert_string_equal(out, "waterma");		/* cut to the buffer */
	ft_text_kv(t, sizeof(t) - 1, "msg", out, sizeof(out));
	assert_string_equal(out, "a=b");		/* the last line, no newline */
	ft_text_kv(t, sizeof(t) - 1, "ne", out, sizeof(out));
	assert_string_equal(out, "");			/* a key is whole */
	ft_text_kv(t, 10, "old", out, sizeof(out));
	assert_string_equal(out, "");			/* nothing past the length */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trq_order),
		cmocka_unit_test(test_trq_trim),
		cmocka_unit_test(test_latring),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_direct),
		cmocka_unit_test(test_direct_kinds),
		cmocka_unit_test(test_owners),
		cmocka_unit_test(test_hostfacts),
		cmocka_unit_test(test_text_kv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
