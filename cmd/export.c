// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop export FILE --csv|--json`: a recording's time series, one row
 * per tick, for plotting elsewhere: the counts of events and vmstat
 * counters in the tick, the boost factor, and per zone (those of the first
 * tick) the free pages, the unusable index at pageblock order, the boost
 * sampler's peak and share, and the free pages in whole pageblocks (6.15+).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/replay.h"
#include "analysis/findings_live.h"
#include "analysis/report.h"
#include "cmd/cli.h"
#include "render/export.h"
#include "render/metrics.h"

#define MAX_LABELS 8

/* --label NAME=VALUE, up to MAX_LABELS: key, value pairs and a NULL end */
struct labels {
	const char *kv[2 * MAX_LABELS + 1];
	int n;
};

static struct {
	bool csv, json, openmetrics, cgroups;
	struct ft_rep_window window;
	struct labels labels;
} o;

/* --label's parser: NAME=VALUE, NAME a label no family of fragtop's uses, once each. */
static int parse_label(const char *arg, void *var, char *why, size_t sz)
{
	struct labels *l = var;
	const char *eq = strchr(arg, '=');
	char name[64];
	int i;

	if (!eq || (size_t)(eq - arg) >= sizeof(name)) {
		snprintf(why, sz, eq ? "label name too long" : "NAME=VALUE expected");
		return -1;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	if (ft_render_metrics_label_ok(name, why, sz))
		return -1;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->kv[2 * i], name)) {
			snprintf(why, sz, "label \"%s\" given twice", name);
			return -1;
		}
	if (l->n == MAX_LABELS) {
		snprintf(why, sz, "at most %d labels", MAX_LABELS);
		return -1;
	}
	if (!(l->kv[2 * l->n] = strdup(name))) {
		snprintf(why, sz, "%s", strerror(errno));
		return -1;
	}
	l->kv[2 * l->n + 1] = eq + 1;
	l->n++;
	return 0;
}

static const struct ft_opt opts[] = {
	{ "csv", 0, FT_OPT_FLAG, NULL, "comma-separated values, a header line first",
	  .var = &o.csv },
	{ "json", 'j', FT_OPT_FLAG, NULL, "one JSON document", .var = &o.json },
	{ "openmetrics", 0, FT_OPT_FLAG, NULL,
	  "OpenMetrics with timestamps, every tick, for\n"
	  "'promtool tsdb create-blocks-from openmetrics' (backfill)", .var = &o.openmetrics },
	{ "label", 0, FT_OPT_CB, "NAME=VALUE",
	  "with --openmetrics, put this label on every sample, as a\n"
	  "scrape adds instance and job (repeat it; at most 8)", .var = &o.labels,
	  .parse = parse_label },
	FT_OPT_FROM(o.window.from),
	FT_OPT_TO(o.window.to),
	{ "cgroups", 0, FT_OPT_FLAG, NULL,
	  "with --csv or --json, a column of fragmenting fallbacks for each\n"
	  "of the 8 cgroups that made the most over the stretch (by name;\n"
	  "a first pass over the recording finds them)", .var = &o.cgroups },
};

/*
 * --cgroups: the cgroups whose processes made the most fragmenting
 * fallbacks over the stretch (a report of it), named as people know
 * them; 0 without tracing.
 */
static int top_cgroups(const char *file, struct ft_export_cgroup *out)
{
	struct ft_report *rep = calloc(1, sizeof(*rep));
	const struct ft_cgroups *c;
	int i, n = 0;

	if (!rep)
		return 0;
	if (!ft_report_build(rep, file, &o.window) && rep->procs && !ft_report_by_cgroup(rep) &&
	    rep->cgrows) {
		c = rep->cgroups;
		for (i = 0; i < rep->cgrows->nr && n < FT_EXPORT_CGROUPS; i++) {
			const struct ft_cgrow *r = &rep->cgrows->r[i];

			if (r->other || !r->path[0] || !r->c[FT_PC_FRAGMENTING])
				continue;
			snprintf(out[n].path, sizeof(out[n].path), "%s", r->path);
			ft_cgroup_name(r->path, c ? c->pods : NULL, c ? c->nr_pods : 0, out[n].name,
				       sizeof(out[n].name));
			n++;
		}
	}
	ft_report_release(rep);
	free(rep);
	return n;
}

/*
 * The recording as OpenMetrics for a backfill: every tick's samples with
 * the tick's time, each family's samples together (OpenMetrics does not
 * let families interleave), so each goes to its own temporary file first
 * and they are written one after the other.  The replay is at its first
 * tick.
 */
static int openmetrics(struct ft_replay *rp, double from, double to)
{
	static FILE *tmp[FT_MF_NR];	/* closed below on every path */
	/* fragtop_finding_active: the exporter's minute, tick by tick */
	static struct ft_find_live find;
	static struct ft_findings fs;
	struct ft_rep_cut cut;
	bool started = false;
	char buf[65536];
	int f, err = 0;
	size_t n;

	for (f = 0; f < FT_MF_NR; f++)
		if (!(tmp[f] = tmpfile())) {
			err = -errno;
			goto out;
		}
	ft_report_cut_init(&cut, from, to);
	ft_find_live_init(&find, 0);
	do {
		const struct ft_session *s = &rp->session;
		double t = (double)(s->tick_t_ns - s->first_t_ns) / 1e9;
		int where = ft_report_cut_where(&cut, t);
		bool judged;

		/* the window reaches back before the cut, as the exporter's would */
		ft_find_live_tick(&find, s);
		if (where < 0)
			continue;
		if (where > 0)
			break;
		if ((judged = ft_find_in_live(&find, s, &fs.in)))
			ft_find_eval(&fs.in, &fs);
		for (f = 0; f < FT_MF_NR; f++) {
			struct ft_metrics m = {
				.openmetrics = true, .only = f + 1, .no_head = started,
				.timestamp_ms = (int64_t)(s->tick_rt_ns / 1000000),
				.extra_labels = o.labels.n ? o.labels.kv : NULL,
				.findings = judged ? &fs : NULL,
			};

			if (!m.timestamp_ms)
				/* a recording without wall time: from the epoch */
				m.timestamp_ms = 1;
			if (ft_render_metrics_write(tmp[f], s, &m)) {
				err = -EIO;
				goto out;
			}
		}
		started = true;
	} while (ft_replay_step(rp) > 0);
	for (f = 0; f < FT_MF_NR; f++) {
		rewind(tmp[f]);
		while ((n = fread(buf, 1, sizeof(buf), tmp[f])) > 0)
			fwrite(buf, 1, n, stdout);
		if (ferror(tmp[f])) {
			err = -EIO;
			goto out;
		}
	}
	fputs("# EOF\n", stdout);
out:
	for (f = 0; f < FT_MF_NR; f++) {
		if (tmp[f])
			fclose(tmp[f]);
		tmp[f] = NULL;
	}
	return err;
}

/* Every tick in [@from, @to] as CSV or JSON; the replay is at its first tick. */
static void rows(struct ft_replay *rp, const char *file, double from, double to)
{
	static struct ft_export x;
	static struct ft_export_cgroup cg[FT_EXPORT_CGROUPS];
	struct ft_rep_cut cut;
	int ncg = o.cgroups ? top_cgroups(file, cg) : 0;

	ft_render_export_begin(&x, o.csv, file, &rp->session, cg, ncg);
	ft_report_cut_init(&cut, from, to);
	do {
		const struct ft_session *s = &rp->session;
		double t = (double)(s->tick_t_ns - s->first_t_ns) / 1e9;
		int where = ft_report_cut_where(&cut, t);

		if (where > 0)
			break;
		ft_render_export_tick(&x, s, t, where == 0);
	} while (ft_replay_step(rp) > 0);
	ft_render_export_end(&x);
}

static int run(int argc, char **argv)
{
	static struct ft_replay rp;
	double from = 0, to = INFINITY;
	const char *file;
	char why[160];
	int err, first;

	err = ft_cli_parse(&ft_cmd_export, argc, argv, &first);
	if (err >= 0)
		return err;
	if (o.csv + o.json + o.openmetrics != 1)
		return ft_cli_usage_error(&ft_cmd_export, "one of --csv, --json and --openmetrics");
	if (first != argc - 1)
		return ft_cli_usage_error(&ft_cmd_export, "one recording expected");
	if (o.labels.n && !o.openmetrics)
		return ft_cli_usage_error(&ft_cmd_export, "--label goes with --openmetrics");
	if (o.cgroups && o.openmetrics)
		return ft_cli_usage_error(&ft_cmd_export, "--cgroups goes with --csv or --json");
	file = argv[first];
	err = ft_replay_open(&rp, file, NULL);
	if (err) {
		fprintf(stderr, "fragtop: %s: %s\n", file, rp.r.why[0] ? rp.r.why : strerror(-err));
		ft_replay_close(&rp);
		return 1;
	}
	rp.forward_only = true;
	if (ft_replay_step(&rp) <= 0) {
		fprintf(stderr, "fragtop: %s: no complete sample in the recording\n", file);
		ft_replay_close(&rp);
		return 1;
	}
	if ((o.window.from &&
	     ft_report_window_secs(o.window.from, rp.session.first_rt_ns, &from, why,
				   sizeof(why))) ||
	    (o.window.to &&
	     ft_report_window_secs(o.window.to, rp.session.first_rt_ns, &to, why, sizeof(why)))) {
		fprintf(stderr, "fragtop: %s: %s\n", file, why);
		ft_replay_close(&rp);
		return 1;
	}
	err = 0;
	if (o.openmetrics)
		err = openmetrics(&rp, from, to);
	else
		rows(&rp, file, from, to);
	ft_replay_close(&rp);
	if (err)
		fprintf(stderr, "fragtop: %s: %s\n", file, strerror(-err));
	return err ? 1 : 0;
}

const struct ft_cmd ft_cmd_export = {
	.name = "export",
	.args = "FILE",
	.summary = "a recording's time series as CSV or JSON",
	.about = "One row per tick: seconds, time, boost factor, the events and vmstat\n"
		 "counts in that tick, each zone's free pages and unusable index;\n"
		 "--from/--to keep a stretch of the recording.",
	FT_CMD_OPTS(opts),
	.run = run,
};
