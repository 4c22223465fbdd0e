// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop record -o FILE`: the live collectors without a terminal,
 * written to a recording until --duration, SIGINT, SIGTERM or SIGHUP (all
 * clean stops: the file gets its index and END chunk).
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/tick.h"
#include "collectors/recorder.h"
#include "tui/cli.h"
#include "tui/options.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

enum { O_OUTPUT, O_INTERVAL, O_DURATION, O_PTI, O_ROOT, O_NO_TRACE, O_BUFFER, O_FORCE, O_MAP,
       O_BOOST, O_NR };

static const struct ft_opt opts[O_NR] = {
	[O_OUTPUT] = { "output", 'o', FT_OPT_STR, "FILE",
		       "the recording (refused if it exists, see --force)" },
	[O_INTERVAL] = FT_OPT_INTERVAL(0.1, "1"),
	[O_DURATION] = { "duration", 't', FT_OPT_SECS, "SECS",
			 "stop after SECS (default: until Ctrl-C, SIGTERM or SIGHUP)", 0.1, 366 * 86400.0 },
	[O_PTI] = FT_OPT_PTI_INTERVAL,
	[O_ROOT] = FT_OPT_ROOT,
	[O_NO_TRACE] = FT_OPT_NO_TRACE,
	[O_BUFFER] = FT_OPT_TRACE_BUFFER,
	[O_FORCE] = { "force", 0, FT_OPT_FLAG, NULL, "overwrite FILE" },
	[O_BOOST] = FT_OPT_BOOST_HZ,
	[O_MAP] = { "map-interval", 0, FT_OPT_SECS, "SECS",
		    "also record a full pageblock map scan (root, /proc/kpageflags)\n"
		    "every SECS (~0.3 s of CPU each here)", 1, 86400 },
};

static int run(int argc, char **argv)
{
	static struct ft_live live;
	static struct ft_recorder rec;
	struct ft_optval v[O_NR];
	const char *root, *out;
	double interval, duration, pti, map_interval;
	uint64_t map_next = 0;
	bool trace, force;
	size_t buffer_kb;
	uint64_t start;
	struct ft_tick tick;
	struct stat st;
	int err, first;

	err = ft_cli_parse(&ft_cmd_record, argc, argv, v, &first);
	if (err >= 0)
		return err;
	if (!v[O_OUTPUT].set)
		return ft_cli_usage_error(&ft_cmd_record, "-o FILE is required");
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_record, "'%s': no operand expected", argv[first]);
	out = v[O_OUTPUT].str;
	root = v[O_ROOT].set ? v[O_ROOT].str : "/";
	interval = v[O_INTERVAL].set ? v[O_INTERVAL].num : 1;
	duration = v[O_DURATION].set ? v[O_DURATION].num : 0;
	pti = v[O_PTI].set ? v[O_PTI].num : 10;
	map_interval = v[O_MAP].set ? v[O_MAP].num : 0;
	trace = !v[O_NO_TRACE].set;
	force = v[O_FORCE].set;
	buffer_kb = v[O_BUFFER].set ? (size_t)v[O_BUFFER].num : 8192;
	if (!force && !lstat(out, &st)) {	/* say it before sampling anything */
		char why[160];

		fprintf(stderr, "fragtop: cannot record to %s: %s\n", out,
			ft_outfile_strerror(S_ISLNK(st.st_mode) ? -ELOOP : S_ISDIR(st.st_mode) ? -EISDIR :
					    -EEXIST, "--force", why, sizeof(why)));
		return 1;
	}
	err = ft_live_open(&live, root, pti);
	if (err) {
		fprintf(stderr, "fragtop: cannot open root %s: %s\n", root, strerror(-err));
		return 1;
	}
	if (v[O_BOOST].set)
		ft_live_boost_set(&live, (unsigned int)v[O_BOOST].num);
	ft_opt_catch_stop_signals(on_signal);
	err = ft_live_tick(&live, true);
	if (err) {
		fprintf(stderr, "fragtop: no usable zoneinfo under %s: %s\n", root, strerror(-err));
		ft_live_close(&live);
		return 1;
	}
	if (trace)
		ft_live_trace_start(&live, buffer_kb);
	err = ft_recorder_start(&rec, &live, out, force);
	if (err) {
		char why[160];

		fprintf(stderr, "fragtop: cannot record to %s: %s\n", out,
			ft_outfile_strerror(err, force ? NULL : "--force", why, sizeof(why)));
		ft_live_close(&live);
		return 1;
	}
	fprintf(stderr, "fragtop: recording to %s every %gs%s; Ctrl-C stops\n", out, interval,
		live.tracing ? " with tracepoints" : "");
	start = ft_now_ns();
	ft_tick_start(&tick, (uint64_t)(interval * 1e9), start);
	while (!stop && !rec.err) {
		uint64_t now = ft_now_ns(), left;

		if (duration > 0 && now - start >= (uint64_t)(duration * 1e9))
			break;
		if (map_interval > 0 && now >= map_next) {
			if (ft_live_map_scan_all(&live)) {
				fprintf(stderr, "fragtop: no pageblock map in the recording\n");
				map_interval = 0;
			}
			map_next = now + (uint64_t)(map_interval * 1e9);
		}
		if (ft_tick_due(&tick, now)) {
			ft_live_tick(&live, false);
			continue;
		}
		/* boost reads and trace pages until the next tick */
		left = ft_tick_left_ns(&tick, now);
		ft_live_wait(&live, now + left);
	}
	/* the last tick covers the time since the one before */
	if (live.tracing)
		ft_trace_stop(&live.trace);
	ft_live_tick(&live, false);
	err = ft_recorder_stop(&rec);
	fprintf(stderr, "fragtop: %s: %llu ticks, %llu trace pages, %llu map batches, %llu audit entries; "
		"%llu bytes on disk (%llu before compression)%s%s\n", out,
		(unsigned long long)rec.ticks, (unsigned long long)rec.pages,
		(unsigned long long)rec.kpf_batches, (unsigned long long)rec.audits, (unsigned long long)rec.w.file_bytes,
		(unsigned long long)rec.w.raw_bytes, err ? ": " : "", err ? strerror(-err) : "");
	ft_live_close(&live);
	return err ? 1 : 0;
}

const struct ft_cmd ft_cmd_record = {
	.name = "record",
	.summary = "record a session to a file, headless",
	.about = "A chunk is written and synced every 2 s: killed, the file keeps all but\n"
		 "the last seconds.  Read it with 'fragtop report FILE' or 'fragtop replay FILE'.",
	.opts = opts,
	.nr_opts = O_NR,
	.run = run,
};
