// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A slow network in front of a server, for the exporter's tests: listens
 * on 127.0.0.1:LISTEN_PORT and relays each connection to
 * 127.0.0.1:TARGET_PORT, holding every chunk DELAY_MS in each direction,
 * so a client through it sees a round trip of twice DELAY_MS and each of
 * its flights leaves DELAY_MS after the last one arrived.  The server
 * sees the connection at once (from 127.0.0.1) and its bytes late, as
 * across a WAN.  Loopback only, and bounded: 16 connections at once,
 * DELAY_MS at most 1000, SECS at most 3600; it exits after SECS.
 *
 * usage: delayproxy LISTEN_PORT TARGET_PORT DELAY_MS SECS
 * build: cc -O2 -o delayproxy tests/load/delayproxy.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "loadutil.h"

#define PAIRS	16
#define CHUNKS	64		/* queued per direction: past this, the side is not read */
#define CHUNK	16384

struct chunk {
	uint64_t due;
	size_t len, off;
	char data[CHUNK];
};

/* One direction: bytes read from @from, written to @to DELAY_MS later. */
struct way {
	int from, to;
	struct chunk *q[CHUNKS];
	int head, n;
	bool eof;		/* @from ended: @to is shut once the queue is written */
	bool done;
};

static struct pair {
	bool used;
	struct way w[2];
} pairs[PAIRS];

static uint64_t delay_ns;

static struct sockaddr_in loopback(long port)
{
	return (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				     .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
}

static void pair_close(struct pair *p)
{
	int i;

	close(p->w[0].from);
	close(p->w[1].from);
	for (i = 0; i < 2; i++)
		while (p->w[i].n) {
			free(p->w[i].q[p->w[i].head]);
			p->w[i].head = (p->w[i].head + 1) % CHUNKS;
			p->w[i].n--;
		}
	memset(p, 0, sizeof(*p));
}

/* Read what @w's source has into a chunk due DELAY_MS from now.  -1: an error. */
static int way_read(struct way *w)
{
	struct chunk *c;
	ssize_t r;

	if (w->eof || w->n == CHUNKS)
		return 0;
	c = malloc(sizeof(*c));
	if (!c)
		return -1;
	r = read(w->from, c->data, sizeof(c->data));
	if (r <= 0) {
		free(c);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		w->eof = true;
		return r < 0 ? -1 : 0;
	}
	c->len = (size_t)r;
	c->off = 0;
	c->due = now_ns() + delay_ns;
	w->q[(w->head + w->n++) % CHUNKS] = c;
	return 0;
}

/* Write @w's chunks that are due.  -1: an error. */
static int way_write(struct way *w, uint64_t now)
{
	while (w->n) {
		struct chunk *c = w->q[w->head];
		ssize_t r;

		if (c->due > now)
			return 0;
		r = write(w->to, c->data + c->off, c->len - c->off);
		if (r < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		c->off += (size_t)r;
		if (c->off < c->len)
			return 0;
		free(c);
		w->head = (w->head + 1) % CHUNKS;
		w->n--;
	}
	if (w->eof && !w->done) {
		shutdown(w->to, SHUT_WR);
		w->done = true;
	}
	return 0;
}

static void accept_one(int lfd, long target)
{
	struct sockaddr_in to = loopback(target);
	int cfd, sfd, i;

	cfd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0)
		return;
	for (i = 0; i < PAIRS && pairs[i].used; i++)
		;
	sfd = i < PAIRS ? socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
	/* a blocking connect: on loopback it is done at once, or refused */
	if (sfd < 0 || connect(sfd, (struct sockaddr *)&to, sizeof(to)) < 0 ||
	    fcntl(sfd, F_SETFL, O_NONBLOCK) < 0) {
		if (sfd >= 0)
			close(sfd);
		close(cfd);
		return;
	}
	pairs[i] = (struct pair){ .used = true };
	pairs[i].w[0] = (struct way){ .from = cfd, .to = sfd };
	pairs[i].w[1] = (struct way){ .from = sfd, .to = cfd };
}

int main(int argc, char **argv)
{
	struct sockaddr_in at;
	uint64_t end;
	long target;
	int lfd, one = 1;

	if (argc != 5) {
		fprintf(stderr, "usage: delayproxy LISTEN_PORT TARGET_PORT DELAY_MS SECS\n");
		return 2;
	}
	at = loopback(number("delayproxy", argv[1], 1, 65535, "LISTEN_PORT"));
	target = number("delayproxy", argv[2], 1, 65535, "TARGET_PORT");
	/* a client gone while its answer is held: the write fails, the proxy goes on */
	signal(SIGPIPE, SIG_IGN);
	delay_ns = (uint64_t)number("delayproxy", argv[3], 0, 1000, "DELAY_MS") * 1000000ull;
	end = now_ns() + (uint64_t)number("delayproxy", argv[4], 1, 3600, "SECS") * 1000000000ull;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(lfd, (struct sockaddr *)&at, sizeof(at)) < 0 || listen(lfd, 64) < 0) {
		fprintf(stderr, "delayproxy: cannot listen on 127.0.0.1:%s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	printf("delayproxy on 127.0.0.1:%s\n", argv[1]);
	fflush(stdout);
	while (now_ns() < end) {
		struct pollfd pf[1 + 4 * PAIRS];
		int np = 1, i, k, ms = 100;
		uint64_t now = now_ns();

		pf[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (i = 0; i < PAIRS; i++) {
			for (k = 0; pairs[i].used && k < 2; k++) {
				struct way *w = &pairs[i].w[k];

				if (!w->eof && w->n < CHUNKS)
					pf[np++] = (struct pollfd){ .fd = w->from,
								    .events = POLLIN };
				if (!w->n)
					continue;
				if (w->q[w->head]->due <= now)	/* due: when the socket takes it */
					pf[np++] = (struct pollfd){ .fd = w->to,
								    .events = POLLOUT };
				else if ((int)((w->q[w->head]->due - now) / 1000000) + 1 < ms)
					ms = (int)((w->q[w->head]->due - now) / 1000000) + 1;
			}
		}
		if (poll(pf, (nfds_t)np, ms) < 0 && errno != EINTR)
			break;
		if (pf[0].revents)
			accept_one(lfd, target);
		now = now_ns();
		for (i = 0; i < PAIRS; i++) {
			struct pair *p = &pairs[i];

			if (!p->used)
				continue;
			for (k = 0; k < 2; k++)
				if (way_read(&p->w[k]) < 0 || way_write(&p->w[k], now) < 0)
					break;
			/* an error, or both ways ended and written */
			if (k < 2 || (p->w[0].done && p->w[1].done))
				pair_close(p);
		}
	}
	return 0;
}
