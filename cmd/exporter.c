// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop exporter`: the live session served to Prometheus.  One thread
 * samples (ticks, trace drains, the boost sampler's own thread) and serves
 * a small HTTP/1.1 endpoint from the same poll() loop: GET /metrics in the
 * text format 0.0.4, or OpenMetrics 1.0 when the Accept header asks for
 * it; GET / links to it.  A scrape renders the session as it stands, so it
 * never reads /proc itself: pagetypeinfo (zone->lock) keeps its own
 * cadence.  Answers are gzip-compressed when the client asks (as
 * Prometheus does), and an HTTP/1.1 connection stays open for the next
 * scrape (keep-alive) until --idle-timeout passes without a request.
 * Read-only (no knob is written).  Safe on a network: request heads are
 * bounded (8 KiB), every request has 10 s to be sent and take its
 * answer, at most --max-connections are served at once, and
 * --max-per-client of them from one address.  A newcomer past either
 * bound takes the slot of a connection that is not getting anywhere
 * (victim(): kept alive between requests, then trickling, then silent,
 * the greediest address first); one whose request or TLS handshake is
 * making progress is never evicted, and when every slot is such, the
 * newcomer gets 503.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cost.h"
#include "analysis/cgrows.h"
#include "analysis/cgtop.h"
#include "base/hostport.h"
#include "collectors/live.h"
#include "collectors/self.h"
#include "model/httpreq.h"
#include "cmd/cli.h"
#include "cmd/costlog.h"
#include "base/gzip.h"
#include "cmd/liveopts.h"
#include "render/metrics.h"
#include "cmd/signals.h"
#include "cmd/tlslib.h"
#include "cmd/websec.h"

#define FT_EXPORTER_PORT	9947
#define CONN_TIMEOUT_NS		(10ull * 1000000000ull)
#define MAX_CONN		256
#define LINGERS			64	/* refused connections read until they close */
#define LINGER_NS		(1000000000ull)
/* a TLS flight answered keeps its connection from eviction this long (a round trip is ms) */
#define PROGRESS_NS		(1000000000ull)

struct conn {
	int fd;				/* -1: free */
	SSL *ssl;			/* TLS (--web.config.file): the session, else NULL */
	bool handshake;			/* TLS: not set up yet */
	short want;			/* TLS: what OpenSSL waits for (POLLIN, POLLOUT); 0: as the state says */
	uint64_t t0;			/* accepted, or its request's first byte (kept alive) */
	bool idle;			/* kept alive: waiting for the next request since t0 */
	bool keep;			/* the answer being written leaves the connection open */
	size_t used;			/* the request's head length: what follows it is the next one's */
	unsigned char peer[16];		/* the client's address (IPv4 as v4-mapped IPv6) */
	bool heard;			/* TLS: a ClientHello began (its first byte is in) */
	uint64_t progress_ns;		/* TLS: when a flight of the client's was last answered, or 0 */
	uint64_t tls_out;		/* TLS: bytes the handshake had written by then */
	uint64_t ticket;		/* its password being checked (cmd/websec.h), else 0 */
	enum { VERDICT_NONE, VERDICT_OK, VERDICT_DENIED } verdict;	/* the check's, for serve() */
	uint64_t due;			/* denied: the 401 waits until then (timing tells no names) */
	char in[FT_HTTP_MAX_HEAD];
	size_t in_len;
	char *out;			/* the answer, once the request is in */
	size_t out_len, out_off;
};

static volatile sig_atomic_t stop;
/* --web.config.file's users: a connection closed mid-check cancels it */
static struct ft_websec *websec;

static void on_signal(int sig)
{
	stop = sig;
}

/*
 * Close a connection.  What the client sent and nobody read is read
 * first (a few KiB at most): a socket closed with input unread is reset,
 * and the client would lose the answer written just before.
 */
static void conn_close(struct conn *c)
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
		ft_websec_cancel(websec, c->ticket);
	c->ticket = 0;
	c->verdict = VERDICT_NONE;
	c->fd = -1;
	c->ssl = NULL;
	c->handshake = false;
	c->idle = c->keep = false;
	c->want = 0;
	c->out = NULL;
	c->in_len = c->out_len = c->out_off = c->used = 0;
}

/* How long a kept-alive connection may wait for its next request (--idle-timeout). */
static uint64_t idle_timeout_ns;

/*
 * An answer with @body (of @blen bytes; NULL: none) and @extra header
 * lines (or "") into c->out.  The connection stays open after it when
 * c->keep is set, and says so ("Connection: keep-alive", which HTTP/1.0
 * clients need), else it says it closes.
 */
static void answer(struct conn *c, int status, const char *reason, const char *ctype, const char *extra,
		   const char *body, size_t blen, bool head_only)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f) {
		conn_close(c);
		return;
	}
	fprintf(f, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n", status, reason, ctype, blen);
	if (c->keep)
		fprintf(f, "Connection: keep-alive\r\nKeep-Alive: timeout=%llu\r\n",
			(unsigned long long)(idle_timeout_ns / 1000000000ull));
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
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default: return "Error";
	}
}

/* An error: the connection closes after it (what else the client sent is not trusted). */
static void error_answer(struct conn *c, int status)
{
	char body[96];
	int n = snprintf(body, sizeof(body), "%d %s\n", status, reason_of(status));

	c->keep = false;
	answer(c, status, reason_of(status), "text/plain; charset=utf-8",
	       status == 401 ? "WWW-Authenticate: Basic realm=\"fragtop\", charset=\"UTF-8\"\r\n" :
	       status == 429 || status == 503 ? "Retry-After: 1\r\n" : "",
	       body, (size_t)n, false);
}

/* What the serving loop holds. */
struct exporter {
	struct conn conns[MAX_CONN];
	struct ft_live live;
	struct ft_metrics_server srv;
	struct ft_self self;		/* its process_* figures */
	struct ft_websec ws;		/* --web.config.file: TLS and users, or neither */
	/* refused connections: their 503 written, what they send read and dropped until they close */
	struct linger_fd {
		int fd;			/* -1: free */
		uint64_t until;
	} lingers[LINGERS];
	int lfd;
	/* held for the moment there is no descriptor left: a refusal needs one */
	int spare_fd;
	uint64_t accept_rest_until;
	bool said_out_of_fds;		/* said once */
	bool said_no_gzip;		/* zlib could not be loaded: said once */
	/* a scrape finds a sample at most max_age_ns old (--interval), else takes one */
	uint64_t max_age_ns, last_tick_ns;
	uint64_t head_timeout_ns;	/* --header-timeout */
	struct ft_costlog cost_log;	/* --cost-log */
	/* --collector.cgroups: the choice kept between scrapes, and a scrape's rows; NULL: off */
	struct exporter_cgroups {
		struct ft_cgsel sel;
		struct ft_procs by_process;
		struct ft_cgrows rows;
		struct ft_cgtop top;
	} *cg;
	/* fragtop_contiguous_blocks: the host's sizes and --collector.contiguity.sizes */
	struct ft_fits fits;
	const char *contig_sizes;
};

/* A fresh sample for a scrape, unless the last is young enough: files are read when asked. */
static void fresh_sample(struct exporter *x)
{
	uint64_t now = ft_now_ns();

	if (now - x->last_tick_ns < x->max_age_ns)
		return;
	ft_live_tick(&x->live, false);
	ft_costlog_tick(&x->cost_log, &x->live.session, "exporter scrape");
	x->last_tick_ns = now;
}

/* --collector.cgroups: the cgroups this scrape exports, the choice kept from the last. */
static void cgroups_of_scrape(struct exporter *x, struct ft_metrics *m)
{
	const struct ft_session *s = &x->live.session;
	const struct ft_cgroups *c = s->nr_cgroups && s->cgroups->known ? s->cgroups : NULL;

	if (!x->cg)
		return;
	ft_procs_by_process(&x->cg->by_process, &s->events.procs);
	ft_cgrows_build(&x->cg->by_process, &x->cg->rows);
	ft_cgtop_pick(&x->cg->sel, &x->cg->rows, c, &x->cg->top);
	m->cgroups = &x->cg->top;
	m->cgroups_names = c;
}

/* fragtop_contiguous_blocks: every size of interest, after the map where --collector.map reads it. */
static void fits_of_scrape(struct exporter *x, struct ft_metrics *m)
{
	const struct ft_session *s = &x->live.session;
	struct ft_fits_sizes sizes;
	int asked[FT_FITS_SIZES_MAX];
	char err[128];
	size_t n = 0;

	/* checked at start (sizes_ok), with the same page size */
	if (x->contig_sizes &&
	    ft_fit_sizes_parse(x->contig_sizes, s->host.page_size, asked, FT_FITS_SIZES_MAX, &n, err, sizeof(err)))
		n = 0;
	ft_fits_sizes(s, FT_FITS_SRC_HOST, asked, n, &sizes);
	if (!ft_fits_build(&x->fits, s, &sizes, true))
		m->fits = &x->fits;
}

/*
 * A scrape's answer: gzip-compressed when the client takes it (and zlib
 * is there; said once when not), else as it is.
 */
static void metrics_answer(struct exporter *x, struct conn *c, const struct ft_http_req *r, const char *body,
			   size_t len)
{
	const char *ct = r->openmetrics ? FT_METRICS_CT_OPENMETRICS : FT_METRICS_CT_TEXT;
	char why[256], *z;
	size_t zlen;

	if (r->gzip && !ft_gzip(body, len, &z, &zlen, why, sizeof(why))) {
		x->srv.gzip++;
		answer(c, 200, "OK", ct, "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n", z, zlen, r->head);
		free(z);
		return;
	}
	if (r->gzip && !x->said_no_gzip) {
		fprintf(stderr, "fragtop: answering uncompressed: %s\n", why);
		x->said_no_gzip = true;
	}
	answer(c, 200, "OK", ct, "Vary: Accept-Encoding\r\n", body, len, r->head);
}

/*
 * May @r on @c be answered?  A password not cached is checked off the
 * loop: @c waits (c->ticket) and serve() comes back to it with the
 * verdict.  false: not now (waiting, or the refusal is in c->out).
 */
static bool authorized(struct exporter *x, struct conn *c, struct ft_http_req *r)
{
	enum ft_auth a;

	if (c->verdict != VERDICT_NONE) {
		a = c->verdict == VERDICT_OK ? FT_AUTH_OK : FT_AUTH_DENIED;
		c->verdict = VERDICT_NONE;
	} else {
		a = ft_websec_check(&x->ws, r, c->peer, &c->ticket);
	}
	explicit_bzero(r->pass, sizeof(r->pass));
	switch (a) {
	case FT_AUTH_OK:
		return true;
	case FT_AUTH_PENDING:
		return false;
	case FT_AUTH_DENIED:
		x->srv.unauthorized++;
		error_answer(c, 401);
		return false;
	case FT_AUTH_LIMIT:
		error_answer(c, 429);
		return false;
	case FT_AUTH_BUSY:
		break;
	}
	x->srv.refused++;
	error_answer(c, 503);
	return false;
}

static void serve(struct exporter *x, struct conn *c)
{
	struct ft_live *l = &x->live;
	struct ft_metrics_server *srv = &x->srv;
	struct ft_http_req r;
	int n;

	if (c->ticket)
		return;		/* its password is being checked */
	n = ft_http_parse(c->in, c->in_len, &r);
	if (n == 0)
		return;		/* more to come */
	if (n < 0) {
		error_answer(c, -n);
		return;
	}
	c->used = (size_t)n;
	c->keep = r.keep_alive && !stop && idle_timeout_ns;
	if (!authorized(x, c, &r))
		return;
	if (!strcmp(r.path, "/metrics")) {
		struct ft_metrics m = { .openmetrics = r.openmetrics, .eof = true, .server = srv };
		char *p = NULL;
		size_t len = 0;
		FILE *f;

		fresh_sample(x);
		cgroups_of_scrape(x, &m);
		fits_of_scrape(x, &m);
		ft_self_read(&x->self, &srv->process);
		f = open_memstream(&p, &len);

		if (!f || ft_metrics_write(f, &l->session, &m) || fclose(f)) {
			free(p);
			error_answer(c, 503);
			return;
		}
		srv->scrapes++;
		metrics_answer(x, c, &r, p, len);
		free(p);
	} else if (!strcmp(r.path, "/")) {
		static const char page[] = "<!DOCTYPE html>\n<html><head><title>fragtop exporter</title></head>"
			"<body><h1>fragtop exporter</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n";

		answer(c, 200, "OK", "text/html; charset=utf-8", "", page, sizeof(page) - 1, r.head);
	} else {
		error_answer(c, 404);
	}
}

#define ACCEPT_REST_NS	(100ull * 1000000ull)

/* The one refusal: a 503 with no body, counted; the caller closes or lingers. */
static void send_503(struct exporter *x, int fd)
{
	static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\n"
		"Content-Length: 0\r\nConnection: close\r\n\r\n";

	x->srv.refused++;
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
static void out_of_fds(struct exporter *x)
{
	int fd, err = errno;

	if (x->spare_fd >= 0) {
		int n;

		close(x->spare_fd);
		/* the waiting clients, one descriptor at a time (a few dozen at most) */
		for (n = 0; n < 64 && (fd = accept4(x->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0; n++) {
			send_503(x, fd);
			close(fd);
		}
		x->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
	x->accept_rest_until = ft_now_ns() + ACCEPT_REST_NS;
	x->srv.fd_rests++;
	if (!x->said_out_of_fds) {
		fprintf(stderr, "fragtop: out of file descriptors (%s): refusing clients, accepting again in 100 ms\n",
			strerror(err));
		x->said_out_of_fds = true;
	}
}

/* --listen's parser (base/hostport.h). */
static int parse_listen(const char *arg, void *var, char *why, size_t sz)
{
	return ft_hostport_parse(arg, var, why, sz);
}

static struct {
	struct ft_liveopts live;
	struct ft_hostport listen;
	double interval;
	uint64_t max_conn, max_per_client;
	double head_timeout, idle_timeout;
	const char *web_config, *cost_log, *contig_sizes;
	uint64_t cgroups_top;
	bool map;
} o;

/* --collector.contiguity.sizes: powers of two of at least a page, at most 16. */
static int sizes_ok(const char *arg, void *var, char *why, size_t sz)
{
	int orders[FT_FITS_SIZES_MAX];
	size_t n;

	if (ft_fit_sizes_parse(arg, sysconf(_SC_PAGESIZE), orders, FT_FITS_SIZES_MAX, &n, why, sz))
		return -1;
	*(const char **)var = arg;
	return 0;
}

static const struct ft_opt opts[] = {
	{ "listen", 'l', FT_OPT_CB, "ADDR:PORT",
	  "where to serve: ADDR:PORT, [IPv6]:PORT, or PORT alone\n"
	  "(on 127.0.0.1)", .var = &o.listen,
	  .def = "127.0.0.1:9947", .parse = parse_listen },
	FT_OPT_ROOT(o.live.root),
	{ "interval", 'i', FT_OPT_SECS, "SECS",
	  "a scrape takes a new sample when the last is older\n"
	  "(files are read when a scrape asks; tracing is counted all along)",
	  0.1, 3600, "delay", 'd', .var = &o.interval, .def = "1" },
	{ "pagetypeinfo-interval", 0, FT_OPT_SECS, "SECS",
	  "how often a scrape reads /proc/pagetypeinfo, which the\n"
	  "kernel walks under zone->lock (about 6 ms of CPU on 24 GiB;\n"
	  "0: every sample)", 0, 86400, .var = &o.live.pti_interval, .def = "60" },
	FT_OPT_NO_TRACE(o.live.no_trace),
	FT_OPT_TRACE_BUFFER(o.live.trace_kb),
	{ "boost-hz", 0, FT_OPT_UINT, "N",
	  "read each zone's watermark boost after traced fragmenting\n"
	  "fallbacks, while a zone stays boosted and with each sample, at\n"
	  "most N times a second (no reads while nothing happens; 0: off;\n"
	  "off for --root unless given)", 0, 1000, .var = &o.live.boost_hz, .def = "50",
	  .given = &o.live.boost_given },
	{ "max-connections", 0, FT_OPT_UINT, "N", "connections served at once; more get 503", 1, MAX_CONN,
	  .var = &o.max_conn, .def = "16" },
	{ "header-timeout", 0, FT_OPT_SECS, "SECS",
	  "a connection that has not sent its whole request head by then\n"
	  "is closed (slow clients cannot hold slots)", 0.1, 60, .var = &o.head_timeout, .def = "3" },
	{ "idle-timeout", 0, FT_OPT_SECS, "SECS",
	  "how long a kept-alive connection may wait for its next request\n"
	  "(Prometheus keeps one open between scrapes; 0: close after\n"
	  "each answer)", 0, 3600, .var = &o.idle_timeout, .def = "120" },
	{ "max-per-client", 0, FT_OPT_UINT, "N",
	  "connections one client address holds at once", 1, MAX_CONN, .var = &o.max_per_client,
	  .def = "4" },
	{ "web.config.file", 0, FT_OPT_STR, "FILE",
	  "TLS and basic auth, in the web configuration format of\n"
	  "Prometheus's exporters (tls_server_config, basic_auth_users)",
	  .var = &o.web_config },
	{ "collector.cgroups", 0, FT_OPT_FLAG, NULL,
	  "also export per cgroup: fallbacks and stall time of its traced\n"
	  "tasks, its anonymous and huge-page memory and pressure, for\n"
	  "the top K cgroups (--collector.cgroups.top) and one \"other\"",
	  .var = &o.live.cgroups },
	{ "collector.cgroups.top", 0, FT_OPT_UINT, "K",
	  "with --collector.cgroups: at most K cgroups a family (the most\n"
	  "fragmenting, kept once chosen), the rest summed in \"other\"", 1, FT_CGTOP_MAX,
	  .var = &o.cgroups_top, .def = "20" },
	{ "collector.map", 0, FT_OPT_FLAG, NULL,
	  "also scan the pageblock map (/proc/kpageflags, root) within\n"
	  "--map-cpu and export each zone's pollution amplification and\n"
	  "gigantic pages available now and after compaction",
	  .var = &o.map },
	{ "map-cpu", 0, FT_OPT_NUM, "PCT",
	  "with --collector.map: CPU the exporter may use in all while it\n"
	  "scans, % of a core (a pass over 24 GiB takes ~0.5 s of CPU)", 0.1, 100,
	  .var = &o.live.map_cpu, .def = "2", .given = &o.live.map_cpu_given },
	FT_OPT_MAP_FORCE(o.live.map_force),
	{ "collector.contiguity.sizes", 0, FT_OPT_CB, "SIZE[,...]",
	  "fragtop_contiguous_blocks for these sizes too (powers of two:\n"
	  "4M, 32M), besides the host's hugetlb, multi-size THP and\n"
	  "pageblock sizes; 16 sizes in all at most", .var = &o.contig_sizes, .parse = sizes_ok },
	FT_OPT_COST_LOG(o.cost_log),
};

/* The listening socket on o.listen: its fd, or -1 after saying why. */
static int listen_socket(void)
{
	char addr[FT_HOSTPORT_MAX];
	int lfd, one = 1;

	ft_hostport_format(&o.listen, addr, sizeof(addr));
	lfd = socket(o.listen.sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&o.listen.sa, o.listen.len) || listen(lfd, 64)) {
		fprintf(stderr, "fragtop: cannot listen on %s: %s\n", addr, strerror(errno));
		if (lfd >= 0)
			close(lfd);
		return -1;
	}
	return lfd;
}

/* The address, and a warning when it is more than this host and not both TLS and auth. */
static void say_listening(const struct exporter *x)
{
	bool tls = x->ws.ctx, auth = x->ws.wc.nr_users > 0;
	char addr[FT_HOSTPORT_MAX];

	ft_hostport_format(&o.listen, addr, sizeof(addr));
	fprintf(stderr, "fragtop: exporter on http%s://%s/metrics (a sample per scrape, at most every %gs)%s%s\n",
		tls ? "s" : "", addr, o.interval, x->live.trace.on ? " with tracepoints" : "",
		auth ? ", basic auth" : "");
	if (ft_hostport_loopback(&o.listen) || (tls && auth))
		return;
	if (!tls && !auth)
		fprintf(stderr, "fragtop: warning: listening beyond loopback (%s) with neither TLS nor "
			"authentication: whoever reaches the port reads the metrics\n", addr);
	else if (!tls)
		fprintf(stderr, "fragtop: warning: listening beyond loopback (%s) without TLS: passwords "
			"and metrics cross the network in the clear\n", addr);
	else
		fprintf(stderr, "fragtop: warning: listening beyond loopback (%s) without authentication: "
			"whoever reaches the port reads the metrics\n", addr);
}

static void conn_io(struct exporter *x, struct conn *c, short revents);

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
static void refuse(struct exporter *x, int fd)
{
	int k;

	send_503(x, fd);
	shutdown(fd, SHUT_WR);
	for (k = 0; k < LINGERS && x->lingers[k].fd >= 0; k++)
		;
	if (k == LINGERS) {
		close(fd);	/* too many at once: closed as they come */
		return;
	}
	x->lingers[k].fd = fd;
	x->lingers[k].until = ft_now_ns() + LINGER_NS;
}

/*
 * How readily a connection gives its slot to a newcomer, first to last.
 * A newcomer has sent nothing yet, so it never takes the slot of one that
 * is making progress: a TLS handshake or request whose last flight was
 * answered less than PROGRESS_NS ago, or a request being answered.
 */
enum slot_class {
	SLOT_IDLE,		/* kept alive, waiting for its next request: its client reconnects */
	SLOT_TRICKLING,		/* part of a head or a ClientHello came, and nothing whole since */
	SLOT_SILENT,		/* nothing at all since it was accepted */
	SLOT_PROGRESSING,	/* never evicted */
	SLOT_ANSWERING,		/* never evicted */
};

static enum slot_class slot_class(const struct conn *c, uint64_t now)
{
	if (c->out || c->ticket || c->verdict != VERDICT_NONE)
		return SLOT_ANSWERING;
	if (c->idle)
		return SLOT_IDLE;
	if (c->progress_ns && now - c->progress_ns < PROGRESS_NS)
		return SLOT_PROGRESSING;
	return c->in_len || c->heard ? SLOT_TRICKLING : SLOT_SILENT;
}

/* Slots held by @peer's address. */
static int held(const struct exporter *x, const unsigned char *peer)
{
	int k, n = 0;

	for (k = 0; k < MAX_CONN; k++)
		n += x->conns[k].fd >= 0 && !memcmp(x->conns[k].peer, peer, 16);
	return n;
}

/*
 * The connection to give its slot away, of @peer (NULL: of any address):
 * the lowest slot_class; in a class, the address holding the most slots
 * (the greedy: only when any address may lose one), then the oldest.
 * NULL when every candidate is making progress or being answered.
 */
static struct conn *victim(struct exporter *x, const unsigned char *peer, uint64_t now)
{
	struct conn *best = NULL;
	enum slot_class bc = SLOT_PROGRESSING;
	int k, bn = 0;

	for (k = 0; k < MAX_CONN; k++) {
		struct conn *c = &x->conns[k];
		enum slot_class cl;
		int n;

		if (c->fd < 0 || (peer && memcmp(c->peer, peer, 16)))
			continue;
		cl = slot_class(c, now);
		if (cl >= SLOT_PROGRESSING || (best && cl > bc))
			continue;
		n = peer ? 0 : held(x, c->peer);
		if (!best || cl < bc || n > bn || (n == bn && c->t0 < best->t0)) {
			best = c;
			bc = cl;
			bn = n;
		}
	}
	return best;
}

/*
 * Every waiting connection gets a slot.  Past --max-per-client for its
 * address it takes the slot of victim() among that address's, past
 * --max-connections victim() among all: clients that trickle or send
 * nothing cannot hold every slot, and cannot take one from a client
 * that is getting somewhere.  When no slot can be taken, the newcomer
 * is refused (503).
 */
static void accept_new(struct exporter *x)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd, k, busy, same;

	while ((fd = accept4(x->lfd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		unsigned char peer[16];
		struct conn *c = NULL;

		peer_key(&ss, peer);
		sl = sizeof(ss);
		for (k = 0, busy = 0, same = 0; k < MAX_CONN; k++) {
			busy += x->conns[k].fd >= 0;
			same += x->conns[k].fd >= 0 && !memcmp(x->conns[k].peer, peer, 16);
			if (!c && x->conns[k].fd < 0)
				c = &x->conns[k];
		}
		if ((uint64_t)same >= o.max_per_client || (uint64_t)busy >= o.max_conn || !c) {
			c = victim(x, (uint64_t)same >= o.max_per_client ? peer : NULL, ft_now_ns());
			if (!c) {
				refuse(x, fd);
				continue;
			}
			x->srv.evicted++;
			conn_close(c);
		}
		*c = (struct conn){ .fd = fd, .t0 = ft_now_ns() };
		memcpy(c->peer, peer, 16);
		x->srv.accepted++;
		if (x->ws.ctx && !(c->ssl = sym_SSL_new(x->ws.ctx))) {
			conn_close(c);
			sym_ERR_clear_error();
			continue;
		}
		if (c->ssl) {
			sym_SSL_set_fd(c->ssl, fd);
			c->handshake = true;
		}
		/* a request already here is taken now, before later newcomers are looked at */
		conn_io(x, c, POLLIN);
	}
	if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
		out_of_fds(x);
}

/* A refused connection is readable: what it sent is dropped; at its end (or LINGER_NS) it is closed. */
static void linger_io(struct linger_fd *lg, uint64_t now)
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

/* What OpenSSL said of an operation on @c: 1 go on, 0 wait (c->want set), -1 the connection is done. */
static int tls_status(struct conn *c, int r)
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
static int tls_handshake(struct exporter *x, struct conn *c)
{
	static const char plain[] = "HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
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
			x->srv.tls_failed++;
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
		x->srv.tls_failed++;
		sym_SSL_free(c->ssl);	/* no close_notify on a failed handshake */
		c->ssl = NULL;
		conn_close(c);
		return -1;
	}
	return 0;
}

/* Read what there is: > 0 bytes, 0 wait, -1 the connection is done. */
static ssize_t conn_read(struct conn *c, char *buf, size_t len)
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
static ssize_t conn_write(struct conn *c, const char *buf, size_t len)
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
 * The request's bytes as they come (TLS may hold more than poll() shows),
 * then the answer.  A request sent right behind the last on a kept-alive
 * connection (pipelined) may be in already.
 */
static void conn_take(struct exporter *x, struct conn *c)
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
		c->want = 0;
		if (!c->ssl || !sym_SSL_pending(c->ssl))
			break;
	}
	if (!c->in_len)
		return;
	for (k = 0, x->srv.connections = 0; k < MAX_CONN; k++)
		x->srv.connections += x->conns[k].fd >= 0;
	serve(x, c);
	if (!c->out && c->fd >= 0 && c->in_len == sizeof(c->in))
		error_answer(c, 431);
}

/*
 * The answer is out: the connection closes, or (kept alive) waits for its
 * next request.  true: that request may be in already, behind this one.
 */
static bool conn_answered(struct conn *c)
{
	if (!c->keep || stop || !idle_timeout_ns) {
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
	c->used = 0;
	c->t0 = ft_now_ns();
	c->idle = !c->in_len;
	c->want = 0;
	return c->in_len || (c->ssl && sym_SSL_pending(c->ssl));
}

/*
 * A connection is readable (a request coming) or writable (its answer
 * going); on a kept-alive one, requests already in are answered in turn.
 */
static void conn_io(struct exporter *x, struct conn *c, short revents)
{
	ssize_t n;

	if (revents & (POLLERR | POLLNVAL)) {
		conn_close(c);
		return;
	}
	if (c->handshake && tls_handshake(x, c) <= 0)
		return;
	do {
		if (!c->out) {
			conn_take(x, c);
			if (!c->out || c->fd < 0)
				return;
		}
		n = conn_write(c, c->out + c->out_off, c->out_len - c->out_off);
		if (n < 0) {
			conn_close(c);
			return;
		}
		c->out_off += (size_t)n;
		if (n > 0)
			c->want = 0;
		if (c->out_off < c->out_len)
			return;		/* the rest when the socket takes it */
	} while (conn_answered(c));
}

/* Without scrapes a sample still comes this often (exited tasks are reaped at ticks). */
#define IDLE_TICK_NS	(60ull * 1000000000ull)
/* The exporter drains the trace this often, busy or not: its buffers hold many seconds. */
#define TRACE_EVERY_NS	(1000000000ull)

/* ms until @ns from now, rounded up, at most @cap. */
static int ms_until(uint64_t ns, int cap)
{
	uint64_t ms = ns / 1000000 + 1;

	return ms < (uint64_t)cap ? (int)ms : cap;
}

/* The password checker's verdicts: each connection waiting on one goes on, at once or at its due time. */
static void take_verdicts(struct exporter *x)
{
	uint64_t ticket, due;
	bool ok;
	int k;

	while (ft_websec_result(&x->ws, &ticket, &ok, &due))
		for (k = 0; k < MAX_CONN; k++) {
			struct conn *c = &x->conns[k];

			if (c->fd < 0 || c->ticket != ticket)
				continue;
			c->ticket = 0;
			c->verdict = ok ? VERDICT_OK : VERDICT_DENIED;
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
static short conn_events(struct exporter *x, struct conn *c, uint64_t now, int *timeout)
{
	if (c->fd < 0)
		return -1;
	if (c->idle) {		/* kept alive, between requests */
		if (now - c->t0 > idle_timeout_ns) {
			x->srv.idle_timeouts++;
			conn_close(c);
			return -1;
		}
	} else if (now - c->t0 > CONN_TIMEOUT_NS) {	/* slow or silent: gone */
		conn_close(c);
		return -1;
	}
	if (c->ticket)
		return 0;
	if (c->verdict != VERDICT_NONE && !c->out) {
		if (now < c->due) {
			*timeout = ms_until(c->due - now, *timeout);
			return 0;
		}
		conn_io(x, c, 0);	/* answered now: 200 or 401 */
		if (c->fd < 0)
			return -1;
	}
	if (!c->out && !c->idle && now - c->t0 > x->head_timeout_ns) {
		/* no whole head in time */
		x->srv.head_timeouts++;
		conn_close(c);
		return -1;
	}
	return c->want ? c->want : c->out ? POLLOUT : POLLIN;
}

/*
 * One turn of the loop: the trace drained when due (and, rarely, an idle
 * tick), then poll() the sockets.  It sleeps until the next drain, at most
 * a second (a stop signal landing just before poll() waits that long).
 * -1: poll failed.
 */
static int serve_once(struct exporter *x)
{
	struct pollfd pf[MAX_CONN + LINGERS + 2];
	int idx[MAX_CONN + LINGERS + 2], np = 0, timeout = 1000, i;
	uint64_t now = ft_now_ns();

	if (now - x->last_tick_ns >= IDLE_TICK_NS) {
		/* nobody scrapes this one: the THP tree waits for a scrape */
		x->live.wants = 0;
		ft_live_tick(&x->live, false);
		x->live.wants = FT_LIVE_WANT_ALL | (x->cg ? FT_LIVE_WANT_CGROUPS : 0);
		ft_costlog_tick(&x->cost_log, &x->live.session, "exporter idle");
		x->last_tick_ns = now;
	}
	ft_live_trace_maybe_poll(&x->live);
	if (o.map)	/* --collector.map: the pass goes on between scrapes (at least a turn a second), in budget */
		ft_live_map_poll(&x->live);
	now = ft_now_ns();
	timeout = ms_until(ft_live_trace_wait_ns(&x->live), timeout);
	/* out of file descriptors: the listening socket rests a while (it would spin) */
	if (now >= x->accept_rest_until) {
		pf[np] = (struct pollfd){ .fd = x->lfd, .events = POLLIN };
		idx[np++] = -1;
	} else if (timeout > (int)((x->accept_rest_until - now) / 1000000) + 1) {
		timeout = (int)((x->accept_rest_until - now) / 1000000) + 1;
	}
	if (ft_websec_fd(&x->ws) >= 0) {
		pf[np] = (struct pollfd){ .fd = ft_websec_fd(&x->ws), .events = POLLIN };
		idx[np++] = -2;
	}
	for (i = 0; i < MAX_CONN; i++) {
		short ev = conn_events(x, &x->conns[i], now, &timeout);

		if (ev < 0)
			continue;
		pf[np] = (struct pollfd){ .fd = x->conns[i].fd, .events = ev };
		idx[np++] = i;
	}
	for (i = 0; i < LINGERS; i++) {
		if (x->lingers[i].fd < 0)
			continue;
		if (now >= x->lingers[i].until) {
			close(x->lingers[i].fd);
			x->lingers[i].fd = -1;
			continue;
		}
		pf[np] = (struct pollfd){ .fd = x->lingers[i].fd, .events = POLLIN };
		idx[np++] = MAX_CONN + i;
	}
	if (np > 1 && timeout > 100)
		timeout = 100;		/* connections have deadlines */
	if (poll(pf, (nfds_t)np, timeout) < 0)
		return errno == EINTR ? 0 : -1;
	now = ft_now_ns();
	for (i = 0; i < np; i++) {
		if (!pf[i].revents || idx[i] == -1)
			continue;
		if (idx[i] == -2)
			take_verdicts(x);
		else if (idx[i] >= MAX_CONN)
			linger_io(&x->lingers[idx[i] - MAX_CONN], now);
		else if (x->conns[idx[i]].fd >= 0)
			conn_io(x, &x->conns[idx[i]], pf[i].revents);
	}
	/* newcomers last: what came on the open connections is read first, so none passes for silent */
	if (np && idx[0] == -1 && pf[0].revents)
		accept_new(x);
	return 0;
}

/* --collector.cgroups: its tables, once; true when on. */
static bool cgroups_start(struct exporter *x)
{
	if (!o.live.cgroups)
		return false;
	x->cg = calloc(1, sizeof(*x->cg));
	if (!x->cg) {
		fprintf(stderr, "fragtop: --collector.cgroups: out of memory; serving without it\n");
		ft_live_want(&x->live, x->live.wants & ~(unsigned int)FT_LIVE_WANT_CGROUPS);
		return false;
	}
	ft_cgsel_init(&x->cg->sel, (int)o.cgroups_top);
	return true;
}

static int run(int argc, char **argv)
{
	static struct exporter x;
	int err, first, i;

	err = ft_cli_parse(&ft_cmd_exporter, argc, argv, &first);
	if (err >= 0)
		return err;
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_exporter, "'%s': no operand expected", argv[first]);
	if (o.web_config && ft_websec_load(&x.ws, o.web_config))
		return 1;
	websec = &x.ws;
	ft_cost_long_running();
	if (ft_costlog_open(&x.cost_log, o.cost_log)) {
		ft_websec_free(&x.ws);
		return 1;
	}
	x.lfd = listen_socket();
	if (x.lfd < 0) {
		ft_websec_free(&x.ws);
		return 1;
	}
	if (ft_liveopts_open(&x.live, &o.live)) {
		close(x.lfd);
		ft_websec_free(&x.ws);
		return 1;
	}
	x.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ft_self_init(&x.self);
	ft_catch_stop_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * The boost sampler without a thread: reads only after traced
	 * fallbacks, while a zone stays boosted and with each sample
	 */
	ft_live_boost_on_trace(&x.live, o.live.boost_given ? (unsigned int)o.live.boost_hz :
			       o.live.root && strcmp(o.live.root, "/") ? 0 : FT_LIVE_BOOST_HZ);
	x.live.trace.every_ns = TRACE_EVERY_NS;
	/* no family is per task: /proc/PID is read only for the cgroups' families */
	x.live.names.off = !cgroups_start(&x);
	if (ft_live_tick(&x.live, true))
		fprintf(stderr, "fragtop: no usable zoneinfo under %s yet; serving what there is\n", o.live.root);
	/* tracing runs all along, so counters are exact between scrapes */
	ft_liveopts_trace(&x.live, &o.live);
	if (o.map && ft_live_map_enable(&x.live, true))
		fprintf(stderr, "fragtop: --collector.map: no pageblock map (%s); serving without it\n",
			x.live.map.err == -ECANCELED ? "a CONFIG_DEBUG_VM kernel before 6.17: --map-force reads it" :
			strerror(-x.live.map.err));
	for (i = 0; i < MAX_CONN; i++)
		x.conns[i].fd = -1;
	for (i = 0; i < LINGERS; i++)
		x.lingers[i].fd = -1;
	x.head_timeout_ns = (uint64_t)(o.head_timeout * 1e9);
	idle_timeout_ns = (uint64_t)(o.idle_timeout * 1e9);
	say_listening(&x);
	x.max_age_ns = (uint64_t)(o.interval * 1e9);
	x.contig_sizes = o.contig_sizes;
	x.last_tick_ns = ft_now_ns();
	while (!stop && !serve_once(&x))
		;
	for (i = 0; i < MAX_CONN; i++)
		conn_close(&x.conns[i]);
	for (i = 0; i < LINGERS; i++)
		if (x.lingers[i].fd >= 0)
			close(x.lingers[i].fd);
	if (x.spare_fd >= 0)
		close(x.spare_fd);
	close(x.lfd);
	ft_self_close(&x.self);
	ft_live_close(&x.live);
	ft_websec_free(&x.ws);
	ft_costlog_close(&x.cost_log);
	free(x.cg);
	ft_fits_release(&x.fits);
	fprintf(stderr, "fragtop: exporter stopped after %llu scrapes\n", (unsigned long long)x.srv.scrapes);
	return 0;
}

const struct ft_cmd ft_cmd_exporter = {
	.name = "exporter",
	.summary = "serve the live session as Prometheus metrics (read-only)",
	.about = "GET /metrics: text format 0.0.4, or OpenMetrics 1.0 when the client's\n"
		 "Accept asks for it.  Port 9947 by default: Prometheus's exporter port\n"
		 "registry (9100-9999) has no free number left, so fragtop does not claim\n"
		 "one; --listen changes it.  Tracing runs all along: counters are exact\n"
		 "between scrapes.  No knob is ever written.",
	FT_CMD_OPTS(opts),
	.run = run,
};
