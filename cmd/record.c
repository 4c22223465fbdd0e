// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop record -o FILE`: the live collectors without a terminal,
 * written to a recording until --duration, SIGINT, SIGTERM or SIGHUP (all
 * clean stops: the file gets its index and END chunk).
 *
 * `fragtop record --dir DIR --rotate daily|hourly|SECS --keep N
 * [--max-size BYTES]`: continuous recording, like atop's service: one
 * file a period named by its start and its place in the directory's
 * series (fragtop-YYYYMMDD-HHMMSS-000042.ftr, UTC), closed cleanly at the
 * boundary, the oldest of the series (by the sequence in the headers,
 * never the names or the clock) deleted beyond N files or BYTES in all;
 * SIGHUP starts a new file (after a log rotation, say), SIGTERM and
 * SIGINT close the current one cleanly and stop.
 */
#include <dirent.h>
#include <stdlib.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cost.h"
#include "base/grow.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/tick.h"
#include "collectors/recorder.h"
#include "model/recfmt.h"
#include "cmd/cli.h"
#include "cmd/costlog.h"
#include "cmd/liveopts.h"
#include "cmd/record.h"
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

/* --rotate: daily (0), hourly (-1) or seconds, 1 to a year. */
static int parse_rotate(const char *arg, void *var, char *why, size_t sz)
{
	double *rotate = var;
	char *end;

	snprintf(why, sz, "is not daily, hourly or seconds (1 to a year)");
	if (!strcmp(arg, "daily"))
		*rotate = 0;
	else if (!strcmp(arg, "hourly"))
		*rotate = -1;
	else if (*rotate = strtod(arg, &end), *end || end == arg || !isfinite(*rotate) ||
		 *rotate < 1 ||
		 *rotate > 366 * 86400.0)
		return -1;
	return 0;
}

static struct {
	struct ft_liveopts live;
	const char *output, *dir, *cost_log;
	double rotate, interval, duration, map_interval;
	uint64_t keep, max_size, owner_blocks;
	bool force, rotate_given, keep_given, max_size_given, unsafe_dir;
	bool quiet;			/* ft_record_headless(): no progress lines */
	/* ft_record_headless()'s hooks (cmd/record.h); NULL: none */
	bool (*on_tick)(void *ctx, struct ft_live *l);
	void (*on_end)(void *ctx, struct ft_live *l);
	void *ctx;
} o;

static const struct ft_opt opts[] = {
	{ "output", 'o', FT_OPT_STR, "FILE", "the recording (refused if it exists, see --force)",
	  .var = &o.output },
	{ "dir", 0, FT_OPT_STR, "DIR",
	  "record continuously into DIR, a file a period (see --rotate)",
	  .var = &o.dir },
	{ "rotate", 0, FT_OPT_CB, "PERIOD", "with --dir: daily, hourly, or a number of seconds",
	  .var = &o.rotate, .def = "daily", .parse = parse_rotate, .given = &o.rotate_given },
	{ "keep", 0, FT_OPT_UINT, "N", "with --dir: keep the newest N files", 1, 100000,
	  .var = &o.keep,
	  .def = "7", .given = &o.keep_given },
	{ "max-size", 0, FT_OPT_UINT, "BYTES",
	  "with --dir: also delete the oldest while all exceed BYTES",
	  1, 1e18, .var = &o.max_size, .given = &o.max_size_given },
	{ "unsafe-dir", 0, FT_OPT_FLAG, NULL,
	  "with --dir: take DIR even if it is a symbolic link, another\n"
	  "user's or writable by others (refused by default)", .var = &o.unsafe_dir },
	FT_OPT_INTERVAL(o.interval, 0.1, "1"),
	{ "duration", 't', FT_OPT_SECS, "SECS", "stop after SECS", 0.1, 366 * 86400.0,
	  .var = &o.duration,
	  .def_help = "until Ctrl-C, SIGTERM or SIGHUP" },
	FT_OPT_PTI_INTERVAL(o.live.pti_interval),
	FT_OPT_ROOT(o.live.root),
	FT_OPT_NO_TRACE(o.live.no_trace),
	FT_OPT_TRACE_BUFFER(o.live.trace_kb),
	FT_OPT_STACKS(o.live.stacks, o.live.stacks_per_sec),
	{ "force", 0, FT_OPT_FLAG, NULL, "overwrite FILE", .var = &o.force },
	FT_OPT_BOOST_HZ(o.live.boost_hz, o.live.boost_given),
	FT_OPT_MAP_FORCE(o.live.map_force),
	{ "map-interval", 0, FT_OPT_SECS, "SECS",
	  "also record a full pageblock map scan (root, /proc/kpageflags)\n"
	  "every SECS, a slice at a time between the ticks, which keep\n"
	  "their interval (a pass: ~0.23 s of CPU, mostly the kernel's,\n"
	  "on a 24 GiB host)", 1, 86400, .var = &o.map_interval },
	{ "owner-blocks", 0, FT_OPT_UINT, "N",
	  "with --map-interval: after each scan, record who owns the pages\n"
	  "of N mixed blocks, round-robin (a kernel booted page_owner=on;\n"
	  "0: none)", 0, 65536, .var = &o.owner_blocks, .def = "64" },
	{ "cgroups", 0, FT_OPT_FLAG, NULL,
	  "also record the memory cgroups every tick (memory.stat,\n"
	  "pressure, /var/log/pods: a few files per cgroup), for the\n"
	  "cgroups view and report --by cgroup's names", .var = &o.live.cgroups },
	FT_OPT_COST_LOG(o.cost_log),
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

/*
 * A file this recorder may count and delete: a regular file of ours (not
 * a link, not another user's) that starts with a recording's header.  A
 * file planted in the directory is none of these, so it is neither
 * deleted nor counted against --keep.
 */
static bool ours(const char *path, struct stat *st, struct ft_rec_filehdr *h)
{
	uint8_t hb[FT_REC_FILE_HDR];
	int fd;
	bool ok;

	if (lstat(path, st) || !S_ISREG(st->st_mode) || st->st_uid != geteuid())
		return false;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = pread(fd, hb, sizeof(hb), 0) == (ssize_t)sizeof(hb) && !ft_rec_filehdr_decode(hb, h);
	close(fd);
	return ok;
}

/* A recording of the directory's series: its name and its place. */
struct rec_name {
	char s[256];		/* fragtop's names are far shorter than a d_name can be */
	uint64_t seq;		/* its place in the series (the header's) */
	uint64_t size;
};

/* In the series' order: the header's sequence, never the name or the clock. */
static int by_order(const void *a, const void *b)
{
	const struct rec_name *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The directory's series id: kept in DIR/.fragtop-series (ours, 0600), made on first use. */
static uint64_t series_id;
/* The sequence number of the next file (one past the series' highest) */
static uint32_t series_next = 1;

/* Read or make DIR/.fragtop-series.  0, or 1 after saying why. */
static int series_open(const char *dir)
{
	char path[4096], text[32] = "";
	struct stat st;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/.fragtop-series", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (getentropy(&series_id, sizeof(series_id)))
			series_id = ft_realtime_ns() ^ ((uint64_t)getpid() << 32);
		series_id |= 1;		/* never 0: that is "no series" */
		n = snprintf(text, sizeof(text), "%016llx\n", (unsigned long long)series_id);
		if (write(fd, text, (size_t)n) != n || fsync(fd)) {
			fprintf(stderr, "fragtop: %s: %s\n", path, strerror(errno));
			close(fd);
			unlink(path);
			return 1;
		}
		close(fd);
		return 0;
	}
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (n = read(fd, text, sizeof(text) - 1)) < 17 ||
	    sscanf(text, "%16llx", (unsigned long long *)&series_id) != 1 || !series_id) {
		fprintf(stderr,
			"fragtop: %s: not this recorder's series file (a regular file of yours "
			"holding an id); remove it to start a new series\n", path);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

/*
 * The recordings of @dir this recorder may count and delete (ours(), and
 * carrying its series id), in the series' order; their number in *@n.
 */
static struct rec_name *series_files(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct rec_name *names = NULL;
	struct ft_rec_filehdr h;
	struct dirent *e;
	char path[4096];
	size_t cap = 0;
	struct stat st;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (strncmp(e->d_name, "fragtop-", 8) || len < 12 || len >= sizeof(names->s) ||
		    strcmp(e->d_name + len - 4, ".ftr"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		/* a recording of no series (record -o, an older fragtop) is not this recorder's */
		if (!ours(path, &st, &h) || h.series_id != series_id)
			continue;
		if (ft_grow_from((void **)&names, &cap, *n + 1, sizeof(*names), 32,
				 SIZE_MAX / sizeof(*names)))
			break;
		memcpy(names[*n].s, e->d_name, len + 1);
		names[*n].seq = h.series_seq;
		names[*n].size = (uint64_t)st.st_size;
		if (h.series_id && h.series_seq >= series_next)
			series_next = h.series_seq + 1;
		(*n)++;
	}
	closedir(d);
	if (names)
		qsort(names, *n, sizeof(*names), by_order);
	return names;
}

/*
 * --dir, held open from the start (item 11 of issue 51): every file of
 * the series is made, listed and deleted through this descriptor
 * (/proc/self/fd/N/NAME), so a directory above it that another user owns
 * and swaps for a link mid-run cannot send a recording elsewhere.
 */
static int dir_fd = -1;
static char dir_at[32];

/*
 * Open DIR and check it again through the descriptor (what unsafe_dir()
 * saw by name may have been swapped since): 0, or 1 after saying why.
 */
static int hold_dir(const char *dir, bool unsafe)
{
	struct stat st;

	dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (unsafe ? 0 : O_NOFOLLOW));
	if (dir_fd < 0 || fstat(dir_fd, &st)) {
		fprintf(stderr, "fragtop: --dir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	if (!unsafe && (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
		fprintf(stderr, "fragtop: --dir %s changed as it was opened (another user's, or "
				"writable by "
			"others): refused\n", dir);
		return 1;
	}
	snprintf(dir_at, sizeof(dir_at), "/proc/self/fd/%d", dir_fd);
	return 0;
}

/* @path (under dir_at) as the user knows it, into @buf. */
static const char *shown(const char *path, char *buf, size_t sz)
{
	size_t n = strlen(dir_at);

	if (dir_fd >= 0 && !strncmp(path, dir_at, n) && path[n] == '/')
		snprintf(buf, sz, "%s%s", o.dir, path + n);
	else
		snprintf(buf, sz, "%s", path);
	return buf;
}

/*
 * Delete the oldest recordings of @dir (of ours, in the series' order)
 * beyond @keep files or @max_size bytes in all; never @current.
 */
static void prune(const char *dir, const char *current, unsigned long keep, uint64_t max_size)
{
	size_t n, i;
	struct rec_name *names = series_files(dir, &n);
	struct ft_rec_filehdr h;
	char path[4096];
	uint64_t total = 0;
	struct stat st;

	for (i = 0; i < n; i++)
		total += names[i].size;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i].s);
		if (!strcmp(path, current) || (n - i <= keep && (!max_size || total <= max_size)))
			continue;
		if (ours(path, &st, &h) && !unlink(path)) {
			char name[4096];

			total -= (uint64_t)st.st_size;
			fprintf(stderr, "fragtop: deleted %s (beyond --keep %lu%s)\n",
				shown(path, name, sizeof(name)),
				keep, max_size ? " or --max-size" : "");
		}
	}
	free(names);
}

/*
 * DIR/fragtop-YYYYMMDD-HHMMSS-SEQ.ftr for now (UTC) and the series' next
 * sequence number (zero-padded, so names sort as the series does while
 * the clock goes forward).  A name taken already (a planted file) moves
 * the sequence on: a name is always found.  The number used is *@seq.
 */
static void file_for_now(char *buf, size_t sz, const char *dir, uint32_t *seq)
{
	time_t t = (time_t)(ft_realtime_ns() / 1000000000ull);
	struct tm tm;
	struct stat st;
	char stamp[32] = "unknown";

	if (gmtime_r(&t, &tm))
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	do
		snprintf(buf, sz, "%s/fragtop-%s-%06u.ftr", dir, stamp, (unsigned int)series_next);
	while (!lstat(buf, &st) && ++series_next);
	*seq = series_next++;
}

/* What the recording loop holds. */
struct recording {
	struct ft_live live;
	struct ft_recorder rec;
	/* with --dir: the current file, under the held directory (dir_at) */
	char path[4096];
	const char *out;		/* the file written now, as opened */
	char name[4096];		/* ... as shown: under DIR as the user named it */
	uint32_t seq;			/* with --dir: its place in the series */
	uint64_t next_file;		/* with --dir: when the period ends (CLOCK_REALTIME ns) */
	bool waiting;			/* the disk filled: no file open, waiting for space */
	bool full_stop;			/* -o FILE: the disk filled, the file is closed */
	uint64_t dropped;		/* samples a full disk kept out, in all */
	uint64_t dropped_now;		/* of them, since the disk last filled */
	struct ft_costlog cost_log;	/* --cost-log */
};

/* Say why r->out cannot be recorded to (@hint: the option that would help); 1. */
static int cannot(const struct recording *r, int err, const char *hint)
{
	char why[160];

	fprintf(stderr, "fragtop: cannot record to %s: %s\n", r->name,
		ft_outfile_strerror(err, hint, why, sizeof(why)));
	return 1;
}

/* With --dir, at the period's end or on SIGHUP: close the file, open the next, prune.  0 or 1. */
static int rotate(struct recording *r)
{
	int err;

	hup = 0;
	if (r->live.trace.on)
		ft_live_trace_poll(&r->live);
	err = ft_recorder_stop(&r->rec);
	fprintf(stderr, "fragtop: %s: %llu ticks, closed%s%s\n", r->name,
		(unsigned long long)r->rec.ticks,
		err ? ": " : "", err ? strerror(-err) : "");
	file_for_now(r->path, sizeof(r->path), dir_at, &r->seq);
	shown(r->path, r->name, sizeof(r->name));
	err = ft_recorder_start_series(&r->rec, &r->live, r->out, false, series_id, r->seq);
	if (err == -ENOSPC || err == -EDQUOT) {	/* no file left behind: wait for space */
		fprintf(stderr,
			"fragtop: %s: the disk is full; recording again when there is space\n",
			r->name);
		r->waiting = true;
		r->dropped_now = 0;
		return 0;
	}
	if (err)
		return cannot(r, err, NULL);
	fprintf(stderr, "fragtop: recording to %s\n", r->name);
	r->next_file = period_end(ft_realtime_ns(), o.rotate);
	prune(dir_at, r->out, (unsigned long)o.keep, o.max_size);
	return 0;
}

/*
 * The disk filled (the writer could not write a chunk): close the file
 * cleanly, its index and END going into the space it kept, and count the
 * samples lost.  With --dir, wait for space (full_retry()); with -o, stop.
 */
static void full_close(struct recording *r)
{
	int err = ft_recorder_stop(&r->rec);
	uint64_t lost = r->rec.w.dropped_ticks;

	r->dropped += lost;
	r->dropped_now = lost;
	fprintf(stderr,
		"fragtop: %s: the disk is full: closed %s after %llu ticks (%llu samples lost)%s\n",
		r->name, err ? "as it was" : "cleanly",
		(unsigned long long)(r->rec.ticks - lost), (unsigned long long)lost,
		o.dir ? "; recording again when there is space" : "");
	r->waiting = o.dir != NULL;
	r->full_stop = !o.dir;
}

/*
 * While waiting for space, at each tick: a sample dropped, and a new file tried. 0, or 1 to stop.
 */
static int full_retry(struct recording *r)
{
	int err;

	struct statvfs sv;

	r->dropped++;
	r->dropped_now++;
	hup = 0;	/* no file to turn over */
	/* space for a file and its reserve a few times over, not the crumbs a close freed */
	if (!fstatvfs(dir_fd, &sv) && (uint64_t)sv.f_bavail * sv.f_frsize < 4 * FT_RECW_RESERVE)
		return 0;
	file_for_now(r->path, sizeof(r->path), dir_at, &r->seq);
	shown(r->path, r->name, sizeof(r->name));
	err = ft_recorder_start_series(&r->rec, &r->live, r->out, false, series_id, r->seq);
	if (err == -ENOSPC || err == -EDQUOT)
		return 0;	/* still full: no file is left behind (recwriter.c) */
	if (err)
		return cannot(r, err, NULL);
	r->waiting = false;
	fprintf(stderr,
		"fragtop: recording to %s (again: %llu samples dropped while the disk was full)\n",
		r->name, (unsigned long long)r->dropped_now);
	r->next_file = period_end(ft_realtime_ns(), o.rotate);
	prune(dir_at, r->out, (unsigned long)o.keep, o.max_size);
	return 0;
}

/* A map pass's slice at most: the ticks, trace drains and boost reads go on between slices. */
#define MAP_SLICE_NS	(20ull * 1000000ull)

/*
 * --map-interval: a pass over the map, a slice at a time between ticks
 * (a blocking pass took 0.7-0.9 s of CPU under load, and the ticks that
 * fell in it were lost), then page_owner's looks.  False when the map
 * cannot be had: the recording goes on without it.
 */
static bool map_step(struct recording *r, uint64_t left_ns, uint64_t *owner_blocks, bool *done)
{
	int rs = ft_live_map_rescan_step(&r->live, left_ns < MAP_SLICE_NS ? left_ns : MAP_SLICE_NS);

	/* what came meanwhile: trace pages (their tasks named while they live), boost reads */
	ft_live_trace_maybe_poll(&r->live);
	ft_live_boost_poll(&r->live);
	*done = rs != 0;
	if (rs < 0) {
		fprintf(stderr, "fragtop: no pageblock map in the recording\n");
		return false;
	}
	if (rs > 0 && *owner_blocks) {
		int n = ft_live_owner_scan_mixed(&r->live, (unsigned int)*owner_blocks);

		if (n < 0) {	/* said once (ft_diag) and recorded as the source's state */
			fprintf(stderr, "fragtop: no page owners in the recording: %s\n",
				ft_pown_strerror(n));
			*owner_blocks = 0;
		}
	}
	return true;
}

/* Tick until a signal, --duration or an error: 0, or 1 if a rotation failed. */
static int record_loop(struct recording *r)
{
	uint64_t begin = ft_now_ns(), map_next = 0;
	double map_interval = o.map_interval;
	uint64_t owner_blocks = o.owner_blocks;
	bool ticked = false, scanning = false;
	struct ft_tick tick;

	ft_tick_start(&tick, (uint64_t)(o.interval * 1e9), begin);
	while (!stop && !r->full_stop) {
		uint64_t now = ft_now_ns();

		if (r->rec.err && !r->waiting) {
			if (!r->rec.w.full)
				break;
			full_close(r);
			continue;
		}
		/* a new file at the period's end, or on SIGHUP */
		if (o.dir && !r->waiting && (hup || ft_realtime_ns() >= r->next_file)) {
			if (rotate(r))
				return 1;
			continue;
		}
		if (o.duration > 0 && now - begin >= (uint64_t)(o.duration * 1e9))
			break;
		/* the tick first: a map pass never holds it up */
		if (ft_tick_due(&tick, now)) {
			ft_live_tick(&r->live, false);
			ft_costlog_tick(&r->cost_log, &r->live.session, "record");
			ticked = true;
			if (o.on_tick && !o.on_tick(o.ctx, &r->live))
				break;
			if (r->waiting && full_retry(r))
				return 1;
			continue;
		}
		if (scanning) {
			bool done;

			if (!map_step(r, ft_tick_left_ns(&tick, now), &owner_blocks, &done))
				map_interval = 0;
			if (done) {
				scanning = false;
				map_next = now + (uint64_t)(map_interval * 1e9);
			}
			continue;
		}
		/* after a recorded tick: a pass's batches need the zones its PROC inputs lay out */
		if (map_interval > 0 && now >= map_next && ticked) {
			if (ft_live_map_rescan_begin(&r->live)) {
				fprintf(stderr, "fragtop: no pageblock map in the recording\n");
				map_interval = 0;
			} else {
				scanning = true;
			}
			continue;
		}
		/* boost reads and trace pages until the next tick */
		ft_live_wait(&r->live, now + ft_tick_left_ns(&tick, now));
	}
	return 0;
}

/*
 * A --dir that others could plant files in, or switch under us, is
 * refused (it is pruned as root): a symbolic link, another user's
 * directory, one that group or others may write to.  1 after saying which.
 */
static int unsafe_dir(const char *dir)
{
	struct stat st;
	const char *why = NULL;

	if (lstat(dir, &st)) {
		fprintf(stderr, "fragtop: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	if (S_ISLNK(st.st_mode))
		why = "is a symbolic link";
	else if (!S_ISDIR(st.st_mode))
		why = "is not a directory";
	else if (st.st_uid != geteuid())
		why = "belongs to another user";
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		why = "may be written by others (group or world)";
	if (!why)
		return 0;
	fprintf(stderr,
		"fragtop: --dir %s %s: files planted there could be taken for recordings and "
		"pruned; use a directory of your own (0700), or --unsafe-dir\n", dir, why);
	return 1;
}

/* The options that go together: 0, or a usage error's 2. */
static int check_args(int argc, char **argv, int first)
{
	if (!!o.output == !!o.dir)
		return ft_cli_usage_error(&ft_cmd_record, "-o FILE or --dir DIR (one of them)");
	if ((o.rotate_given || o.keep_given || o.max_size_given || o.unsafe_dir) && !o.dir)
		return ft_cli_usage_error(&ft_cmd_record, "--rotate, --keep, --max-size and "
							  "--unsafe-dir go with --dir");
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_record, "'%s': no operand expected", argv[first]);
	return 0;
}

static int record_main(void);

/* With --dir, the first file's name (record_main() takes it from here). */
static char first_path[4096];
static uint32_t first_seq;

static int run(int argc, char **argv)
{
	int err, first;

	err = ft_cli_parse(&ft_cmd_record, argc, argv, &first);
	if (err >= 0)
		return err;
	err = check_args(argc, argv, first);
	if (err)
		return err;
	if (o.dir && mkdir(o.dir, 0700) && errno != EEXIST) {
		fprintf(stderr, "fragtop: cannot make %s: %s\n", o.dir, strerror(errno));
		return 1;
	}
	if (o.dir && !o.unsafe_dir && unsafe_dir(o.dir))
		return 1;
	if (o.dir) {
		size_t n;

		if (hold_dir(o.dir, o.unsafe_dir) || series_open(dir_at))
			return 1;
		free(series_files(dir_at, &n));	/* the series' next number */
		file_for_now(first_path, sizeof(first_path), dir_at, &first_seq);
	}
	return record_main();
}

/* The recording itself, from the options in o (parsed, or a caller's). */
static int record_main(void)
{
	static struct recording r;
	struct stat st;
	int err;

	memset(&r, 0, sizeof(r));
	memcpy(r.path, first_path, sizeof(r.path));
	r.seq = first_seq;
	r.out = o.dir ? r.path : o.output;
	shown(r.out, r.name, sizeof(r.name));
	if (!o.force && !lstat(r.out, &st)) {	/* say it before sampling anything */
		char why[160];

		fprintf(stderr, "fragtop: cannot record to %s: %s\n", r.name,
			ft_outfile_strerror(S_ISLNK(st.st_mode) ? -ELOOP : S_ISDIR(st.st_mode) ?
					    -EISDIR :
					    -EEXIST, "--force", why, sizeof(why)));
		return 1;
	}
	ft_cost_long_running();
	if (ft_costlog_open(&r.cost_log, o.cost_log))
		return 1;
	if (ft_liveopts_open(&r.live, &o.live))
		return 1;
	rotating = o.dir != NULL;
	ft_catch_stop_signals(on_signal);
	err = ft_live_tick(&r.live, true);
	if (err) {
		fprintf(stderr, "fragtop: no usable zoneinfo under %s: %s\n", o.live.root,
			strerror(-err));
		ft_live_close(&r.live);
		return 1;
	}
	ft_liveopts_trace(&r.live, &o.live);
	err = o.dir ? ft_recorder_start_series(&r.rec, &r.live, r.out, o.force, series_id, r.seq) :
		      ft_recorder_start(&r.rec, &r.live, r.out, o.force);
	if (o.dir && (err == -ENOSPC || err == -EDQUOT)) {
		/*
		 * a service started on a full disk waits for space rather than failing each restart
		 */
		fprintf(stderr, "fragtop: cannot record to %s: %s; recording when there is space\n",
			r.name,
			strerror(-err));
		r.waiting = true;
	} else if (err) {
		cannot(&r, err, o.force ? NULL : "--force");
		ft_live_close(&r.live);
		return 1;
	} else if (!o.quiet) {
		fprintf(stderr, "fragtop: recording to %s every %gs%s; Ctrl-C stops\n", r.name,
			o.interval,
			r.live.trace.on ? " with tracepoints" : "");
	}
	if (o.dir && !r.waiting) {
		r.next_file = period_end(ft_realtime_ns(), o.rotate);
		prune(dir_at, r.out, (unsigned long)o.keep, o.max_size);
	}
	if (record_loop(&r)) {
		ft_live_close(&r.live);
		return 1;
	}
	if (o.on_end)
		o.on_end(o.ctx, &r.live);
	/* the last tick covers the time since the one before */
	if (r.live.trace.on)
		ft_tracefs_stop(&r.live.trace.t);
	if (!r.waiting && !r.full_stop) {
		ft_live_tick(&r.live, false);
		if (r.rec.err && r.rec.w.full)
			full_close(&r);
	}
	if (r.waiting || r.full_stop) {	/* the disk filled and no file is open now */
		fprintf(stderr,
			"fragtop: stopped %s: %llu samples dropped for a full disk in all\n",
			r.waiting ? "while waiting for space" : "on a full disk",
			(unsigned long long)r.dropped);
		ft_live_close(&r.live);
		return r.full_stop ? 1 : 0;
	}
	err = ft_recorder_stop(&r.rec);
	if (o.quiet && !err && !r.dropped)
		goto out;
	fprintf(stderr,
		"fragtop: %s: %llu ticks, %llu trace pages, %llu map batches, %llu audit entries; "
		"%llu bytes on disk (%llu before compression)%s%s", r.name,
		(unsigned long long)r.rec.ticks, (unsigned long long)r.rec.pages,
		(unsigned long long)r.rec.kpf_batches, (unsigned long long)r.rec.audits,
		(unsigned long long)r.rec.w.file_bytes, (unsigned long long)r.rec.w.raw_bytes,
		err ? ": " : "", err ? strerror(-err) : "");
	if (r.dropped)
		fprintf(stderr, "; %llu samples dropped for a full disk in all",
			(unsigned long long)r.dropped);
	fputc('\n', stderr);
out:
	ft_live_close(&r.live);
	ft_costlog_close(&r.cost_log);
	return err ? 1 : 0;
}

int ft_record_headless(const struct ft_record_args *a)
{
	memset(&o, 0, sizeof(o));
	o.live = a->live;
	o.output = a->output;
	o.interval = a->interval;
	o.duration = a->duration;
	o.map_interval = a->map_interval;
	o.owner_blocks = a->owner_blocks;
	o.force = true;
	o.quiet = true;
	o.on_tick = a->on_tick;
	o.on_end = a->on_end;
	o.ctx = a->ctx;
	stop = 0;
	return record_main();
}

const struct ft_cmd ft_cmd_record = {
	.name = "record",
	.summary = "record a session to a file, headless",
	.about = "A chunk is written and synced every 2 s: killed, the file keeps all but\n"
		 "the last seconds.  A full disk closes the file cleanly; with --dir the\n"
		 "recorder counts the samples it drops and goes on when there is space.\n"
		 "Read it with 'fragtop report FILE' or 'fragtop replay FILE'.",
	FT_CMD_OPTS(opts),
	.run = run,
};
