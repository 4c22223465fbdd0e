/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writes a recording (model/RECORDING.md): records are gathered in memory
 * and written as one compressed chunk when the chunk is a few seconds old
 * or 1 MiB big, then fdatasync()ed, so a SIGKILL or a power cut loses at
 * most that much.  An index chunk follows every FT_RECW_INDEX_EVERY chunks
 * and at close, then an END chunk pointing at it.
 *
 * A full disk: the file keeps FT_RECW_RESERVE bytes allocated past its
 * end (fallocate, KEEP_SIZE), so when a chunk cannot be written (ENOSPC,
 * EDQUOT) the writer takes the partial chunk back and can still close the
 * file cleanly (index and END in the reserve); w->full says so, and the
 * ticks of the records lost are counted in dropped_ticks.
 *
 * Ownership: struct ft_recw owns its fd, buffers and zstd context.
 */
#ifndef FT_COLLECTORS_RECWRITER_H
#define FT_COLLECTORS_RECWRITER_H

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

struct ft_recw {
	int fd;
	uint64_t off;			/* where the next chunk goes */
	uint32_t seq;
	uint64_t flush_ns;		/* a chunk is written when this old */
	bool sync;			/* fdatasync after each chunk */
	struct {
		uint8_t *buf;
		size_t len, cap;
		uint32_t nr;
		uint32_t ticks;		/* TICK records among them */
		uint64_t t_first, t_last;
		uint64_t opened_ns;	/* monotonic, first record */
	} data, meta;
	struct ft_recw_pending pend[FT_RECW_INDEX_EVERY];
	int nr_pend;
	uint64_t last_index;		/* offset, 0 if none yet */
	uint64_t nr_chunks;		/* META + DATA chunks written */
	void *zctx;			/* ZSTD_CCtx */
	uint8_t *prev;			/* raw payload of the last DATA chunk */
	size_t prev_len, prev_cap;
	int since_key;			/* DATA chunks since the last key chunk */
	int level;
	uint64_t raw_bytes, file_bytes;
	int err;			/* first write error; later calls fail with it */
	bool full;			/* that error was a full disk: the file can still be closed */
	uint64_t dropped_ticks;		/* ticks whose records a full disk lost */
};

/*
 * Create @path through ft_outfile_create() (mode 0600, never through a
 * symbolic link; an existing file is replaced, not truncated, only with
 * @overwrite) and write the file header.  0 or -errno.
 */
int ft_recw_open(struct ft_recw *w, const char *path, bool overwrite);
/* The same, the file @seq of series @id (model/recfmt.h; record --dir). */
int ft_recw_open_series(struct ft_recw *w, const char *path, bool overwrite, uint64_t id, uint32_t seq);

/* A record for the current data chunk; may write the chunk.  0 or -errno. */
int ft_recw_add(struct ft_recw *w, uint16_t type, uint16_t sub, uint64_t t_ns,
		const void *data, size_t len);
/* A record for the next META chunk (host facts, trace formats). */
int ft_recw_add_meta(struct ft_recw *w, uint16_t type, uint16_t sub, uint64_t t_ns,
		     const void *data, size_t len);

/* Write the pending chunks if the data chunk is older than flush_ns at @now_ns. */
int ft_recw_tick(struct ft_recw *w, uint64_t now_ns);
/* Write the pending chunks now. */
int ft_recw_flush(struct ft_recw *w);

/*
 * Flush, write the last index and the END chunk, sync, close.  0 or
 * -errno.  After a full disk (w->full) what could not be written is
 * dropped (counted) and the file is closed cleanly at its last whole
 * chunk: 0 if that worked.
 */
int ft_recw_close(struct ft_recw *w);
/* Close without the END chunk (tests: a file as a crash leaves it). */
void ft_recw_abandon(struct ft_recw *w);

#endif
