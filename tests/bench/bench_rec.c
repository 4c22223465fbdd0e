// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench, recordings: bytes per hour at a 1 s interval on this host
 * (60 live ticks, extrapolated; goal <= 1 MB/h without the map; atop's raw
 * file grows ~14 MB/h at 1 s here), the recorder's CPU per tick, and on a
 * synthetic 24 h recording (86,400 ticks of this host's /proc texts with
 * changing counters): the time to open it and seek to a point (goal <=
 * 50 ms) and the time of `fragtop report` on it (goal <= 2 s).  One run;
 * nothing asserted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/bench/clock.h"
#include "tests/bench/figure.h"
#include "base/file.h"
#include "collectors/recorder.h"
#include "collectors/replay.h"
#include "analysis/report.h"

static long fsize(const char *p)
{
	struct stat st;

	return stat(p, &st) ? -1 : (long)st.st_size;
}

/* /proc text with every number on lines containing "nr_" or "pgalloc" bumped by @k. */
static size_t vary(const char *src, size_t len, char *dst, size_t cap, unsigned k)
{
	size_t n = 0, i = 0;

	while (i < len && n + 32 < cap) {
		const char *nl = memchr(src + i, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - (src + i)) + 1 : len - i;
		unsigned long long v;
		char name[64];

		if (sscanf(src + i, "%63s %llu", name, &v) == 2 &&
		    (strstr(name, "pgalloc") || strstr(name, "nr_free") ||
		     strstr(name, "pgfault") ||
		     strstr(name, "thp_fault") || strstr(name, "compact_stall")))
			n += (size_t)snprintf(dst + n, cap - n, "%s %llu\n", name,
					      v + k * 37ull + (k % 7));
		else {
			memcpy(dst + n, src + i, ll);
			n += ll;
		}
		i += ll;
	}
	return n;
}

int main(int argc, char **argv)
{
	static struct ft_live l;
	static struct ft_recorder rec;
	const char *live_file = "build/bench-live.ftr", *day = "build/bench-24h.ftr";
	double c0, tick_rec = 0, tick_plain = 0;
	long meta;
	int i, ticks = argc > 1 ? atoi(argv[1]) : 60;

	unlink(live_file);
	if (ft_live_open(&l, "/", 10) || ft_live_tick(&l, true)) {
		fprintf(stderr, "bench_rec: cannot sample /proc\n");
		return 1;
	}
	ft_live_trace_start(&l, 0);	/* as `fragtop record` does; fine if it fails */
	/* the cost of a tick without and with the recorder */
	for (i = 0; i < 10; i++) {
		c0 = cpu_ms();
		ft_live_tick(&l, false);
		tick_plain += cpu_ms() - c0;
	}
	if (ft_recorder_start(&rec, &l, live_file, true)) {
		fprintf(stderr, "bench_rec: cannot write %s\n", live_file);
		return 1;
	}
	/* file header + host facts + trace formats: once per file */
	meta = fsize(live_file);
	printf("\nrecordings (one run)\n");
	for (i = 0; i < ticks; i++) {
		sleep(1);
		ft_live_trace_poll(&l);
		c0 = cpu_ms();
		ft_live_tick(&l, false);
		tick_rec += cpu_ms() - c0;
	}
	ft_recorder_stop(&rec);
	printf("  live, %d ticks at 1 s%s: %ld bytes, of which %ld once per file (formats);\n"
	       "  %.2f MB per hour (goal <= 1 MB/h; atop ~14 MB/h here)\n",
	       ticks, l.trace.on ? " with tracepoints" : "", fsize(live_file), meta,
	       (double)(fsize(live_file) - meta) * 3600.0 / ticks / 1e6);
	printf("  tick CPU without the recorder %.2f ms, with it %.2f ms (the recorder: %.2f ms a "
	       "tick, %.3f%% of a core at 1 s)\n",
	       tick_plain / 10, tick_rec / ticks, tick_rec / ticks - tick_plain / 10,
	       (tick_rec / ticks - tick_plain / 10) / 10);
	ft_live_close(&l);

	/* a synthetic day: this host's texts, counters moving every tick */
	{
		static const char *const src[] = { "proc/zoneinfo", "proc/buddyinfo",
						   "proc/pagetypeinfo",
						   "proc/vmstat" };
		static char orig[4][1 << 17], buf[1 << 17];
		long olen[4];
		struct ft_recw w;
		uint64_t t;
		int rootfd = ft_root_open("/"), s;
		double w0;

		for (s = 0; s < 4; s++)
			olen[s] = ft_file_slurp(rootfd, src[s], orig[s], sizeof(orig[s]));
		close(rootfd);
		if (ft_recw_open(&w, day, true))
			return 1;
		w.sync = false;
		w0 = wall_ms();
		ft_recw_add_meta(&w, FT_RR_HOST, 0, 1, "hostname=synthetic\npageblock_order=9\n",
				 37);
		for (i = 0; i < 86400; i++) {
			t = 1000000000ull * (unsigned long long)(i + 1);
			for (s = 0; s < 4; s++) {
				size_t n;

				if (olen[s] <= 0 || (s == 2 && i % 10))
					continue;
				n = vary(orig[s], (size_t)olen[s], buf, sizeof(buf), (unsigned)i);
				ft_recw_add(&w, FT_RR_PROC, (uint16_t)s, t, buf, n);
			}
			ft_recw_add(&w, FT_RR_TICK, 0, t, &t, 8);
			if (i % 2 == 1)
				ft_recw_flush(&w);
		}
		ft_recw_close(&w);
		printf("  synthetic 24 h (86,400 ticks): %ld bytes (%.1f MB), written in %.1f s\n",
		       fsize(day),
		       (double)fsize(day) / 1e6, (wall_ms() - w0) / 1e3);
	}
	/* open + seek + load the chunk at 3/4 of the day */
	{
		static struct ft_replay rp;
		double best = 1e9;
		int rep;

		for (rep = 0; rep < 5; rep++) {
			const uint8_t *raw;
			size_t len, k;
			double w0 = wall_ms();

			if (ft_replay_open(&rp, day, NULL))
				return 1;
			k = ft_rec_find(&rp.r,
					64800ull * 1000000000ull + (unsigned long long)rep *
					977000000000ull);
			if (k >= rp.r.nr || ft_rec_load(&rp.r, k, &raw, &len))
				return 1;
			if (wall_ms() - w0 < best)
				best = wall_ms() - w0;
			ft_replay_close(&rp);
		}
		printf("  open + seek to a time + decode its chunk: %.1f ms (goal <= 50 ms; index "
		       "chain, then <= %d chunks of prefix chain)\n",
		       best, FT_REC_KEY_EVERY);
	}
	/*
	 * The replay TUI's seeks: index the day once (checkpoints every
	 * FT_REPLAY_CKPT_TICKS ticks), then seek to times spread over it,
	 * backwards and forwards, and step back one tick from each.
	 */
	{
		static struct ft_replay rp;
		double w0, ci0, seek_worst = 0, seek_sum = 0, back_worst = 0, back_sum = 0;
		int k, n = 24;

		if (ft_replay_open(&rp, day, NULL))
			return 1;
		w0 = wall_ms();
		ci0 = cpu_ms();
		while (!ft_replay_index(&rp, 1u << 30))
			;
		printf("  replay index pass: %.2f s wall, %.2f s CPU; %zu checkpoints, %.1f MB\n",
		       (wall_ms() - w0) / 1e3, (cpu_ms() - ci0) / 1e3, rp.nr_ck,
		       (double)rp.ck_bytes / 1e6);
		for (k = 0; k < n; k++) {
			/* a pseudo-random walk: 37/24 of the day modulo the day */
			uint64_t sec = 1 + (uint64_t)((k * 37 % n) * 3600 + k * 613 % 3600);
			double t;

			w0 = wall_ms();
			if (ft_replay_seek_time(&rp, sec * 1000000000ull) != 1)
				return 1;
			t = wall_ms() - w0;
			seek_sum += t;
			if (t > seek_worst)
				seek_worst = t;
			w0 = wall_ms();
			if (ft_replay_seek_tick(&rp, rp.session.ticks - 1) != 1)
				return 1;
			t = wall_ms() - w0;
			back_sum += t;
			if (t > back_worst)
				back_worst = t;
		}
		printf("  seek to a time (%d seeks over the day): mean %.1f ms, worst %.1f ms "
		       "(goal <= 50 ms)\n",
		       n, seek_sum / n, seek_worst);
		bench_figure("seek.mean_ms", seek_sum / n, "ms");
		bench_figure("seek.worst_ms", seek_worst, "ms");
		printf("  step back one tick: mean %.1f ms, worst %.1f ms (goal <= 50 ms)\n",
		       back_sum / n, back_worst);
		ft_replay_close(&rp);
	}
	{
		struct ft_report *r = calloc(1, sizeof(*r));
		double w0 = wall_ms(), c1 = cpu_ms();

		if (!r || ft_report_build(r, day, NULL))	/* as `fragtop report` runs it */
			return 1;
		printf("  report on it: %.2f s wall, %.2f s CPU, %llu samples (goal <= 2 s)\n",
		       (wall_ms() - w0) / 1e3, (cpu_ms() - c1) / 1e3,
		       (unsigned long long)r->s->ticks);
		ft_report_release(r);
		free(r);
	}
	if (!getenv("FT_BENCH_KEEP"))
		unlink(day);
	unlink(live_file);
	return 0;
}
