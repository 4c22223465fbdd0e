// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop fields [--json]`: the field registries as a table, as below's
 * dump lists its fields and perf list its events: each zone field (its
 * key, the exporter's family, unit, kind and help) and each counter (its
 * key, unit, where it is read, help) and each process counter.  The
 * rows are the ones report,
 * snapshot, compare, export and the exporter walk, so this list cannot
 * drift from what they print.  The vm knobs have their own: fragtop get.
 */

#include <stdbool.h>

#include "cmd/cli.h"
#include "render/fields.h"

static struct {
	bool json;
} opt;

static const struct ft_opt opts[] = {
	FT_OPT_JSON(opt.json),
};

static int run(int argc, char **argv)
{
	int first, rc = ft_cli_parse(&ft_cmd_fields, argc, argv, &first);

	if (rc >= 0)
		return rc;
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_fields, "no argument expected, got '%s'",
					  argv[first]);
	if (opt.json)
		ft_render_fields_json();
	else
		ft_render_fields_text();
	return 0;
}

const struct ft_cmd ft_cmd_fields = {
	.name = "fields",
	.summary = "list the zone fields, counters and process counters fragtop reports",
	.about = "The rows of the field registries that report, snapshot, compare, export\n"
		 "and the exporter walk: key, unit, kind or source, and help.",
	FT_CMD_OPTS(opts),
	.run = run,
};
