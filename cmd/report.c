// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop report`: options, the built report (analysis/report.h), a renderer (render/report.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"
#include "analysis/report.h"
#include "analysis/verdict.h"
#include "cmd/cli.h"
#include "render/report.h"

static struct {
	bool json, threads, verbose, by_cgroup;
	struct ft_rep_window window;
} o;

/* --by's parser: what the top table's rows are, "process" (the default) or "cgroup". */
static int parse_by(const char *arg, void *var, char *why, size_t sz)
{
	bool *by_cgroup = var;

	if (!strcmp(arg, "process") || !strcmp(arg, "cgroup")) {
		*by_cgroup = !strcmp(arg, "cgroup");
		return 0;
	}
	(void)arg;	/* the parser says it, quoted */
	snprintf(why, sz, "is neither process nor cgroup");
	return -1;
}

static const struct ft_opt report_opts[] = {
	FT_OPT_JSON(o.json),
	FT_OPT_FROM(o.window.from),
	FT_OPT_TO(o.window.to),
	{ "threads", 'H', FT_OPT_FLAG, NULL, "a process row per thread", .var = &o.threads,
	  .def_help = "threads summed by process" },
	{ "verbose", 'v', FT_OPT_FLAG, NULL,
	  "say which inputs were skipped as malformed, and where",
	  .var = &o.verbose },
	{ "by", 0, FT_OPT_CB, "WHAT", "the top table's rows: process, or cgroup (the processes'\n"
	  "traced counts summed by their cgroup)", .var = &o.by_cgroup, .parse = parse_by,
	  .def_help = "process" },
};

static int run_report(int argc, char **argv)
{
	struct ft_report *rep;
	struct ft_verdict *v = NULL;
	bool json;
	int err, first;

	err = ft_cli_parse(&ft_cmd_report, argc, argv, &first);
	if (err >= 0)
		return err;
	if (first != argc - 1)
		return ft_cli_usage_error(&ft_cmd_report, "one recording expected");
	json = o.json;
	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return 1;
	err = ft_report_build(rep, argv[first], &o.window);
	if (!err && !o.threads)
		err = ft_report_by_process(rep);
	if (!err)
		err = ft_report_by_cgroup(rep);
	/* doctor's rules per interval of still knobs, as doctor judges them */
	if (!err && !(v = calloc(1, sizeof(*v))))
		err = -ENOMEM;
	if (!err && !(err = ft_verdict_build(rep, argv[first], NULL, 0, v)))
		rep->verdict = v;
	if (!err) {
		struct ft_report_style st = { .by_thread = o.threads, .verbose = o.verbose,
					      .by_cgroup = o.by_cgroup };

		if (json)
			ft_render_report_json(rep);
		else
			ft_render_report_text(rep, &st);
	}
	ft_report_release(rep);
	free(rep);
	if (v)
		ft_verdict_release(v);
	free(v);
	return err ? 1 : 0;
}

const struct ft_cmd ft_cmd_report = {
	.name = "report",
	.args = "FILE",
	.summary = "sum up a recording (text or --json)",
	.about = "Totals, the processes that fragmented most, THP and compaction outcomes,\n"
		 "stall latencies (exact percentiles) and histograms (on a kernel with the\n"
		 "fragmentation stall, beside its /proc/vmstat fragment_stall count), every\n"
		 "control change (fragtop's, and knob changes seen from outside it), and\n"
		 "the same metrics for each interval between changes; --from/--to limit\n"
		 "it to a stretch of the recording.",
	FT_CMD_OPTS(report_opts),
	.run = run_report,
};
