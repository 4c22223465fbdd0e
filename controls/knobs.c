// SPDX-License-Identifier: GPL-2.0-or-later
#include "controls/knobs.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "collectors/file.h"

const struct ft_knob ft_knobs[] = {
	{ .name = "watermark_boost_factor",
	  .path = "proc/sys/vm/watermark_boost_factor",
	  .type = FT_KNOB_INT, .min = 0, .max = INT_MAX, .step = 2500, .def = 15000,
	  .unit = "1/10000 of high wmark",
	  .help = "How far watermarks are boosted after a fragmenting fallback; 0 disables boosting" },
	{ .name = "watermark_scale_factor",
	  .path = "proc/sys/vm/watermark_scale_factor",
	  .type = FT_KNOB_INT, .min = 1, .max = 3000, .step = 10, .def = 10,
	  .unit = "1/10000 of memory",
	  .help = "Distance between the min, low and high watermarks" },
	{ .name = "min_free_kbytes",
	  .path = "proc/sys/vm/min_free_kbytes",
	  .type = FT_KNOB_INT, .min = 0, .max = INT_MAX, .step = 1024,
	  .def = FT_KNOB_NO_DEFAULT, .unit = "KiB",
	  .help = "Reserve behind the min watermark (default computed at boot)" },
	{ .name = "extfrag_threshold",
	  .path = "proc/sys/vm/extfrag_threshold",
	  .type = FT_KNOB_INT, .min = 0, .max = 1000, .step = 50, .def = 500,
	  .unit = "fragmentation index x1000",
	  .help = "Compact rather than reclaim when the fragmentation index is above this" },
	{ .name = "compaction_proactiveness",
	  .path = "proc/sys/vm/compaction_proactiveness",
	  .type = FT_KNOB_INT, .min = 0, .max = 100, .step = 10, .def = 20,
	  .unit = "0-100",
	  .help = "How hard kcompactd compacts in the background (5.9+)" },
	{ .name = "defrag_mode",
	  .path = "proc/sys/vm/defrag_mode",
	  .type = FT_KNOB_INT, .min = 0, .max = 1, .step = 1, .def = 0,
	  .unit = "bool",
	  .help = "Reclaim and compact rather than fragment pageblocks (6.15+)" },
	{ .name = "fragment_stall_order",
	  .path = "proc/sys/vm/fragment_stall_order",
	  .type = FT_KNOB_INT, .min = 0, .max = 11, .step = 1, .def = 3,
	  .unit = "order",
	  .help = "Stall movable allocations that would fragment below this order (stall patch only)" },
	{ .name = "compact_unevictable_allowed",
	  .path = "proc/sys/vm/compact_unevictable_allowed",
	  .type = FT_KNOB_INT, .min = 0, .max = 1, .step = 1, .def = 1,
	  .unit = "bool",
	  .help = "Let compaction migrate unevictable (mlocked) pages" },
	{ .name = "thp_enabled",
	  .path = "sys/kernel/mm/transparent_hugepage/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT,
	  .help = "Transparent huge pages: always, madvise or never" },
	{ .name = "thp_defrag",
	  .path = "sys/kernel/mm/transparent_hugepage/defrag",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT,
	  .help = "How hard a THP fault reclaims and compacts" },
	{ .name = "compact_memory",
	  .path = "proc/sys/vm/compact_memory",
	  .type = FT_KNOB_TRIGGER, .min = 1, .max = 1, .def = FT_KNOB_NO_DEFAULT,
	  .help = "Compact all zones of all nodes now" },
	{ .name = "compact_node",
	  .path = "sys/devices/system/node/node%d/compact",
	  .type = FT_KNOB_TRIGGER, .min = 1, .max = 1, .def = FT_KNOB_NO_DEFAULT,
	  .per_node = true,
	  .help = "Compact all zones of one node now" },
	{ .name = "drop_caches",
	  .path = "proc/sys/vm/drop_caches",
	  .type = FT_KNOB_TRIGGER, .min = 1, .max = 3, .def = FT_KNOB_NO_DEFAULT,
	  .help = "Drop clean page cache (1), slab (2) or both (3): hurts performance" },
};

const size_t ft_knobs_nr = sizeof(ft_knobs) / sizeof(ft_knobs[0]);

const struct ft_knob *ft_knob_find(const char *name)
{
	size_t i;

	if (!strncmp(name, "vm.", 3))
		name += 3;
	for (i = 0; i < ft_knobs_nr; i++)
		if (!strcmp(ft_knobs[i].name, name))
			return &ft_knobs[i];
	return NULL;
}

int ft_knob_read(int rootfd, const struct ft_knob *k, struct ft_knob_value *v)
{
	char buf[256];
	long n;

	memset(v, 0, sizeof(*v));
	if (k->type == FT_KNOB_TRIGGER || k->per_node)
		return v->err = -EOPNOTSUPP;
	n = ft_file_slurp(rootfd, k->path, buf, sizeof(buf));
	if (n < 0)
		return v->err = (int)n;
	if (k->type == FT_KNOB_INT)
		v->err = ft_sysfile_parse_int(buf, (size_t)n, &v->num);
	else
		v->err = ft_sysfile_parse_selector(buf, (size_t)n, &v->sel);
	return v->err;
}
