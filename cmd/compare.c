// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop compare`: groups of recordings, metric by metric, like the
 * tables of the kernel patches behind fragtop (mmtests' compare): per group
 * the mean and standard deviation over its runs (min and max below three
 * runs), per group after the first its change against the first and a
 * mark where Welch's t-test says the difference is significant at 95%.
 * Rates are per second, so runs of different lengths compare.  Text fits
 * 80 columns (paste it into a patch mail); --json and --csv for scripts.
 *
 *   fragtop compare base=a1.ftr,a2.ftr,a3.ftr patched=b1.ftr,b2.ftr,b3.ftr
 *   fragtop compare A.ftr B.ftr
 *   fragtop compare warm=s.ftr@0..32 boosted=s.ftr@33..
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/report.h"
#include "cmd/cli.h"
#include "render/compare.h"

/* "NAME=FILE[,FILE...]" or "FILE"; a FILE may end in "@FROM..TO". */
static int parse_group(char *arg, struct ft_cmp_group *g, int index,
		       const struct ft_rep_window *dflt)
{
	char *eq = strchr(arg, '='), *files = arg, *save = NULL, *f;

	/* a name is what comes before '=', if it is not part of a path */
	if (eq && eq > arg && !memchr(arg, '/', (size_t)(eq - arg)) &&
	    eq - arg < (long)sizeof(g->name)) {
		snprintf(g->name, sizeof(g->name), "%.*s", (int)(eq - arg), arg);
		files = eq + 1;
	} else {
		const char *base = strrchr(arg, '/');

		snprintf(g->name, sizeof(g->name), "%s", base ? base + 1 : arg);
		if (!g->name[0])
			snprintf(g->name, sizeof(g->name), "group%d", index + 1);
	}
	for (f = strtok_r(files, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		struct ft_cmp_run *r;
		char *at = strrchr(f, '@');

		if (g->nr == FT_CMP_MAX_RUNS) {
			fprintf(stderr, "fragtop: compare: at most %d runs a group\n",
				FT_CMP_MAX_RUNS);
			return -E2BIG;
		}
		r = &g->run[g->nr++];
		r->file = f;
		r->w = *dflt;
		if (at && strstr(at, "..")) {
			char *dots = strstr(at, "..");

			*at = '\0';
			*dots = '\0';
			r->w.from = at[1] ? at + 1 : NULL;
			r->w.to = dots[2] ? dots + 2 : NULL;
		}
	}
	if (!g->nr) {
		fprintf(stderr, "fragtop: compare: group '%s' has no recording\n", g->name);
		return -EINVAL;
	}
	return 0;
}

static struct {
	bool json, csv;
	struct ft_rep_window window;	/* for every FILE without @FROM..TO */
} o;

static const struct ft_opt compare_opts[] = {
	FT_OPT_JSON(o.json),
	{ "csv", 0, FT_OPT_FLAG, NULL, "print CSV: one line per metric and group", .var = &o.csv },
	FT_OPT_FROM(o.window.from),
	FT_OPT_TO(o.window.to),
};

static int run_compare(int argc, char **argv)
{
	static struct ft_cmp_group g[FT_CMP_MAX_GROUPS];
	/* ft_cmp_stacks() and ft_cmp_cgroups() of the groups */
	static struct ft_cmp_stacks stacks, cgroups;
	static struct ft_cmp_findings findings;		/* ft_cmp_findings() */
	const struct ft_cmp_extra x = { &stacks, &cgroups, &findings };
	int err, first, ng, k;

	err = ft_cli_parse(&ft_cmd_compare, argc, argv, &first);
	if (err >= 0)
		return err;
	ng = argc - first;
	if (ng < 2)
		return ft_cli_usage_error(&ft_cmd_compare,
					  "two groups (or two recordings) expected");
	if (ng > FT_CMP_MAX_GROUPS)
		return ft_cli_usage_error(&ft_cmd_compare, "at most %d groups", FT_CMP_MAX_GROUPS);
	if (o.json && o.csv)
		return ft_cli_usage_error(&ft_cmd_compare, "--json or --csv, not both");
	memset(g, 0, sizeof(g));
	for (k = 0; k < ng; k++)
		if (parse_group(argv[first + k], &g[k], k, &o.window))
			return 2;
	if (ft_cmp_measure(g, ng)) {
		ft_cmp_release(g, ng);
		return 1;
	}
	ft_cmp_stacks(g, ng, &stacks);
	ft_cmp_cgroups(g, ng, &cgroups);
	ft_cmp_findings(g, ng, &findings);
	if (o.json)
		ft_render_compare_json(g, ng, &x);
	else if (o.csv)
		ft_render_compare_csv(g, ng, &x);
	else
		ft_render_compare_text(g, ng, &x);
	ft_cmp_release(g, ng);
	return 0;
}

const struct ft_cmd ft_cmd_compare = {
	.name = "compare",
	.args = "GROUP GROUP...",
	.summary = "compare groups of recordings: mean, sd, change, significance",
	.about = "A GROUP is NAME=FILE[,FILE...] or a single FILE; a FILE may end in\n"
		 "@FROM..TO (seconds or HH:MM[:SS], either may be left out) to take a\n"
		 "stretch of it.  Per group and metric: the mean and standard deviation\n"
		 "over its runs (min-max for two, the value for one), and for each group\n"
		 "after the first the change against the first, marked * where Welch's\n"
		 "t-test gives p < 0.05.  Rates are per second.",
	FT_CMD_OPTS(compare_opts),
	.run = run_compare,
};
