// SPDX-License-Identifier: GPL-2.0-or-later
/* The history rings (model/history.h). */
#include "model/history.h"

#include <math.h>

const char *const ft_zh_names[FT_ZH_NR] = {
	[FT_ZH_FREE] = "free pages",
	[FT_ZH_UNUSABLE] = "unusable index",
	[FT_ZH_BOOST_PEAK] = "boost peak",
	[FT_ZH_BOOSTED] = "boosted",
	[FT_ZH_FRAG_RATE] = "fragmenting/s",
	[FT_ZH_IN_BLOCKS] = "free in pageblocks",
};

void ft_history_push(struct ft_history *h, const float (*v)[FT_ZH_NR], size_t nz, float stall,
		     uint64_t now, uint8_t mark)
{
	size_t slot = h->n++ % FT_HISTORY_LEN, i, k;
	int m;

	if (nz > FT_BOOST_ZONES)
		nz = FT_BOOST_ZONES;
	/*
	 * Only the zones the host has are written: the rings of the other
	 * FT_BOOST_ZONES were 0.9 MiB touched every tick.  A zone seen for
	 * the first time has no past: NAN all along.
	 */
	for (i = h->zones; i < nz; i++)
		for (m = 0; m < FT_ZH_NR; m++)
			for (k = 0; k < FT_HISTORY_LEN; k++)
				h->zone[i][m][k] = NAN;
	if (nz > h->zones)
		h->zones = nz;
	for (i = 0; i < h->zones; i++)
		for (m = 0; m < FT_ZH_NR; m++)
			h->zone[i][m][slot] = i < nz ? v[i][m] : NAN;
	h->stall[slot] = stall;
	h->t_ns[slot] = now;
	h->mark[slot] = mark;
}

void ft_history_get(const struct ft_history *h, int zi, enum ft_zh_metric m, unsigned long back,
		    int n,
		    double *out, uint8_t *marks, uint64_t *t_ns)
{
	uint64_t have = h->n < FT_HISTORY_LEN ? h->n : FT_HISTORY_LEN;
	int i;

	for (i = 0; i < n; i++) {
		/* out[n - 1] is @back ticks before the newest */
		uint64_t age = back + (uint64_t)(n - 1 - i);
		size_t slot;

		if (age >= have || (zi >= 0 && (size_t)zi >= h->zones) || m >= FT_ZH_NR) {
			out[i] = NAN;
			if (marks)
				marks[i] = 0;
			if (t_ns)
				t_ns[i] = 0;
			continue;
		}
		slot = (h->n - 1 - age) % FT_HISTORY_LEN;
		out[i] = zi < 0 ? h->stall[slot] : h->zone[zi][m][slot];
		if (marks)
			marks[i] = h->mark[slot];
		if (t_ns)
			t_ns[i] = h->t_ns[slot];
	}
}
