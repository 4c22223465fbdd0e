// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop doctor [--json] [--seconds N] [--from T --to T] [FILE]`: what
 * is wrong, why, and what to change (analysis/findings.h).  On a FILE it
 * reads the recording (or the window); live, it records the host for N
 * seconds into a file of its own (record's loop, cmd/record.h) and reads
 * that, so a live answer and a recorded one are the same code.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/findings.h"
#include "analysis/report.h"
#include "analysis/verdict.h"
#include "cmd/cli.h"
#include "cmd/record.h"
#include "model/fit.h"
#include "render/findings.h"
#include "render/verdict.h"

static struct {
	bool json, rules, timeline;
	double seconds;
	const char *need, *output;
	struct ft_rep_window window;
	struct ft_liveopts live;
} o;

static const struct ft_opt opts[] = {
	FT_OPT_JSON(o.json),
	{ "seconds", 's', FT_OPT_SECS, "N",
	  "live: watch the host for N seconds (Ctrl-C ends it sooner)", 2, 86400,
	  .var = &o.seconds, .def = "30" },
	FT_OPT_FROM(o.window.from),
	FT_OPT_TO(o.window.to),
	{ "need", 'n', FT_OPT_STR, "COUNTxSIZE[,...]",
	  "sizes of interest besides the pageblock: a need that does not\n"
	  "fit now is a finding (size_wont_fit), e.g. 4x1G,512x2M", .var = &o.need },
	{ "output", 'o', FT_OPT_STR, "FILE", "live: keep what was watched as a recording in FILE\n"
	  "(overwritten), to report or replay it later", .var = &o.output },
	{ "rules", 0, FT_OPT_FLAG, NULL,
	  "list the rules, their severity, thresholds and inputs, and exit",
	  .var = &o.rules },
	{ "timeline", 0, FT_OPT_FLAG, NULL,
	  "for each rule, when it was active over the recording (the\nintervals of still knobs the "
	  "findings are judged on)", .var = &o.timeline },
	FT_OPT_ROOT(o.live.root),
	FT_OPT_NO_TRACE(o.live.no_trace),
	FT_OPT_TRACE_BUFFER(o.live.trace_kb),
	FT_OPT_PTI_INTERVAL(o.live.pti_interval),
};

/* Live: record o.seconds into @path.  0, or 1 after saying why. */
static int watch(const char *path)
{
	struct ft_record_args a = {
		.live = o.live, .output = path, .interval = 1, .duration = o.seconds,
		/* one map scan at the start, a slice at a time (more with a long watch) */
		.map_interval = o.seconds > 60 ? 60 : o.seconds,
	};

	a.live.cgroups = true;		/* who pays, by cgroup */
	if (geteuid() != 0 && !strcmp(o.live.root, "/"))
		fprintf(stderr,
			"fragtop doctor: not root: no tracing and no map; the rules that need them "
			"are listed as not checked\n");
	fprintf(stderr, "fragtop doctor: watching the host for %g s (Ctrl-C ends it sooner)\n",
		o.seconds);
	return ft_record_headless(&a);
}

/* A file for the live watch: -o's, or one of our own in $TMPDIR (removed after). */
static int live_file(char *buf, size_t sz, bool *own)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	*own = !o.output;
	if (o.output) {
		snprintf(buf, sz, "%s", o.output);
		return 0;
	}
	snprintf(buf, sz, "%s/fragtop-doctor-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(buf);
	if (fd < 0) {
		fprintf(stderr, "fragtop doctor: cannot make a file in %s: %s\n", dir &&
			*dir ? dir : "/tmp",
			strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}

static void print(const struct ft_verdict *v, const char *from)
{
	if (o.timeline) {
		if (o.json)
			ft_render_timeline_json(stdout, v, from);
		else
			ft_render_timeline_text(stdout, v, from);
		return;
	}
	if (o.json) {
		ft_render_doctor_json(stdout, v, from);
		return;
	}
	ft_render_doctor_text(stdout, v, from);
}

/*
 * Read @path (or its window), judge it per interval of still knobs, print. 0, or 1 after saying
 * why.
 */
static int judge(const char *path, const char *from)
{
	struct ft_fit_need needs[FT_FIT_NEEDS_MAX];
	struct ft_verdict *v = calloc(1, sizeof(*v));
	struct ft_report *rep;
	size_t nr_needs = 0;
	char why[160];
	int err;

	rep = calloc(1, sizeof(*rep));
	if (!rep || !v) {
		free(rep);
		free(v);
		return 1;
	}
	err = ft_report_build(rep, path, &o.window);
	if (!err)
		err = ft_report_by_process(rep);
	if (!err)
		err = ft_report_by_cgroup(rep);
	if (!err && o.need &&
	    ft_fit_needs_parse(o.need, rep->s->host.page_size, needs, &nr_needs, why,
			       sizeof(why))) {
		fprintf(stderr, "fragtop doctor: --need %s: %s\n", o.need, why);
		err = -EINVAL;
	}
	if (!err)
		err = ft_verdict_build(rep, path, needs, nr_needs, v);
	if (!err)
		print(v, from);
	ft_verdict_release(v);
	free(v);
	ft_report_release(rep);
	free(rep);
	return err ? 1 : 0;
}

static int run(int argc, char **argv)
{
	char path[4096];
	bool own;
	int err, first;

	err = ft_cli_parse(&ft_cmd_doctor, argc, argv, &first);
	if (err >= 0)
		return err;
	if (o.rules) {
		ft_render_rules_text(stdout);
		return 0;
	}
	if (argc - first > 1)
		return ft_cli_usage_error(&ft_cmd_doctor, "one recording at most");
	if (first < argc) {
		if (o.output)
			return ft_cli_usage_error(&ft_cmd_doctor, "--output goes with a live "
								  "watch, not a recording");
		return judge(argv[first], argv[first]);
	}
	if (o.window.from || o.window.to)
		return ft_cli_usage_error(&ft_cmd_doctor, "--from and --to go with a recording");
	if (live_file(path, sizeof(path), &own))
		return 1;
	err = watch(path);
	if (!err)
		err = judge(path, "live");
	if (own)
		unlink(path);
	return err;
}

const struct ft_cmd ft_cmd_doctor = {
	.name = "doctor",
	.args = "[FILE]",
	.summary = "say what is wrong, why, and what to change",
	.about = "Judges a window of the host against fragtop's rules (docs/runbook.md):\n"
		 "fragmenting fallbacks with the boost off, THP faults falling back with\n"
		 "memory free, direct compaction stalls, futile compaction, pollution,\n"
		 "sizes that do not fit, the boost at its ceiling, THP defrag stalls,\n"
		 "compaction's share of memory pressure.  Each finding gives the figures\n"
		 "that raised it, who caused or paid it, where to look, the action and\n"
		 "its expected effect with the source of that expectation.  Live, it\n"
		 "watches the host for --seconds; on a FILE, it reads the recording\n"
		 "(or --from/--to).  A rule whose inputs are missing is listed as not\n"
		 "checked, never as passed.",
	FT_CMD_OPTS(opts),
	.run = run,
};
