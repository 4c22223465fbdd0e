// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop fields` printed: the field registries (model/zonefield.h,
 * model/counterfield.h, model/procs.h) as a table or JSON.
 */
#include "render/fields.h"

#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "model/counterfield.h"
#include "model/procs.h"
#include "model/zonefield.h"

static const char *kind_name(enum ft_zf_kind k)
{
	return k == FT_ZF_COUNTER ? "counter" : "gauge";
}

/* The registries as a table on stdout. */
void ft_render_fields_text(void)
{
	char src[96];
	size_t i;

	printf("zone fields (snapshot --json, export: N<node>_<zone>_<key>; the exporter's "
	       "family,\n in bytes where the unit is pages)\n");
	printf("  %-22s %-7s %-7s %-40s %s\n", "KEY", "UNIT", "KIND", "FAMILY", "HELP");
	for (i = 0; i < FT_ZF_NR; i++) {
		const struct ft_zone_field *f = &ft_zone_fields[i];

		printf("  %-22s %-7s %-7s %-40s %s\n", f->key, f->unit, kind_name(f->kind),
		       f->metric ? f->metric : "-", f->help);
	}
	printf("\ncounters (report --json totals and intervals, compare, export)\n");
	printf("  %-34s %-11s %-52s %s\n", "KEY", "UNIT", "SOURCE", "HELP");
	for (i = 0; i < FT_CF_NR; i++) {
		ft_counter_source((enum ft_cf)i, src, sizeof(src));
		printf("  %-34s %-11s %-52s %s\n", ft_counter_fields[i].key,
		       ft_counter_fields[i].unit,
		       src, ft_counter_fields[i].help);
	}
	printf("\nprocess counters (report --json processes[], beside pid, tgid, threads, comm, "
	       "exited, cgroup)\n");
	printf("  %-34s %-11s %s\n", "KEY", "UNIT", "HELP");
	for (i = 0; i < FT_PC_NR; i++)
		printf("  %-34s %-11s %s\n", ft_proc_fields[i].key, ft_proc_fields[i].unit,
		       ft_proc_fields[i].help);
	printf("\nthe vm knobs: fragtop get\n");
}

/* The registries as one JSON object on stdout. */
void ft_render_fields_json(void)
{
	struct ft_json j;
	char src[96];
	size_t i;

	ft_json_init(&j, stdout, true);
	ft_json_obj_begin(&j, NULL);
	ft_json_arr_begin(&j, "zone_fields");
	for (i = 0; i < FT_ZF_NR; i++) {
		const struct ft_zone_field *f = &ft_zone_fields[i];

		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "key", f->key);
		ft_json_str(&j, "unit", f->unit);
		ft_json_str(&j, "kind", kind_name(f->kind));
		if (f->metric) {
			ft_json_str(&j, "family", f->metric);
			/* the exporter's base unit: pages go out as bytes */
			ft_json_str(&j, "family_unit",
				    strcmp(f->unit, "pages") ? f->unit : "bytes");
		} else {
			ft_json_null(&j, "family");
			ft_json_null(&j, "family_unit");
		}
		ft_json_str(&j, "help", f->help);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_arr_begin(&j, "counters");
	for (i = 0; i < FT_CF_NR; i++) {
		ft_counter_source((enum ft_cf)i, src, sizeof(src));
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "key", ft_counter_fields[i].key);
		ft_json_str(&j, "unit", ft_counter_fields[i].unit);
		ft_json_str(&j, "source", src);
		ft_json_str(&j, "help", ft_counter_fields[i].help);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_arr_begin(&j, "process_counters");
	for (i = 0; i < FT_PC_NR; i++) {
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "key", ft_proc_fields[i].key);
		ft_json_str(&j, "unit", ft_proc_fields[i].unit);
		ft_json_str(&j, "help", ft_proc_fields[i].help);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}
