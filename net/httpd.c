// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exporter's HTTP/1.1 server (net/httpd.h): slots, deadlines,
 * eviction, keep-alive, TLS and basic auth.  What a request asks for is
 * the handler's.
 */
#include "net/httpd.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "net/tlslib.h"

#define CONN_TIMEOUT_NS		(10ull * 1000000000ull)
#define LINGER_NS		(1000000000ull)
/* a TLS flight answered keeps its connection from eviction this long (a round trip is ms) */
#define PROGRESS_NS		(1000000000ull)
#define ACCEPT_REST_NS		(100ull * 1000000ull)

static bool stopping(const struct ft_httpd *h)
{
	return h->o.stop && *h->o.stop;
}

static bool tls(const struct ft_httpd *h)
{
	return h->o.ws && h->o.ws->ctx;
}

/*
 * Close a connection.  What the client sent and nobody read is read
 * first (a few KiB at most): a socket closed with input unread is reset,
 * and the client would lose the answer written just before.
 */
static void conn_close(struct ft_httpd_conn *c)
{
	char drain[4096];
	int i;

	if (c->ssl) {
		if (!c->handshake)
			sym_SSL_shutdown(c->ssl);	/* one close_notify, not waited for */
		sym_SSL_free(c->ssl);
	}
	if (c->fd >= 0) {
		for (i = 0; i < 4 && read(c->fd, drain, sizeof(drain)) > 0; i++)
			;
		close(c->fd);
	}
	free(c->out);
	if (c->ticket)
		ft_websec_cancel(c->h->o.ws, c->ticket);
	c->ticket = 0;
	c->verdict = FT_VERDICT_NONE;
	c->fd = -1;
	c->ssl = NULL;
	c->handshake = false;
	c->idle = c->keep = c->next_in = false;
	c->want = 0;
	c->nr_rd = 0;
	c->held_until = 0;
	c->out = NULL;
	c->in_len = c->out_len = c->out_off = c->used = 0;
}

/*
 * An answer with @body (of @blen bytes; NULL: none) and @extra header
 * lines (or "") into c->out.  The connection stays open after it when
 * c->keep is set, and says so ("Connection: keep-alive", which HTTP/1.0
 * clients need), else it says it closes.
 */
void ft_httpd_answer(struct ft_httpd_conn *c, int status, const char *reason, const char *ctype,
		     const char *extra,
		   const char *body, size_t blen, bool head_only)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f) {
		conn_close(c);
		return;
	}
	fprintf(f, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n", status, reason,
		ctype, blen);
	if (c->keep)
		fprintf(f, "Connection: keep-alive\r\nKeep-Alive: timeout=%llu\r\n",
			(unsigned long long)(c->h->o.idle_timeout_ns / 1000000000ull));
	else
		fputs("Connection: close\r\n", f);
	fprintf(f, "Server: fragtop/" FT_VERSION "\r\n%s\r\n", extra);
	if (body && !head_only)
		fwrite(body, 1, blen, f);
	if (fclose(f)) {
		free(p);
		conn_close(c);
		return;
	}
	c->out = p;
	c->out_len = n;
	c->out_off = 0;
	c->out_ns = ft_now_ns();
}

static const char *reason_of(int status)
{
	switch (status) {
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 414: return "URI Too Long";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default: return "Error";
	}
}

/* An error: the connection closes after it (what else the client sent is not trusted). */
void ft_httpd_error(struct ft_httpd_conn *c, int status)
{
	char body[96];
	int n = snprintf(body, sizeof(body), "%d %s\n", status, reason_of(status));

	c->keep = false;
	ft_httpd_answer(c, status, reason_of(status), "text/plain; charset=utf-8",
	       status == 401 ? "WWW-Authenticate: Basic realm=\"fragtop\", charset=\"UTF-8\"\r\n" :
	       status == 429 || status == 503 ? "Retry-After: 1\r\n" : "",
	       body, (size_t)n, false);
}

/*
 * May @r on @c be answered?  A password not cached is checked off the
 * loop: @c waits (c->ticket) and serve() comes back to it with the
 * verdict.  false: not now (waiting, or the refusal is in c->out).
 */
static bool authorized(struct ft_httpd *h, struct ft_httpd_conn *c, struct ft_http_req *r)
{
	enum ft_auth a;

	if (c->verdict != FT_VERDICT_NONE) {
		a = c->verdict == FT_VERDICT_OK ? FT_AUTH_OK : FT_AUTH_DENIED;
		c->verdict = FT_VERDICT_NONE;
	} else if (h->o.ws) {
		a = ft_websec_check(h->o.ws, r, c->peer, &c->ticket);
	} else {
		a = FT_AUTH_OK;
	}
	explicit_bzero(r->pass, sizeof(r->pass));
	switch (a) {
	case FT_AUTH_OK:
		return true;
	case FT_AUTH_PENDING:
		return false;
	case FT_AUTH_DENIED:
		h->st.unauthorized++;
		ft_httpd_error(c, 401);
		return false;
	case FT_AUTH_LIMIT:
		ft_httpd_error(c, 429);
		return false;
	case FT_AUTH_BUSY:
		break;
	}
	h->st.refused++;
	ft_httpd_error(c, 503);
	return false;
}

/*
 * @peer's bucket, filled for the time since it was last: found, else a
 * free one or one full by now (the same as a new one), else the one
 * filled longest ago.
 */
static struct ft_httpd_rate *rate_of(struct ft_httpd *h, const unsigned char *peer, uint64_t now)
{
	struct ft_httpd_rate *r = NULL;
	double max = h->o.max_rate;
	int k, rank = 3;

	for (k = 0; k < FT_HTTPD_MAX_CONN; k++) {
		struct ft_httpd_rate *b = &h->rates[k];
		int bk;

		if (b->t_ns && !memcmp(b->peer, peer, 16)) {
			r = b;
			rank = -1;
			break;
		}
		/* 0 free, 1 full by now, 2 in use (the one filled longest ago first) */
		bk = !b->t_ns ? 0 : b->tokens + (double)(now - b->t_ns) / 1e9 * max >= max ? 1 : 2;
		if (bk < rank || (bk == 2 && rank == 2 && b->t_ns < r->t_ns)) {
			r = b;
			rank = bk;
		}
	}
	if (rank >= 0) {
		memcpy(r->peer, peer, 16);
		r->tokens = max;
		r->t_ns = now;
	}
	r->tokens += (double)(now - r->t_ns) / 1e9 * max;
	if (r->tokens > max)
		r->tokens = max;
	r->t_ns = now;
	return r;
}

/*
 * May @c's request be answered now?  Its address's bucket gives one
 * answer of max_rate a second; when it is empty, the request waits
 * (held_until, when the next answer is due), unread behind it.
 */
static bool rate_take(struct ft_httpd *h, struct ft_httpd_conn *c)
{
	uint64_t now = ft_now_ns();
	struct ft_httpd_rate *r;

	if (!h->o.max_rate)
		return true;
	r = rate_of(h, c->peer, now);
	if (r->tokens >= 1) {
		r->tokens -= 1;
		return true;
	}
	c->held_until = now + (uint64_t)((1 - r->tokens) / h->o.max_rate * 1e9) + 1;
	h->st.throttled++;
	return false;
}

/* Answer @c's request if it is whole.  false: its head is not (more to come). */
static bool serve(struct ft_httpd *h, struct ft_httpd_conn *c)
{
	struct ft_http_req r;
	int n;

	if (c->ticket)
		return true;	/* its password is being checked */
	n = ft_http_parse(c->in, c->in_len, &r);
	if (n == 0)
		return false;
	/* a request back with its password's verdict had its turn already */
	if (c->verdict == FT_VERDICT_NONE && !rate_take(h, c))
		return true;
	if (n < 0) {
		ft_httpd_error(c, -n);
		return true;
	}
	c->used = (size_t)n;
	c->keep = r.keep_alive && !stopping(h) && h->o.idle_timeout_ns;
	if (!authorized(h, c, &r))
		return true;
	h->o.handle(h->o.ctx, c, &r);
	/* a handler that said nothing: the client is not left waiting */
	if (!c->out && c->fd >= 0)
		ft_httpd_error(c, 500);
	return true;
}

/* The one refusal: a 503 with no body, counted; the caller closes or lingers. */
static void send_503(struct ft_httpd *h, int fd)
{
	static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\n"
		"Content-Length: 0\r\nConnection: close\r\n\r\n";

	h->st.refused++;
	if (write(fd, busy, sizeof(busy) - 1) < 0) {
		/* the client is gone already */
	}
}

/*
 * accept() found no file descriptor left (EMFILE, ENFILE): the clients
 * waiting are taken with the spare descriptor and told 503 (so they are
 * answered, not left hanging), and the listening socket rests
 * for ACCEPT_REST_NS instead of waking poll() at once, forever.
 */
static void out_of_fds(struct ft_httpd *h)
{
	int fd, err = errno;

	if (h->spare_fd >= 0) {
		int n;

		close(h->spare_fd);
		/* the waiting clients, one descriptor at a time (a few dozen at most) */
		for (n = 0; n < 64 &&
		     (fd = accept4(h->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0; n++) {
			send_503(h, fd);
			close(fd);
		}
		h->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
	h->accept_rest_until = ft_now_ns() + ACCEPT_REST_NS;
	h->st.fd_rests++;
	if (!h->said_out_of_fds) {
		fprintf(stderr, "fragtop: out of file descriptors (%s): refusing clients, "
				"accepting again in 100 ms\n",
			strerror(err));
		h->said_out_of_fds = true;
	}
}

/* The listening socket on @hp: its fd, or -1 after saying why. */
static int listen_socket(const struct ft_hostport *hp)
{
	char addr[FT_HOSTPORT_MAX];
	int lfd, one = 1;

	ft_hostport_format(hp, addr, sizeof(addr));
	lfd = socket(hp->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (const struct sockaddr *)&hp->sa, hp->len) || listen(lfd, 64)) {
		fprintf(stderr, "fragtop: cannot listen on %s: %s\n", addr, strerror(errno));
		if (lfd >= 0)
			close(lfd);
		return -1;
	}
	return lfd;
}

static void conn_io(struct ft_httpd *h, struct ft_httpd_conn *c, short revents);

static void conn_io(struct ft_httpd *h, struct ft_httpd_conn *c, short revents);

/* The client's address as 16 bytes: IPv6 as it is, IPv4 v4-mapped. */
static void peer_key(const struct sockaddr_storage *ss, unsigned char key[16])
{
	memset(key, 0, 16);
	if (ss->ss_family == AF_INET6) {
		memcpy(key, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
	} else if (ss->ss_family == AF_INET) {
		key[10] = key[11] = 0xff;
		memcpy(key + 12, &((const struct sockaddr_in *)ss)->sin_addr, 4);
	}
}

/*
 * Refuse @fd with a 503, and do not reset it: a socket closed with the
 * client's request unread sends an RST, and the client loses the answer.
 * So the 503 is written, the sending side shut, and what the client
 * sends read and dropped until it closes (LINGER_NS at most).
 */
static void refuse(struct ft_httpd *h, int fd)
{
	int k;

	send_503(h, fd);
	shutdown(fd, SHUT_WR);
	for (k = 0; k < FT_HTTPD_LINGERS && h->lingers[k].fd >= 0; k++)
		;
	if (k == FT_HTTPD_LINGERS) {
		close(fd);	/* too many at once: closed as they come */
		return;
	}
	h->lingers[k].fd = fd;
	h->lingers[k].until = ft_now_ns() + LINGER_NS;
}

/*
 * How readily a connection gives its slot to a newcomer, first to last.
 * A newcomer has sent nothing yet, so it never takes the slot of one that
 * is making progress: a TLS handshake or request whose last flight was
 * answered less than PROGRESS_NS ago, or a request being answered.
 */
enum slot_class {
	/* kept alive, waiting for its next request: its client reconnects */
	SLOT_IDLE,
	/*
	 * part of a head or a ClientHello came, and nothing whole since; or a request held for
	 * its address's rate
	 */
	SLOT_TRICKLING,
	SLOT_SILENT,		/* nothing at all since it was accepted; or its client has not taken
				 * any of its answer for PROGRESS_NS */
	SLOT_PROGRESSING,	/* evicted only from a greedy address (greedy_victim()) */
	SLOT_ANSWERING,		/* the same */
};

static enum slot_class slot_class(const struct ft_httpd_conn *c, uint64_t now)
{
	if (c->ticket || c->verdict != FT_VERDICT_NONE)
		return SLOT_ANSWERING;
	if (c->out)
		return now - c->out_ns < PROGRESS_NS ? SLOT_ANSWERING : SLOT_SILENT;
	if (c->held_until)
		return SLOT_TRICKLING;
	if (c->idle)
		return SLOT_IDLE;
	if (c->progress_ns && now - c->progress_ns < PROGRESS_NS)
		return SLOT_PROGRESSING;
	return c->in_len || c->heard ? SLOT_TRICKLING : SLOT_SILENT;
}

/* Slots held by @peer's address. */
static int held(const struct ft_httpd *h, const unsigned char *peer)
{
	int k, n = 0;

	for (k = 0; k < FT_HTTPD_MAX_CONN; k++)
		n += h->conns[k].fd >= 0 && !memcmp(h->conns[k].peer, peer, 16);
	return n;
}

/*
 * How many connections @peer opened lately: a count that halves every
 * second (@add: one more now).  A flood opens dozens a second from its
 * addresses, a scraper one; a table of its own, the oldest reused.
 */
static double churn(struct ft_httpd *h, const unsigned char *peer, uint64_t now, bool add)
{
	struct ft_httpd_churn *e = NULL, *old = NULL;
	int k;

	for (k = 0; k < FT_HTTPD_MAX_CONN && !e; k++) {
		struct ft_httpd_churn *b = &h->churn[k];

		if (b->t_ns && !memcmp(b->peer, peer, 16))
			e = b;
		else if (!old || b->t_ns < old->t_ns)
			old = b;
	}
	if (!e) {
		if (!add)
			return 0;
		e = old;
		memcpy(e->peer, peer, 16);
		e->n = 0;
		e->t_ns = now;
	}
	e->n *= exp2(-(double)(now - e->t_ns) / 1e9);
	e->t_ns = now;
	return add ? ++e->n : e->n;
}

/*
 * Does @c (class @cl, its address's churn @ch and slots @n) give its slot before @b (@bc, @bch,
 * @bn)?
 */
static bool gives_before(const struct ft_httpd_conn *c, enum slot_class cl, double ch, int n,
			 const struct ft_httpd_conn *b, enum slot_class bc, double bch, int bn)
{
	if (cl != bc)
		return cl < bc;
	/* an address opening connections by the dozen goes first */
	if (ch > bch + 1 || ch < bch - 1)
		return ch > bch;
	if (n != bn)
		return n > bn;
	return c->t0 < b->t0;
}

/*
 * The connection to give its slot away, of @peer (NULL: of any address):
 * the lowest slot_class; in a class, the address that opened the most
 * connections lately, then the one holding the most slots (only when any
 * address may lose one), then the oldest (gives_before()).  NULL when
 * every candidate is making progress or being answered.
 */
static struct ft_httpd_conn *victim(struct ft_httpd *h, const unsigned char *peer, uint64_t now)
{
	struct ft_httpd_conn *best = NULL;
	enum slot_class bc = SLOT_PROGRESSING;
	double bch = 0;
	int k, bn = 0;

	for (k = 0; k < FT_HTTPD_MAX_CONN; k++) {
		struct ft_httpd_conn *c = &h->conns[k];
		enum slot_class cl;
		double ch;
		int n;

		if (c->fd < 0 || (peer && memcmp(c->peer, peer, 16)))
			continue;
		cl = slot_class(c, now);
		if (cl >= SLOT_PROGRESSING)
			continue;
		n = peer ? 0 : held(h, c->peer);
		ch = peer ? 0 : churn(h, c->peer, now, false);
		if (!best || gives_before(c, cl, ch, n, best, bc, bch, bn)) {
			best = c;
			bc = cl;
			bch = ch;
			bn = n;
		}
	}
	return best;
}

/*
 * When no slot can be taken by class (every one is making progress), a
 * newcomer still gets one from an address holding more than its share:
 * the newest connection of the address that holds the most slots, two or
 * more and more than the newcomer's address plus one.  Sixteen
 * connections from four addresses, each fresh and being answered, so
 * took every slot from everyone else for the second they "progressed".
 * NULL when no address holds more than its share.
 */
static struct ft_httpd_conn *greedy_victim(struct ft_httpd *h, const unsigned char *peer)
{
	struct ft_httpd_conn *best = NULL;
	int k, mine = held(h, peer), bn = 0;

	for (k = 0; k < FT_HTTPD_MAX_CONN; k++) {
		struct ft_httpd_conn *c = &h->conns[k];
		int n;

		if (c->fd < 0 || c->ticket || c->verdict != FT_VERDICT_NONE)
			/* a password being checked, or its verdict waiting: the client gets it */
			continue;
		n = held(h, c->peer);
		if (n < 2 || n <= mine + 1)
			continue;
		if (!best || n > bn || (n == bn && c->t0 > best->t0)) {
			best = c;
			bn = n;
		}
	}
	return best;
}

/*
 * Every waiting connection gets a slot.  Past max_per_client for its
 * address it takes the slot of victim() among that address's, past
 * max_conn victim() among all: clients that trickle or send
 * nothing cannot hold every slot, and cannot take one from a client
 * that is getting somewhere.  When no slot can be taken, the newcomer
 * is refused (503).
 */
static void accept_new(struct ft_httpd *h)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd, k, busy, same;

	while ((fd = accept4(h->lfd, (struct sockaddr *)&ss, &sl,
			     SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		unsigned char peer[16];
		struct ft_httpd_conn *c = NULL;

		peer_key(&ss, peer);
		churn(h, peer, ft_now_ns(), true);
		sl = sizeof(ss);
		for (k = 0, busy = 0, same = 0; k < FT_HTTPD_MAX_CONN; k++) {
			busy += h->conns[k].fd >= 0;
			same += h->conns[k].fd >= 0 && !memcmp(h->conns[k].peer, peer, 16);
			if (!c && h->conns[k].fd < 0)
				c = &h->conns[k];
		}
		if ((uint64_t)same >= h->o.max_per_client || (uint64_t)busy >= h->o.max_conn ||
		    !c) {
			bool own = (uint64_t)same >= h->o.max_per_client;

			c = victim(h, own ? peer : NULL, ft_now_ns());
			if (!c && !own)
				c = greedy_victim(h, peer);
			if (!c) {
				refuse(h, fd);
				continue;
			}
			h->st.evicted++;
			conn_close(c);
		}
		*c = (struct ft_httpd_conn){ .h = h, .fd = fd, .t0 = ft_now_ns() };
		memcpy(c->peer, peer, 16);
		h->st.accepted++;
		if (tls(h) && !(c->ssl = sym_SSL_new(h->o.ws->ctx))) {
			conn_close(c);
			sym_ERR_clear_error();
			continue;
		}
		if (c->ssl) {
			sym_SSL_set_fd(c->ssl, fd);
			c->handshake = true;
		}
		/* a request already here is taken now, before later newcomers are looked at */
		conn_io(h, c, POLLIN);
	}
	if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
		out_of_fds(h);
}

/*
 * A refused connection is readable: what it sent is dropped; at its end (or LINGER_NS) it is
 * closed.
 */
static void linger_io(struct ft_httpd_linger *lg, uint64_t now)
{
	char drop[4096];
	ssize_t n;

	while ((n = read(lg->fd, drop, sizeof(drop))) > 0)
		;
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) || now >= lg->until) {
		close(lg->fd);
		lg->fd = -1;
	}
}

/*
 * What OpenSSL said of an operation on @c: 1 go on, 0 wait (c->want set), -1 the connection is
 * done.
 */
static int tls_status(struct ft_httpd_conn *c, int r)
{
	switch (sym_SSL_get_error(c->ssl, r)) {
	case SSL_ERROR_WANT_READ:
		c->want = POLLIN;
		return 0;
	case SSL_ERROR_WANT_WRITE:
		c->want = POLLOUT;
		return 0;
	default:
		sym_ERR_clear_error();
		return -1;
	}
}

/*
 * A TLS connection's handshake, a step at a time.  A client that speaks
 * plain HTTP to the TLS port (its first byte is not a TLS record's 0x16)
 * is told so in plain HTTP, as Go's servers do, and closed: no OpenSSL
 * error, and the server goes on.  1: done, 0: wait, -1: closed.
 */
static int tls_handshake(struct ft_httpd *h, struct ft_httpd_conn *c)
{
	static const char plain[] =
		"HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
		"Connection: close\r\n\r\nClient sent an HTTP request to an HTTPS server.\n";
	unsigned char first;
	uint64_t out;
	ssize_t n;
	int r;

	if (!c->want) {		/* nothing from OpenSSL yet: the first byte decides */
		n = recv(c->fd, &first, 1, MSG_PEEK);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n > 0 && first == 0x16)
			c->heard = true;
		if (n <= 0 || first != 0x16) {
			if (n > 0 && write(c->fd, plain, sizeof(plain) - 1) < 0) {
				/* the client is gone already */
			}
			h->st.tls_failed++;
			conn_close(c);
			return -1;
		}
	}
	r = sym_SSL_accept(c->ssl);
	out = sym_BIO_number_written(sym_SSL_get_wbio(c->ssl));
	if (r == 1 || out != c->tls_out) {	/* a flight of the client's answered: progress */
		c->progress_ns = ft_now_ns();
		c->tls_out = out;
	}
	if (r == 1) {
		c->handshake = false;
		c->want = 0;
		return 1;
	}
	if (tls_status(c, r) < 0) {
		h->st.tls_failed++;
		sym_SSL_free(c->ssl);	/* no close_notify on a failed handshake */
		c->ssl = NULL;
		conn_close(c);
		return -1;
	}
	return 0;
}

/* Read what there is: > 0 bytes, 0 wait, -1 the connection is done. */
static ssize_t conn_read(struct ft_httpd_conn *c, char *buf, size_t len)
{
	ssize_t n;

	if (c->ssl) {
		int r = sym_SSL_read(c->ssl, buf, (int)len);

		return r > 0 ? r : tls_status(c, r) < 0 ? -1 : 0;
	}
	n = read(c->fd, buf, len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	return n > 0 ? n : -1;
}

/* Write what the socket takes: > 0 bytes, 0 wait, -1 the connection is done. */
static ssize_t conn_write(struct ft_httpd_conn *c, const char *buf, size_t len)
{
	ssize_t n;

	if (c->ssl) {
		int r = sym_SSL_write(c->ssl, buf, (int)len);

		return r > 0 ? r : tls_status(c, r) < 0 ? -1 : 0;
	}
	n = write(c->fd, buf, len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	return n > 0 ? n : -1;
}

/*
 * A read ended at c->in_len now: its bytes' time (the last slot takes the rest when all are used).
 */
static void note_read(struct ft_httpd_conn *c)
{
	const int cap = (int)(sizeof(c->rd) / sizeof(c->rd[0]));

	if (c->nr_rd == cap)
		/* they keep the earlier time: a deadline never later */
		c->rd[cap - 1].end = c->in_len;
	else
		c->rd[c->nr_rd++] = (struct ft_httpd_read){ .end = c->in_len, .t_ns = ft_now_ns() };
}

/*
 * The request's bytes as they come (TLS may hold more than poll() shows),
 * then the answer.  A request sent right behind the last on a kept-alive
 * connection (pipelined) may be in already.
 */
static void conn_take(struct ft_httpd *h, struct ft_httpd_conn *c)
{
	ssize_t n;
	int k;

	while (c->in_len < sizeof(c->in)) {
		n = conn_read(c, c->in + c->in_len, sizeof(c->in) - c->in_len);
		if (n < 0) {
			conn_close(c);
			return;
		}
		if (n == 0)
			break;
		if (c->idle) {		/* the next request begins: its clock starts */
			c->idle = false;
			c->t0 = ft_now_ns();
		}
		c->in_len += (size_t)n;
		note_read(c);
		c->want = 0;
		if (!c->ssl || !sym_SSL_pending(c->ssl))
			break;
	}
	if (!c->in_len)
		return;
	for (k = 0, h->st.connections = 0; k < FT_HTTPD_MAX_CONN; k++)
		h->st.connections += h->conns[k].fd >= 0;
	/*
	 * a head that fills the buffer and is not whole: too large (pipelined ones behind a whole
	 * one wait)
	 */
	if (!serve(h, c) && c->fd >= 0 && c->in_len == sizeof(c->in))
		ft_httpd_error(c, 431);
}

/*
 * The answer is out: the connection closes, or (kept alive) waits for its
 * next request.  true: that request may be in already, behind this one.
 */
static bool conn_answered(struct ft_httpd_conn *c)
{
	int k, n;

	if (!c->keep || stopping(c->h) || !c->h->o.idle_timeout_ns) {
		if (!c->ssl)
			shutdown(c->fd, SHUT_WR);
		conn_close(c);
		return false;
	}
	free(c->out);
	c->out = NULL;
	c->out_len = c->out_off = 0;
	c->keep = false;
	memmove(c->in, c->in + c->used, c->in_len - c->used);
	c->in_len -= c->used;
	/* the next request's clock runs from its first byte: the read that brought it */
	for (k = 0, n = 0; k < c->nr_rd; k++)
		if (c->rd[k].end > c->used)
			c->rd[n++] = (struct ft_httpd_read){ .end = c->rd[k].end - c->used,
							     .t_ns = c->rd[k].t_ns };
	c->nr_rd = n;
	c->used = 0;
	c->t0 = n ? c->rd[0].t_ns : ft_now_ns();
	c->idle = !c->in_len;
	c->want = 0;
	return c->in_len || (c->ssl && sym_SSL_pending(c->ssl));
}

/*
 * A connection is readable (a request coming) or writable (its answer
 * going).  One answer a round: a request pipelined behind it (next_in)
 * is taken in the next poll() round, after every other connection's.
 */
static void conn_io(struct ft_httpd *h, struct ft_httpd_conn *c, short revents)
{
	ssize_t n;

	if (revents & (POLLERR | POLLNVAL)) {
		conn_close(c);
		return;
	}
	if (c->handshake && tls_handshake(h, c) <= 0)
		return;
	c->next_in = false;
	if (!c->out) {
		conn_take(h, c);
		if (!c->out || c->fd < 0)
			return;
	}
	n = conn_write(c, c->out + c->out_off, c->out_len - c->out_off);
	if (n < 0) {
		conn_close(c);
		return;
	}
	c->out_off += (size_t)n;
	if (n > 0) {
		c->want = 0;
		c->out_ns = ft_now_ns();
	}
	if (c->out_off < c->out_len)
		return;		/* the rest when the socket takes it */
	c->next_in = conn_answered(c);
}

/* ms until @ns from now, rounded up, at most @cap. */
static int ms_until(uint64_t ns, int cap)
{
	uint64_t ms = ns / 1000000 + 1;

	return ms < (uint64_t)cap ? (int)ms : cap;
}

/*
 * The password checker's verdicts: each connection waiting on one goes on, at once or at its due
 * time.
 */
static void take_verdicts(struct ft_httpd *h)
{
	uint64_t ticket, due;
	bool ok;
	int k;

	while (ft_websec_result(h->o.ws, &ticket, &ok, &due))
		for (k = 0; k < FT_HTTPD_MAX_CONN; k++) {
			struct ft_httpd_conn *c = &h->conns[k];

			if (c->fd < 0 || c->ticket != ticket)
				continue;
			c->ticket = 0;
			c->verdict = ok ? FT_VERDICT_OK : FT_VERDICT_DENIED;
			c->due = due;
			break;
		}
}

/*
 * What to poll @c for: -1 none (free, or closed now for its deadline),
 * 0 errors only (its password being checked, or its 401 held until
 * c->due: @timeout shortened to it).  A verdict that is due is acted on
 * here.
 */
static short conn_events(struct ft_httpd *h, struct ft_httpd_conn *c, uint64_t now, int *timeout)
{
	if (c->fd < 0)
		return -1;
	if (c->idle) {		/* kept alive, between requests */
		if (now - c->t0 > h->o.idle_timeout_ns) {
			h->st.idle_timeouts++;
			conn_close(c);
			return -1;
		}
	} else if (now - c->t0 > CONN_TIMEOUT_NS) {	/* slow or silent: gone */
		h->st.request_timeouts += c->in_len || c->out;
		conn_close(c);
		return -1;
	}
	if (c->ticket)
		return 0;
	if (c->held_until) {	/* its address's rate: its turn comes at held_until */
		if (now < c->held_until) {
			*timeout = ms_until(c->held_until - now, *timeout);
			return 0;
		}
		c->held_until = 0;
		return POLLOUT;
	}
	if (c->next_in)
		return POLLOUT;	/* a pipelined request, in already: this round */
	if (c->verdict != FT_VERDICT_NONE && !c->out) {
		if (now < c->due) {
			*timeout = ms_until(c->due - now, *timeout);
			return 0;
		}
		conn_io(h, c, 0);	/* answered now: 200 or 401 */
		if (c->fd < 0)
			return -1;
	}
	if (!c->out && !c->idle && now - c->t0 > h->o.head_timeout_ns) {
		/* no whole head in time */
		h->st.head_timeouts++;
		conn_close(c);
		return -1;
	}
	return c->want ? c->want : c->out ? POLLOUT : POLLIN;
}

int ft_httpd_poll(struct ft_httpd *h, int timeout)
{
	struct pollfd pf[FT_HTTPD_MAX_CONN + FT_HTTPD_LINGERS + 2];
	int idx[FT_HTTPD_MAX_CONN + FT_HTTPD_LINGERS + 2], np = 0, i;
	uint64_t now = ft_now_ns();

	/* out of file descriptors: the listening socket rests a while (it would spin) */
	if (now >= h->accept_rest_until) {
		pf[np] = (struct pollfd){ .fd = h->lfd, .events = POLLIN };
		idx[np++] = -1;
	} else if (timeout > (int)((h->accept_rest_until - now) / 1000000) + 1) {
		timeout = (int)((h->accept_rest_until - now) / 1000000) + 1;
	}
	if (h->o.ws && ft_websec_fd(h->o.ws) >= 0) {
		pf[np] = (struct pollfd){ .fd = ft_websec_fd(h->o.ws), .events = POLLIN };
		idx[np++] = -2;
	}
	for (i = 0; i < FT_HTTPD_MAX_CONN; i++) {
		short ev = conn_events(h, &h->conns[i], now, &timeout);

		if (ev < 0)
			continue;
		pf[np] = (struct pollfd){ .fd = h->conns[i].fd, .events = ev };
		idx[np++] = i;
	}
	for (i = 0; i < FT_HTTPD_LINGERS; i++) {
		if (h->lingers[i].fd < 0)
			continue;
		if (now >= h->lingers[i].until) {
			close(h->lingers[i].fd);
			h->lingers[i].fd = -1;
			continue;
		}
		pf[np] = (struct pollfd){ .fd = h->lingers[i].fd, .events = POLLIN };
		idx[np++] = FT_HTTPD_MAX_CONN + i;
	}
	if (np > 1 && timeout > 100)
		timeout = 100;		/* connections have deadlines */
	h->st.rounds++;
	if (poll(pf, (nfds_t)np, timeout) < 0)
		return errno == EINTR ? 0 : -1;
	now = ft_now_ns();
	for (i = 0; i < np; i++) {
		if (!pf[i].revents || idx[i] == -1)
			continue;
		if (idx[i] == -2)
			take_verdicts(h);
		else if (idx[i] >= FT_HTTPD_MAX_CONN)
			linger_io(&h->lingers[idx[i] - FT_HTTPD_MAX_CONN], now);
		else if (h->conns[idx[i]].fd >= 0)
			conn_io(h, &h->conns[idx[i]], pf[i].revents);
	}
	/*
	 * newcomers last: what came on the open connections is read first, so none passes for
	 * silent
	 */
	if (np && idx[0] == -1 && pf[0].revents)
		accept_new(h);
	return 0;
}

int ft_httpd_open(struct ft_httpd *h, const struct ft_httpd_opts *o)
{
	int i;

	memset(h, 0, sizeof(*h));
	h->o = *o;
	for (i = 0; i < FT_HTTPD_MAX_CONN; i++)
		h->conns[i].fd = -1;
	for (i = 0; i < FT_HTTPD_LINGERS; i++)
		h->lingers[i].fd = -1;
	h->lfd = listen_socket(o->listen);
	if (h->lfd < 0)
		return -1;
	h->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return 0;
}

unsigned int ft_httpd_port(const struct ft_httpd *h)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(h->lfd, (struct sockaddr *)&ss, &sl))
		return 0;
	if (ss.ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((const struct sockaddr_in *)&ss)->sin_port);
}

void ft_httpd_close(struct ft_httpd *h)
{
	int i;

	for (i = 0; i < FT_HTTPD_MAX_CONN; i++)
		if (h->conns[i].fd >= 0)
			conn_close(&h->conns[i]);
	for (i = 0; i < FT_HTTPD_LINGERS; i++)
		if (h->lingers[i].fd >= 0)
			close(h->lingers[i].fd);
	if (h->spare_fd >= 0)
		close(h->spare_fd);
	if (h->lfd >= 0)
		close(h->lfd);
	h->lfd = h->spare_fd = -1;
}
