// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Futile compaction: isolate records told apart by who ran them (a direct
 * attempt, kcompactd, anyone else) and joined with the pageblock map by
 * the session, and the shares taken over a window.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/events.h"
#include "model/pageblock.h"
#include "model/session.h"

#define F(bit) (1ull << FT_KPF_##bit)

static struct ft_trace_rec iso(enum ft_trace_event kind, int pid, uint64_t pfn, uint64_t scanned,
			       uint64_t taken)
{
	return (struct ft_trace_rec){ .kind = kind, .pid = pid, .ts = 1000,
				      .u.iso = { pfn, pfn + 4, scanned, taken } };
}

static void test_join(void **state)
{
	static struct ft_session s;
	struct ft_zi_zone zone = { .node = 0, .name = "Normal", .has = FT_ZI_START_PFN,
				   .start_pfn = 0, .spanned = 32 };
	struct ft_zoneinfo zi = { .zones = &zone, .nr = 1, .cap = 1 };
	uint64_t flags[32] = { 0 }, counts[32] = { 0 };
	struct ft_trace_rec r;
	struct ft_futile before;

	(void)state;
	ft_session_init(&s);
	assert_int_equal(ft_pbmap_layout(&s.map, &zi, 2, NULL), 0);	/* 8 blocks of 4 pages */
	flags[5] = F(SLAB);	/* block 1 holds an unmovable page */
	counts[5] = 1;
	/* blocks 0..5 read whole; 6 and 7 not */
	ft_pbmap_feed(&s.map, 0, 0, 6, flags, counts, false);
	s.events.exact_direct = true;
	/* kcompactd is pid 50 (its wake); pid 100 enters a direct attempt */
	r = (struct ft_trace_rec){ .kind = FT_EV_COMPACT_KCOMPACTD_WAKE, .pid = 50,
				   .u.wake = { 0, 9 } };
	ft_events_add(&s.events, &r);
	r = (struct ft_trace_rec){ .kind = FT_EV_COMPACT_TRY, .pid = 100, .ts = 900 };
	ft_events_add(&s.events, &r);
	before = s.futile;

	r = iso(FT_EV_COMPACT_ISO_MIGRATE, 100, 4, 4, 3);	/* direct, polluted block 1 */
	ft_events_add(&s.events, &r);
	r = iso(FT_EV_COMPACT_ISO_MIGRATE, 100, 8, 4, 4);	/* direct, clean block 2 */
	ft_events_add(&s.events, &r);
	r = iso(FT_EV_COMPACT_ISO_MIGRATE, 100, 24, 4, 1);	/* direct, block 6 not read */
	ft_events_add(&s.events, &r);
	r = iso(FT_EV_COMPACT_ISO_FREE, 100, 4, 4, 2);		/* direct free scanner, polluted */
	ft_events_add(&s.events, &r);
	r = iso(FT_EV_COMPACT_ISO_MIGRATE, 50, 4, 4, 4);	/* kcompactd */
	ft_events_add(&s.events, &r);
	r = iso(FT_EV_COMPACT_ISO_MIGRATE, 7, 0, 4, 0);		/* neither: compact_memory */
	ft_events_add(&s.events, &r);
	r = iso(FT_EV_COMPACT_ISO_MIGRATE, 100, 4000, 4, 4);	/* outside every zone: unread */
	ft_events_add(&s.events, &r);

	assert_int_equal(s.futile.events[FT_ISO_DIRECT][FT_ISO_MIGRATE], 4);
	assert_int_equal(s.futile.scanned[FT_ISO_DIRECT][FT_ISO_MIGRATE], 16);
	assert_int_equal(s.futile.scanned_futile[FT_ISO_DIRECT][FT_ISO_MIGRATE], 4);
	assert_int_equal(s.futile.scanned_unknown[FT_ISO_DIRECT][FT_ISO_MIGRATE], 8);
	/* 4 futile of the 8 scanned in blocks read whole */
	assert_true(fabs(ft_futile_share(NULL, &s.futile, FT_ISO_DIRECT, FT_ISO_MIGRATE) -
			 0.5) < 1e-12);
	assert_true(fabs(ft_futile_share(&before, &s.futile, FT_ISO_DIRECT, FT_ISO_MIGRATE) -
			 0.5) < 1e-12);
	/* the free scanner's share is of what it took */
	assert_int_equal(s.futile.taken[FT_ISO_DIRECT][FT_ISO_FREE], 2);
	assert_true(fabs(ft_futile_share(NULL, &s.futile, FT_ISO_DIRECT, FT_ISO_FREE) -
			 1.0) < 1e-12);
	assert_int_equal(s.futile.scanned_futile[FT_ISO_KCOMPACTD][FT_ISO_MIGRATE], 4);
	assert_int_equal(s.futile.events[FT_ISO_OTHER][FT_ISO_MIGRATE], 1);
	assert_true(fabs(ft_futile_share(NULL, &s.futile, FT_ISO_OTHER, FT_ISO_MIGRATE)) < 1e-12);
	/* nothing isolated, or only in unread blocks: no share */
	assert_true(isnan(ft_futile_share(NULL, &s.futile, FT_ISO_KCOMPACTD, FT_ISO_FREE)));
	before = s.futile;
	r = iso(FT_EV_COMPACT_ISO_MIGRATE, 100, 28, 4, 4);	/* block 7: unread */
	ft_events_add(&s.events, &r);
	assert_true(isnan(ft_futile_share(&before, &s.futile, FT_ISO_DIRECT, FT_ISO_MIGRATE)));
	/* the direct attempt ends with a fallback: its task's next isolation is "other" */
	r = (struct ft_trace_rec){ .kind = FT_EV_EXTFRAG, .pid = 100, .u.extfrag = { .pfn = 0 } };
	ft_events_add(&s.events, &r);
	r = iso(FT_EV_COMPACT_ISO_MIGRATE, 100, 8, 4, 4);
	ft_events_add(&s.events, &r);
	assert_int_equal(s.futile.events[FT_ISO_OTHER][FT_ISO_MIGRATE], 2);
	/* a record over two blocks is not placed: unread */
	before = s.futile;
	r = iso(FT_EV_COMPACT_ISO_MIGRATE, 7, 4, 4, 0);
	r.u.iso.end_pfn = 12;
	ft_events_add(&s.events, &r);
	assert_int_equal(s.futile.scanned_unknown[FT_ISO_OTHER][FT_ISO_MIGRATE] -
			 before.scanned_unknown[FT_ISO_OTHER][FT_ISO_MIGRATE], 4);
	ft_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
