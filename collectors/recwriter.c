// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/recwriter.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "base/grow.h"
#include "base/outfile.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void start_writer(struct ft_recw *w);

static bool disk_full(int err)
{
	return err == -ENOSPC || err == -EDQUOT;
}

/*
 * Keep FT_RECW_RESERVE bytes allocated past the end, for a clean close on
 * a full disk.  When they cannot be kept the disk is full now: w->full,
 * while what is left of the reserve still holds an index and END.  A file
 * system without fallocate closes as it can.
 */
static void reserve(struct ft_recw *w)
{
	if (!fallocate(w->fd, FALLOC_FL_KEEP_SIZE, (off_t)w->off, FT_RECW_RESERVE))
		return;
	if (disk_full(-errno) && !w->io_err) {
		w->io_full = true;
		w->io_err = -errno;
	}
}

static int write_all(struct ft_recw *w, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(w->fd, p, len, (off_t)w->off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return w->io_err = -errno;
		}
		p += n;
		len -= (size_t)n;
		w->off += (uint64_t)n;
		w->file_bytes += (uint64_t)n;
	}
	return 0;
}

int ft_recw_open(struct ft_recw *w, const char *path, bool overwrite)
{
	return ft_recw_open_series(w, path, overwrite, 0, 0);
}

int ft_recw_open_series(struct ft_recw *w, const char *path, bool overwrite, uint64_t id,
			uint32_t seq)
{
	struct ft_rec_filehdr h = { .version = FT_REC_VERSION, .series_id = id, .series_seq = seq };
	uint8_t hb[FT_REC_FILE_HDR];
	struct timespec ts;

	memset(w, 0, sizeof(*w));
	w->fd = ft_outfile_create(path, overwrite);
	if (w->fd < 0)
		return w->fd;
	w->flush_ns = 2000000000ull;
	w->sync = true;
	w->level = 3;
	w->zctx = ZSTD_createCCtx();
	clock_gettime(CLOCK_REALTIME, &ts);
	h.created_realtime_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	h.created_mono_ns = mono_ns();
	ft_rec_filehdr_encode(&h, hb);
	if (!w->zctx || write_all(w, hb, sizeof(hb))) {
		/* no empty or headless file is left behind (a full disk makes them) */
		int err = w->zctx ? w->io_err : -ENOMEM;

		ZSTD_freeCCtx(w->zctx);
		w->zctx = NULL;
		close(w->fd);
		w->fd = -1;
		unlink(path);
		return err;
	}
	reserve(w);
	w->err = w->io_err;
	w->full = w->io_full;
	start_writer(w);
	return 0;
}

static int buf_add(struct ft_recw *w, typeof(w->data) *b, uint16_t type, uint16_t sub,
		   uint64_t t_ns, const void *data, size_t len)
{
	size_t need;

	if (w->err) {
		w->dropped_ticks += type == FT_RR_TICK;
		return w->err;
	}
	if (len > FT_REC_CHUNK_MAX / 2)
		return -EFBIG;
	need = ft_rec_record_size(len);
	if (ft_grow_from((void **)&b->buf, &b->cap, b->len + need, 1, 65536, SIZE_MAX / 2))
		return -ENOMEM;
	ft_rec_record_put(b->buf + b->len, type, sub, t_ns, data, (uint32_t)len);
	b->len += need;
	b->ticks += type == FT_RR_TICK;
	if (!b->nr++) {
		b->t_first = t_ns;
		b->opened_ns = mono_ns();
	}
	b->t_last = t_ns;
	w->raw_bytes += need;
	return 0;
}

/* One chunk: header + payload (compressed when @compress), in one write. */
static int put_chunk(struct ft_recw *w, uint16_t type, const uint8_t *raw, size_t len, uint32_t nr,
		     uint64_t t_first, uint64_t t_last, bool compress)
{
	struct ft_rec_chunk c = {
		.type = type, .seq = w->seq++, .raw_len = (uint32_t)len, .nr_records = nr,
		.t_first = t_first, .t_last = t_last,
	};
	size_t bound = compress ? ZSTD_compressBound(len) : len, stored;
	uint64_t at = w->off;
	uint8_t *out;
	int err;

	if (FT_REC_CHUNK_HDR + bound > w->out_cap) {
		out = realloc(w->out, FT_REC_CHUNK_HDR + bound);
		if (!out)
			return -ENOMEM;
		w->out = out;
		w->out_cap = FT_REC_CHUNK_HDR + bound;
	}
	out = w->out;
	if (compress) {
		bool prefix = type == FT_RC_DATA && w->prev_len && w->since_key < FT_REC_KEY_EVERY;

		ZSTD_CCtx_reset(w->zctx, ZSTD_reset_session_and_parameters);
		ZSTD_CCtx_setParameter(w->zctx, ZSTD_c_compressionLevel, w->level);
		/* the raw content's checksum: a wrong prefix cannot decode silently */
		ZSTD_CCtx_setParameter(w->zctx, ZSTD_c_checksumFlag, 1);
		if (prefix)
			ZSTD_CCtx_refPrefix(w->zctx, w->prev, w->prev_len);
		stored = ZSTD_compress2(w->zctx, out + FT_REC_CHUNK_HDR, bound, raw, len);
		if (ZSTD_isError(stored))
			return -EIO;
		c.flags = FT_RC_ZSTD | (prefix ? FT_RC_PREFIX : 0);
		if (type == FT_RC_DATA) {
			w->since_key = prefix ? w->since_key + 1 : 1;
			if (len > w->prev_cap) {
				uint8_t *p = realloc(w->prev, len);

				if (!p)
					return -ENOMEM;
				w->prev = p;
				w->prev_cap = len;
			}
			memcpy(w->prev, raw, len);
			w->prev_len = len;
		}
	} else {
		memcpy(out + FT_REC_CHUNK_HDR, raw, len);
		stored = len;
	}
	c.stored_len = (uint32_t)stored;
	c.payload_crc = ft_crc32c(0, out + FT_REC_CHUNK_HDR, stored);
	ft_rec_chunk_encode(&c, out);
	err = write_all(w, out, FT_REC_CHUNK_HDR + stored);
	if (disk_full(err)) {
		/* take the partial chunk back: the file ends at its last whole chunk */
		w->file_bytes -= w->off - at;
		w->off = at;
		w->seq--;
		w->io_full = true;
	}
	if (err)
		return err;
	if (w->sync && fdatasync(w->fd))
		return w->io_err = -errno;
	reserve(w);
	if (type == FT_RC_META || type == FT_RC_DATA) {
		struct ft_recw_pending *p = &w->pend[w->nr_pend++];

		*p = (struct ft_recw_pending){ .off = at, .t_first = t_first, .t_last = t_last,
			.seq = c.seq, .nr_records = nr, .type = type, .flags = c.flags };
		w->nr_chunks++;
	}
	return 0;
}

static int put_index(struct ft_recw *w)
{
	uint8_t buf[8 + FT_RECW_INDEX_EVERY * FT_REC_INDEX_ENTRY];
	uint64_t at = w->off;
	int i, err;

	memset(buf, 0, sizeof(buf));
	for (i = 0; i < 8; i++)
		buf[i] = (uint8_t)(w->last_index >> (8 * i));
	for (i = 0; i < w->nr_pend; i++) {
		uint8_t *e = buf + 8 + i * FT_REC_INDEX_ENTRY;
		const struct ft_recw_pending *p = &w->pend[i];
		uint64_t v[3] = { p->off, p->t_first, p->t_last };
		uint32_t u[2] = { p->seq, p->nr_records };

		for (int k = 0; k < 24; k++)
			e[k] = (uint8_t)(v[k / 8] >> (8 * (k % 8)));
		for (int k = 0; k < 4; k++) {
			e[24 + k] = (uint8_t)(u[0] >> (8 * k));
			e[32 + k] = (uint8_t)(u[1] >> (8 * k));
		}
		e[28] = (uint8_t)p->type;
		e[29] = (uint8_t)(p->type >> 8);
		e[30] = (uint8_t)p->flags;
		e[31] = (uint8_t)(p->flags >> 8);
	}
	err = put_chunk(w, FT_RC_INDEX, buf, 8 + (size_t)w->nr_pend * FT_REC_INDEX_ENTRY, 0,
			w->nr_pend ? w->pend[0].t_first : 0,
			w->nr_pend ? w->pend[w->nr_pend - 1].t_last : 0, false);
	if (err)
		return err;
	w->last_index = at;
	w->nr_pend = 0;
	return 0;
}

/* The writer's side: one chunk to the file (an index first when one is due). */
static void write_job(struct ft_recw *w, struct ft_recw_job *j)
{
	int err = w->io_err;

	if (!err && w->nr_pend == FT_RECW_INDEX_EVERY)
		err = put_index(w);
	if (!err)
		err = put_chunk(w, j->type, j->buf, j->len, j->nr, j->t_first, j->t_last, true);
	if (err) {
		if (!w->io_err)
			w->io_err = err;
		w->io_dropped += j->ticks;
	}
}

/* @j's buffer, written: kept for a later chunk (under lock when threaded), else freed. */
static void recycle(struct ft_recw *w, struct ft_recw_job *j)
{
	if (j->buf && w->nr_spare < FT_RECW_SPARES)
		w->spare[w->nr_spare++] = (typeof(w->spare[0])){ j->buf, j->cap };
	else
		free(j->buf);
	j->buf = NULL;
}

/* A kept buffer for the empty chunk @b (under lock when threaded). */
static void take_spare(struct ft_recw *w, typeof(w->data) *b)
{
	if (!b->buf && w->nr_spare) {
		w->nr_spare--;
		b->buf = w->spare[w->nr_spare].buf;
		b->cap = w->spare[w->nr_spare].cap;
	}
}

static void *writer_main(void *arg)
{
	struct ft_recw *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct ft_recw_job j;

		while (!w->q_nr && !w->stop)
			pthread_cond_wait(&w->wake, &w->lock);
		if (!w->q_nr)
			break;
		j = w->queue[w->q_head];
		w->busy = true;
		pthread_mutex_unlock(&w->lock);
		write_job(w, &j);
		pthread_mutex_lock(&w->lock);
		recycle(w, &j);
		w->q_head = (w->q_head + 1) % FT_RECW_QUEUE;
		w->q_nr--;
		w->busy = false;
		w->pub_err = w->io_err;
		w->pub_full = w->io_full;
		pthread_cond_broadcast(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* A writer thread, its signals blocked (they are the caller's); none: the caller writes. */
static void start_writer(struct ft_recw *w)
{
	sigset_t all, old;

	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->done, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	w->threaded = !pthread_create(&w->thread, NULL, writer_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (w->threaded)
		pthread_setname_np(w->thread, "fragtop-rec");
}

/* Under lock: what the writer has published becomes the caller's. */
static void hear(struct ft_recw *w)
{
	if (!w->err)
		w->err = w->pub_err;
	w->full = w->pub_full;
}

/*
 * The caller's side: hand the chunk gathered in @b over (its buffer goes
 * with it), waiting for a slot when FT_RECW_QUEUE wait already.
 */
static int hand_over(struct ft_recw *w, typeof(w->data) *b, uint16_t type)
{
	struct ft_recw_job j = {
		.type = type, .buf = b->buf, .len = b->len, .cap = b->cap, .nr = b->nr,
		.ticks = b->ticks,
		.t_first = b->t_first, .t_last = b->t_last,
	};

	if (!b->nr)
		return w->err;
	memset(b, 0, sizeof(*b));
	if (!w->threaded) {
		write_job(w, &j);
		recycle(w, &j);
		take_spare(w, b);
		w->err = w->io_err;
		w->full = w->io_full;
		return w->err;
	}
	pthread_mutex_lock(&w->lock);
	while (w->q_nr == FT_RECW_QUEUE)
		pthread_cond_wait(&w->done, &w->lock);
	w->queue[(w->q_head + w->q_nr) % FT_RECW_QUEUE] = j;
	w->q_nr++;
	pthread_cond_signal(&w->wake);
	take_spare(w, b);
	hear(w);
	pthread_mutex_unlock(&w->lock);
	return w->err;
}

int ft_recw_push(struct ft_recw *w)
{
	int err;

	if (w->err)
		return w->err;
	err = hand_over(w, &w->meta, FT_RC_META);
	if (!err)
		err = hand_over(w, &w->data, FT_RC_DATA);
	return err;
}

/* Wait until the writer is idle with nothing queued. */
static void drain(struct ft_recw *w)
{
	if (!w->threaded)
		return;
	pthread_mutex_lock(&w->lock);
	while (w->q_nr || w->busy)
		pthread_cond_wait(&w->done, &w->lock);
	hear(w);
	pthread_mutex_unlock(&w->lock);
}

int ft_recw_flush(struct ft_recw *w)
{
	int err = ft_recw_push(w);

	drain(w);
	return err ? err : w->err;
}

int ft_recw_add(struct ft_recw *w, uint16_t type, uint16_t sub, uint64_t t_ns,
		const void *data, size_t len)
{
	int err = buf_add(w, &w->data, type, sub, t_ns, data, len);

	if (!err && w->data.len >= FT_RECW_CHUNK_BYTES)
		err = ft_recw_push(w);
	return err;
}

int ft_recw_add_meta(struct ft_recw *w, uint16_t type, uint16_t sub, uint64_t t_ns,
		     const void *data, size_t len)
{
	return buf_add(w, &w->meta, type, sub, t_ns, data, len);
}

int ft_recw_tick(struct ft_recw *w, uint64_t now_ns)
{
	if ((w->data.nr && now_ns - w->data.opened_ns >= w->flush_ns) || w->meta.nr)
		return ft_recw_push(w);
	return w->err;
}

/* Drain and join the writer: from here the caller owns the file side. */
static void stop_writer(struct ft_recw *w)
{
	if (!w->threaded)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	w->threaded = false;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->done);
	w->err = w->err ? w->err : w->io_err;
	w->full = w->io_full;
}

/* The writer joined (or none ran): its losses become the caller's count. */
static void count_losses(struct ft_recw *w)
{
	w->dropped_ticks += w->io_dropped;
	w->io_dropped = 0;
}

/* Frees everything; the byte counts stay for the caller's summary. */
static void release(struct ft_recw *w)
{
	uint64_t raw, file, dropped;
	bool full;

	stop_writer(w);
	count_losses(w);
	raw = w->raw_bytes;
	file = w->file_bytes;
	dropped = w->dropped_ticks;
	full = w->full;

	if (w->fd >= 0)
		close(w->fd);
	free(w->data.buf);
	free(w->meta.buf);
	free(w->prev);
	free(w->out);
	while (w->nr_spare)
		free(w->spare[--w->nr_spare].buf);
	ZSTD_freeCCtx(w->zctx);
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->raw_bytes = raw;
	w->file_bytes = file;
	w->dropped_ticks = dropped;
	w->full = full;
}

int ft_recw_close(struct ft_recw *w)
{
	uint8_t end[FT_REC_END_PAYLOAD];
	int err, i;

	err = ft_recw_push(w);
	stop_writer(w);		/* the queue written: the file is the caller's now */
	count_losses(w);
	if (!err)
		err = w->err;
	if (err)
		w->dropped_ticks += w->data.ticks;	/* never handed over */
	if (w->full) {
		/* what a full disk kept out is dropped; the index and END go into the reserve */
		w->io_err = 0;
		err = 0;
	}
	if (!err)
		err = put_index(w);
	if (!err) {
		for (i = 0; i < 8; i++) {
			end[i] = (uint8_t)(w->last_index >> (8 * i));
			end[8 + i] = (uint8_t)(w->nr_chunks >> (8 * i));
		}
		err = put_chunk(w, FT_RC_END, end, sizeof(end), 0, 0, 0, false);
	}
	/* past the END: a partial chunk taken back, the reserve (tmpfs keeps it unless punched) */
	if (!err) {
		/* nothing to punch, or no fallocate: the truncate does the rest */
		(void)fallocate(w->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)w->off,
				FT_RECW_RESERVE);
		if (ftruncate(w->fd, (off_t)w->off))
			err = -errno;
	}
	if (!err && fsync(w->fd))
		err = -errno;
	release(w);
	return err;
}

void ft_recw_abandon(struct ft_recw *w)
{
	release(w);
}
