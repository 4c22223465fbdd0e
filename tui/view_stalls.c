// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stalls: one histogram per latency source (direct compaction, direct
 * reclaim, the fragmentation stall where the kernel has it), drawn as bars
 * over power-of-two microsecond buckets like the seed's stall table, with
 * count, mean, p50, p99 and max; then compaction outcomes.
 */
#include <stdio.h>
#include <string.h>

#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

static const enum ft_trace_event lat_event[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = FT_EV_COMPACT_END,
	[FT_LAT_RECLAIM] = FT_EV_RECLAIM_END,
	[FT_LAT_FRAG_STALL] = FT_EV_FRAG_STALL,
};

static const char *const lat_title[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = "compaction (begin->end)",
	[FT_LAT_RECLAIM] = "direct reclaim (begin->end)",
	[FT_LAT_FRAG_STALL] = "fragmentation stall",
};

/*
 * Header line, then one bar per bucket from the first to the last non-empty
 * one; when they do not fit in @rows - 1 lines, each line merges @step
 * adjacent buckets ([2^b, 2^(b+step)) us).
 */
static int draw_hist(int y, int rows, const char *title, const struct ft_hist *h,
		     uint64_t unpaired)
{
	int b, first = -1, last = -1, bar_w = COLS - 36, shown = 0, step, lines;
	uint64_t peak = 0, merged[FT_HIST_BUCKETS];

	ft_put(y, 0, ft_attr(FT_C_LABEL), "%s", title);
	if (!h->count) {
		ft_put(y, 30, ft_attr(FT_C_DIM), "no samples yet");
		return 1;
	}
	ft_put(y, 30, A_NORMAL, "n %llu  mean %.0f  p50 <%llu  p99 <%llu  max %llu us",
	       (unsigned long long)h->count, ft_hist_mean(h),
	       (unsigned long long)ft_hist_percentile(h, 50) + 1,
	       (unsigned long long)ft_hist_percentile(h, 99) + 1,
	       (unsigned long long)h->max_us);
	for (b = 0; b < FT_HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		if (first < 0)
			first = b;
		last = b;
	}
	lines = rows - 1 - (unpaired ? 1 : 0);
	if (lines < 1)
		return 1;
	step = (last - first + lines) / lines;
	if (step < 1)
		step = 1;
	for (b = first; b <= last; b += step) {
		int k;

		merged[shown] = 0;
		for (k = b; k < b + step && k < FT_HIST_BUCKETS; k++)
			merged[shown] += h->bucket[k];
		if (merged[shown] > peak)
			peak = merged[shown];
		shown++;
	}
	for (int i = 0; i < shown; i++) {
		int lo_b = first + i * step, hi_b = lo_b + step;
		int w = (int)((double)merged[i] / (double)peak * bar_w + 0.5);
		char lo[16], hi[16], cnt[16];

		ft_fmt_count(lo, sizeof(lo), lo_b ? (double)(1ull << lo_b) : 0, 6);
		ft_fmt_count(hi, sizeof(hi), (double)(1ull << (hi_b < 63 ? hi_b : 63)), 6);
		ft_fmt_count(cnt, sizeof(cnt), (double)merged[i], 7);
		ft_put(y + 1 + i, 2, A_NORMAL, "[%6s, %6s) us %7s ", lo, hi, cnt);
		if (merged[i] && w < 1)
			w = 1;
		ft_bar(y + 1 + i, 34, w, ft_attr(FT_C_OK));
	}
	if (unpaired) {
		ft_put(y + 1 + shown, 2, ft_attr(FT_C_DIM), "%llu end%s without a begin (or begin table full)",
		       (unsigned long long)unpaired, unpaired > 1 ? "s" : "");
		shown++;
	}
	return 1 + shown;
}

static void stalls_draw(struct ft_ui *ui, int top, int height)
{
	const struct ft_session *ss = ui->s;
	const struct ft_events *ev = &ss->events;
	int y = top, i, per, x;

	if (!ss->tracing) {
		ft_put(top + 1, 2, A_BOLD, "No tracepoints: %s",
		       ui->rp ? "the recording has no tracepoint data" : ss->trace_err ?
		       ft_trace_strerror(ss->trace_err) : "tracing is off (--no-trace)");
		return;
	}
	{
		int present = 0, absent = 0;

		for (i = 0; i < FT_LAT_NR; i++)
			present += ft_session_has_event(ss, lat_event[i]);
		absent = FT_LAT_NR - present;
		per = present ? (height - 2 - 2 * absent) / present - 1 : 0;
	}
	for (i = 0; i < FT_LAT_NR; i++) {
		if (!ft_session_has_event(ss, lat_event[i])) {
			ft_put(y, 0, ft_attr(FT_C_LABEL), "%s", lat_title[i]);
			ft_put(y, 30, ft_attr(FT_C_DIM), "absent on this kernel");
			y += 2;
			continue;
		}
		y += draw_hist(y, per - 1, lat_title[i], &ev->lat[i], ev->unpaired[i]) + 1;
	}
	if (y >= top + height)
		y = top + height - 1;
	ft_put(y, 0, ft_attr(FT_C_LABEL), "compaction outcomes");
	x = 21;
	for (i = 0; i < ev->nr_compact_status; i++) {
		char buf[48];

		if (!ev->compact_status[i])
			continue;
		snprintf(buf, sizeof(buf), "%s %llu", ss->dec.status_name[i],
			 (unsigned long long)ev->compact_status[i]);
		ft_put(y, x, A_NORMAL, "%s", buf);
		x += (int)strlen(buf) + 2;
	}
	if (x == 21)
		ft_put(y, x, ft_attr(FT_C_DIM), "none yet");
}

static const char *const stalls_keys[][2] = {
	{ NULL, NULL },
};

const struct ft_view ft_view_stalls = {
	.name = "stalls",
	.draw = stalls_draw,
	.keys = stalls_keys,
};
