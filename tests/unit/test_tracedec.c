// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sub-buffers built from the real format files of 6.18 and 6.1 (and a
 * synthetic mm_fragmentation_stall from the seed's patch) go through the
 * decoder and the aggregator; every aggregate is checked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/events.h"
#include "kernel/tracedec.h"
#include "kernel/zoneinfo.h"
#include "tests/helpers.h"
#include "tests/tracebuf.h"

#define EVDIR "sys/kernel/tracing/events/"

static const char stall_format[] =
	"name: mm_fragmentation_stall\n"
	"ID: 1234\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int nid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long duration;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"nid=%d duration=%lu\", REC->nid, REC->duration\n";

struct kfmt {
	char *text[FT_EV_NR];
};

/* @kernel's formats, but not those of the events in the bit mask @skip */
static void load_but(const char *kernel, struct ft_tracedec *d, struct kfmt *k, unsigned int skip)
{
	char rel[256], *hp;
	size_t len;
	int i;

	assert_int_equal(ft_tracedec_init(d), 0);
	hp = fixture_read(kernel, EVDIR "header_page", &len);
	assert_non_null(hp);
	assert_int_equal(ft_tracedec_header_page(d, hp, len), 0);
	free(hp);
	for (i = 0; i < FT_EV_NR; i++) {
		snprintf(rel, sizeof(rel), EVDIR "%s/%s/format", ft_trace_events[i].system,
			 ft_trace_events[i].event);
		k->text[i] = fixture_read(kernel, rel, &len);
		if (k->text[i] && !(skip & (1u << i)))
			assert_int_equal(ft_tracedec_format(d, ft_trace_events[i].system,
							    k->text[i], len), 0);
	}
}

static void load(const char *kernel, struct ft_tracedec *d, struct kfmt *k)
{
	load_but(kernel, d, k, 0);
}

static void unload(struct ft_tracedec *d, struct kfmt *k)
{
	int i;

	for (i = 0; i < FT_EV_NR; i++)
		free(k->text[i]);
	ft_tracedec_release(d);
}

static void add(struct tracebuf *tb, const char *fmt, uint32_t delta, int pid,
		const char *const *names, const int64_t *vals, int n)
{
	unsigned char rec[112] = { 0 };
	int size = 0, i, last = 8;

	tb_set(rec, fmt, "common_type", tb_id(fmt));
	tb_set(rec, fmt, "common_pid", pid);
	for (i = 0; i < n; i++) {
		int off = tb_field(fmt, names[i], &size);

		tb_set(rec, fmt, names[i], vals[i]);
		if (off + size > last)
			last = off + size;
	}
	assert_int_equal(tb_add(tb, delta, rec, (size_t)last), 0);
}

static void extfrag(struct tracebuf *tb, const char *fmt, uint32_t delta, int pid, uint64_t pfn,
		    int ao, int fo, int amt, int fmt_, int own)
{
	static const char *const names[] = { "pfn", "alloc_order", "fallback_order",
		"alloc_migratetype", "fallback_migratetype", "change_ownership" };
	int64_t vals[] = { (int64_t)pfn, ao, fo, amt, fmt_, own };

	add(tb, fmt, delta, pid, names, vals, 6);
}

static void zones_from(const char *kernel, struct ft_events *ev)
{
	struct ft_zoneinfo zi = { 0 };
	struct ft_zone_range r[FT_EV_ZONES];
	size_t len, i;
	char *buf = fixture_read(kernel, "proc/zoneinfo", &len);
	int n = 0;

	assert_int_equal(ft_zoneinfo_parse(buf, len, &zi), 0);
	for (i = 0; i < zi.nr; i++) {
		if (!(zi.zones[i].has & FT_ZI_START_PFN) || !zi.zones[i].spanned)
			continue;
		r[n].node = zi.zones[i].node;
		strcpy(r[n].name, zi.zones[i].name);
		r[n].start = zi.zones[i].start_pfn;
		r[n].end = zi.zones[i].start_pfn + zi.zones[i].spanned;
		n++;
	}
	ft_events_set_zones(ev, r, n);
	ft_zoneinfo_release(&zi);
	free(buf);
}

static int zone_index(const struct ft_events *ev, int node, const char *name)
{
	int i;

	for (i = 0; i < ev->nr_zones; i++)
		if (ev->zones[i].node == node && !strcmp(ev->zones[i].name, name))
			return i;
	return -1;
}

/* The same scenario on both kernels' formats. */
static void scenario(const char *kernel, uint64_t dma32_pfn, uint64_t other_pfn,
		     int other_node, const char *other_zone)
{
	struct ft_tracedec d;
	struct ft_events ev;
	struct kfmt k = { 0 };
	struct tracebuf tb;
	struct ft_recent_fallback recent[4];
	const char *ef;
	int n, z;

	load(kernel, &d, &k);
	assert_true(ft_tracedec_has(&d, FT_EV_EXTFRAG));
	assert_false(ft_tracedec_has(&d, FT_EV_FRAG_STALL));
	ft_events_init(&ev, 9);
	zones_from(kernel, &ev);
	ft_events_set_status(&ev, &d);
	ef = k.text[FT_EV_EXTFRAG];

	tb_init(&tb, 1000000);
	/* a fragmenting fallback that steals the block: movable from unmovable */
	extfrag(&tb, ef, 10, 4242, dma32_pfn, 0, 3, 1, 0, 1);
	/* a whole pageblock fallback: not fragmenting */
	extfrag(&tb, ef, 10, 4242, other_pfn, 9, 9, 1, 2, 0);
	/* a fragmenting one from another task, unmovable from movable */
	extfrag(&tb, ef, 10, 777, dma32_pfn + 1, 0, 2, 0, 1, 0);
	/* direct compaction by 4242 (try_to_compact_pages opens it): 5 us, success */
	add(&tb, k.text[FT_EV_COMPACT_TRY], 500, 4242, NULL, NULL, 0);
	add(&tb, k.text[FT_EV_COMPACT_BEGIN], 500, 4242, NULL, NULL, 0);
	{
		static const char *const st[] = { "status" };
		int64_t v[] = { 8 };

		add(&tb, k.text[FT_EV_COMPACT_END], 5000, 4242, st, v, 1);
	}
	/* direct reclaim by 777: 300 us */
	{
		static const char *const o[] = { "order" };
		static const char *const nr[] = { "nr_reclaimed" };
		int64_t v[] = { 9 }, r[] = { 32 };

		add(&tb, k.text[FT_EV_RECLAIM_BEGIN], 10, 777, o, v, 1);
		add(&tb, k.text[FT_EV_RECLAIM_END], 300000, 777, nr, r, 1);
	}
	/* an end with no begin */
	add(&tb, k.text[FT_EV_RECLAIM_END], 10, 999, NULL, NULL, 0);
	{
		static const char *const w[] = { "nid", "order" };
		int64_t v[] = { 0, 9 };

		add(&tb, k.text[FT_EV_KSWAPD_WAKE], 10, 1, w, v, 2);
	}
	tb_finish(&tb, 0);

	n = ft_tracedec_subbuf(&d, tb.page, TB_PAGE, 1, ft_events_add_cb, &ev);
	assert_int_equal(n, 10);
	assert_int_equal(d.bad, 0);
	assert_int_equal(d.missed, 0);
	assert_int_equal(ev.records, 10);
	assert_true(ev.exact_direct);
	assert_int_equal(ev.direct_attempts, 1);
	assert_int_equal(ev.direct_stalls, 1);
	assert_int_equal(ev.extfrag.total, 3);
	assert_int_equal(ev.extfrag.fragmenting, 2);
	assert_int_equal(ev.extfrag.change_ownership, 1);
	assert_int_equal(ev.pair[1][0], 1);
	assert_int_equal(ev.pair[1][2], 1);
	assert_int_equal(ev.pair[0][1], 1);
	z = zone_index(&ev, 0, "DMA32");
	assert_true(z >= 0);
	assert_int_equal(ev.extfrag_zone[z].total, 2);
	assert_int_equal(ev.extfrag_zone[z].fragmenting, 2);
	z = zone_index(&ev, other_node, other_zone);
	assert_true(z >= 0);
	assert_int_equal(ev.extfrag_zone[z].total, 1);
	assert_int_equal(ev.extfrag_zone[z].fragmenting, 0);
	assert_int_equal(ev.extfrag_nozone.total, 0);
	assert_int_equal(ev.procs.nr, 2);
	assert_non_null(ft_procs_find(&ev.procs, 4242));
	assert_int_equal(ft_procs_find(&ev.procs, 4242)->c[FT_PC_EXTFRAG], 2);
	assert_int_equal(ft_procs_find(&ev.procs, 4242)->c[FT_PC_FRAGMENTING], 1);
	assert_int_equal(ft_procs_find(&ev.procs, 4242)->c[FT_PC_OWNERSHIP], 1);
	/* who paid: 4242 compacted for 5 us, 777 reclaimed for 300 us; 999's end had no begin */
	assert_int_equal(ft_procs_find(&ev.procs, 4242)->c[FT_PC_COMPACTION], 1);
	assert_int_equal(ft_procs_find(&ev.procs, 4242)->c[FT_PC_COMPACTION_US], 5);
	assert_int_equal(ft_procs_find(&ev.procs, 777)->c[FT_PC_RECLAIM], 1);
	assert_int_equal(ft_procs_find(&ev.procs, 777)->c[FT_PC_RECLAIM_US], 300);
	assert_null(ft_procs_find(&ev.procs, 999));
	assert_int_equal(ev.lat[FT_LAT_COMPACTION].count, 1);
	assert_int_equal(ev.lat[FT_LAT_COMPACTION].max_us, 5);
	assert_int_equal(ev.lat[FT_LAT_COMPACTION].bucket[5], 1);	/* 5 us: its own bucket */
	assert_int_equal(ev.lat[FT_LAT_RECLAIM].count, 1);
	assert_int_equal(ev.lat[FT_LAT_RECLAIM].max_us, 300);
	assert_int_equal(ev.lat[FT_LAT_RECLAIM].bucket[ft_hist_bucket(300)], 1);
	assert_int_equal(ev.unpaired[FT_LAT_RECLAIM], 1);
	assert_string_equal(ft_tracedec_status_name(&d, 8), "success");
	assert_string_equal(d.status_name[0], ev.compact_status_val[0] == 1 ? "skipped" : "?");
	{
		int i, found = 0;

		for (i = 0; i < ev.nr_compact_status; i++)
			if (ev.compact_status_val[i] == 8)
				found = (int)ev.compact_status[FT_CK_DIRECT][i];
		assert_int_equal(found, 1);
	}
	assert_int_equal(ev.by_kind[FT_EV_KSWAPD_WAKE], 1);
	/* newest first */
	assert_int_equal(ft_events_recent(&ev, recent, 4), 3);
	assert_int_equal(recent[0].pid, 777);
	assert_true(recent[0].pfn == dma32_pfn + 1);
	assert_int_equal(recent[2].fallback_order, 3);
	assert_true(recent[2].change_ownership);
	assert_true(recent[0].ts > recent[2].ts);
	unload(&d, &k);
}

static void test_618(void **state)
{
	(void)state;
	/* 6.18-idle: DMA32 starts at 4096, Normal at 1048576 */
	scenario("6.18-idle", 5000, 1048576 + 10, 0, "Normal");
}

static void test_61_two_nodes(void **state)
{
	(void)state;
	/* node 1 Movable: fall back to a pfn inside it (from its zoneinfo) */
	struct ft_zoneinfo zi = { 0 };
	size_t len, i;
	char *buf = fixture_read("6.1-2node-movable", "proc/zoneinfo", &len);
	uint64_t pfn = 0;

	assert_int_equal(ft_zoneinfo_parse(buf, len, &zi), 0);
	for (i = 0; i < zi.nr; i++)
		if (zi.zones[i].node == 0 && !strcmp(zi.zones[i].name, "Movable"))
			pfn = zi.zones[i].start_pfn + 1;
	ft_zoneinfo_release(&zi);
	free(buf);
	assert_true(pfn > 0);
	scenario("6.1-2node-movable", 5000, pfn, 0, "Movable");
}

static void test_stall_and_missed(void **state)
{
	struct ft_tracedec d;
	struct ft_events ev;
	struct kfmt k = { 0 };
	struct tracebuf tb;
	static const char *const f[] = { "nid", "duration" };
	int64_t v1[] = { 0, 3 }, v2[] = { 1, 4000 };

	(void)state;
	load("6.18-idle", &d, &k);
	assert_int_equal(ft_tracedec_format(&d, "kmem", stall_format, strlen(stall_format)), 0);
	assert_true(ft_tracedec_has(&d, FT_EV_FRAG_STALL));
	ft_events_init(&ev, 9);
	tb_init(&tb, 5);
	add(&tb, stall_format, 1, 50, f, v1, 2);
	add(&tb, stall_format, 1, 51, f, v2, 2);
	tb_finish(&tb, 17);
	assert_int_equal(ft_tracedec_subbuf(&d, tb.page, TB_PAGE, 0, ft_events_add_cb, &ev), 2);
	assert_int_equal(d.missed, 17);
	assert_int_equal(ev.lat[FT_LAT_FRAG_STALL].count, 2);
	assert_int_equal(ev.lat[FT_LAT_FRAG_STALL].sum_us, 4003);
	assert_int_equal(ev.lat[FT_LAT_FRAG_STALL].bucket[3], 1);	/* 3 us */
	assert_int_equal(ev.lat[FT_LAT_FRAG_STALL].bucket[ft_hist_bucket(4000)], 1);
	assert_int_equal(ft_hist_percentile(&ev.lat[FT_LAT_FRAG_STALL], 50), 3);
	assert_int_equal(ft_hist_percentile(&ev.lat[FT_LAT_FRAG_STALL], 99), 4000);
	assert_true(ft_hist_mean(&ev.lat[FT_LAT_FRAG_STALL]) == 2001.5);
	unload(&d, &k);
}

static int status_of(const struct ft_tracedec *d, const char *name)
{
	int i;

	for (i = 0; i < d->nr_status; i++)
		if (!strcmp(d->status_name[i], name))
			return d->status_val[i];
	fail_msg("no status %s", name);
	return -1;
}

static void suitable(struct tracebuf *tb, const struct kfmt *k, int pid, int nid, int ret)
{
	static const char *const f[] = { "nid", "ret" };
	int64_t v[] = { nid, ret };

	add(tb, k->text[FT_EV_COMPACT_SUITABLE], 10, pid, f, v, 2);
}

static void compaction(struct tracebuf *tb, const struct kfmt *k, int pid, uint64_t zone_start,
		       int status,
		       uint32_t us)
{
	static const char *const b[] = { "zone_start" }, *const e[] = { "zone_start", "status" };
	int64_t vb[] = { (int64_t)zone_start }, ve[] = { (int64_t)zone_start, status };

	add(tb, k->text[FT_EV_COMPACT_BEGIN], 10, pid, b, vb, 1);
	add(tb, k->text[FT_EV_COMPACT_END], us * 1000, pid, e, ve, 2);
}

/*
 * The kernel's rule for compact_stall, rebuilt from the trace (model/events.h):
 * an attempt counts once when a zone's result is above SKIPPED (defer_reset
 * stands for an untraced SUCCESS); one with no such result does not;
 * kcompactd is background.
 */
static void test_direct_attempts(void **state)
{
	static const char *const w[] = { "nid", "order" };
	int64_t wake[] = { 0, 9 };
	struct ft_tracedec d;
	struct ft_events ev;
	struct kfmt k = { 0 };
	struct tracebuf tb;
	int skipped, not_suitable, cont, complete;
	const uint64_t dma32 = 4096;	/* 6.18-idle: node 0 DMA32 starts there */

	(void)state;
	load("6.18-idle", &d, &k);
	ft_events_init(&ev, 9);
	zones_from("6.18-idle", &ev);
	ft_events_set_status(&ev, &d);
	assert_true(ev.exact_direct);
	skipped = status_of(&d, "skipped");
	not_suitable = status_of(&d, "not_suitable_zone");
	cont = status_of(&d, "continue");
	complete = status_of(&d, "complete");
	tb_init(&tb, 1000);
	/* 100: a deferred zone counts (DEFERRED > SKIPPED), and only once */
	add(&tb, k.text[FT_EV_COMPACT_TRY], 10, 100, NULL, NULL, 0);
	add(&tb, k.text[FT_EV_COMPACT_DEFERRED], 10, 100, NULL, NULL, 0);
	add(&tb, k.text[FT_EV_COMPACT_DEFERRED], 10, 100, NULL, NULL, 0);
	/*
	 * 200: skipped and not suitable everywhere: no stall; then a second attempt that compacts
	 */
	add(&tb, k.text[FT_EV_COMPACT_TRY], 10, 200, NULL, NULL, 0);
	suitable(&tb, &k, 200, 0, skipped);
	suitable(&tb, &k, 200, 0, not_suitable);
	add(&tb, k.text[FT_EV_COMPACT_TRY], 10, 200, NULL, NULL, 0);
	suitable(&tb, &k, 200, 0, cont);
	compaction(&tb, &k, 200, dma32, complete, 7);
	/* 300: SUCCESS untraced (the watermark was met), but defer_reset follows: counts */
	add(&tb, k.text[FT_EV_COMPACT_TRY], 10, 300, NULL, NULL, 0);
	add(&tb, k.text[FT_EV_COMPACT_DEFER_RESET], 10, 300, NULL, NULL, 0);
	add(&tb, k.text[FT_EV_RECLAIM_BEGIN], 10, 300, NULL, NULL, 0);
	/*
	 * 350: SKIPPED untraced (a costly async attempt without free memory), then reclaim: no
	 * stall
	 */
	add(&tb, k.text[FT_EV_COMPACT_TRY], 10, 350, NULL, NULL, 0);
	add(&tb, k.text[FT_EV_RECLAIM_BEGIN], 10, 350, NULL, NULL, 0);
	/* 400: kcompactd, background, on node 0 */
	add(&tb, k.text[FT_EV_COMPACT_KCOMPACTD_WAKE], 10, 400, w, wake, 2);
	suitable(&tb, &k, 400, 0, cont);
	compaction(&tb, &k, 400, dma32, complete, 11);
	/* 500: compact_memory written, no attempt: background too */
	compaction(&tb, &k, 500, dma32, complete, 13);
	tb_finish(&tb, 0);
	assert_true(ft_tracedec_subbuf(&d, tb.page, TB_PAGE, 0, ft_events_add_cb, &ev) > 0);
	assert_int_equal(d.bad, 0);
	assert_int_equal(ev.direct_attempts, 5);
	assert_int_equal(ev.direct_stalls, 3);
	assert_int_equal(ev.direct_silent, 1);
	assert_true(!ft_procs_find(&ev.procs, 350) ||
		    !ft_procs_find(&ev.procs, 350)->c[FT_PC_COMPACTION]);
	assert_int_equal(ft_procs_find(&ev.procs, 100)->c[FT_PC_COMPACTION], 1);
	assert_int_equal(ft_procs_find(&ev.procs, 200)->c[FT_PC_COMPACTION], 1);
	assert_int_equal(ft_procs_find(&ev.procs, 200)->c[FT_PC_COMPACTION_US], 7);
	assert_int_equal(ft_procs_find(&ev.procs, 300)->c[FT_PC_COMPACTION], 1);
	assert_null(ft_procs_find(&ev.procs, 400));	/* kcompactd paid no stall */
	assert_int_equal(ev.lat[FT_LAT_COMPACTION].count, 1);
	assert_int_equal(ev.lat[FT_LAT_BG_COMPACTION].count, 2);
	assert_int_equal(ev.bg[0].count, 2);
	assert_int_equal(ev.bg[0].us, 24);
	assert_int_equal(ev.bg[0].wakes, 1);
	{
		uint64_t m[FT_M_NR];

		ft_events_metrics(&ev, m);
		assert_int_equal(m[FT_M_COMPACTION], 3);
		assert_int_equal(m[FT_M_BG_COMPACTION], 2);
	}
	unload(&d, &k);

	/*
	 * A recording without try_to_compact_pages: kcompactd by its wake or
	 * its name (one named only after its compaction waits for the name),
	 * every other pair one direct stall.
	 */
	load_but("6.18-idle", &d, &k, 1u << FT_EV_COMPACT_TRY);
	ft_events_init(&ev, 9);
	zones_from("6.18-idle", &ev);
	ft_events_set_status(&ev, &d);
	assert_false(ev.exact_direct);
	tb_init(&tb, 1000);
	compaction(&tb, &k, 600, dma32, complete, 5);		/* kcompactd1, named below */
	compaction(&tb, &k, 700, dma32, complete, 3);		/* a task, named below */
	add(&tb, k.text[FT_EV_COMPACT_KCOMPACTD_WAKE], 10, 800, w, wake, 2);
	compaction(&tb, &k, 800, dma32, complete, 2);		/* kcompactd0 by its wake */
	tb_finish(&tb, 0);
	assert_true(ft_tracedec_subbuf(&d, tb.page, TB_PAGE, 0, ft_events_add_cb, &ev) > 0);
	assert_int_equal(ev.nr_pending, 2);
	ft_events_name(&ev, 600, "kcompactd1", 1);
	ft_events_name(&ev, 700, "fio", 1);
	ft_events_tick(&ev);
	assert_int_equal(ev.nr_pending, 0);
	assert_int_equal(ev.lat[FT_LAT_COMPACTION].count, 1);
	assert_int_equal(ev.lat[FT_LAT_BG_COMPACTION].count, 2);
	assert_int_equal(ft_procs_find(&ev.procs, 700)->c[FT_PC_COMPACTION], 1);
	assert_true(!ft_procs_find(&ev.procs, 600) ||
		    !ft_procs_find(&ev.procs, 600)->c[FT_PC_COMPACTION]);
	assert_int_equal(ev.bg[0].count, 2);
	unload(&d, &k);
}

/* What the stack callback saw. */
struct stacks_seen {
	int n;
	struct ft_trace_stack last;
	int recs;
	uint64_t rec_ts;
};

static void on_stack(void *ctx, const struct ft_trace_stack *st)
{
	struct stacks_seen *s = ctx;

	s->n++;
	s->last = *st;
}

static void on_rec(void *ctx, const struct ft_trace_rec *r)
{
	struct stacks_seen *s = ctx;

	s->recs++;
	s->rec_ts = r->ts;
}

/* A kernel_stack record of @n frames (@size: its size field), 0x1000 + i each. */
static void stack_record(struct tracebuf *tb, const char *fmt, uint32_t delta, int size, int n)
{
	unsigned char rec[16 + 8 * 40] = { 0 };
	int off = tb_field(fmt, "caller[8]", NULL), i;

	assert_true(off > 0 && n <= 40);
	tb_set(rec, fmt, "common_type", tb_id(fmt));
	tb_set(rec, fmt, "size", size);
	for (i = 0; i < n; i++) {
		uint64_t ip = 0xffffffff81000000ull + 0x1000u * (unsigned int)i;

		memcpy(rec + off + 8 * i, &ip, 8);
	}
	assert_int_equal(tb_add(tb, delta, rec, (size_t)off + 8 * (size_t)n), 0);
}

/*
 * The kernel_stack records the stacktrace trigger writes after a fallback:
 * decoded when the format is given and a callback set, their frames as
 * many as the record holds (at most FT_STACK_DEPTH kept), the event itself
 * decoded as before.  A size past the record, or negative, is bounded.
 */
static void test_kernel_stack(void **state)
{
	struct ft_tracedec d;
	struct kfmt k = { 0 };
	struct tracebuf tb;
	struct stacks_seen seen = { 0 };
	size_t len;
	char *sf = fixture_read("6.18-idle", EVDIR "ftrace/kernel_stack/format", &len);

	(void)state;
	assert_non_null(sf);
	load("6.18-idle", &d, &k);
	assert_int_equal(ft_tracedec_format(&d, "ftrace", sf, len), 0);
	assert_true(d.stack_type >= 0);
	tb_init(&tb, 1000);
	extfrag(&tb, k.text[FT_EV_EXTFRAG], 0, 42, 0x100000, 0, 3, 0, 1, 0);
	stack_record(&tb, sf, 5, 6, 6);
	extfrag(&tb, k.text[FT_EV_EXTFRAG], 10, 42, 0x100200, 0, 3, 0, 1, 0);
	stack_record(&tb, sf, 1, 20, 20);	/* deeper than kept */
	stack_record(&tb, sf, 1, 30, 2);	/* says 30, holds 2 */
	stack_record(&tb, sf, 1, -4, 2);	/* negative: none */
	tb_finish(&tb, 0);
	/* without a callback the stack records are skipped */
	assert_int_equal(ft_tracedec_subbuf(&d, tb.page, TB_PAGE, 3, on_rec, &seen), 2);
	assert_int_equal(seen.n, 0);
	d.on_stack = on_stack;
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(ft_tracedec_subbuf(&d, tb.page, TB_PAGE, 3, on_rec, &seen), 2);
	assert_int_equal(seen.recs, 2);
	assert_int_equal(seen.n, 3);
	assert_int_equal(seen.last.all, 2);
	assert_int_equal(seen.last.n, 2);
	assert_int_equal(seen.last.cpu, 3);
	assert_int_equal(seen.last.ip[1], 0xffffffff81001000ull);
	assert_int_equal(d.bad, 1);		/* the negative one */
	/* the first stack, alone: its time is the event's and its frames all there */
	tb_init(&tb, 1000);
	extfrag(&tb, k.text[FT_EV_EXTFRAG], 0, 42, 0x100000, 0, 3, 0, 1, 0);
	stack_record(&tb, sf, 5, 20, 20);
	tb_finish(&tb, 0);
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(ft_tracedec_subbuf(&d, tb.page, TB_PAGE, 0, on_rec, &seen), 1);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.last.ts, seen.rec_ts + 5);
	assert_int_equal(seen.last.all, 20);
	assert_int_equal(seen.last.n, FT_STACK_DEPTH);
	assert_int_equal(seen.last.ip[FT_STACK_DEPTH - 1],
			 0xffffffff81000000ull + 0x1000u * (FT_STACK_DEPTH - 1));
	free(sf);
	unload(&d, &k);
}

static void test_malformed(void **state)
{
	struct ft_tracedec d;
	struct ft_events ev;
	struct kfmt k = { 0 };
	struct tracebuf tb;
	uint64_t commit = TB_PAGE;	/* larger than the data can be */
	static const char bad_format[] = "name: mm_page_alloc_extfrag\nID: "
					 "650\nformat:\n\tfield:int "
					 "x;\toffset:0;\tsize:4;\tsigned:1;\n";

	(void)state;
	load("6.18-idle", &d, &k);
	ft_events_init(&ev, 9);
	tb_init(&tb, 1);
	memcpy(tb.page + 8, &commit, 8);
	assert_int_equal(ft_tracedec_subbuf(&d, tb.page, TB_PAGE, 0, ft_events_add_cb, &ev),
			 -EINVAL);
	assert_int_equal(ft_tracedec_subbuf(&d, tb.page, 8, 0, ft_events_add_cb, &ev), -EINVAL);
	assert_int_equal(d.bad, 2);
	/* an event of ours without the fields we need is refused */
	assert_int_equal(ft_tracedec_format(&d, "kmem", bad_format, strlen(bad_format)), -EINVAL);
	/* someone else's event is ignored */
	assert_int_equal(ft_tracedec_format(&d, "sched", "name: sched_switch\n", 19), -ENOENT);
	/* an empty page decodes to nothing */
	tb_init(&tb, 1);
	tb_finish(&tb, 0);
	assert_int_equal(ft_tracedec_subbuf(&d, tb.page, TB_PAGE, 0, ft_events_add_cb, &ev), 0);
	unload(&d, &k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_618),
		cmocka_unit_test(test_61_two_nodes),
		cmocka_unit_test(test_stall_and_missed),
		cmocka_unit_test(test_direct_attempts),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_kernel_stack),
	};
	return cmocka_run_group_tests_name("tracedec", tests, NULL, NULL);
}
