/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writes a recording (model/RECORDING.md): records are gathered in memory
 * and written as one compressed chunk when the chunk is a few seconds old
 * or 1 MiB big, then fdatasync()ed, so a SIGKILL or a power cut loses at
 * most that much.  An index chunk follows every FT_RECW_INDEX_EVERY chunks
 * and at close, then an END chunk pointing at it.
 *
 * The compression, the write and the sync run on a writer thread of
 * their own: under a trace storm on a disk busy with someone else's
 * writes a chunk took 60-400 ms here, which the caller (the TUI's loop,
 * the recorder's ticks) must not wait for.  A full chunk is handed over
 * and the caller goes on; at most FT_RECW_QUEUE chunks wait, and a
 * caller that gets ahead of the disk by more than that waits for a slot
 * (memory stays bounded, nothing is dropped).  No thread (pthread_create
 * refused): the caller writes, as before.
 *
 * A full disk: the file keeps FT_RECW_RESERVE bytes allocated past its
 * end (fallocate, KEEP_SIZE), so when a chunk cannot be written (ENOSPC,
 * EDQUOT) the writer takes the partial chunk back and can still close the
 * file cleanly (index and END in the reserve); w->full says so.  The
 * writer's error reaches the caller at its next hand-over (err, full);
 * from then on records are refused, and every tick an error lost (in a
 * chunk not written, or refused) is counted in dropped_ticks.
 *
 * Ownership: struct ft_recw owns its fd, buffers and zstd context.
 */
#ifndef FT_COLLECTORS_RECWRITER_H
#define FT_COLLECTORS_RECWRITER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/recfmt.h"

#define FT_RECW_CHUNK_BYTES	(1u << 20)
#define FT_RECW_RESERVE		(64u << 10)	/* index + END fit many times over */
#define FT_RECW_INDEX_EVERY	64

struct ft_recw_pending {		/* a chunk not yet in an index */
	uint64_t off, t_first, t_last;
	uint32_t seq, nr_records;
	uint16_t type, flags;
};

/* A chunk's records, handed to the writer. */
struct ft_recw_job {
	uint16_t type;
	uint8_t *buf;
	size_t len, cap;
	uint32_t nr, ticks;
	uint64_t t_first, t_last;
};

#define FT_RECW_QUEUE		4	/* chunks waiting for the writer */
/*
 * Chunk buffers kept for the next chunks once written: a buffer freed and
 * grown again each chunk took fresh pages from the allocator every time
 * (glibc maps blocks over 128 kB, ft_cost_long_running()), the
 * recorder's largest share of its own fallbacks.
 */
#define FT_RECW_SPARES		2

struct ft_recw {
	/* the caller's: the records being gathered */
	uint64_t flush_ns;		/* a chunk is written when this old */
	struct {
		uint8_t *buf;
		size_t len, cap;
		uint32_t nr;
		uint32_t ticks;		/* TICK records among them */
		uint64_t t_first, t_last;
		uint64_t opened_ns;	/* monotonic, first record */
	} data, meta;
	uint64_t raw_bytes;
	int err;			/* the writer's first error, as the caller last heard it */
	/* that error was a full disk: the file can still be closed */
	bool full;
	bool threaded;			/* a writer thread runs (else the caller writes) */
	uint64_t dropped_ticks;		/* ticks an error lost: refused, or in chunks not written */

	/* between the two, under lock */
	pthread_mutex_t lock;
	pthread_cond_t wake, done;	/* a chunk for the writer; a chunk written */
	struct ft_recw_job queue[FT_RECW_QUEUE];
	int q_head, q_nr;
	/* written chunks' buffers */
	struct { uint8_t *buf; size_t cap; } spare[FT_RECW_SPARES];
	int nr_spare;
	bool busy, stop;
	int pub_err;			/* io_err and io_full, published after each chunk */
	bool pub_full;
	pthread_t thread;

	/* the writer's (the caller's while no thread runs): the file */
	int fd;
	uint64_t off;			/* where the next chunk goes */
	uint32_t seq;
	/* fdatasync after each chunk (set before the first record) */
	bool sync;
	struct ft_recw_pending pend[FT_RECW_INDEX_EVERY];
	int nr_pend;
	uint64_t last_index;		/* offset, 0 if none yet */
	uint64_t nr_chunks;		/* META + DATA chunks written */
	void *zctx;			/* ZSTD_CCtx */
	uint8_t *prev;			/* raw payload of the last DATA chunk */
	size_t prev_len, prev_cap;
	uint8_t *out;			/* a chunk as written (header, compressed payload), kept */
	size_t out_cap;
	int since_key;			/* DATA chunks since the last key chunk */
	int level;
	uint64_t file_bytes;
	int io_err;
	bool io_full;
	uint64_t io_dropped;		/* ticks in chunks the writer could not write */
};

/*
 * Create @path through ft_outfile_create() (mode 0600, never through a
 * symbolic link; an existing file is replaced, not truncated, only with
 * @overwrite) and write the file header.  0 or -errno.
 */
int ft_recw_open(struct ft_recw *w, const char *path, bool overwrite);
/* The same, the file @seq of series @id (model/recfmt.h; record --dir). */
int ft_recw_open_series(struct ft_recw *w, const char *path, bool overwrite, uint64_t id,
			uint32_t seq);

/*
 * A record for the current data chunk; may hand the chunk over.  0 or
 * -errno (after an error the record is refused, a tick counted as dropped).
 */
int ft_recw_add(struct ft_recw *w, uint16_t type, uint16_t sub, uint64_t t_ns,
		const void *data, size_t len);
/* A record for the next META chunk (host facts, trace formats). */
int ft_recw_add_meta(struct ft_recw *w, uint16_t type, uint16_t sub, uint64_t t_ns,
		     const void *data, size_t len);

/* Hand the pending chunks to the writer if the data chunk is older than flush_ns at @now_ns. */
int ft_recw_tick(struct ft_recw *w, uint64_t now_ns);
/* Hand the pending chunks to the writer now, without waiting for the disk. */
int ft_recw_push(struct ft_recw *w);
/* Hand the pending chunks over and wait until every chunk handed over is written. */
int ft_recw_flush(struct ft_recw *w);

/*
 * Flush, stop the writer, write the last index and the END chunk, sync,
 * close.  0 or -errno.  After a full disk (w->full) what could not be
 * written is dropped (counted) and the file is closed cleanly at its last
 * whole chunk: 0 if that worked.  The byte counts, full and dropped_ticks
 * stay for the caller's summary.
 */
int ft_recw_close(struct ft_recw *w);
/* Close without the END chunk (tests: a file as a crash leaves it). */
void ft_recw_abandon(struct ft_recw *w);

#endif
