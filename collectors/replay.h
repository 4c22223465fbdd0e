/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The replay source: reads a recording and hands its records, in file
 * order, to a session (model/session.h) as the inputs they were live, so
 * every view, `report` and `compare` see what the live path saw.  Needs no
 * root, no tracefs and not the recording's kernel, and never looks at the
 * local /proc.
 *
 * Seeking: every FT_REPLAY_CKPT_TICKS ticks the session is saved as a
 * checkpoint (compressed, with the file position), so a seek restores the
 * nearest checkpoint at or before the target and steps forward at most
 * that many ticks.  Checkpoints are made as the replay first moves
 * forward; ft_replay_index() makes them ahead of time.
 *
 * Ownership: struct ft_replay owns the file, the reader, the session and
 * the checkpoints.
 */
#ifndef FT_COLLECTORS_REPLAY_H
#define FT_COLLECTORS_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/recfmt.h"
#include "model/session.h"

#define FT_REPLAY_CKPT_TICKS	60
#define FT_REPLAY_CKPT_BYTES	(256u << 20)	/* checkpoints kept, compressed */

struct ft_replay_ckpt {
	uint64_t ticks;			/* ticks applied when it was taken */
	uint64_t t_ns;			/* the last tick's time */
	size_t chunk;			/* the chunk being read (SIZE_MAX: none) */
	size_t off;			/* and the offset of the next record in it */
	size_t next;			/* the next chunk to load */
	void *blob;			/* ft_session_save() */
	size_t len;
};

struct ft_replay {
	int fd;
	struct ft_rec_reader r;
	struct ft_session session;
	char path[4096];
	/* position */
	size_t chunk;			/* next chunk to load */
	const uint8_t *raw;		/* current chunk's records */
	size_t len, off;
	bool have_chunk;
	uint64_t bad_chunks;
	uint64_t bad_records;
	bool at_end;			/* the last step found no further tick */
	/* checkpoints, in tick order; [0] is the state after open */
	struct ft_replay_ckpt *ck;
	size_t nr_ck, cap_ck;
	bool indexed;			/* checkpoints reach the end */
	size_t ck_bytes;		/* their compressed size */
	bool forward_only;		/* set after open: read once, front to back, never seeks */
};

/*
 * Open @path, apply its META chunks (host facts, trace formats, iomem).
 * @opts: how the session is kept (struct ft_session_opts; NULL for the views).  0 or -errno, with
 * the reason in p->r.why (or errno's).
 */
int ft_replay_open(struct ft_replay *p, const char *path, const struct ft_session_opts *opts);
void ft_replay_close(struct ft_replay *p);

/* Apply the next tick.  1 if one was applied, 0 at the end, -errno. */
int ft_replay_step(struct ft_replay *p);

/*
 * Go to tick number @n (1 = the first; 0 = before it), or to the first
 * tick at or after @t_ns (CLOCK_MONOTONIC of the recording), backwards or
 * forwards.  1 if there, 0 if the recording ends first (at its end), or
 * -errno.
 */
int ft_replay_seek_tick(struct ft_replay *p, uint64_t n);
int ft_replay_seek_time(struct ft_replay *p, uint64_t t_ns);

/*
 * Make checkpoints ahead of the current position, at most @max_ticks
 * ticks' worth, then come back.  1 when the whole recording is indexed,
 * 0 if there is more to do, -errno.
 */
int ft_replay_index(struct ft_replay *p, uint64_t max_ticks);

/* First and last tick time (monotonic ns) as far as the chunk table tells. */
void ft_replay_bounds(const struct ft_replay *p, uint64_t *t0, uint64_t *t1);

#endif
