// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop record -o FILE`: the live collectors without a terminal,
 * written to a recording until --duration, SIGINT, SIGTERM or SIGHUP (all
 * clean stops: the file gets its index and END chunk).
 *
 * `fragtop record --dir DIR --rotate daily|hourly|SECS --keep N
 * [--max-size BYTES]`: continuous recording, like atop's service: one
 * file a period named by its start (fragtop-YYYYMMDD-HHMMSS.ftr, UTC),
 * closed cleanly at the boundary, the oldest deleted beyond N files or
 * BYTES in all; SIGHUP starts a new file (after a log rotation, say),
 * SIGTERM and SIGINT close the current one cleanly and stop.
 */
#include <dirent.h>
#include <stdlib.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/clock.h"
#include "base/grow.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/tick.h"
#include "collectors/recorder.h"
#include "cmd/cli.h"
#include "cmd/signals.h"

/*
 * stop: SIGINT or SIGTERM (or SIGHUP without --dir), sticky: no later
 * signal undoes it (a reload during a stop must not keep the recorder
 * running).  hup: SIGHUP with --dir, a new file.
 */
static volatile sig_atomic_t stop, hup, rotating;

static void on_signal(int sig)
{
	if (sig == SIGHUP && rotating)
		hup = 1;
	else if (!stop)
		stop = sig;
}

enum { O_OUTPUT, O_DIR, O_ROTATE, O_KEEP, O_MAX_SIZE, O_INTERVAL, O_DURATION, O_PTI, O_ROOT,
       O_NO_TRACE, O_BUFFER, O_FORCE, O_MAP, O_BOOST, O_NR };

static const struct ft_opt opts[O_NR] = {
	[O_OUTPUT] = { "output", 'o', FT_OPT_STR, "FILE",
		       "the recording (refused if it exists, see --force)" },
	[O_DIR] = { "dir", 0, FT_OPT_STR, "DIR",
		    "record continuously into DIR, a file a period (see --rotate)" },
	[O_ROTATE] = { "rotate", 0, FT_OPT_STR, "PERIOD",
		       "with --dir: daily (default), hourly, or a number of seconds" },
	[O_KEEP] = { "keep", 0, FT_OPT_UINT, "N", "with --dir: keep the newest N files (default 7)", 1, 100000 },
	[O_MAX_SIZE] = { "max-size", 0, FT_OPT_UINT, "BYTES",
			 "with --dir: also delete the oldest while all exceed BYTES", 1, 1e18 },
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

/* The end of the period that holds @now_rt (CLOCK_REALTIME ns): UTC days and hours. */
static uint64_t period_end(uint64_t now_rt, double rotate_s)
{
	uint64_t s = now_rt / 1000000000ull, p = rotate_s > 0 ? (uint64_t)rotate_s : 86400;

	if (rotate_s == -1)	/* hourly */
		p = 3600;
	if (rotate_s <= 0)	/* daily, hourly: on the clock */
		return (s / p + 1) * p * 1000000000ull;
	return now_rt + p * 1000000000ull;
}

/* A recording's file name; fragtop's are far shorter than a d_name can be. */
struct rec_name {
	char s[256];
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct rec_name *)a)->s, ((const struct rec_name *)b)->s);
}

/*
 * Delete the oldest recordings of @dir (fragtop-*.ftr: their names sort by
 * time) beyond @keep files or @max_size bytes in all; never @current.
 */
static void prune(const char *dir, const char *current, unsigned long keep, uint64_t max_size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct rec_name *names = NULL;
	char path[4096];
	size_t n = 0, cap = 0, i;
	uint64_t total = 0;
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (strncmp(e->d_name, "fragtop-", 8) || len < 12 || len >= sizeof(names->s) ||
		    strcmp(e->d_name + len - 4, ".ftr"))
			continue;
		if (ft_grow_from((void **)&names, &cap, n + 1, sizeof(*names), 32, SIZE_MAX / sizeof(*names)))
			break;
		memcpy(names[n++].s, e->d_name, len + 1);
	}
	closedir(d);
	if (!names)
		return;
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i].s);
		if (!lstat(path, &st) && S_ISREG(st.st_mode))
			total += (uint64_t)st.st_size;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i].s);
		if (!strcmp(path, current) || (n - i <= keep && (!max_size || total <= max_size)))
			continue;
		if (!lstat(path, &st) && S_ISREG(st.st_mode) && !unlink(path)) {
			total -= (uint64_t)st.st_size;
			fprintf(stderr, "fragtop: deleted %s (beyond --keep %lu%s)\n", path, keep,
				max_size ? " or --max-size" : "");
		}
	}
	free(names);
}

/* DIR/fragtop-YYYYMMDD-HHMMSS.ftr for now (UTC), -N added if that exists. */
static void file_for_now(char *buf, size_t sz, const char *dir)
{
	time_t t = (time_t)(ft_realtime_ns() / 1000000000ull);
	struct tm tm;
	struct stat st;
	char stamp[32] = "unknown";
	int i;

	if (gmtime_r(&t, &tm))
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, sz, "%s/fragtop-%s.ftr", dir, stamp);
	for (i = 1; !lstat(buf, &st) && i < 100; i++)
		snprintf(buf, sz, "%s/fragtop-%s-%d.ftr", dir, stamp, i);
}

static int run(int argc, char **argv)
{
	static struct ft_live live;
	static struct ft_recorder rec;
	struct ft_optval v[O_NR];
	const char *root, *out, *dir;
	char path[4096];
	double interval, duration, pti, map_interval, rotate = 0;
	unsigned long keep;
	uint64_t max_size, next_file = 0;
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
	if (v[O_OUTPUT].set == v[O_DIR].set)
		return ft_cli_usage_error(&ft_cmd_record, "-o FILE or --dir DIR (one of them)");
	if ((v[O_ROTATE].set || v[O_KEEP].set || v[O_MAX_SIZE].set) && !v[O_DIR].set)
		return ft_cli_usage_error(&ft_cmd_record, "--rotate, --keep and --max-size go with --dir");
	dir = v[O_DIR].set ? v[O_DIR].str : NULL;
	if (v[O_ROTATE].set) {
		char *end;

		if (!strcmp(v[O_ROTATE].str, "daily"))
			rotate = 0;
		else if (!strcmp(v[O_ROTATE].str, "hourly"))
			rotate = -1;
		else if (rotate = strtod(v[O_ROTATE].str, &end), *end || end == v[O_ROTATE].str ||
			 !isfinite(rotate) || rotate < 1 || rotate > 366 * 86400.0)
			return ft_cli_usage_error(&ft_cmd_record,
						  "--rotate: '%s' is not daily, hourly or seconds (1 to a year)",
						  v[O_ROTATE].str);
	}
	keep = v[O_KEEP].set ? (unsigned long)v[O_KEEP].num : 7;
	max_size = v[O_MAX_SIZE].set ? (uint64_t)v[O_MAX_SIZE].num : 0;
	if (dir && mkdir(dir, 0700) && errno != EEXIST) {
		fprintf(stderr, "fragtop: cannot make %s: %s\n", dir, strerror(errno));
		return 1;
	}
	if (dir)
		file_for_now(path, sizeof(path), dir);
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_record, "'%s': no operand expected", argv[first]);
	out = dir ? path : v[O_OUTPUT].str;
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
	rotating = dir != NULL;
	ft_catch_stop_signals(on_signal);
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
	if (dir) {
		next_file = period_end(ft_realtime_ns(), rotate);
		prune(dir, out, keep, max_size);
	}
	while (!stop && !rec.err) {
		uint64_t now = ft_now_ns(), left;

		/* a new file at the period's end, or on SIGHUP */
		if (dir && (hup || ft_realtime_ns() >= next_file)) {
			hup = 0;
			if (live.tracing)
				ft_live_trace_poll(&live);
			err = ft_recorder_stop(&rec);
			fprintf(stderr, "fragtop: %s: %llu ticks, closed%s%s\n", out, (unsigned long long)rec.ticks,
				err ? ": " : "", err ? strerror(-err) : "");
			file_for_now(path, sizeof(path), dir);
			err = ft_recorder_start(&rec, &live, out, false);
			if (err) {
				char why[160];

				fprintf(stderr, "fragtop: cannot record to %s: %s\n", out,
					ft_outfile_strerror(err, NULL, why, sizeof(why)));
				ft_live_close(&live);
				return 1;
			}
			fprintf(stderr, "fragtop: recording to %s\n", out);
			next_file = period_end(ft_realtime_ns(), rotate);
			prune(dir, out, keep, max_size);
			continue;
		}

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
