/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small HTTP/1.1 server for one poll() loop, the exporter's
 * (cmd/exporter.c), knowing nothing of what it serves: a handler gets
 * each request that is whole and authorized, and answers it with
 * ft_httpd_answer() or ft_httpd_error().  It owns the listening socket,
 * the connection slots and their deadlines, keep-alive, TLS and basic
 * auth (through net/websec.h), and its own counters.
 *
 * Safe on a network: request heads are bounded (FT_HTTP_MAX_HEAD), every
 * request has 10 s to be sent and take its answer, at most max_conn are
 * served at once, and max_per_client of them from one address.  A
 * newcomer past either bound takes the slot of a connection that is not
 * getting anywhere (kept alive between requests, then trickling, then
 * silent or not reading its answer; in a class, the address that opened
 * the most connections lately first, then the one holding most); one
 * whose request or TLS handshake is making progress, or whose client is
 * taking its answer, is evicted only when its address holds more than
 * its share (two slots or more, and more than the newcomer's address
 * plus one: the newest of the greediest goes), and when every slot is
 * such, the newcomer gets 503.  A refused client is answered and its socket shut
 * gently (what it sent is read, so it is not reset).
 *
 * Fair between clients (docs/design/exporter.md, "The exporter's fairness"): a
 * connection gets at most one answer a poll() round, so pipelined
 * requests wait their turn behind every other connection's; a request's
 * deadline counts from its first byte, pipelined or not; an address gets
 * at most max_rate answers a second (a second's worth at once), the rest
 * wait unread.
 */
#ifndef FT_NET_HTTPD_H
#define FT_NET_HTTPD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hostport.h"
#include "net/websec.h"
#include "net/httpreq.h"

#define FT_HTTPD_MAX_CONN	256	/* slots at most */
#define FT_HTTPD_LINGERS	64	/* refused connections read until they close */

/* What the server says of itself (the exporter's promhttp-like families). */
struct ft_httpd_stats {
	/* open when the last request was handed over, it included */
	unsigned int connections;
	/* connections accepted (kept alive: one for many requests) */
	uint64_t accepted;
	/* answered 503: no slot could be had, or the password queue was full */
	uint64_t refused;
	uint64_t fd_rests;		/* times accept() ran out of file descriptors */
	uint64_t unauthorized;		/* answered 401 */
	/* TLS handshakes that failed (plain HTTP on the TLS port too) */
	uint64_t tls_failed;
	/* idle, trickling or silent when a newcomer needed the slot */
	uint64_t evicted;
	uint64_t head_timeouts;		/* closed: no whole request head within head_timeout_ns */
	/* kept-alive connections closed after idle_timeout_ns unused */
	uint64_t idle_timeouts;
	/* closed: a request not answered and taken 10 s after its first byte */
	uint64_t request_timeouts;
	/* requests held back: their address had had max_rate answers that second */
	uint64_t throttled;
	uint64_t rounds;		/* poll() rounds */
};

struct ft_httpd_conn;

struct ft_httpd_opts {
	const struct ft_hostport *listen;
	unsigned int max_conn, max_per_client;	/* 1..FT_HTTPD_MAX_CONN */
	unsigned int max_rate;		/* answers a second one address gets at most; 0: no bound */
	uint64_t head_timeout_ns;	/* a request's head must be whole by then */
	/* a kept-alive connection's wait for its next request; 0: no keep-alive */
	uint64_t idle_timeout_ns;
	/* TLS and users (ws->ctx, ws->wc.nr_users), or NULL: neither */
	struct ft_websec *ws;
	/* set: answers close their connections (may be NULL) */
	const volatile sig_atomic_t *stop;
	/* a whole, authorized request: answer it (ft_httpd_answer(), ft_httpd_error()) */
	void (*handle)(void *ctx, struct ft_httpd_conn *c, const struct ft_http_req *r);
	void *ctx;
};

struct ft_httpd_conn {
	struct ft_httpd *h;
	int fd;				/* -1: free */
	SSL *ssl;			/* TLS: the session, else NULL */
	bool handshake;			/* TLS: not set up yet */
	/* TLS: what OpenSSL waits for (POLLIN, POLLOUT); 0: as the state says */
	short want;
	uint64_t t0;			/* accepted, or its request's first byte (kept alive) */
	/*
	 * the reads since the buffer was last empty: where each ended and when (the first bytes'
	 * times)
	 */
	struct ft_httpd_read {
		size_t end;
		uint64_t t_ns;
	} rd[8];
	int nr_rd;
	/* a pipelined request is in behind the answered one: next round */
	bool next_in;
	/* its request waits for its address's rate until then, else 0 */
	uint64_t held_until;
	uint64_t out_ns;		/* its answer made, or last taken by the client */
	bool idle;			/* kept alive: waiting for the next request since t0 */
	bool keep;			/* the answer being written leaves the connection open */
	/* the request's head length: what follows it is the next one's */
	size_t used;
	unsigned char peer[16];		/* the client's address (IPv4 as v4-mapped IPv6) */
	bool heard;			/* TLS: a ClientHello began (its first byte is in) */
	/* TLS: when a flight of the client's was last answered, or 0 */
	uint64_t progress_ns;
	uint64_t tls_out;		/* TLS: bytes the handshake had written by then */
	uint64_t ticket;		/* its password being checked (net/websec.h), else 0 */
	enum { FT_VERDICT_NONE, FT_VERDICT_OK, FT_VERDICT_DENIED } verdict;	/* the check's */
	/* denied: the 401 waits until then (timing tells no names) */
	uint64_t due;
	char in[FT_HTTP_MAX_HEAD];
	size_t in_len;
	char *out;			/* the answer, once the request is in */
	size_t out_len, out_off;
};

struct ft_httpd {
	struct ft_httpd_opts o;
	struct ft_httpd_stats st;
	struct ft_httpd_conn conns[FT_HTTPD_MAX_CONN];
	/*
	 * refused connections: their 503 written, what they send read and dropped until they close
	 */
	struct ft_httpd_linger {
		int fd;			/* -1: free */
		uint64_t until;
	} lingers[FT_HTTPD_LINGERS];
	/* answers each address may still have this second (token buckets; a full one is free) */
	struct ft_httpd_rate {
		unsigned char peer[16];
		double tokens;
		uint64_t t_ns;		/* last filled; 0: free */
	} rates[FT_HTTPD_MAX_CONN];
	/* connections each address opened lately (halving every second): who gives a slot first */
	struct ft_httpd_churn {
		unsigned char peer[16];
		double n;
		uint64_t t_ns;		/* last counted; 0: free */
	} churn[FT_HTTPD_MAX_CONN];
	int lfd;
	/* held for when no descriptor is left: a refusal needs one */
	int spare_fd;
	uint64_t accept_rest_until;
	bool said_out_of_fds;		/* said once */
};

/* Listen as @o says: 0, or -1 after saying why.  @h is then served by ft_httpd_poll(). */
int ft_httpd_open(struct ft_httpd *h, const struct ft_httpd_opts *o);

/* The port listened on (port 0 asked: the one the kernel gave). */
unsigned int ft_httpd_port(const struct ft_httpd *h);

/*
 * One turn: poll the sockets for at most @timeout_ms (less while
 * connections have deadlines), then read, answer, accept.  -1: poll()
 * failed (not EINTR).
 */
int ft_httpd_poll(struct ft_httpd *h, int timeout_ms);

/* Every connection closed, and the listening socket. */
void ft_httpd_close(struct ft_httpd *h);

/*
 * The answer to @c's request: @status and @reason, a @ctype body of @blen
 * bytes (sent unless @head_only), @extra header lines ("" or each ending
 * "\r\n").  The connection stays open after it when the request and the
 * server allow (keep-alive), and says so.
 */
void ft_httpd_answer(struct ft_httpd_conn *c, int status, const char *reason, const char *ctype,
		     const char *extra, const char *body, size_t blen, bool head_only);

/* An error answer (400, 401, 404, 429, 431, 503, ...); the connection closes after it. */
void ft_httpd_error(struct ft_httpd_conn *c, int status);

#endif
