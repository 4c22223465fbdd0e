// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The change journal (model/journal.h) as the live source reads it:
 * held open, read to its end each tick after the knobs, each whole line
 * of another process turned into a claim (an AUDIT input); this
 * process's own writes are in the session as its audit entries already.
 * Opened at its end at the start; one that appears later (the first
 * write since boot, or a tree's) is read from its start, its lines older
 * than the source's start left out.  Only a writer (controls/journal.c)
 * makes it: a collector writes nothing under the root.  Trusted only
 * when root's (or the user's own, in a tree of theirs) and writable by no
 * one else.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/beneath.h"
#include "base/clock.h"
#include "base/cost.h"
#include "collectors/live_int.h"
#include "model/recfmt.h"

/* Bytes read a tick at most: a journal growing faster is read over ticks. */
#define CHANGES_PER_TICK	(64u << 10)

static int journal_open(struct ft_live *l, bool at_end)
{
	struct ft_live_changes *c = &l->changes;
	int dir = ft_run_dir(l->procfs.rootfd, false), fd, err;

	if (dir < 0)
		return dir;
	fd = ft_open_beneath(dir, FT_JOURNAL_FILE, O_RDONLY, 0);
	close(dir);
	if (fd < 0)
		return fd;
	err = ft_owned_file(fd);
	if (!err && at_end && lseek(fd, 0, SEEK_END) < 0)
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	ft_cost_open(FT_COST_OTHER);
	c->fd = fd;
	return 0;
}

void ft_live_changes_open(struct ft_live *l)
{
	struct ft_live_changes *c = &l->changes;

	c->fd = -1;
	c->since_rt_ns = ft_realtime_ns();
	c->retry_ns = ft_now_ns();
	c->err = journal_open(l, true);
}

/* One whole line: a claim unless it is ours or older than the source. */
static void line(struct ft_live *l, const char *s, size_t len, uint64_t t_ns)
{
	char text[FT_JOURNAL_LINE + 64];
	char *p;
	int n = ft_journal_claim(s, len, text, sizeof(text));

	if (n < 0 || !(p = strstr(text, "\npid=")) || atoi(p + 5) == (int)getpid())
		return;
	p = strstr(text, "\nt_ns=");
	if (!p || strtoull(p + 6, NULL, 10) < l->changes.since_rt_ns)
		return;
	ft_live_emit(l, FT_RR_AUDIT, 0, t_ns, text, (size_t)n);
}

void ft_live_changes_read(struct ft_live *l, uint64_t t_ns)
{
	struct ft_live_changes *c = &l->changes;
	size_t total = 0;

	if (c->fd < 0) {
		if (c->err != -ENOENT || t_ns - c->retry_ns < FT_LIVE_RETRY_NS)
			return;
		c->retry_ns = t_ns;
		c->err = journal_open(l, false);
		if (c->fd < 0)
			return;
	}
	while (total < CHANGES_PER_TICK) {
		char b[4096];
		ssize_t r = read(c->fd, b, sizeof(b));
		size_t i;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		ft_cost_read(FT_COST_OTHER, (size_t)r);
		total += (size_t)r;
		for (i = 0; i < (size_t)r; i++) {
			if (b[i] != '\n') {
				if (c->nbuf < sizeof(c->buf))
					c->buf[c->nbuf++] = b[i];
				else
					c->skipping = true;
				continue;
			}
			if (!c->skipping)
				line(l, c->buf, c->nbuf, t_ns);
			c->nbuf = 0;
			c->skipping = false;
		}
	}
}

void ft_live_changes_close(struct ft_live *l)
{
	if (l->changes.fd >= 0)
		close(l->changes.fd);
	l->changes.fd = -1;
}
