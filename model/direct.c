// SPDX-License-Identifier: GPL-2.0-or-later
/* Direct compaction's cost (model/direct.h). */
#include "model/direct.h"

#include "model/counterfield.h"

void ft_direct_tick(struct ft_direct *d, const int64_t *v, uint32_t have, uint64_t bg_foreign)
{
	static const enum ft_cf take[6] = {
		FT_CF_MIGRATE_SCANNED, FT_CF_DAEMON_MIGRATE_SCANNED, FT_CF_FREE_SCANNED,
		FT_CF_DAEMON_FREE_SCANNED, FT_CF_COMPACT_STALL, FT_CF_COMPACT_SUCCESS,
	};
	struct ft_direct_cost *c = &d->cost;
	bool foreign = bg_foreign != d->foreign_prev;
	int64_t g[6];
	int i;

	if (!(have & (1u << FT_CF_MIGRATE_SCANNED)))
		return;
	for (i = 0; i < 6; i++) {	/* growth, 0 where a counter went back */
		g[i] = v[take[i]] > d->prev[i] ? v[take[i]] - d->prev[i] : 0;
		d->prev[i] = v[take[i]];
	}
	d->foreign_prev = bg_foreign;
	if (!d->have_prev) {	/* the first tick is the base */
		d->have_prev = true;
		return;
	}
	if (foreign || d->taint) {
		d->taint = foreign;
		c->ticks_out++;
		c->stalls_out += g[4];
		return;
	}
	c->ticks++;
	c->migrate += g[0] - g[1];
	c->free += g[2] - g[3];
	c->stalls += g[4];
	c->success += g[5];
}

void ft_direct_kinds(const struct ft_direct *d, const int64_t *first, const int64_t *now,
		     struct ft_scan_kinds *out)
{
	static const enum ft_cf all[2] = { FT_CF_MIGRATE_SCANNED, FT_CF_FREE_SCANNED };
	static const enum ft_cf daemon[2] = { FT_CF_DAEMON_MIGRATE_SCANNED,
					      FT_CF_DAEMON_FREE_SCANNED };
	const int64_t direct[2] = { d->cost.migrate, d->cost.free };
	int k;

	for (k = 0; k < 2; k++) {
		int64_t total = now[all[k]] - first[all[k]], bg = now[daemon[k]] - first[daemon[k]];
		int64_t rest = total - bg - direct[k];

		out->direct[k] = direct[k];
		out->kcompactd[k] = bg > 0 ? bg : 0;
		out->other[k] = rest > 0 ? rest : 0;	/* a counter that went back: none */
	}
}
