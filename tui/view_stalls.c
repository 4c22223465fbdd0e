// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stalls: one histogram per latency source (direct compaction, direct
 * reclaim, the fragmentation stall where the kernel has it) over a window
 * the operator picks (the last 10 s, the last minute, since the start; `v`
 * switches, `r` starts counting again), drawn over log-linear microsecond
 * buckets (model/hist.h) merged to fit the rows, with count, mean and
 * percentiles read from the buckets; then compaction, direct (the stalls
 * compact_stall counts) and background (kcompactd, by node), with outcomes;
 * last, compaction's cost as mmtests reports it, from /proc/vmstat since
 * the start (or the reset): pages the migrate and free
 * scanners looked at and pages isolated, per direct compaction and per
 * kcompactd wake, the stalls that succeeded and the pages scanned per
 * success.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "collectors/tracefs.h"
#include "model/counterfield.h"
#include "model/rates.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

static const char *const lat_title[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = "direct compaction (begin->end)",
	[FT_LAT_RECLAIM] = "direct reclaim (begin->end)",
	[FT_LAT_FRAG_STALL] = "fragmentation stall",
	[FT_LAT_BG_COMPACTION] = "background compaction",
};

static const struct {
	double secs;			/* 0: since the start */
	const char *name;
} windows[] = {
	{ 10, "last 10 s" },
	{ 60, "last 1 min" },
	{ 0, "since start" },
};
#define NR_WINDOWS ((int)(sizeof(windows) / sizeof(windows[0])))

#define BAR_FULL_MIN	20	/* a bar is full at the fullest row, or at 20 events if fewer */

/*
 * The view's state (struct ft_view's state_size: the loop owns it): the window shown and the reset
 * point.
 */
struct stalls_state {
	int window;
	bool have_base;
	uint64_t base_t_ns;
	struct ft_hist base[FT_LAT_NR];
	bool have_cost;
	uint64_t cost_t_ns;
	int64_t cost_base[FT_CF_NR];
	/* the session's at the base (zero: since the start) */
	struct ft_direct_cost direct_base;
	struct ft_futile futile_base;	/* futile compaction at the same base */
	int64_t cost_now[FT_CF_NR];
};

/* @ui's stalls state. */
static struct stalls_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_stalls);
}
/* compaction's cost counts from here: vmstat when the view first saw it, or at the reset */

/* @src over the window; returns the seconds covered, *@since_reset when the reset cut it. */
static double window_hist(const struct stalls_state *st, const struct ft_session *s, int src,
			  struct ft_hist *out,
			  bool *since_reset)
{
	double covered = ft_session_lat_window(s, src, windows[st->window].secs, out);

	*since_reset = false;
	if (st->have_base && (double)(s->tick_t_ns - st->base_t_ns) / 1e9 < covered) {
		ft_hist_sub(out, &s->events.lat[src], &st->base[src]);
		covered = (double)(s->tick_t_ns - st->base_t_ns) / 1e9;
		*since_reset = true;
	}
	return covered;
}

/*
 * Title, the figures, then one bar per row from the first to the last
 * non-empty bucket; rows merge 2^k buckets (aligned) so they fit in
 * @rows - 2 lines.  Returns the lines used.
 */
static int draw_hist(int y, int rows, const char *title, const struct ft_hist *h,
		     uint64_t unpaired)
{
	uint64_t merged[FT_HIST_BUCKETS], peak = BAR_FULL_MIN;
	int first = -1, last = -1, shown = 0, lines, bar_w = COLS - 33;
	unsigned int b, step = 1;
	char v[7][16];

	ft_put(y, 0, ft_attr(FT_C_LABEL), "%s", title);
	if (!h->count) {
		ft_put(y, (int)strlen(title) + 2 > 32 ? (int)strlen(title) + 2 : 32,
		       ft_attr(FT_C_DIM),
		       "none in this window");
		return 1;
	}
	ft_fmt_count(v[0], sizeof(v[0]), (double)h->count, 5);
	ft_fmt_count(v[1], sizeof(v[1]), ft_hist_mean(h), 5);
	ft_fmt_count(v[2], sizeof(v[2]), (double)ft_hist_percentile(h, 50), 5);
	ft_fmt_count(v[3], sizeof(v[3]), (double)ft_hist_percentile(h, 90), 5);
	ft_fmt_count(v[4], sizeof(v[4]), (double)ft_hist_percentile(h, 99), 5);
	ft_fmt_count(v[5], sizeof(v[5]), (double)ft_hist_percentile(h, 99.9), 5);
	ft_fmt_count(v[6], sizeof(v[6]), (double)h->max_us, 5);
	if (rows < 2)
		return 1;
	/* ~: a percentile read from the buckets, at most 6.25% high (report gives them exact) */
	ft_put(y + 1, 2, A_NORMAL, "n %s  mean %s  p50 ~%s  p90 ~%s  p99 ~%s  p99.9 ~%s  max %s us",
	       v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
	for (b = 0; b < FT_HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		if (first < 0)
			first = (int)b;
		last = (int)b;
	}
	lines = rows - 2 - (unpaired ? 1 : 0);
	if (lines < 1)
		return 2;
	while ((unsigned int)last / step - (unsigned int)first / step + 1 > (unsigned int)lines)
		step *= 2;
	for (b = (unsigned int)first / step * step; b <= (unsigned int)last; b += step) {
		unsigned int k;

		merged[shown] = 0;
		for (k = b; k < b + step && k < FT_HIST_BUCKETS; k++)
			merged[shown] += h->bucket[k];
		if (merged[shown] > peak)
			peak = merged[shown];
		shown++;
	}
	for (int i = 0; i < shown; i++) {
		unsigned int lo_b = (unsigned int)first / step * step + (unsigned int)i * step;
		unsigned int hi_b = lo_b + step - 1 < FT_HIST_BUCKETS ? lo_b + step -
			1 : FT_HIST_BUCKETS - 1;
		int w = ft_cell_index((double)merged[i] / (double)peak * bar_w + 0.5, 0, bar_w);
		char lo[16], hi[16], cnt[16];

		ft_fmt_count(lo, sizeof(lo), (double)ft_hist_bucket_lo(lo_b), 6);
		ft_fmt_count(hi, sizeof(hi), (double)ft_hist_bucket_hi(hi_b), 6);
		ft_fmt_count(cnt, sizeof(cnt), (double)merged[i], 7);
		ft_put(y + 2 + i, 2, merged[i] ? A_NORMAL : ft_attr(FT_C_DIM), "[%6s, %6s) us %7s ",
		       lo, hi, cnt);
		if (merged[i] && w < 1)
			w = 1;
		ft_bar(y + 2 + i, 33, w, ft_attr(FT_C_OK));
	}
	if (unpaired) {
		ft_put(y + 2 + shown, 2, ft_attr(FT_C_DIM),
		       "%llu end%s without a begin (or begin table full)",
		       (unsigned long long)unpaired, unpaired > 1 ? "s" : "");
		shown++;
	}
	return 2 + shown;
}

static void draw_window_line(struct stalls_state *st, const struct ft_session *s, int y)
{
	struct ft_hist h;
	bool since_reset;
	double covered = window_hist(st, s, FT_LAT_COMPACTION, &h, &since_reset);
	int i, x = 0;

	ft_put(y, x, ft_attr(FT_C_DIM), "window");
	x += 7;
	for (i = 0; i < NR_WINDOWS; i++) {
		ft_put(y, x, i == st->window ? A_REVERSE | A_BOLD : ft_attr(FT_C_DIM),
		       i == st->window ? "[%s]" : " %s ", windows[i].name);
		x += (int)strlen(windows[i].name) + 3;
	}
	if (since_reset)
		ft_put(y, x, ft_attr(FT_C_WARN), "since reset: %.1f s", covered);
	else if (windows[st->window].secs > 0 && covered + 0.05 < windows[st->window].secs)
		ft_put(y, x, ft_attr(FT_C_DIM), "%.1f s so far", covered);
	else
		ft_put(y, x, ft_attr(FT_C_DIM), "%.1f s", covered);
	ft_put(y, COLS - 22 > x + 24 ? COLS - 22 : x + 24, ft_attr(FT_C_DIM), "v window  r reset");
}

/* ft_put(), returning the column after what it wrote */
static int __attribute__((format(printf, 4, 5))) putx(int y, int x, unsigned int attr,
						      const char *fmt, ...)
{
	char buf[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ft_put(y, x, attr, "%s", buf);
	return x + (int)strlen(buf);
}

/* "LABEL n" pairs from @x on; returns the column after them. */
static int draw_outcomes(const struct ft_session *s, int y, int x, const uint64_t *st)
{
	int i, x0 = x;

	for (i = 0; i < s->events.nr_compact_status && x < COLS - 8; i++) {
		char buf[48];

		if (!st[i])
			continue;
		snprintf(buf, sizeof(buf), "%s %llu", s->dec.status_name[i],
			 (unsigned long long)st[i]);
		ft_put(y, x, A_NORMAL, "%s", buf);
		x += (int)strlen(buf) + 2;
	}
	if (x == x0)
		ft_put(y, x, ft_attr(FT_C_DIM), "none yet");
	return x;
}

/* Two lines since the start: direct stalls and their outcomes; background by node. */
static void draw_compaction(const struct ft_session *s, int y)
{
	const struct ft_events *ev = &s->events;
	uint64_t m[FT_M_NR];
	int n, x;

	ft_events_metrics(ev, m);
	ft_put(y, 0, ft_attr(FT_C_LABEL), "direct compaction");
	x = putx(y, 19, A_BOLD, "stalls %llu", (unsigned long long)m[FT_M_COMPACTION]);
	/* an attempt may run no zone's compaction (deferred, skipped) or several */
	if (ev->exact_direct)
		x = putx(y, x + 1, ft_attr(FT_C_DIM),
			 "attempts, as compact_stall; zone runs %llu (begin->end)",
			 (unsigned long long)ev->lat[FT_LAT_COMPACTION].count);
	else
		x = putx(y, x + 1, ft_attr(FT_C_DIM),
			 "(begin/end pairs: recorded without try_to_compact_pages)");
	draw_outcomes(s, y, x + 2, ev->compact_status[FT_CK_DIRECT]);
	y++;
	ft_put(y, 0, ft_attr(FT_C_LABEL), "background");
	x = putx(y, 19, A_BOLD, "compactions %llu", (unsigned long long)m[FT_M_BG_COMPACTION]);
	for (n = 0; n <= FT_EV_NODES && x < COLS - 30; n++) {
		const struct ft_bg_node *b = &ev->bg[n];
		char node[8];

		if (!b->count && !b->wakes)
			continue;
		snprintf(node, sizeof(node), n < FT_EV_NODES ? "N%d" : "N?", n);
		x = putx(y, x + 2, A_NORMAL, "%s %llu %.0fms wakes %llu", node,
			 (unsigned long long)b->count,
			   (double)b->us / 1000.0, (unsigned long long)b->wakes);
	}
	draw_outcomes(s, y, x + 2, ev->compact_status[FT_CK_BACKGROUND]);
}

/* The counters at the session's tick into @v. */
static int64_t *counters_now(const struct ft_session *s, int64_t *v)
{
	ft_counters_read(s, v);
	return v;
}

/* @v grew by this since the cost's base (0 if it went back). */
static double grown(struct stalls_state *st, const int64_t *v, enum ft_cf c)
{
	return v[c] > st->cost_base[c] ? (double)(v[c] - st->cost_base[c]) : 0;
}

static int put_count(int y, int x, const char *label, double v, const char *unit)
{
	char b[16];

	ft_fmt_count(b, sizeof(b), v, 4);
	return putx(y, x, A_NORMAL, "%s%s%s", label, b, unit);
}

/*
 * Futile compaction since the base (model/events.h): the share of what
 * @who's scanners isolated in blocks holding unmovable pages, where the
 * map had read the blocks; red from a half.  Nothing without the events.
 */
static int put_futile(const struct stalls_state *st, const struct ft_session *s,
		      enum ft_iso_who who, int y, int x)
{
	double m, f;
	char a[16], b[16];

	if (!ft_session_has_event(s, FT_EV_COMPACT_ISO_MIGRATE))
		return x;
	m = ft_futile_share(&st->futile_base, &s->futile, who, FT_ISO_MIGRATE);
	f = ft_futile_share(&st->futile_base, &s->futile, who, FT_ISO_FREE);
	if (isnan(m) && isnan(f))
		return putx(y, x, ft_attr(FT_C_DIM), "futile -");
	ft_cell_pct(a, sizeof(a), 100 * m, 5, 0);
	ft_cell_pct(b, sizeof(b), 100 * f, 5, 0);
	return putx(y, x, m > 0.5 || f > 0.5 ? ft_attr(FT_C_BAD) : A_NORMAL,
		    "futile mig %s free %s", a, b);
}

/* Two lines: compaction's cost since the base, direct and kcompactd's apart (mmtests' split). */
static void draw_cost(struct stalls_state *st, const struct ft_session *s, int y)
{
	int64_t v[FT_CF_NR];
	uint32_t have = ft_counters_read(s, v);
	double stalls, ok, mig, fre, dmig, dfre, wakes;
	int x;

	ft_put(y, 0, ft_attr(FT_C_LABEL), "compaction cost");
	if (!(have & (1u << FT_CF_MIGRATE_SCANNED)) || !(have & (1u << FT_CF_COMPACT_STALL))) {
		ft_put(y, 19, ft_attr(FT_C_DIM), "no compact_*_scanned in /proc/vmstat here");
		return;
	}
	/* since the start, or the reset; a replay sought back before the reset drops it */
	if (st->have_cost && (s->tick_t_ns < st->cost_t_ns ||
			  v[FT_CF_MIGRATE_SCANNED] < st->cost_base[FT_CF_MIGRATE_SCANNED]))
		st->have_cost = false;
	if (!st->have_cost && (s->counter_first_have & (1u << FT_CF_MIGRATE_SCANNED))) {
		memcpy(st->cost_base, s->counter_first, sizeof(st->cost_base));
		memset(&st->direct_base, 0, sizeof(st->direct_base));
		memset(&st->futile_base, 0, sizeof(st->futile_base));
		st->cost_t_ns = s->first_t_ns;
	} else if (!st->have_cost) {	/* a lean session keeps no first values: from here */
		memcpy(st->cost_base, v, sizeof(st->cost_base));
		st->direct_base = s->direct.cost;
		st->futile_base = s->futile;
		st->cost_t_ns = s->tick_t_ns;
		st->have_cost = true;
	}
	/* what direct compaction scanned (struct ft_direct_cost): compact_memory's left out */
	stalls = (double)(s->direct.cost.stalls - st->direct_base.stalls);
	ok = (double)(s->direct.cost.success - st->direct_base.success);
	mig = (double)(s->direct.cost.migrate - st->direct_base.migrate);
	fre = (double)(s->direct.cost.free - st->direct_base.free);
	dmig = grown(st, v, FT_CF_DAEMON_MIGRATE_SCANNED);
	dfre = grown(st, v, FT_CF_DAEMON_FREE_SCANNED);
	wakes = grown(st, v, FT_CF_DAEMON_WAKES);
	x = putx(y, 19, ft_attr(FT_C_DIM), "%s %.0fs:", st->have_cost ? "reset" : "start",
		 (double)(s->tick_t_ns - st->cost_t_ns) / 1e9);
	x = put_count(y, x + 1, "direct mig ", mig, "");
	x = put_count(y, x + 1, "free ", fre, "");
	if (stalls > 0) {
		x = put_count(y, x + 1, "(", (mig + fre) / stalls, "/stall,");
		x = putx(y, x + 1, ok < stalls / 2 ? ft_attr(FT_C_WARN) : A_NORMAL, "ok %s%s",
			 ft_cell_pct((char[16]){ 0 }, 16, 100 * ok / stalls, 5, 0),
			 ok > 0 ? "," : ")");
		if (ok > 0)
			x = put_count(y, x + 1, "", (mig + fre) / ok, "/success)");
	}
	x = put_count(y, x + 2, "isolated ", grown(st, v, FT_CF_ISOLATED), "");
	put_futile(st, s, FT_ISO_DIRECT, y, x + 2);
	x = put_count(y + 1, 24, "kcompactd mig ", dmig, "");
	x = put_count(y + 1, x + 1, "free ", dfre, "");
	if (wakes > 0)
		x = put_count(y + 1, x + 1, "(", (dmig + dfre) / wakes, "/wake)");
	x = put_futile(st, s, FT_ISO_KCOMPACTD, y + 1, x + 2);
	/* compaction asked through compact_memory */
	if (s->direct.cost.ticks_out > st->direct_base.ticks_out)
		putx(y + 1, x + 2, ft_attr(FT_C_DIM),
		     "direct leaves out %llu ticks of compact_memory",
		     (unsigned long long)(s->direct.cost.ticks_out - st->direct_base.ticks_out));
}

/*
 * Without tracepoints: the stalls /proc/vmstat counts, per second over the
 * last tick, the compaction cost it gives, and what the tracepoints add.
 */
static void not_tracing(struct ft_ui *ui, int top, int height)
{
	struct stalls_state *st = S(ui);
	static const struct ft_rate_row rows[] = {
		{ FT_RATE_COMPACT_STALL, "direct compaction stalls (compact_stall)" },
		{ FT_RATE_COMPACT_FAIL, "... that failed (compact_fail)" },
		{ FT_RATE_ALLOCSTALL, "direct reclaim stalls (allocstall_*)" },
		{ FT_RATE_THP_FAULT_FALLBACK, "THP faults that fell back (thp_fault_fallback)" },
	};
	const struct ft_session *s = ui->s;
	int y = top, bottom = top + height;

	ft_put(y++, 0, A_BOLD, "No tracepoints: %s",
	       ui->rp ? "the recording has no tracepoint data" :
	       s->trace_err ? ft_tracefs_strerror(s->trace_err) : "tracing is off (--no-trace)");
	y++;
	y = ft_draw_rate_table(y, bottom, s->sample.rates.v, rows, sizeof(rows) / sizeof(rows[0])) +
		1;
	if (y + 1 < bottom) {
		draw_cost(st, s, y);	/* two lines */
		y += 3;
	}
	if (y < bottom)
		ft_put(y++, 0, ft_attr(FT_C_DIM),
		       "As root (tracefs at /sys/kernel/tracing) the tracepoints add how");
	if (y < bottom)
		ft_put(y++, 0, ft_attr(FT_C_DIM),
		       "long each stall took: histograms per kind and window, and who stalled.");
}

static void stalls_draw(struct ft_ui *ui, int top, int height)
{
	struct stalls_state *st = S(ui);
	const struct ft_session *s = ui->s;
	const struct ft_events *ev = &s->events;
	struct ft_hist hs[FT_LAT_NR];
	int y = top, i, per;

	if (!s->tracing) {
		not_tracing(ui, top, height);
		return;
	}
	/* a replay sought back before the reset point: the reset no longer applies */
	if (st->have_base && (s->tick_t_ns < st->base_t_ns ||
			  ev->lat[FT_LAT_COMPACTION].count < st->base[FT_LAT_COMPACTION].count))
		st->have_base = false;
	draw_window_line(st, s, y);
	y += 2;
	{
		/*
		 * a source absent, or with nothing in the window, takes two lines; the rest share
		 */
		int shown = 0, small = 0;

		for (i = 0; i < FT_LAT_NR; i++) {
			bool since_reset;

			if (!ft_session_has_event(s, ft_lat_event[i])) {
				small++;
				continue;
			}
			window_hist(st, s, i, &hs[i], &since_reset);
			if (hs[i].count)
				shown++;
			else
				small++;
		}
		per = shown ? (height - 7 - 2 * small) / shown : 0;
	}
	for (i = 0; i < FT_LAT_NR; i++) {
		if (!ft_session_has_event(s, ft_lat_event[i])) {
			ft_put(y, 0, ft_attr(FT_C_LABEL), "%s", lat_title[i]);
			ft_put(y, 32, ft_attr(FT_C_DIM), "absent on this kernel");
			y += 2;
			continue;
		}
		y += draw_hist(y, hs[i].count ? per - 1 : 2, lat_title[i], &hs[i],
			       ev->unpaired[i]) + 1;
	}
	if (y > top + height - 4)
		y = top + height - 4;
	draw_compaction(s, y);
	draw_cost(st, s, y + 2);
}

static void key_window(struct ft_ui *ui, int ch)
{
	struct stalls_state *st = S(ui);

	(void)ui;
	(void)ch;
	st->window = (st->window + 1) % NR_WINDOWS;
}

static void key_reset(struct ft_ui *ui, int ch)
{
	struct stalls_state *st = S(ui);

	if (ch == 'R') {
		st->have_base = false;
		st->have_cost = false;
		return;
	}
	memcpy(st->base, ui->s->events.lat, sizeof(st->base));
	st->base_t_ns = ui->s->tick_t_ns;
	st->have_base = true;
	/* the cost counts from now too */
	memcpy(st->cost_base, counters_now(ui->s, st->cost_now), sizeof(st->cost_base));
	st->direct_base = ui->s->direct.cost;
	st->cost_t_ns = ui->s->tick_t_ns;
	st->have_cost = true;
}

static const struct ft_key stalls_keys[] = {
	{ "v", { 'v' }, "window: last 10 s, last 1 min, since start", NULL, 0, key_window },
	{ "r", { 'r' }, "reset: count from now (every window)", NULL, 0, key_reset },
	{ "R", { 'R' }, "undo the reset", NULL, 0, key_reset },
	{ NULL },
};

static const struct ft_legend stalls_legend[] = {
	{ "window", "what the histograms cover: the last 10 s, the last minute, or since start "
		    "(v); r resets" },
	{ "(begin->end)", "a stall's time from its begin tracepoint to its end, per task" },
	{ "n mean p50 ...",
	  "stalls in the window, their mean and percentiles (p99.9: 999 in 1000 were shorter), "
	  "max, in microseconds; ~: a percentile read from the buckets, at most 6.25% high (report "
	  "gives them exact from every stall)" },
	{ "[a, b) us",
	  "a histogram bucket: stalls from a to under b microseconds, then their count and a bar" },
	{ "stalls N",
	  "direct compaction attempts counted as the kernel's compact_stall is (one per allocation "
	  "that compacted)" },
	{ "zone runs N",
	  "zones compacted (mm_compaction_begin/end pairs): one stall can compact several zones" },
	{ "success partial_skipped ...", "how the zone runs ended (mm_compaction_end's status)" },
	{ "background", "compactions no task waited for (kcompactd, proactive, compact_memory)" },
	{ "N0 3 46ms", "per node: background compactions and their time" },
	{ "wakes", "kcompactd wake-ups" },
	{ "compaction cost", "pages compaction scanned since the start, from /proc/vmstat" },
	{ "mig free", "pages the migrate and the free scanner looked at" },
	{ "isolated", "pages isolated to migrate" },
	{ "futile", "of the pages the migrate scanner scanned (mig) and the free scanner took "
		    "(free), direct's on "
	  "the first line and kcompactd's on the second, the share in pageblocks holding unmovable "
	  "pages, which can never become free (the isolate tracepoints joined with the map; blocks "
	  "the map has not read are left out; - none read)" },
	{ "/stall /success",
	  "pages scanned per direct stall and per successful one; ok: the share that succeeded" },
	{ "/wake", "pages kcompactd scanned per wake-up" },
	{ "from /proc/vmstat",
	  "without tracepoints: the stalls the kernel counts, per second, with no time" },
	{ "leaves out",
	  "ticks whose scanning was not direct compaction's (compact_memory, proactive) are left "
	  "out of the direct figures" },
	{ NULL, NULL },
};

const struct ft_view ft_view_stalls = {
	.state_size = sizeof(struct stalls_state),
	.name = "stalls",
	.draw = stalls_draw,
	.keys = stalls_keys,
	.legend = stalls_legend,
};
