// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop snapshot`: one sample as a table, JSON or Prometheus metrics. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "collectors/live.h"
#include "base/outfile.h"
#include "cmd/cli.h"
#include "cmd/liveopts.h"
#include "render/metrics.h"
#include "render/snapshot.h"
#include "cmd/signals.h"


static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static struct {
	struct ft_liveopts live;
	bool json, openmetrics, prometheus, map;
	const char *output;
	double interval;
} o;

static const struct ft_opt opts[] = {
	FT_OPT_JSON(o.json),
	{ "openmetrics", 0, FT_OPT_FLAG, NULL,
	  "print Prometheus metrics (OpenMetrics 1.0), as the exporter serves them",
	  .var = &o.openmetrics },
	{ "prometheus", 0, FT_OPT_FLAG, NULL,
	  "print Prometheus metrics in the text format 0.0.4: what\n"
	  "node_exporter's textfile collector reads (it refuses OpenMetrics)",
	  .var = &o.prometheus },
	{ "output", 'o', FT_OPT_STR, "FILE",
	  "write to FILE whole or not at all (a temp file renamed over it,\n"
	  "mode 0644): with --prometheus, for node_exporter's textfile collector",
	  .var = &o.output },
	FT_OPT_ROOT(o.live.root),
	{ "interval", 'i', FT_OPT_SECS, "SECS",
	  "take two samples SECS apart and add rates, and (as root,\n"
	  "live) trace the mm events in between", 0, 86400, .var = &o.interval },
	FT_OPT_NO_TRACE(o.live.no_trace),
	FT_OPT_TRACE_BUFFER(o.live.trace_kb),
	FT_OPT_BOOST_HZ(o.live.boost_hz, o.live.boost_given),
	FT_OPT_MAP_FORCE(o.live.map_force),
	{ "map", 0, FT_OPT_FLAG, NULL,
	  "classify every pageblock from /proc/kpageflags (root; ~0.23 s\n"
	  "of CPU per 24 GiB) and add the counts and the map", .var = &o.map },
};

/* One sample, or two o.interval apart (tracing between them). 0 or -errno. */
static int sample(struct ft_live *live)
{
	int err = ft_live_tick(live, true);

	if (!err && o.interval > 0) {
		uint64_t until = ft_now_ns() + (uint64_t)(o.interval * 1e9);

		ft_liveopts_trace(live, &o.live);
		/* boost reads and trace pages between the two samples */
		while (!stop && ft_now_ns() < until)
			ft_live_wait(live, until);
		/* stop recording, then read everything that was recorded */
		if (live->trace.on)
			ft_tracefs_stop(&live->trace.t);
		err = ft_live_tick(live, true);
	}
	return err;
}

/* The sample as the options ask, to stdout or whole into --output. 0 or 1 after saying why. */
static int write_out(struct ft_live *live)
{
	static struct ft_cgrows cgrows;
	struct ft_atomic out = { .f = stdout, .dirfd = -1 };
	const struct ft_snapshot_in in = {
		.session = &live->session, .root = live->root, .map_scan = live->map.scan,
		.map_err = live->map.err, .interval_s = o.interval, .now = time(NULL),
		.trace_error = live->session.trace_err ?
			ft_tracefs_strerror(live->session.trace_err) : NULL,
		.cgrows = live->session.tracing ? &cgrows : NULL,
	};
	const char *path = o.output;
	int err;

	if (live->session.tracing)
		ft_cgrows_build(&live->session.events.procs, &cgrows);

	if (path && (err = ft_atomic_open(&out, path))) {
		fprintf(stderr, "fragtop: %s: %s\n", path, strerror(-err));
		return 1;
	}
	if (o.openmetrics || o.prometheus) {
		struct ft_metrics m = { .openmetrics = o.openmetrics, .eof = true };

		ft_render_metrics_write(out.f, &live->session, &m);
	} else if (o.json) {
		ft_render_snapshot_json(out.f, &in);
	} else {
		ft_render_snapshot_table(out.f, &in);
	}
	if (path && (err = ft_atomic_commit(&out, path, 0644))) {
		fprintf(stderr, "fragtop: writing %s: %s\n", path, strerror(-err));
		return 1;
	}
	return 0;
}

static int run(int argc, char **argv)
{
	struct ft_live live;
	int err, first, rc;

	rc = ft_cli_parse(&ft_cmd_snapshot, argc, argv, &first);
	if (rc >= 0)
		return rc;
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_snapshot, "'%s': no operand expected",
					  argv[first]);
	if (o.json + o.openmetrics + o.prometheus > 1)
		return ft_cli_usage_error(&ft_cmd_snapshot,
					  "one of --json, --openmetrics and --prometheus");
	if (ft_liveopts_open(&live, &o.live))
		return 1;
	if (o.json)	/* the containers' memory and pressure: JSON's "cgroups" and "pressure" */
		ft_live_want(&live, live.wants | FT_LIVE_WANT_CGROUPS);
	ft_catch_stop_signals(on_signal);
	err = sample(&live);
	if (err) {
		fprintf(stderr, "fragtop: no usable zoneinfo under %s: %s\n", o.live.root,
			strerror(-err));
		ft_live_close(&live);
		return 1;
	}
	if (o.map) {
		live.map.scan = true;
		/* a failure is reported once by the collector (and as map_error in JSON) */
		ft_live_map_scan_all(&live);
	}
	rc = write_out(&live);
	/*
	 * the sample is printed; the map that was asked for is not there: a failure, as in ls or cp
	 */
	if (!rc && o.map && live.map.err)
		rc = 1;
	ft_live_close(&live);
	return rc ? rc : stop ? 128 + stop : 0;
}

const struct ft_cmd ft_cmd_snapshot = {
	.name = "snapshot",
	.summary = "print one sample as a table or JSON",
	FT_CMD_OPTS(opts),
	.run = run,
};
