// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench: costs measured in this one run, printed with their ratios.
 * No threshold is asserted (these machines are noisy); the goal is printed
 * beside each ratio.
 *
 *   1. reading each kernel source (pread from offset 0 on a kept-open fd)
 *   2. parsing the same bytes into a sample (all four parsers + join)
 *   3. the ratio parse / read for a full snapshot (goal <= 10%), and the
 *      same for a TUI tick, which skips pagetypeinfo
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/file.h"
#include "collectors/procfs.h"
#include "model/sample.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static const char *const paths[FT_SRC_NR] = {
	"proc/zoneinfo", "proc/buddyinfo", "proc/pagetypeinfo", "proc/vmstat",
};

int main(int argc, char **argv)
{
	const char *root = argc > 1 ? argv[1] : "/";
	int reps[FT_SRC_NR] = { 2000, 20000, 300, 5000 };
	double read_us[FT_SRC_NR] = { 0 }, parse_us[FT_SRC_NR] = { 0 };
	struct ft_file f[FT_SRC_NR];
	struct ft_sample s;
	struct ft_raw raw;
	double t0, full_read = 0, full_parse, tick_read = 0, tick_parse;
	int rootfd = ft_root_open(root), i, r, n;

	if (rootfd < 0) {
		fprintf(stderr, "bench: cannot open %s: %s\n", root, strerror(-rootfd));
		return 1;
	}
	printf("fragtop bench (root %s, one run; no thresholds asserted)\n\n", root);
	printf("%-14s %10s %10s %10s  %s\n", "source", "bytes", "read us", "parse us",
	       "parse/read");
	ft_sample_init(&s);
	memset(&raw, 0, sizeof(raw));
	for (i = 0; i < FT_SRC_NR; i++) {
		ft_file_init(&f[i], paths[i]);
		if (ft_file_read(&f[i], rootfd)) {
			printf("%-14s unreadable (%s)%s\n", paths[i] + 5, strerror(-f[i].err),
			       i == FT_SRC_PAGETYPEINFO ? ": run as root for the full figure" : "");
			continue;
		}
		t0 = now_us();
		for (r = 0; r < reps[i]; r++)
			ft_file_read(&f[i], rootfd);
		read_us[i] = (now_us() - t0) / reps[i];

		memset(&raw, 0, sizeof(raw));
		raw.src[i].fresh = true;
		raw.src[i].buf = f[i].buf;
		raw.src[i].len = f[i].len;
		n = reps[i] * 10;
		t0 = now_us();
		for (r = 0; r < n; r++) {
			raw.t_ns = (uint64_t)r + 1;
			ft_sample_update(&s, &raw);
		}
		parse_us[i] = (now_us() - t0) / n;
		if (s.err[i])
			printf("%-14s parse error %d\n", paths[i] + 5, s.err[i]);
		printf("%-14s %10zu %10.2f %10.2f  %6.1f%%\n", paths[i] + 5, f[i].len,
		       read_us[i], parse_us[i], 100 * parse_us[i] / read_us[i]);
	}

	/* the whole snapshot: all sources, then one join */
	memset(&raw, 0, sizeof(raw));
	for (i = 0; i < FT_SRC_NR; i++) {
		full_read += read_us[i];
		if (i != FT_SRC_PAGETYPEINFO)
			tick_read += read_us[i];
		raw.src[i].fresh = f[i].err == 0;
		raw.src[i].buf = f[i].buf;
		raw.src[i].len = f[i].len;
	}
	n = 20000;
	t0 = now_us();
	for (r = 0; r < n; r++) {
		raw.t_ns = (uint64_t)r + 1;
		ft_sample_update(&s, &raw);
	}
	full_parse = (now_us() - t0) / n;
	raw.src[FT_SRC_PAGETYPEINFO].fresh = false;
	t0 = now_us();
	for (r = 0; r < n; r++) {
		raw.t_ns = (uint64_t)(n + r) + 1;
		ft_sample_update(&s, &raw);
	}
	tick_parse = (now_us() - t0) / n;

	printf("\nfull snapshot: read %.1f us, parse+join %.2f us: parse/read = %.1f%% (goal <= "
	       "10%%)\n",
	       full_read, full_parse, 100 * full_parse / full_read);
	printf("TUI tick (no pagetypeinfo): read %.1f us, parse+join %.2f us: parse/read = "
	       "%.1f%%\n",
	       tick_read, tick_parse, 100 * tick_parse / tick_read);
	if (read_us[FT_SRC_PAGETYPEINFO] > 0 && read_us[FT_SRC_BUDDYINFO] > 0)
		printf("pagetypeinfo costs %.0fx buddyinfo and %.0fx zoneinfo to read: "
		       "it is read every 10 s by default, not every tick\n",
		       read_us[FT_SRC_PAGETYPEINFO] / read_us[FT_SRC_BUDDYINFO],
		       read_us[FT_SRC_PAGETYPEINFO] / read_us[FT_SRC_ZONEINFO]);
	for (i = 0; i < FT_SRC_NR; i++)
		ft_file_close(&f[i]);
	ft_sample_release(&s);
	close(rootfd);
	return 0;
}
