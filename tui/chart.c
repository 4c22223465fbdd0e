// SPDX-License-Identifier: GPL-2.0-or-later
#include "tui/chart.h"

#include <math.h>
#include <stdio.h>

#include "tui/draw.h"

#define MAX_W 1024

static const char *const labels[FT_ZH_NR] = {
	[FT_ZH_FREE] = "free",
	[FT_ZH_UNUSABLE] = "unusable",
	[FT_ZH_BOOST_PEAK] = "boost peak",
	[FT_ZH_BOOSTED] = "boosted",
	[FT_ZH_FRAG_RATE] = "frag fb/s",
	[FT_ZH_IN_BLOCKS] = "in blocks",
};

void ft_chart_fmt(const struct ft_session *s, enum ft_zh_metric m, int zi, double v,
		  char *buf, size_t sz)
{
	if (isnan(v)) {
		snprintf(buf, sz, "-");
		return;
	}
	if (zi == FT_CHART_STALLS) {
		ft_fmt_rate(buf, sz, v, 6);
		return;
	}
	switch (m) {
	case FT_ZH_FREE:
		ft_fmt_pages(buf, sz, (uint64_t)v, s->host.page_size);
		break;
	case FT_ZH_UNUSABLE:
		snprintf(buf, sz, "%.3f", v);
		break;
	case FT_ZH_BOOSTED:
	case FT_ZH_IN_BLOCKS:
		snprintf(buf, sz, "%.0f%%", v * 100);
		break;
	default:
		ft_fmt_count(buf, sz, v, 6);
		break;
	}
}

int ft_chart_row(const struct ft_session *s, int y, int x, int width, int zi,
		 enum ft_zh_metric m, unsigned long back, int cursor)
{
	double v[MAX_W];		/* 9 KiB on the stack: the draw's own */
	uint8_t marks[MAX_W];
	int w = width - FT_CHART_LABEL - FT_CHART_VALUE, i;
	double lo = INFINITY, hi = -INFINITY;
	char val[32];

	if (w < 4)
		return 0;
	if (w > MAX_W)
		w = MAX_W;
	ft_session_history(s, zi, m, back, w, v, marks, NULL);
	for (i = 0; i < w; i++) {
		if (isnan(v[i]))
			continue;
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	if (zi != FT_CHART_STALLS &&
	    (m == FT_ZH_UNUSABLE || m == FT_ZH_BOOSTED || m == FT_ZH_IN_BLOCKS)) {
		lo = 0;		/* shares: a fixed 0..1 scale */
		hi = 1;
	} else if (zi != FT_CHART_STALLS && m == FT_ZH_FREE && hi > lo) {
		lo -= (hi - lo) / 7;	/* free pages move little: their range, the least one bar */
	} else {
		lo = 0;
	}
	ft_put(y, x, ft_attr(FT_C_DIM), "%-*.*s", FT_CHART_LABEL - 1, FT_CHART_LABEL - 1,
	       zi == FT_CHART_STALLS ? "stalls/s" : labels[m]);
	ft_spark(y, x + FT_CHART_LABEL, v, w, lo, hi, marks, cursor);
	ft_chart_fmt(s, m, zi, cursor >= 0 && cursor < w ? v[cursor] : v[w - 1], val, sizeof(val));
	ft_put(y, x + FT_CHART_LABEL + w, A_NORMAL, " %*s", FT_CHART_VALUE - 1, val);
	return w;
}
