// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/sample.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/frag.h"

const char *const ft_source_names[FT_SRC_NR] = {
	[FT_SRC_ZONEINFO]	= "zoneinfo",
	[FT_SRC_BUDDYINFO]	= "buddyinfo",
	[FT_SRC_PAGETYPEINFO]	= "pagetypeinfo",
	[FT_SRC_VMSTAT]		= "vmstat",
	[FT_SRC_PRESSURE]	= "pressure",
};

void ft_sample_init(struct ft_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->pageblock_order = -1;
	s->pageblock_order_fallback = -1;
	s->psi_some_ms = s->psi_full_ms = NAN;
}

/* ms a second stalled between two totals in us (NAN when it went back: not the same file). */
static double stall_ms(uint64_t before, uint64_t after, double dt)
{
	return after >= before && dt > 0 ? (double)(after - before) / 1000.0 / dt : NAN;
}

/* The stall rates from the pressure read before (@old at @old_t_ns) to this one. */
static void psi_rates(struct ft_sample *s, const struct ft_psi *old, uint64_t old_t_ns, bool had)
{
	double dt = (double)(s->src_t_ns[FT_SRC_PRESSURE] - old_t_ns) / 1e9;

	s->psi_some_ms = s->psi_full_ms = NAN;
	if (!had)
		return;
	if (old->some.have && s->psi.some.have)
		s->psi_some_ms = stall_ms(old->some.total_us, s->psi.some.total_us, dt);
	if (old->full.have && s->psi.full.have)
		s->psi_full_ms = stall_ms(old->full.total_us, s->psi.full.total_us, dt);
}

void ft_sample_release(struct ft_sample *s)
{
	ft_zoneinfo_release(&s->zoneinfo);
	ft_buddyinfo_release(&s->buddy);
	ft_pagetypeinfo_release(&s->pti);
	ft_vmstat_release(&s->vmstat);
	ft_vmstat_release(&s->prev_vmstat);
	free(s->zones);
	ft_sample_init(s);
}

static int parse_source(struct ft_sample *s, enum ft_source src,
			const struct ft_raw_source *r)
{
	switch (src) {
	case FT_SRC_ZONEINFO:
		return ft_zoneinfo_parse(r->buf, r->len, &s->zoneinfo);
	case FT_SRC_BUDDYINFO:
		return ft_buddyinfo_parse(r->buf, r->len, &s->buddy);
	case FT_SRC_PAGETYPEINFO:
		return ft_pagetypeinfo_parse(r->buf, r->len, &s->pti);
	case FT_SRC_VMSTAT:
		return ft_vmstat_parse(r->buf, r->len, &s->vmstat);
	default:
		return -EINVAL;
	}
}

static int join(struct ft_sample *s)
{
	bool bi = ft_sample_has(s, FT_SRC_BUDDYINFO);
	bool pti = ft_sample_has(s, FT_SRC_PAGETYPEINFO);
	size_t i;
	int err;

	s->nr_zones = 0;
	if (!ft_sample_has(s, FT_SRC_ZONEINFO))
		return 0;
	err = ft_grow((void **)&s->zones, &s->cap_zones, s->zoneinfo.nr,
		      sizeof(*s->zones), FT_MAX_ZONES);
	if (err)
		return err;
	s->nr_orders = bi ? s->buddy.nr_orders : pti ? s->pti.nr_orders : 0;
	s->pageblock_order = pti ? s->pti.pageblock_order : s->pageblock_order_fallback;
	for (i = 0; i < s->zoneinfo.nr; i++) {
		struct ft_zone *z = &s->zones[s->nr_zones++];

		memset(z, 0, sizeof(*z));
		z->zi = &s->zoneinfo.zones[i];
		if (bi)
			z->bi = ft_buddyinfo_find(&s->buddy, z->zi->node, z->zi->name);
		if (pti)
			z->pti = ft_pagetypeinfo_find(&s->pti, z->zi->node, z->zi->name);
		if (z->bi)
			ft_frag_indices(z->bi->blocks, s->buddy.nr_orders,
					z->unusable, z->fragidx);
	}
	return 0;
}

/* The pressure source: parsed, and the stall rates from the read before when it was good. */
static void pressure_update(struct ft_sample *s, const struct ft_raw_source *r)
{
	const unsigned int bit = 1u << FT_SRC_PRESSURE;
	struct ft_psi old = s->psi;
	uint64_t old_t_ns = s->src_t_ns[FT_SRC_PRESSURE];
	bool had = s->valid & bit;
	int err = r->err ? r->err : ft_cgroup_psi_parse(r->buf, r->len, &s->psi);

	s->valid &= ~bit;
	s->err[FT_SRC_PRESSURE] = err;
	if (!err) {
		s->valid |= bit;
		s->src_t_ns[FT_SRC_PRESSURE] = s->t_ns;
	}
	psi_rates(s, &old, old_t_ns, had && !err);
}

int ft_sample_update(struct ft_sample *s, const struct ft_raw *raw)
{
	int i, err;

	s->t_ns = raw->t_ns;
	for (i = 0; i < FT_SRC_NR; i++) {
		const struct ft_raw_source *r = &raw->src[i];

		if (!r->fresh)
			continue;
		if (i == FT_SRC_PRESSURE) {
			pressure_update(s, r);
			continue;
		}
		if (i == FT_SRC_VMSTAT && ft_sample_has(s, FT_SRC_VMSTAT)) {
			struct ft_vmstat tmp = s->prev_vmstat;

			s->prev_vmstat = s->vmstat;
			s->vmstat = tmp;
			s->prev_vmstat_t_ns = s->src_t_ns[i];
			s->has_prev = true;
		}
		s->valid &= ~(1u << i);
		err = r->err;
		if (!err)
			err = parse_source(s, i, r);
		s->err[i] = err;
		if (!err) {
			s->valid |= 1u << i;
			s->src_t_ns[i] = raw->t_ns;
		} else if (i == FT_SRC_VMSTAT) {
			s->has_prev = false;
		}
	}
	if (s->has_prev && ft_sample_has(s, FT_SRC_VMSTAT))
		ft_rates_compute(&s->prev_vmstat, &s->vmstat,
				 (double)(s->src_t_ns[FT_SRC_VMSTAT] - s->prev_vmstat_t_ns) / 1e9,
				 &s->rates);
	else
		ft_rates_compute(NULL, NULL, 0, &s->rates);
	err = join(s);
	if (err)
		return err;
	return ft_sample_has(s, FT_SRC_ZONEINFO) ? 0 : s->err[FT_SRC_ZONEINFO];
}

int ft_sample_rejoin(struct ft_sample *s)
{
	ft_vmstat_index(&s->vmstat);
	ft_vmstat_index(&s->prev_vmstat);
	return join(s);
}

const char *ft_sample_mt_name(const struct ft_sample *s, int mt, char *buf, size_t sz)
{
	if (ft_sample_has(s, FT_SRC_PAGETYPEINFO) && mt >= 0 && mt < s->pti.nr_types)
		return s->pti.types[mt];
	snprintf(buf, sz, "mt%d", mt);
	return buf;
}
