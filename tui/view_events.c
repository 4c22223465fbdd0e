// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Events: the rate of each traced kind with a sparkline of the last
 * minutes, lost events, fallbacks by migratetype pair, and a live table of
 * the most recent fallbacks, or (K; the default with --stacks) the
 * fragmenting fallbacks grouped by the kernel stack that made them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "collectors/tracefs.h"
#include "model/rates.h"
#include "model/stacks.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

#define NAME_W	22

/*
 * Without tracepoints (not root, --no-trace, a recording without them):
 * what /proc/vmstat counts of the same things, per second over the last
 * tick, and a line on what the tracepoints would add.
 */
static void not_tracing(struct ft_ui *ui, int top, int height)
{
	static const struct ft_rate_row rows[] = {
		{ FT_RATE_COMPACT_STALL, "direct compactions (compact_stall)" },
		{ FT_RATE_COMPACT_SUCCESS, "... that succeeded (compact_success)" },
		{ FT_RATE_COMPACT_FAIL, "... that failed (compact_fail)" },
		{ FT_RATE_COMPACT_DAEMON_WAKE, "kcompactd wakes (compact_daemon_wake)" },
		{ FT_RATE_THP_FAULT_ALLOC, "THP faults served (thp_fault_alloc)" },
		{ FT_RATE_THP_FAULT_FALLBACK, "THP faults that fell back (thp_fault_fallback)" },
		{ FT_RATE_ALLOCSTALL, "direct reclaim stalls (allocstall_*)" },
		{ FT_RATE_PGSCAN_DIRECT, "pages scanned by direct reclaim (pgscan_direct)" },
	};
	const struct ft_session *s = ui->s;
	int y = top, bottom = top + height;

	ft_put(y++, 0, A_BOLD, "No tracepoints: %s",
	       ui->rp ? "the recording has no tracepoint data "
	       "(made with --no-trace or without root)" : s->trace_err ?
		       ft_tracefs_strerror(s->trace_err) :
	       "tracing is off (--no-trace)");
	y++;
	y = ft_draw_rate_table(y, bottom, s->sample.rates.v, rows, sizeof(rows) / sizeof(rows[0])) +
		1;
	static const char *const root_adds[] = {
		"As root (tracefs at /sys/kernel/tracing) the tracepoints add each fallback",
		"(mm_page_alloc_extfrag) with its zone, migratetypes, whether it fragments and",
		"the task that made it; the stalls' times; the processes view.",
	};
	for (size_t k = 0; k < 3 && y < bottom; k++)
		ft_put(y++, 0, ft_attr(FT_C_DIM), "%s", root_adds[k]);
}

/* The event counters: rate, 10 s mean, total and a sparkline each.  Returns the next row. */
static int counters(struct ft_ui *ui, int top, int height)
{
	const struct ft_session *s = ui->s;
	uint64_t totals[FT_M_NR];
	int y = top, i, spark_w = COLS - (NAME_W + 29);
	/* the last tick is bursty: a 10 s mean shows what a control change did */
	unsigned long avg_n = (unsigned long)ceil(10.0 / ui->interval);
	char a[32], b[32], c[32];

	ft_events_metrics(&s->events, totals);
	if (spark_w > FT_SERIES_LEN)
		spark_w = FT_SERIES_LEN;
	ft_put(y, 0, ft_attr(FT_C_LABEL), "%-*s %8s %8s %10s  last %ds", NAME_W, "event", "/s",
	       "10s avg", "total", spark_w > 0 ? (int)(spark_w * ui->interval) : 0);
	y++;
	for (i = 0; i < FT_M_NR && y < top + height; i++, y++) {
		const struct ft_series *sr = &s->ev_series[i];
		double max = ft_series_max(sr, (unsigned long)(spark_w > 0 ? spark_w : 0));

		ft_put(y, 0, A_NORMAL, "%-*s", NAME_W, ft_ev_metric_names[i]);
		if (!ft_session_has_event(s, ft_ev_metric_event[i])) {
			ft_put(y, NAME_W + 1, ft_attr(FT_C_DIM), "absent on this kernel");
			continue;
		}
		ft_fmt_rate(a, sizeof(a), s->ev_rate[i], 7);
		ft_fmt_count(b, sizeof(b), (double)totals[i], 9);
		ft_fmt_rate(c, sizeof(c), ft_series_mean(sr, avg_n), 7);
		ft_put(y, NAME_W + 1, s->ev_rate[i] > 0 ? ft_attr(FT_C_WARN) : A_NORMAL, "%8s", a);
		ft_put(y, NAME_W + 10, A_NORMAL, "%8s", c);
		ft_put(y, NAME_W + 19, A_NORMAL, "%10s", b);
		if (spark_w > 8)
			ft_sparkline(y, NAME_W + 31, spark_w - 2, sr, max);
	}
	ft_put(y, 0, s->lost ? ft_attr(FT_C_BAD) : ft_attr(FT_C_DIM),
	       "lost events %llu   pageblock order %d   buffers read %llu",
	       (unsigned long long)s->lost, s->events.pageblock_order,
	       (unsigned long long)s->pages);
	return y + 1;
}

/* The three commonest (alloc <- fallback) migratetype pairs, on row @y. */
static void top_pairs(struct ft_ui *ui, int y)
{
	const struct ft_events *ev = &ui->s->events;
	int best[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	char a[32], b[32], c[32];
	int i, k, p, x;

	for (i = 0; i < FT_EV_MT; i++)
		for (k = 0; k < FT_EV_MT; k++) {
			if (!ev->pair[i][k])
				continue;
			for (p = 0; p < 3; p++) {
				if (best[p][0] < 0 ||
				    ev->pair[i][k] > ev->pair[best[p][0]][best[p][1]]) {
					memmove(best[p + 1], best[p],
						sizeof(best[0]) * (size_t)(2 - p));
					best[p][0] = i;
					best[p][1] = k;
					break;
				}
			}
		}
	ft_put(y, 0, ft_attr(FT_C_DIM), "alloc<-fallback");
	x = 16;
	for (i = 0; i < 3 && best[i][0] >= 0; i++) {
		char cell[112];

		ft_fmt_count(c, sizeof(c), (double)ev->pair[best[i][0]][best[i][1]], 6);
		snprintf(cell, sizeof(cell), "%s<-%s %s",
			 ft_sample_mt_name(&ui->s->sample, best[i][0], a, sizeof(a)),
			 ft_sample_mt_name(&ui->s->sample, best[i][1], b, sizeof(b)), c);
		ft_put(y, x, A_NORMAL, "%s", cell);
		x += (int)strlen(cell) + 3;
	}
	if (best[0][0] < 0)
		ft_put(y, x, ft_attr(FT_C_DIM), "none yet");
}

/* One recent fallback on row @y. */

static void recent_row(struct ft_ui *ui, int y, const struct ft_recent_fallback *r)
{
	const struct ft_session *s = ui->s;
	const struct ft_events *ev = &s->events;
	/*
	 * Seconds before the newest input: the trace clock is
	 * CLOCK_MONOTONIC, like the inputs' (older recordings used
	 * "local", close to it); an event from after the newest
	 * input is a clock mismatch, shown as 0.
	 */
	double age = s->t_ns > r->ts ? (double)(s->t_ns - r->ts) / 1e9 : 0;
	char zone[24], types[80], a[32], b[32], ag[16];

	if (r->zone >= 0)
		snprintf(zone, sizeof(zone), "N%d %s", ev->zones[r->zone].node,
			 ev->zones[r->zone].name);
	else
		snprintf(zone, sizeof(zone), "?");
	snprintf(types, sizeof(types), "%s<-%s",
		 ft_sample_mt_name(&s->sample, r->alloc_mt, a, sizeof(a)),
		 ft_sample_mt_name(&s->sample, r->fallback_mt, b, sizeof(b)));
	ft_age_format(age, ag, sizeof(ag));
	ft_put(y, 0, r->fragmenting ? ft_attr(FT_C_WARN) : A_NORMAL,
	       "%6s %-10s %10llx %2d<-%-2d %-22s %4s %3s %s", ag, zone,
	       (unsigned long long)r->pfn, r->alloc_order, r->fallback_order, types,
	       r->fragmenting ? "yes" : "no", r->change_ownership ? "yes" : "no",
	       r->comm[0] ? r->comm : r->pid == 0 ? "swapper" : "?");
}

/* The view's state (struct ft_view's state_size: the loop owns it). */
struct events_state {
	/* -1: the stacks when the session has them, else the recent fallbacks; 0 / 1: K chose */
	int stacks_mode;
	int stack_sel;		/* the stack selected (j/k) */
	/* Enter: the selected stack's every frame, one caller a line */
	bool stack_open;
};

/* @ui's events state. */
static struct events_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_events);
}

static void events_init(void *state)
{
	struct events_state *st = state;

	st->stacks_mode = -1;
}

/* The stacks mode is on (K, or --stacks by default). */
static bool stacks_on(const struct ft_ui *ui)
{
	struct events_state *st = S(ui);

	return st->stacks_mode > 0 || (st->stacks_mode < 0 && ft_session_has_stacks(ui->s));
}

/*
 * Stack @key opened from row @y: the site on the first line, then a
 * caller a line ("< caller"), each cut at the screen's edge; the row
 * after it.
 */
static int open_stack(int y, int end, const char *key, unsigned int attr)
{
	const char *p = key, *next;
	bool first = true;

	while (p && *p && y < end) {
		next = strstr(p, " < ");
		ft_put(y++, first ? 18 : 20, first ? attr : A_NORMAL, "%s%.*s", first ? "" : "< ",
		       (int)(next ? (size_t)(next - p) : strlen(p)), p);
		p = next ? next + 3 : NULL;
		first = false;
	}
	return y;
}

/* Fragmenting fallbacks by kernel stack since the start, from row @y to @end. */
static void stacks_table(struct ft_ui *ui, int y, int end)
{
	struct events_state *st = S(ui);
	const struct ft_session *s = ui->s;
	struct ft_stack_group g[64];
	uint64_t other, unstacked, all;
	size_t n, i, shown;
	int rows = end - y - 2, w = COLS - 18;
	char c[32];

	ft_put(y++, 0, ft_attr(FT_C_LABEL), "%9s %6s  %s", "fragment", "share",
	       "kernel stack: site < callers (the allocator's frames left out)");
	if (!ft_session_has_stacks(s)) {
		ft_put(y, 2, ft_attr(FT_C_DIM), "%s", ui->rp ?
		       "the recording has no kernel stacks (record with --stacks)" :
		       "no kernel stacks: start fragtop with --stacks to group fallbacks by "
		       "allocation site");
		return;
	}
	if (s->stacks_src.err) {
		ft_put(y, 2, ft_attr(FT_C_WARN), "the stacktrace trigger was refused: %s",
		       strerror(-s->stacks_src.err));
		return;
	}
	n = ft_stack_groups(&s->events, NULL, NULL, &s->syms, g, sizeof(g) / sizeof(g[0]), &other,
			    &unstacked);
	all = s->events.extfrag.fragmenting;
	shown = rows < 0 ? 0 : (size_t)rows < n ? (size_t)rows : n;
	if (shown > sizeof(g) / sizeof(g[0]))
		shown = sizeof(g) / sizeof(g[0]);
	if (st->stack_sel >= (int)shown)
		st->stack_sel = shown ? (int)shown - 1 : 0;
	for (i = 0; i < shown && y < end - 1; i++) {
		unsigned int attr = (int)i == st->stack_sel ? A_REVERSE : A_NORMAL;

		ft_fmt_count(c, sizeof(c), (double)g[i].fragmenting, 9);
		ft_put(y, 0, attr, "%9s %6s", c, ft_cell_pct((char[16]){ 0 }, 16,
				all ? 100.0 * (double)g[i].fragmenting / (double)all : 0.0, 6, 1));
		if ((int)i == st->stack_sel && st->stack_open) {
			y = open_stack(y, end - 1, g[i].key, attr);
			continue;
		}
		/* a stack longer than the row ends in "..." (Enter opens it) */
		if ((int)strlen(g[i].key) > w && w > 3)
			ft_put(y++, 18, attr, "%.*s...", w - 3, g[i].key);
		else
			ft_put(y++, 18, attr, "%.*s", w > 0 ? w : 0, g[i].key);
	}
	if (!n)
		ft_put(y++, 2, ft_attr(FT_C_DIM), "no fragmenting fallback with a stack yet");
	ft_fmt_count(c, sizeof(c), (double)(unstacked + other), 9);
	ft_put(y, 0, ft_attr(FT_C_DIM), "%9s %6s  without a stack (over %u a second%s)%s", c,
	       ft_cell_pct((char[16]){ 0 }, 16,
			   all ? 100.0 * (double)(unstacked + other) / (double)all : 0.0, 6, 1),
	       s->stacks_src.per_sec,
	       other ? ", or past the stack table" : "",
	       n > shown ? "; more stacks below the screen" : "");
}

static void key_stacks(struct ft_ui *ui, int ch)
{
	struct events_state *st = S(ui);

	(void)ch;
	st->stacks_mode = st->stacks_mode < 0 ? !ft_session_has_stacks(ui->s) : !st->stacks_mode;
}

/* j k: select a stack; Enter: open it whole, or close it. */
static void key_stack_sel(struct ft_ui *ui, int ch)
{
	struct events_state *st = S(ui);

	if (!stacks_on(ui)) {
		ft_ui_status(ui, FT_DIAG_INFO, "K first: the stacks table (with --stacks)");
		return;
	}
	if (ch == '\n' || ch == KEY_ENTER)
		st->stack_open = !st->stack_open;
	else if (ch == 'j' || ch == KEY_DOWN)
		st->stack_sel++;		/* kept within the stacks when drawn */
	else if (st->stack_sel > 0)
		st->stack_sel--;
}

static void events_draw(struct ft_ui *ui, int top, int height)
{
	struct ft_recent_fallback recent[64];
	int y, i, n, rows;

	if (!ui->s->tracing) {
		not_tracing(ui, top, height);
		return;
	}
	y = counters(ui, top, height);
	top_pairs(ui, y);
	y += 2;
	if (y >= top + height)
		return;
	if (stacks_on(ui)) {
		stacks_table(ui, y, top + height);
		return;
	}
	ft_put(y++, 0, ft_attr(FT_C_LABEL), "%6s %-10s %10s %5s %-22s %4s %3s %s", "age",
	       "zone", "pfn", "order", "alloc<-fallback type", "frag", "own", "command");
	rows = top + height - y;
	if (rows > (int)(sizeof(recent) / sizeof(recent[0])))
		rows = (int)(sizeof(recent) / sizeof(recent[0]));
	n = ft_events_recent(&ui->s->events, recent, rows);
	if (!n)
		ft_put(y, 2, ft_attr(FT_C_DIM), "no fallback since fragtop started");
	for (i = 0; i < n; i++, y++)
		recent_row(ui, y, &recent[i]);
}

static const struct ft_key events_keys[] = {
	{ "K", { 'K' }, "fragmenting fallbacks by kernel stack (--stacks) / the recent fallbacks",
	  "K stacks", 0, key_stacks },
	{ "j k Enter", { 'j', 'k', KEY_DOWN, KEY_UP, '\n', KEY_ENTER },
	  "in the stacks table: select a stack, open it whole (a caller a line) or close it", NULL,
	  0, key_stack_sel },
	{ NULL },
};

static const struct ft_legend events_legend[] = {
	{ "/s  10s avg", "per second over the last tick, and over the last 10 seconds" },
	{ "total", "since fragtop started (or the recording began)" },
	{ "last 109s", "a sparkline of the counts per tick over that span" },
	{ "fallbacks (extfrag)",
	  "allocations served from another migratetype's free list (mm_page_alloc_extfrag)" },
	{ "fragmenting", "fallbacks of less than a pageblock: they mix migratetypes in a block" },
	{ "ownership changed",
	  "fallbacks that took the whole pageblock for the allocating migratetype" },
	{ "lost events", "trace events the ring buffer dropped (counts above are short by them)" },
	{ "buffers read", "trace ring-buffer pages fragtop read" },
	{ "alloc<-fallback",
	  "the migratetype asked for <- the one it was taken from; the line above sums each pair" },
	{ "age", "seconds before now (or the replay's position)" },
	{ "zone pfn", "where the fallback block lies: node, zone and page frame number (hex)" },
	{ "order 1<-9", "the order asked for <- the order of the free block it was cut from" },
	{ "frag own", "yes/no: fragmenting; the pageblock changed owner" },
	{ "command", "the task that allocated ('?': exited before fragtop read its name)" },
	{ "fragment share",
	  "with K: fragmenting fallbacks per kernel stack, and their share of all" },
	{ "site < callers", "a stack: where it allocated, then who called it; '...': cut at the "
			    "edge (Enter opens it)" },
	{ "from /proc/vmstat",
	  "without tracepoints (not root, --no-trace): the kernel's own counts of the same events, "
	  "per second over the last tick" },
	{ NULL, NULL },
};

const struct ft_view ft_view_events = {
	.state_size = sizeof(struct events_state),
	.init = events_init,
	.name = "events",
	.draw = events_draw,
	.keys = events_keys,
	.legend = events_legend,
};
