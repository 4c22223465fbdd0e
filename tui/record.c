// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop record -o FILE`: the live collectors without a terminal,
 * written to a recording until --duration, SIGINT, SIGTERM or SIGHUP (all
 * clean stops: the file gets its index and END chunk).
 */
#include "tui/record.h"

#include "base/clock.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/diag.h"
#include "collectors/recorder.h"
#include "tui/options.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fragtop record -o FILE [OPTIONS]\n"
		"  -o, --output FILE      the recording (refused if it exists, see --force)\n"
		"  -i, --interval SECS    sampling interval (default 1)\n"
		"  -t, --duration SECS    stop after SECS (default: until Ctrl-C/SIGTERM)\n"
		"  --pagetypeinfo-interval SECS  (default 10; 0: every tick)\n"
		"  --root DIR             record a captured tree instead of this host\n"
		"  --no-trace             no tracepoints\n"
		"  --map-interval SECS    also record a full pageblock map scan (root,\n"
		"                         /proc/kpageflags) every SECS (~0.3 s of CPU each here)\n"
		"  --trace-buffer-kb KB   per-CPU trace buffer (default 8192)\n"
		"  --force                overwrite FILE\n"
		"A chunk is written and synced every 2 s: killed, the file keeps all but\n"
		"the last seconds.  Read it with 'fragtop report FILE' or 'fragtop replay FILE'.\n");
}

int ft_cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 't' },
		{ "pagetypeinfo-interval", required_argument, NULL, 'P' },
		{ "root", required_argument, NULL, 'r' },
		{ "no-trace", no_argument, NULL, 'T' },
		{ "trace-buffer-kb", required_argument, NULL, 'B' },
		{ "force", no_argument, NULL, 'f' },
		{ "map-interval", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static struct ft_live live;
	static struct ft_recorder rec;
	const char *root = "/", *out = NULL;
	double interval = 1, duration = 0, pti = 10, map_interval = 0;
	uint64_t map_next = 0;
	bool trace = true, force = false;
	size_t buffer_kb = 8192;
	uint64_t start, next;
	struct stat st;
	int c, err;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:i:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'i':
			if (ft_opt_seconds("--interval", optarg, 0.1, 3600, &interval))
				return 2;
			break;
		case 't':
			if (ft_opt_seconds("--duration", optarg, 0.1, 366 * 86400.0, &duration))
				return 2;
			break;
		case 'P':
			if (ft_opt_seconds("--pagetypeinfo-interval", optarg, 0, 86400, &pti))
				return 2;
			break;
		case 'r':
			root = optarg;
			break;
		case 'T':
			trace = false;
			break;
		case 'B':
			if (ft_opt_buffer_kb(optarg, &buffer_kb))
				return 2;
			break;
		case 'f':
			force = true;
			break;
		case 'm':
			if (ft_opt_seconds("--map-interval", optarg, 1, 86400, &map_interval))
				return 2;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!out || optind != argc) {
		usage(stderr);
		return 2;
	}
	if (!force && !stat(out, &st)) {
		fprintf(stderr, "fragtop: %s exists; not overwriting it (--force does)\n", out);
		return 1;
	}
	err = ft_live_open(&live, root, pti);
	if (err) {
		fprintf(stderr, "fragtop: cannot open root %s: %s\n", root, strerror(-err));
		return 1;
	}
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
		fprintf(stderr, "fragtop: cannot record to %s: %s\n", out, strerror(-err));
		ft_live_close(&live);
		return 1;
	}
	fprintf(stderr, "fragtop: recording to %s every %gs%s; Ctrl-C stops\n", out, interval,
		live.tracing ? " with tracepoints" : "");
	start = ft_now_ns();
	next = start;
	while (!stop && !rec.err) {
		uint64_t now = ft_now_ns();

		if (duration > 0 && now - start >= (uint64_t)(duration * 1e9))
			break;
		if (map_interval > 0 && now >= map_next) {
			if (ft_live_map_scan_all(&live)) {
				fprintf(stderr, "fragtop: no pageblock map in the recording\n");
				map_interval = 0;
			}
			map_next = now + (uint64_t)(map_interval * 1e9);
		}
		if (now >= next) {
			ft_live_tick(&live, false);
			next += (uint64_t)(interval * 1e9);
			if (next < now)
				next = now + (uint64_t)(interval * 1e9);
			continue;
		}
		{
			uint64_t left = next - now;
			struct timespec ts = { 0, (long)(left < 100000000 ? left : 100000000) };

			nanosleep(&ts, NULL);
		}
		ft_live_trace_poll(&live);
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
