// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/zonefield.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/contig.h"
#include "model/frag.h"

static const struct ft_zi_zone *zi_of(const struct ft_session *s, size_t i)
{
	return i < s->sample.nr_zones ? s->sample.zones[i].zi : NULL;
}

static bool uint_value(struct ft_zv *v, uint64_t u)
{
	v->u = u;
	v->d = (double)u;
	return true;
}

#define ZI_GETTER(fn, expr, need)						\
static bool fn(const struct ft_session *s, size_t i, struct ft_zv *v)		\
{										\
	const struct ft_zi_zone *zi = zi_of(s, i);				\
										\
	if (!zi || ((need) && !(zi->has & (need))))				\
		return false;							\
	return uint_value(v, (expr));						\
}

ZI_GETTER(get_free, zi->free, 0)
ZI_GETTER(get_free_in_blocks, zi->free_blocks, FT_ZI_FREE_BLOCKS)
ZI_GETTER(get_min, zi->min, 0)
ZI_GETTER(get_low, zi->low, 0)
ZI_GETTER(get_high, zi->high, 0)
ZI_GETTER(get_boost, zi->boost, FT_ZI_BOOST)
ZI_GETTER(get_promo, zi->promo, FT_ZI_PROMO)
ZI_GETTER(get_managed, zi->managed, 0)
ZI_GETTER(get_present, zi->present, 0)
ZI_GETTER(get_spanned, zi->spanned, 0)
ZI_GETTER(get_start_pfn, zi->start_pfn, FT_ZI_START_PFN)

/* The unusable free space index at pageblock order (buddyinfo). */
static bool get_unusable_pbo(const struct ft_session *s, size_t i, struct ft_zv *v)
{
	const struct ft_sample *sm = &s->sample;
	int pbo = sm->pageblock_order;

	if (i >= sm->nr_zones || !sm->zones[i].bi || pbo < 0 || pbo >= sm->nr_orders)
		return false;
	v->thousandths = sm->zones[i].unusable[pbo];
	v->d = v->thousandths / 1000.0;
	return true;
}

/* The boost sampler's last tick: absent without a sampler or before its first read. */
static bool get_boost_peak(const struct ft_session *s, size_t i, struct ft_zv *v)
{
	const struct ft_boost_tick *b = ft_session_boost(s, i);

	return b && b->samples && uint_value(v, b->peak);
}

static bool get_boosted(const struct ft_session *s, size_t i, struct ft_zv *v)
{
	const struct ft_boost_tick *b = ft_session_boost(s, i);

	if (!b || !b->samples)
		return false;
	v->d = (double)b->boosted / b->samples;
	return true;
}

/* The map's zone for sample zone @i, or -1 (none, or not a block of it read whole). */
static int map_zone(const struct ft_session *s, size_t i)
{
	const struct ft_zi_zone *zi = s->sample.zones[i].zi;
	int k = s->map_err ? -1 : ft_pbmap_zone_named(&s->map, zi->node, zi->name);

	/* a zone the map has not read a block of whole has nothing to say */
	return k >= 0 &&
	s->map.zones[k].count[FT_PB_UNSCANNED] < s->map.zones[k].nr_blocks ? k : -1;
}

static bool get_amplification(const struct ft_session *s, size_t i, struct ft_zv *v)
{
	struct ft_amp a = { 0 };
	int k = map_zone(s, i);

	if (k < 0)
		return false;
	ft_amp_add(&a, &s->map.zones[k]);
	v->d = ft_amp_ratio(&a);
	/*
	 * partial (blocks not read whole yet) is absent, as gigantic pages are while a region is
	 * unread
	 */
	return isfinite(v->d) && !ft_amp_partial(&a);
}

/* Gigantic pages available (@after: after compaction); absent while a region is unread. */
static bool giant(const struct ft_session *s, size_t i, struct ft_zv *v, bool after)
{
	struct ft_contig_zone c;
	int k = map_zone(s, i);

	if (k < 0)
		return false;
	ft_session_contig(s, (size_t)k, &c, NULL, 0);
	if (c.order < 0 || c.count[FT_GR_UNKNOWN])
		return false;
	return uint_value(v, after ? c.after : c.now);
}

static bool get_giant_now(const struct ft_session *s, size_t i, struct ft_zv *v)
{
	return giant(s, i, v, false);
}

static bool get_giant_after(const struct ft_session *s, size_t i, struct ft_zv *v)
{
	return giant(s, i, v, true);
}

const struct ft_zone_field ft_zone_fields[FT_ZF_NR] = {
	[FT_ZF_FREE] = { "free_pages", "fragtop_zone_free_bytes", "pages", FT_ZF_GAUGE,
			 "Free memory of the zone (zoneinfo nr_free_pages).", FT_ZF_UINT,
			 get_free },
	[FT_ZF_FREE_IN_BLOCKS] = { "free_pages_blocks", "fragtop_zone_free_in_blocks_bytes",
				   "pages", FT_ZF_GAUGE,
				   "Free memory in whole free pageblocks (zoneinfo "
				   "nr_free_pages_blocks, 6.15+).",
				   FT_ZF_UINT, get_free_in_blocks },
	[FT_ZF_MIN] = { "min", NULL, "pages", FT_ZF_GAUGE, "The min watermark.", FT_ZF_UINT,
			get_min },
	[FT_ZF_LOW] = { "low", NULL, "pages", FT_ZF_GAUGE, "The low watermark.", FT_ZF_UINT,
			get_low },
	[FT_ZF_HIGH] = { "high", NULL, "pages", FT_ZF_GAUGE, "The high watermark.", FT_ZF_UINT,
			 get_high },
	[FT_ZF_BOOST] = { "boost", "fragtop_zone_boost_bytes", "pages", FT_ZF_GAUGE,
			  "The watermark boost at the sample (zoneinfo).", FT_ZF_UINT, get_boost },
	[FT_ZF_PROMO] = { "promo", NULL, "pages", FT_ZF_GAUGE,
			  "The promo watermark (tiered memory).",
			  FT_ZF_UINT, get_promo },
	[FT_ZF_MANAGED] = { "managed", "fragtop_zone_managed_bytes", "pages", FT_ZF_GAUGE,
			    "Memory the buddy allocator manages in the zone (zoneinfo managed).",
			    FT_ZF_UINT, get_managed },
	[FT_ZF_PRESENT] = { "present", NULL, "pages", FT_ZF_GAUGE,
			    "Physical pages the zone spans, less holes.",
			    FT_ZF_UINT, get_present },
	[FT_ZF_SPANNED] = { "spanned", NULL, "pages", FT_ZF_GAUGE,
			    "Pages the zone spans, holes included.",
			    FT_ZF_UINT, get_spanned },
	[FT_ZF_START_PFN] = { "start_pfn", NULL, "pfn", FT_ZF_GAUGE, "The zone's first page frame.",
			      FT_ZF_UINT,
			      get_start_pfn },
	[FT_ZF_UNUSABLE_PBO] = { "unusable", NULL, "index", FT_ZF_GAUGE,
				 "Unusable free space index at pageblock order (0..1).",
				 FT_ZF_INDEX,
				 get_unusable_pbo },
	[FT_ZF_BOOST_PEAK] = { "boost_peak", "fragtop_zone_boost_peak_bytes", "pages", FT_ZF_GAUGE,
			       "The largest boost the sampler saw in the last tick.", FT_ZF_UINT,
			       get_boost_peak },
	[FT_ZF_BOOSTED] = { "boosted_fraction", "fragtop_zone_boosted_ratio", "ratio", FT_ZF_GAUGE,
			    "Share of the last tick the sampler found the zone boosted (0..1).",
			    FT_ZF_RATIO,
			    get_boosted },
	[FT_ZF_AMPLIFICATION] = { "pollution_amplification",
				  "fragtop_zone_pollution_amplification_ratio", "ratio",
				  FT_ZF_GAUGE,
				  "The share of the zone's pageblocks holding an unmovable page "
				  "over the share of its pages that are (the map's last whole "
				  "read; 1: packed).", FT_ZF_RATIO,
				  get_amplification },
	[FT_ZF_GIANT_NOW] = { "gigantic_available_now", "fragtop_zone_gigantic_pages_available",
			      "count", FT_ZF_GAUGE,
			      "Gigantic pages (the largest hugetlb size) the zone's free regions "
			      "hold (the map's).",
			      FT_ZF_UINT, get_giant_now },
	[FT_ZF_GIANT_AFTER] = { "gigantic_available_after_compaction",
				"fragtop_zone_gigantic_pages_available_after_compaction", "count",
				FT_ZF_GAUGE,
				"Gigantic pages the zone's free and movable regions hold (the "
				"map's).", FT_ZF_UINT,
				get_giant_after },
};

bool ft_zone_field_text(const struct ft_session *s, size_t i, enum ft_zf f, char *buf, size_t sz)
{
	struct ft_zv v = { 0 };

	buf[0] = '\0';
	if (f >= FT_ZF_NR || !ft_zone_fields[f].get(s, i, &v))
		return false;
	switch (ft_zone_fields[f].fmt) {
	case FT_ZF_UINT:
		snprintf(buf, sz, "%llu", (unsigned long long)v.u);
		break;
	case FT_ZF_RATIO:
		snprintf(buf, sz, "%.4f", v.d);
		break;
	case FT_ZF_INDEX:
		ft_thousandths_format(v.thousandths, buf, sz);
		break;
	}
	return true;
}
