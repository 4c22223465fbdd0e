// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/replay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/grow.h"
#include "model/checkpoint.h"

static long fd_pread(void *ctx, void *buf, size_t n, uint64_t off)
{
	int fd = *(int *)ctx;
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!r)
			break;
		got += (size_t)r;
	}
	return (long)got;
}

static int checkpoint(struct ft_replay *p);

int ft_replay_open(struct ft_replay *p, const char *path, const struct ft_session_opts *opts)
{
	struct stat st;
	size_t i;
	int err;

	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", path);
	ft_session_init_opts(&p->session, opts);
	/* a FIFO or a device must not block or feed us forever */
	p->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (p->fd < 0 || fstat(p->fd, &st)) {
		err = -errno;
		snprintf(p->r.why, sizeof(p->r.why), "%s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		snprintf(p->r.why, sizeof(p->r.why), "%s",
			 S_ISDIR(st.st_mode) ? "a directory, not a recording" :
			 "not a regular file (a FIFO, socket or device is not a recording)");
		goto fail;
	}
	err = ft_rec_open(&p->r, (struct ft_rec_src){ fd_pread, (uint64_t)st.st_size, &p->fd });
	if (err)
		return err;
	for (i = 0; i < p->r.nr; i++) {
		const uint8_t *raw;
		size_t len, off = 0;
		struct ft_rec_record rec;
		bool bad;

		if (p->r.chunks[i].c.type != FT_RC_META)
			continue;
		if (ft_rec_load(&p->r, i, &raw, &len)) {
			p->bad_chunks++;
			continue;
		}
		while (ft_rec_next(raw, len, &off, &rec, &bad))
			ft_session_apply(&p->session, &rec);
		if (bad)
			p->bad_records++;
	}
	return checkpoint(p);

fail:
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	return err;
}

void ft_replay_close(struct ft_replay *p)
{
	size_t i;

	ft_rec_close(&p->r);
	if (p->fd >= 0)
		close(p->fd);
	for (i = 0; i < p->nr_ck; i++)
		free(p->ck[i].blob);
	free(p->ck);
	ft_session_release(&p->session);
	memset(p, 0, sizeof(*p));
	p->fd = -1;
}

/* Save the session and the position after the tick just applied (or at open). */
static int checkpoint(struct ft_replay *p)
{
	struct ft_replay_ckpt *c;
	int err;

	/*
	 * A report, an export or a plot reads once, front to back: no
	 * checkpoints (a storm of small ticks spent most of an export saving
	 * them).  The TUI's are
	 * capped so that a small hostile file with millions of ticks cannot
	 * fill memory (seeks past the cap step from the last one).
	 */
	if (p->session.lean || p->forward_only || p->ck_bytes > FT_REPLAY_CKPT_BYTES)
		return 0;
	if (p->nr_ck && p->ck[p->nr_ck - 1].ticks >= p->session.ticks)
		return 0;	/* have it (or a later one) */
	if (ft_grow_from((void **)&p->ck, &p->cap_ck, p->nr_ck + 1, sizeof(*p->ck), 64, SIZE_MAX))
		return -ENOMEM;
	c = &p->ck[p->nr_ck];
	memset(c, 0, sizeof(*c));
	err = ft_session_save(&p->session, &c->blob, &c->len);
	if (err)
		return err;
	c->ticks = p->session.ticks;
	c->t_ns = p->session.tick_t_ns;
	c->chunk = p->have_chunk ? p->chunk - 1 : SIZE_MAX;
	c->next = p->chunk;
	c->off = p->off;
	p->ck_bytes += c->len;
	p->nr_ck++;
	return 0;
}

static int restore(struct ft_replay *p, const struct ft_replay_ckpt *c)
{
	int err = ft_session_restore(&p->session, c->blob, c->len);

	if (err)
		return err;
	p->at_end = false;
	if (c->chunk == SIZE_MAX) {
		/* between chunks: the next one loads on the next step */
		p->have_chunk = false;
		p->chunk = c->next;
		return 0;
	}
	err = ft_rec_load(&p->r, c->chunk, &p->raw, &p->len);
	if (err)
		return err;
	p->chunk = c->chunk + 1;
	p->off = c->off;
	p->have_chunk = true;
	return 0;
}

int ft_replay_step(struct ft_replay *p)
{
	for (;;) {
		struct ft_rec_record rec;
		bool bad;

		if (!p->have_chunk) {
			while (p->chunk < p->r.nr && p->r.chunks[p->chunk].c.type != FT_RC_DATA)
				p->chunk++;
			if (p->chunk >= p->r.nr) {
				p->at_end = true;
				if (!p->indexed) {
					p->indexed = true;
					checkpoint(p);
				}
				return 0;
			}
			if (ft_rec_load(&p->r, p->chunk++, &p->raw, &p->len)) {
				p->bad_chunks++;
				continue;
			}
			p->off = 0;
			p->have_chunk = true;
		}
		if (!ft_rec_next(p->raw, p->len, &p->off, &rec, &bad)) {
			if (bad)
				p->bad_records++;
			p->have_chunk = false;
			continue;
		}
		if (ft_rec_is_meta(rec.type)) {
			p->bad_records++;	/* META records belong in META chunks */
			continue;
		}
		if (ft_session_apply(&p->session, &rec)) {
			if (p->session.ticks % FT_REPLAY_CKPT_TICKS == 0)
				checkpoint(p);
			return 1;
		}
	}
}

/* The last checkpoint at or before tick @n, or at or before time @t_ns. */
static const struct ft_replay_ckpt *find_ck(const struct ft_replay *p, uint64_t n, uint64_t t_ns,
					    bool by_time)
{
	size_t lo = 0, hi = p->nr_ck;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		bool before = by_time ? p->ck[mid].t_ns < t_ns : p->ck[mid].ticks <= n;

		if (before)
			lo = mid;
		else
			hi = mid;
	}
	return p->nr_ck ? &p->ck[lo] : NULL;
}

static int seek(struct ft_replay *p, uint64_t n, uint64_t t_ns, bool by_time)
{
	const struct ft_replay_ckpt *c = find_ck(p, n, t_ns, by_time);
	const struct ft_session *s = &p->session;
	bool here_ok;
	int r;

	if (!c)
		return -ENODATA;
	/* from where we are when that is at or after the checkpoint and before the target */
	here_ok = by_time ? s->ticks && s->tick_t_ns < t_ns && s->ticks >= c->ticks :
			    s->ticks <= n && s->ticks >= c->ticks;
	if (!here_ok) {
		r = restore(p, c);
		if (r)
			return r;
	}
	for (;;) {
		if (by_time ? s->ticks && s->tick_t_ns >= t_ns : s->ticks >= n)
			return 1;
		r = ft_replay_step(p);
		if (r <= 0)
			return r;
	}
}

int ft_replay_seek_tick(struct ft_replay *p, uint64_t n)
{
	return seek(p, n, 0, false);
}

int ft_replay_seek_time(struct ft_replay *p, uint64_t t_ns)
{
	return seek(p, 0, t_ns, true);
}

int ft_replay_index(struct ft_replay *p, uint64_t max_ticks)
{
	uint64_t here = p->session.ticks, i;
	bool was_end = p->at_end;
	int r = 1;

	if (p->indexed)
		return 1;
	/* from the furthest checkpoint on */
	if (p->nr_ck && p->ck[p->nr_ck - 1].ticks > here) {
		r = restore(p, &p->ck[p->nr_ck - 1]);
		if (r)
			return r;
	}
	for (i = 0; i < max_ticks && (r = ft_replay_step(p)) > 0; i++)
		;
	if (r < 0)
		return r;
	r = ft_replay_seek_tick(p, here);
	if (r < 0)
		return r;
	p->at_end = was_end;
	return p->indexed;
}

void ft_replay_bounds(const struct ft_replay *p, uint64_t *t0, uint64_t *t1)
{
	const struct ft_rec_reader *r = &p->r;
	size_t i;

	*t0 = p->session.first_t_ns;
	*t1 = *t0;
	for (i = r->nr; i-- > 0;)
		if (r->chunks[i].c.type == FT_RC_DATA) {
			*t1 = r->chunks[i].c.t_last;
			break;
		}
	if (!*t0)
		for (i = 0; i < r->nr; i++)
			if (r->chunks[i].c.type == FT_RC_DATA) {
				*t0 = r->chunks[i].c.t_first;
				break;
			}
	if (*t1 < *t0)
		*t1 = *t0;
}
