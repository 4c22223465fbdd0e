/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replays a recording into a struct ft_live: the recorded /proc bytes go
 * through the same parsers, the recorded trace sub-buffers through the
 * same decoder and aggregator, so every view, `report` and `compare` see
 * what the live path would have seen.  Needs no root, no tracefs and not
 * the recording's kernel.
 *
 * Ownership: struct ft_replay owns the file, the reader, the live it
 * feeds and the copies of the pending tick's inputs.
 */
#ifndef FT_COLLECTORS_REPLAY_H
#define FT_COLLECTORS_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/live.h"
#include "model/recfmt.h"

struct ft_replay_audit {
	uint64_t t_ns;			/* monotonic, the recording's clock */
	uint64_t tick;			/* ticks applied before it */
	char knob[FT_KNOB_TEXT], old[FT_KNOB_TEXT], new[FT_KNOB_TEXT];
	char how[16], outcome[16];
	char msg[192];
};

struct ft_replay {
	int fd;
	struct ft_rec_reader r;
	struct ft_live live;
	char path[4096];
	/* position */
	size_t chunk;			/* next chunk to load */
	const uint8_t *raw;		/* current chunk's records */
	size_t len, off;
	bool have_chunk;
	/* the pending tick's inputs (copies: a tick may span chunks) */
	char *src[FT_SRC_NR];
	size_t src_len[FT_SRC_NR], src_cap[FT_SRC_NR];
	bool src_fresh[FT_SRC_NR];
	/* what has been applied */
	uint64_t ticks;
	uint64_t t_first, t_last;	/* monotonic ns of the first and last tick */
	uint64_t rt_first, rt_last;	/* CLOCK_REALTIME ns of the same */
	uint64_t bad_chunks;
	uint64_t bad_records;
	struct ft_replay_audit *audits;	/* in file order */
	size_t nr_audits, cap_audits;
	char host_text[2048];
	/*
	 * Report mode: zoneinfo, buddyinfo and pagetypeinfo (the costly
	 * parses, which a report reads only for zone ranges and the pageblock
	 * order) are applied every lean-th tick; vmstat, knobs and trace
	 * pages every tick.  0: every source every tick (the TUI).
	 */
	unsigned int lean;
};

/*
 * Open @path, read its META chunks (host facts, trace formats) and set
 * up the live.  0 or -errno, with the reason in p->r.why (or errno's).
 */
int ft_replay_open(struct ft_replay *p, const char *path);
void ft_replay_close(struct ft_replay *p);

/* Apply the next tick.  1 if one was applied, 0 at the end, -errno. */
int ft_replay_step(struct ft_replay *p);

/* A value from the HOST record ("release"), or "" if absent. */
const char *ft_replay_host(const struct ft_replay *p, const char *key, char *buf, size_t sz);

#endif
