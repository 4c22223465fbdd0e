/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A process's own figures as every Prometheus client library exports
 * them (client_golang's process collector: process_cpu_seconds_total,
 * process_resident_memory_bytes and the rest), from the texts of
 * /proc/PID/stat and /proc/stat.  Pure: the exporter reads the files
 * (collectors/self.c) and render/metrics.c prints the figures.
 */
#ifndef FT_KERNEL_SELFSTAT_H
#define FT_KERNEL_SELFSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ft_selfstat {
	bool known;
	double cpu_seconds;		/* user and system */
	uint64_t resident_bytes, virtual_bytes;
	double start_time_seconds;	/* since the epoch */
	uint64_t open_fds, max_fds;	/* max: 0 when unknown */
};

/*
 * /proc/PID/stat's line: utime, stime (in @hz ticks), starttime (ticks
 * after boot), vsize (bytes) and rss (pages of @page_size); @btime the
 * boot time (s since the epoch, /proc/stat's btime).  The command in
 * parentheses may hold anything: fields are counted after its last ')'.
 * 0, or -EINVAL on text that is not such a line.
 */
int ft_selfstat_parse(const char *buf, size_t len, long hz, long page_size, uint64_t btime,
		      struct ft_selfstat *out);

/* /proc/stat's "btime N" line: 0, or -ENOENT when there is none. */
int ft_btime_parse(const char *buf, size_t len, uint64_t *btime);

#endif
