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
 * Read-only (no knob is written).  The server (slots, deadlines,
 * eviction, TLS, basic auth) is net/httpd.c, which knows nothing of
 * metrics: this file holds the options, the sampling loop and the
 * answers to /metrics and /.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cost.h"
#include "analysis/cgrows.h"
#include "analysis/cgtop.h"
#include "analysis/findings_live.h"
#include "base/hostport.h"
#include "collectors/live.h"
#include "collectors/self.h"
#include "net/httpreq.h"
#include "cmd/cli.h"
#include "net/httpd.h"
#include "cmd/costlog.h"
#include "base/gzip.h"
#include "cmd/liveopts.h"
#include "render/metrics.h"
#include "cmd/signals.h"
#include "net/websec.h"

#define FT_EXPORTER_PORT	9947

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

/* What the serving loop holds. */
struct exporter {
	struct ft_httpd httpd;		/* the server (net/httpd.h) */
	struct ft_live live;
	struct ft_metrics_server srv;	/* the scrape's own figures, the server's copied in */
	struct ft_self self;		/* its process_* figures */
	struct ft_websec ws;		/* --web.config.file: TLS and users, or neither */
	bool said_no_gzip;		/* zlib could not be loaded: said once */
	/* a scrape finds a sample at most max_age_ns old (--interval), else takes one */
	uint64_t max_age_ns, last_tick_ns;
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
	/*
	 * fragtop_finding_active: the rules over the last minute of ticks
	 * (analysis/findings_live.h)
	 */
	struct ft_find_live find;
	struct ft_findings findings;
};

/* A fresh sample for a scrape, unless the last is young enough: files are read when asked. */
static void fresh_sample(struct exporter *x)
{
	uint64_t now = ft_now_ns();

	if (now - x->last_tick_ns < x->max_age_ns)
		return;
	ft_live_tick(&x->live, false);
	ft_find_live_tick(&x->find, &x->live.session);
	ft_costlog_tick(&x->cost_log, &x->live.session, "exporter scrape");
	x->last_tick_ns = now;
}

/* fragtop_finding_active: the rules over the window, once the exporter has two ticks in it. */
static void findings_of_scrape(struct exporter *x, struct ft_metrics *m)
{
	if (!ft_find_in_live(&x->find, &x->live.session, &x->findings.in))
		return;
	ft_find_eval(&x->findings.in, &x->findings);
	m->findings = &x->findings;
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

/*
 * fragtop_contiguous_blocks: every size of interest, after the map where --collector.map reads it.
 */
static void fits_of_scrape(struct exporter *x, struct ft_metrics *m)
{
	const struct ft_session *s = &x->live.session;
	struct ft_fits_sizes sizes;
	int asked[FT_FITS_SIZES_MAX];
	char err[128];
	size_t n = 0;

	/* checked at start (sizes_ok), with the same page size */
	if (x->contig_sizes &&
	    ft_fit_sizes_parse(x->contig_sizes, s->host.page_size, asked, FT_FITS_SIZES_MAX, &n,
			       err, sizeof(err)))
		n = 0;
	ft_fits_sizes(s, FT_FITS_SRC_HOST, asked, n, &sizes);
	if (!ft_fits_build(&x->fits, s, &sizes, true))
		m->fits = &x->fits;
}

/*
 * A scrape's answer: gzip-compressed when the client takes it (and zlib
 * is there; said once when not), else as it is.
 */
static void metrics_answer(struct exporter *x, struct ft_httpd_conn *c, const struct ft_http_req *r,
			   const char *body, size_t len)
{
	const char *ct = r->openmetrics ? FT_METRICS_CT_OPENMETRICS : FT_METRICS_CT_TEXT;
	char why[256], *z;
	size_t zlen;

	if (r->gzip && !ft_gzip(body, len, &z, &zlen, why, sizeof(why))) {
		x->srv.gzip++;
		ft_httpd_answer(c, 200, "OK", ct,
				"Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n", z, zlen,
				r->head);
		free(z);
		return;
	}
	if (r->gzip && !x->said_no_gzip) {
		fprintf(stderr, "fragtop: answering uncompressed: %s\n", why);
		x->said_no_gzip = true;
	}
	ft_httpd_answer(c, 200, "OK", ct, "Vary: Accept-Encoding\r\n", body, len, r->head);
}

/* The server's counters into the scrape's (the exporter's families). */
static void server_figures(struct exporter *x)
{
	const struct ft_httpd_stats *st = &x->httpd.st;
	struct ft_metrics_server *m = &x->srv;

	m->connections = st->connections;
	m->accepted = st->accepted;
	m->refused = st->refused;
	m->fd_rests = st->fd_rests;
	m->unauthorized = st->unauthorized;
	m->tls_failed = st->tls_failed;
	m->evicted = st->evicted;
	m->head_timeouts = st->head_timeouts;
	m->idle_timeouts = st->idle_timeouts;
	m->throttled = st->throttled;
	m->request_timeouts = st->request_timeouts;
}

/* GET /metrics: the session as it stands, after a fresh sample when the last is old. */
static void scrape(struct exporter *x, struct ft_httpd_conn *c, const struct ft_http_req *r)
{
	struct ft_metrics m = { .openmetrics = r->openmetrics, .eof = true, .server = &x->srv };
	char *p = NULL;
	size_t len = 0;
	FILE *f;

	fresh_sample(x);
	cgroups_of_scrape(x, &m);
	fits_of_scrape(x, &m);
	findings_of_scrape(x, &m);
	ft_self_read(&x->self, &x->srv.process);
	server_figures(x);
	f = open_memstream(&p, &len);
	if (!f || ft_render_metrics_write(f, &x->live.session, &m) || fclose(f)) {
		free(p);
		ft_httpd_error(c, 503);
		return;
	}
	x->srv.scrapes++;
	metrics_answer(x, c, r, p, len);
	free(p);
}

/* The server's handler: a whole, authorized request. */
static void route(void *ctx, struct ft_httpd_conn *c, const struct ft_http_req *r)
{
	static const char page[] =
		"<!DOCTYPE html>\n<html><head><title>fragtop "
		"exporter</title></head><body><h1>fragtop exporter</h1><p><a "
		"href=\"/metrics\">Metrics</a></p></body></html>\n";

	if (!strcmp(r->path, "/metrics"))
		scrape(ctx, c, r);
	else if (!strcmp(r->path, "/"))
		ft_httpd_answer(c, 200, "OK", "text/html; charset=utf-8", "", page,
				sizeof(page) - 1, r->head);
	else
		ft_httpd_error(c, 404);
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
	uint64_t max_conn, max_per_client, max_rate;
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
	{ "max-connections", 0, FT_OPT_UINT, "N", "connections served at once; more get 503", 1,
	  FT_HTTPD_MAX_CONN,
	  .var = &o.max_conn, .def = "16" },
	{ "header-timeout", 0, FT_OPT_SECS, "SECS",
	  "a connection that has not sent its whole request head by then\n"
	  "is closed (slow clients cannot hold slots)", 0.1, 60, .var = &o.head_timeout,
	  .def = "3" },
	{ "idle-timeout", 0, FT_OPT_SECS, "SECS",
	  "how long a kept-alive connection may wait for its next request\n"
	  "(Prometheus keeps one open between scrapes; 0: close after\n"
	  "each answer)", 0, 3600, .var = &o.idle_timeout, .def = "120" },
	{ "max-per-client", 0, FT_OPT_UINT, "N",
	  "connections one client address holds at once", 1, FT_HTTPD_MAX_CONN,
	  .var = &o.max_per_client,
	  .def = "4" },
	{ "max-rate", 0, FT_OPT_UINT, "N",
	  "answers one client address gets a second at most (a second's\n"
	  "worth at once); more requests wait their turn unread, so a\n"
	  "client pipelining requests cannot take the exporter's CPU\n"
	  "(0: no bound)", 0, 100000, .var = &o.max_rate, .def = "50" },
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
	  "fragmenting, chosen again each scrape), the rest in \"other\"", 1, FT_CGTOP_MAX,
	  .var = &o.cgroups_top, .def = "20" },
	{ "collector.map", 0, FT_OPT_FLAG, NULL,
	  "also scan the pageblock map (/proc/kpageflags, root) within\n"
	  "--map-cpu and export each zone's pollution amplification and\n"
	  "gigantic pages available now and after compaction",
	  .var = &o.map },
	{ "map-cpu", 0, FT_OPT_NUM, "PCT",
	  "with --collector.map: CPU the exporter may use in all while it\n"
	  "scans, % of a core (a pass over 24 GiB takes ~0.23 s of CPU)", 0.1, 100,
	  .var = &o.live.map_cpu, .def = "2", .given = &o.live.map_cpu_given },
	FT_OPT_MAP_FORCE(o.live.map_force),
	{ "collector.contiguity.sizes", 0, FT_OPT_CB, "SIZE[,...]",
	  "fragtop_contiguous_blocks for these sizes too (powers of two:\n"
	  "4M, 32M), besides the host's hugetlb, multi-size THP and\n"
	  "pageblock sizes; 16 sizes in all at most", .var = &o.contig_sizes, .parse = sizes_ok },
	FT_OPT_COST_LOG(o.cost_log),
};

/* The address, and a warning when it is more than this host and not both TLS and auth. */
static void say_listening(const struct exporter *x)
{
	bool tls = x->ws.ctx, auth = x->ws.wc.nr_users > 0;
	char addr[FT_HOSTPORT_MAX];

	ft_hostport_format(&o.listen, addr, sizeof(addr));
	fprintf(stderr, "fragtop: exporter on http%s://%s/metrics (a sample per scrape, at most "
			"every %gs)%s%s\n",
		tls ? "s" : "", addr, o.interval, x->live.trace.on ? " with tracepoints" : "",
		auth ? ", basic auth" : "");
	if (ft_hostport_loopback(&o.listen) || (tls && auth))
		return;
	if (!tls && !auth)
		fprintf(stderr,
			"fragtop: warning: listening beyond loopback (%s) with neither TLS nor "
			"authentication: whoever reaches the port reads the metrics\n", addr);
	else if (!tls)
		fprintf(stderr,
			"fragtop: warning: listening beyond loopback (%s) without TLS: passwords "
			"and metrics cross the network in the clear\n", addr);
	else
		fprintf(stderr,
			"fragtop: warning: listening beyond loopback (%s) without authentication: "
			"whoever reaches the port reads the metrics\n", addr);
}

/* Without scrapes a sample still comes this often (exited tasks are reaped at ticks). */
#define IDLE_TICK_NS	(60ull * 1000000000ull)
/*
 * The exporter drains the trace this often without cgroups, busy or not: its buffers hold many
 * seconds.
 */
#define TRACE_EVERY_NS	(1000000000ull)

/* ms until @ns from now, rounded up, at most @cap. */
static int ms_until(uint64_t ns, int cap)
{
	uint64_t ms = ns / 1000000 + 1;

	return ms < (uint64_t)cap ? (int)ms : cap;
}

/*
 * One turn of the loop: the trace drained when due (and, rarely, an idle
 * tick), then the server's turn.  It sleeps until the next drain, at
 * most a second (a stop signal landing just before poll() waits that
 * long).  -1: poll failed.
 */
static int serve_once(struct exporter *x)
{
	uint64_t now = ft_now_ns();

	if (now - x->last_tick_ns >= IDLE_TICK_NS) {
		/* nobody scrapes this one: the THP tree waits for a scrape */
		x->live.wants = 0;
		ft_live_tick(&x->live, false);
		ft_find_live_tick(&x->find, &x->live.session);
		x->live.wants = FT_LIVE_WANT_ALL | (x->cg ? FT_LIVE_WANT_CGROUPS : 0);
		ft_costlog_tick(&x->cost_log, &x->live.session, "exporter idle");
		x->last_tick_ns = now;
	}
	ft_live_trace_maybe_poll(&x->live);
	/*
	 * --collector.map: the pass goes on between scrapes (at least a turn a second), in budget
	 */
	if (o.map)
		ft_live_map_poll(&x->live);
	return ft_httpd_poll(&x->httpd, ms_until(ft_live_trace_wait_ns(&x->live), 1000));
}

/* --collector.cgroups: its tables, once; true when on. */
static bool cgroups_start(struct exporter *x)
{
	if (!o.live.cgroups)
		return false;
	x->cg = calloc(1, sizeof(*x->cg));
	if (!x->cg) {
		fprintf(stderr,
			"fragtop: --collector.cgroups: out of memory; serving without it\n");
		ft_live_want(&x->live, x->live.wants & ~(unsigned int)FT_LIVE_WANT_CGROUPS);
		return false;
	}
	ft_cgsel_init(&x->cg->sel, (int)o.cgroups_top);
	return true;
}

static int run(int argc, char **argv)
{
	static struct exporter x;
	struct ft_httpd_opts ho = {
		.listen = &o.listen, .stop = &stop, .handle = route, .ctx = &x,
	};
	int err, first;

	err = ft_cli_parse(&ft_cmd_exporter, argc, argv, &first);
	if (err >= 0)
		return err;
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_exporter, "'%s': no operand expected",
					  argv[first]);
	if (o.web_config && ft_websec_load(&x.ws, o.web_config))
		return 1;
	ft_cost_long_running();
	if (ft_costlog_open(&x.cost_log, o.cost_log)) {
		ft_websec_free(&x.ws);
		return 1;
	}
	ho.max_conn = (unsigned int)o.max_conn;
	ho.max_per_client = (unsigned int)o.max_per_client;
	ho.max_rate = (unsigned int)o.max_rate;
	ho.head_timeout_ns = (uint64_t)(o.head_timeout * 1e9);
	ho.idle_timeout_ns = (uint64_t)(o.idle_timeout * 1e9);
	ho.ws = &x.ws;
	if (ft_httpd_open(&x.httpd, &ho)) {
		ft_websec_free(&x.ws);
		return 1;
	}
	if (ft_liveopts_open(&x.live, &o.live)) {
		ft_httpd_close(&x.httpd);
		ft_websec_free(&x.ws);
		return 1;
	}
	ft_self_init(&x.self);
	ft_catch_stop_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * The boost sampler without a thread: reads only after traced
	 * fallbacks, while a zone stays boosted and with each sample
	 */
	ft_live_boost_on_trace(&x.live, o.live.boost_given ? (unsigned int)o.live.boost_hz :
			       o.live.root && strcmp(o.live.root, "/") ? 0 : FT_LIVE_BOOST_HZ);
	/* no family is per task: /proc/PID is read only for the cgroups' families */
	x.live.names.off = !cgroups_start(&x);
	/* with them, the live source's cadence: a task's cgroup is read while it lives */
	x.live.trace.every_ns = x.live.names.off ? TRACE_EVERY_NS : 0;
	if (ft_live_tick(&x.live, true))
		fprintf(stderr, "fragtop: no usable zoneinfo under %s yet; serving what there is\n",
			o.live.root);
	/* tracing runs all along, so counters are exact between scrapes */
	ft_liveopts_trace(&x.live, &o.live);
	if (o.map && ft_live_map_enable(&x.live, true))
		fprintf(stderr,
			"fragtop: --collector.map: no pageblock map (%s); serving without it\n",
			x.live.map.err == -ECANCELED ?
				"a CONFIG_DEBUG_VM kernel before 6.17: --map-force reads it" :
			strerror(-x.live.map.err));
	say_listening(&x);
	x.max_age_ns = (uint64_t)(o.interval * 1e9);
	x.contig_sizes = o.contig_sizes;
	ft_find_live_init(&x.find, 0);
	ft_find_live_tick(&x.find, &x.live.session);
	x.last_tick_ns = ft_now_ns();
	while (!stop && !serve_once(&x))
		;
	ft_httpd_close(&x.httpd);
	ft_self_close(&x.self);
	ft_live_close(&x.live);
	ft_websec_free(&x.ws);
	ft_costlog_close(&x.cost_log);
	free(x.cg);
	ft_fits_release(&x.fits);
	fprintf(stderr, "fragtop: exporter stopped after %llu scrapes\n",
		(unsigned long long)x.srv.scrapes);
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
