/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The zone's fields, one row each (below's field registry): the key that
 * JSON and CSV use, the exporter's family, unit, kind and help, and how
 * the value is read from the session, absent where the kernel or the
 * recording has none (shown as absent, never as 0).  The renderers walk
 * rows: snapshot's JSON, export's CSV and JSON, and the exporter's zone
 * gauges, each through its own ordered list of fields, so a new zone
 * metric is a row here and its id in the lists that should show it.
 */
#ifndef FT_MODEL_ZONEFIELD_H
#define FT_MODEL_ZONEFIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/session.h"

enum ft_zf {
	FT_ZF_FREE, FT_ZF_FREE_IN_BLOCKS, FT_ZF_MIN, FT_ZF_LOW, FT_ZF_HIGH, FT_ZF_BOOST,
	FT_ZF_PROMO,
	FT_ZF_MANAGED, FT_ZF_PRESENT, FT_ZF_SPANNED, FT_ZF_START_PFN, FT_ZF_UNUSABLE_PBO,
	FT_ZF_BOOST_PEAK, FT_ZF_BOOSTED,
	/* the map's (model/contig.h) */
	FT_ZF_AMPLIFICATION, FT_ZF_GIANT_NOW, FT_ZF_GIANT_AFTER,
	FT_ZF_NR
};

/* How a value is written in JSON and CSV. */
enum ft_zf_fmt {
	FT_ZF_UINT,		/* a count: "%llu" */
	FT_ZF_RATIO,		/* a share 0..1: "%.4f" */
	FT_ZF_INDEX,		/* a kernel index kept in thousandths: "0.066" */
};

enum ft_zf_kind { FT_ZF_GAUGE, FT_ZF_COUNTER };

struct ft_zv {
	uint64_t u;		/* FT_ZF_UINT */
	double d;		/* every format; the exporter's value */
	int thousandths;	/* FT_ZF_INDEX */
};

struct ft_zone_field {
	const char *key;	/* JSON key; CSV column N<node>_<zone>_<key> */
	/*
	 * the exporter's family (a gauge per zone), or NULL; a field in pages
	 * is exported in bytes (node_exporter's base unit), its name ending
	 * in _bytes
	 */
	const char *metric;
	const char *unit;	/* "pages", "ratio", "pfn", "index" */
	enum ft_zf_kind kind;
	const char *help;	/* one sentence: the exporter's HELP */
	enum ft_zf_fmt fmt;
	/* zone @i of the session's sample (zoneinfo order): false when absent */
	bool (*get)(const struct ft_session *s, size_t i, struct ft_zv *v);
};

extern const struct ft_zone_field ft_zone_fields[FT_ZF_NR];

/*
 * Field @f of zone @i as JSON/CSV text in @buf (a number, never quoted).
 * false, and @buf "", when absent.
 */
bool ft_zone_field_text(const struct ft_session *s, size_t i, enum ft_zf f, char *buf, size_t sz);

#endif
