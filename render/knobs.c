// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop get` printed: every knob as read, as a table or JSON. */
#include "render/knobs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "base/json.h"

static const char *type_name(const struct ft_knob *k)
{
	return k->type == FT_KNOB_INT ? "int" : k->type == FT_KNOB_SELECT ? "select" : "trigger";
}

/* The knobs as one JSON object on stdout. */
void ft_render_knobs_json(const struct ft_knob_reading *r, size_t n)
{
	struct ft_json j;
	size_t i;
	int o;

	ft_json_init(&j, stdout, true);
	ft_json_obj_begin(&j, NULL);
	ft_json_arr_begin(&j, "knobs");
	for (i = 0; i < n; i++) {
		const struct ft_knob *k = r[i].k;
		const struct ft_knob_value v = r[i].v;
		char txt[96];

		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "name", k->name);
		ft_json_str(&j, "type", type_name(k));
		ft_json_str(&j, "path", k->path);
		ft_json_bool(&j, "available", r[i].available);
		if (k->type == FT_KNOB_TRIGGER) {
			ft_json_null(&j, "value");
		} else {
			if (v.err) {
				ft_json_null(&j, "value");
				ft_json_str(&j, "error",
					    ft_knob_strerror(k, v.err, txt, sizeof(txt)));
			} else if (k->type == FT_KNOB_INT) {
				ft_json_i64(&j, "value", v.num);
			} else {
				ft_knob_value_text(k, &v, txt, sizeof(txt));
				ft_json_str(&j, "value", txt);
			}
		}
		if (k->def == FT_KNOB_NO_DEFAULT)
			ft_json_null(&j, "default");
		else
			ft_json_i64(&j, "default", k->def);
		if (k->type == FT_KNOB_SELECT) {
			ft_json_arr_begin_inline(&j, "options");
			for (o = 0; !v.err && o < v.sel.nr_options; o++)
				ft_json_str(&j, NULL, v.sel.options[o]);
			ft_json_arr_end(&j);
		} else {
			ft_json_i64(&j, "min", k->min);
			ft_json_i64(&j, "max", k->max);
			if (k->type == FT_KNOB_INT)
				ft_json_i64(&j, "step", k->step);
		}
		if (k->unit)
			ft_json_str(&j, "unit", k->unit);
		ft_json_str(&j, "help", k->help);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

/* The knobs as a table on stdout: value, default, range, unit. */
void ft_render_knobs_table(const struct ft_knob_reading *r, size_t n)
{
	size_t i;

	printf("%-28s %-14s %-8s %-24s %s\n", "KNOB", "VALUE", "DEFAULT", "RANGE", "UNIT");
	for (i = 0; i < n; i++) {
		const struct ft_knob *k = r[i].k;
		const struct ft_knob_value v = r[i].v;
		char val[96], def[24] = "-", range[96];

		if (k->type == FT_KNOB_TRIGGER) {
			snprintf(val, sizeof(val), "%s", r[i].available ? "(action)" : "absent");
		} else if (v.err) {
			ft_knob_strerror(k, v.err, val, sizeof(val));
			if (v.err == -ENOENT)
				snprintf(val, sizeof(val), "absent");
		} else {
			ft_knob_value_text(k, &v, val, sizeof(val));
		}
		if (k->def != FT_KNOB_NO_DEFAULT && k->type == FT_KNOB_INT)
			snprintf(def, sizeof(def), "%" PRId64, k->def);
		ft_knob_range_text(k, &v, range, sizeof(range));
		printf("%-28s %-14s %-8s %-24s %s\n", k->name, val, def, range,
		       k->unit ? k->unit : "");
	}
}
