// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop fleet --prometheus URL`: a top whose rows are hosts, from the
 * Prometheus HTTP API only (any server speaking it: Prometheus, Thanos,
 * Mimir, VictoriaMetrics).  Three queries a refresh whatever the number
 * of hosts, three more for a host's drill-down (analysis/fleet.h); the
 * table on a terminal (tui/fleet.c), once as text when stdout is not one
 * or with --once, or as JSON with --json.  A refresh that fails keeps the
 * last good table and says why on the status line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/fleet.h"
#include "base/clock.h"
#include "cmd/cli.h"
#include "net/promapi.h"
#include "cmd/signals.h"
#include "model/fit.h"
#include "net/promurl.h"
#include "render/fleet.h"
#include "tui/fleet.h"

static struct {
	const char *url, *selector, *sort, *filter, *sizes, *host, *at;
	const char *user, *password_file, *bearer_file, *ca_file;
	double window, interval, timeout;
	bool json, once, insecure, no_color;
} o;

static int parse_window(const char *arg, void *var, char *why, size_t sz)
{
	if (ft_prom_duration(arg, var)) {
		snprintf(why, sz, "is not a duration (15m, 1h, 900)");
		return -1;
	}
	return 0;
}

static const struct ft_opt opts[] = {
	{ "prometheus", 'p', FT_OPT_STR, "URL",
	  "the Prometheus (or Thanos, Mimir, VictoriaMetrics) to "
	  "ask:\nhttp[s]://HOST[:PORT][/PREFIX]", .var = &o.url },
	{ "selector", 0, FT_OPT_STR, "{LABEL=\"VALUE\",...}",
	  "the hosts: a label selector on Prometheus's up series",
	  .var = &o.selector, .def = "{job=\"fragtop\"}" },
	{ "window", 'w', FT_OPT_CB, "DURATION", "the sparklines' window (15m, 1h, or seconds)",
	  .var = &o.window,
	  .def = "15m", .parse = parse_window },
	{ "sort", 's', FT_OPT_STR, "COLUMN",
	  "sort by the column with this header (FALLBK/s, 2M_AC, UP, ...),\nworst first",
	  .var = &o.sort, .def = "FALLBK/s" },
	{ "filter", 'f', FT_OPT_STR, "LABEL=VALUE|TEXT",
	  "only the hosts with this target label, or whose\ninstance holds TEXT",
	  .var = &o.filter },
	{ "size", 0, FT_OPT_STR, "SIZE[,...]",
	  "the sizes whose contiguity is shown, now and after\ncompaction (at most 4)",
	  .var = &o.sizes, .def = "2M,1G" },
	{ "host", 0, FT_OPT_STR, "INSTANCE",
	  "print one host's drill-down (its zones and cgroups) instead", .var = &o.host },
	{ "at", 0, FT_OPT_STR, "TIME", "ask as of TIME (RFC 3339 or Unix seconds) instead of now",
	  .var = &o.at },
	{ "interval", 'd', FT_OPT_SECS, "SECS", "seconds between refreshes", 1, 86400,
	  .var = &o.interval, .def = "15" },
	{ "timeout", 0, FT_OPT_SECS, "SECS",
	  "the most a refresh may take; past it the last table stays", 0.1, 300,
	  .var = &o.timeout, .def = "5" },
	{ "user", 0, FT_OPT_STR, "NAME", "basic auth as NAME (with --password-file)",
	  .var = &o.user },
	{ "password-file", 0, FT_OPT_STR, "FILE",
	  "the basic-auth password: FILE's first line, read at each request",
	  .var = &o.password_file },
	{ "bearer-token-file", 0, FT_OPT_STR, "FILE",
	  "send FILE's first line as a bearer token, read at each\nrequest",
	  .var = &o.bearer_file },
	{ "ca-file", 0, FT_OPT_STR, "FILE",
	  "https: trust the CA certificates in FILE instead of the system's",
	  .var = &o.ca_file },
	{ "insecure-skip-verify", 0, FT_OPT_FLAG, NULL,
	  "https: do not check the server's certificate", .var = &o.insecure },
	{ "once", '1', FT_OPT_FLAG, NULL,
	  "print the table once as text and exit (so does a stdout that is\nnot a terminal)",
	  .var = &o.once },
	FT_OPT_JSON(o.json),
	{ "no-color", 0, FT_OPT_FLAG, NULL, "monochrome", .var = &o.no_color },
};

struct fleet_run {
	struct ft_promapi api;
	struct ft_prom_resp r[3];
	struct ft_fleet next;		/* built here, swapped in when the refresh is whole */
	struct ft_fleet_sizes sizes;
	struct ft_fleet_meta meta;
};

/* One GET of the API; the query string from @query and the times. */
static int ask(struct fleet_run *fr, const char *path, const char *query, double start, double end,
	       uint64_t deadline, struct ft_prom_resp *r, char *why, size_t sz)
{
	char qs[8192] = "query=", t[64];

	if (!ft_prom_urlencode(qs, sizeof(qs), query)) {
		snprintf(why, sz, "a query too long for a URL");
		return -1;
	}
	if (start > 0) {
		snprintf(t, sizeof(t), "&start=%.3f&end=%.3f&step=%.3f", start, end,
			 (end - start) / (FT_FLEET_SPARK - 1));
		strcat(qs, t);
	} else if (o.at) {
		strcat(qs, "&time=");
		if (!ft_prom_urlencode(qs, sizeof(qs), o.at)) {
			snprintf(why, sz, "--at too long");
			return -1;
		}
	} else {
		snprintf(t, sizeof(t), "&time=%.3f", end);
		strcat(qs, t);
	}
	return ft_promapi_get(&fr->api, path, qs, deadline, r, why, sz);
}

/* What a refresh or a drill-down cost, since @t0 and the counts it began at. */
static void meta_done(struct fleet_run *fr, double at, uint64_t t0, unsigned long req0,
		      unsigned long long bytes0)
{
	fr->meta.at = at;
	fr->meta.queries = fr->api.requests - req0;
	fr->meta.bytes = fr->api.bytes_in - bytes0;
	fr->meta.seconds = (double)(ft_now_ns() - t0) / 1e9;
}

/* The evaluation time: --at as the server reads it (one query of time()), else now. */
static int eval_time(struct fleet_run *fr, uint64_t deadline, double *at, char *why, size_t sz)
{
	if (!o.at) {
		*at = (double)ft_realtime_ns() / 1e9;
		return 0;
	}
	if (strspn(o.at, "0123456789.") == strlen(o.at)) {
		*at = strtod(o.at, NULL);	/* Unix seconds: no need to ask */
		return 0;
	}
	if (ask(fr, "/api/v1/query", "time()", 0, 0, deadline, &fr->r[0], why, sz))
		return -1;
	if (!fr->r[0].nseries || !fr->r[0].series[0].nsamples) {
		snprintf(why, sz, "--at: the server gave no time");
		return -1;
	}
	*at = fr->r[0].samples[0].v;
	return 0;
}

/*
 * A refresh: the hosts, their figures, the sort column's sparklines. 0, or -1 with why (the table
 * unchanged).
 */
static int refresh(void *ctx, struct ft_fleet *f, char *why, size_t sz)
{
	struct fleet_run *fr = ctx;
	uint64_t t0 = ft_now_ns(), deadline = t0 + (uint64_t)(o.timeout * 1e9);
	unsigned long req0 = fr->api.requests;
	unsigned long long bytes0 = fr->api.bytes_in;
	char q[4096];
	double at;

	if (eval_time(fr, deadline, &at, why, sz))
		return -1;
	if (!ft_fleet_query_up(o.selector, q, sizeof(q)) ||
	    ask(fr, "/api/v1/query", q, 0, at, deadline, &fr->r[0], why, sz))
		return -1;
	if (!ft_fleet_query_figures(o.selector, q, sizeof(q)) ||
	    ask(fr, "/api/v1/query", q, 0, at, deadline, &fr->r[1], why, sz))
		return -1;
	fr->next.sort = f->sort;
	fr->next.inverted = f->inverted;
	memcpy(fr->next.filter, f->filter, sizeof(f->filter));
	if (ft_fleet_build(&fr->next, &fr->r[0], &fr->r[1], why, sz))
		return -1;
	if (ft_fleet_query_spark(&fr->next, o.selector, q, sizeof(q))) {
		if (ask(fr, "/api/v1/query_range", q, at - o.window, at, deadline, &fr->r[2], why,
			sz))
			return -1;
		ft_fleet_sparks(&fr->next, &fr->r[2], at - o.window,
				o.window / (FT_FLEET_SPARK - 1));
	}
	{
		struct ft_fleet t = *f;

		*f = fr->next;
		fr->next = t;
	}
	meta_done(fr, at, t0, req0, bytes0);
	return 0;
}

static int detail(void *ctx, const char *instance, struct ft_fleet_detail *d, char *why, size_t sz)
{
	struct fleet_run *fr = ctx;
	uint64_t t0 = ft_now_ns(), deadline = t0 + (uint64_t)(o.timeout * 1e9);
	char q[FT_FLEET_DETAIL_QUERIES][1024];
	const struct ft_prom_resp *r[FT_FLEET_DETAIL_QUERIES] = { &fr->r[0], &fr->r[1], &fr->r[2] };
	unsigned long req0 = fr->api.requests;
	unsigned long long bytes0 = fr->api.bytes_in;
	double at;

	if (!ft_fleet_detail_queries(instance, q)) {
		snprintf(why, sz, "an instance too long to ask for");
		return -1;
	}
	if (eval_time(fr, deadline, &at, why, sz) ||
	    ask(fr, "/api/v1/query", q[0], 0, at, deadline, &fr->r[0], why, sz) ||
	    ask(fr, "/api/v1/query_range", q[1], at - o.window, at, deadline, &fr->r[1], why, sz) ||
	    ask(fr, "/api/v1/query", q[2], 0, at, deadline, &fr->r[2], why, sz))
		return -1;
	ft_fleet_detail_build(d, instance, &fr->sizes, r, at - o.window,
			      o.window / (FT_FLEET_SPARK - 1));
	meta_done(fr, at, t0, req0, bytes0);
	return 0;
}

static int setup(struct fleet_run *fr, struct ft_fleet *f)
{
	struct ft_promapi_opts ao = { o.url, o.user, o.password_file, o.bearer_file, o.ca_file,
				      o.insecure };
	long page = sysconf(_SC_PAGESIZE);
	int orders[FT_FLEET_SIZES];
	size_t n = 0;
	char why[512];

	if (!o.url)
		return ft_cli_usage_error(&ft_cmd_fleet, "--prometheus URL is needed (e.g. "
							 "http://prometheus:9090)");
	if (ft_promql_selector_check(o.selector, why, sizeof(why)))
		return ft_cli_usage_error(&ft_cmd_fleet, "--selector: %s", why);
	if (o.sizes[0] &&
	    ft_fit_sizes_parse(o.sizes, page, orders, FT_FLEET_SIZES, &n, why, sizeof(why)))
		return ft_cli_usage_error(&ft_cmd_fleet, "--size: %s", why);
	if (o.at && strspn(o.at, "0123456789.:-+TZtz") != strlen(o.at))
		return ft_cli_usage_error(&ft_cmd_fleet, "--at '%s': not RFC 3339 nor Unix seconds",
					  o.at);
	ft_fleet_sizes_of(&fr->sizes, orders, (int)n, page);
	ft_fleet_init(f, &fr->sizes);
	ft_fleet_init(&fr->next, &fr->sizes);
	f->sort = ft_fleet_col_find(f, o.sort);
	if (f->sort < 0) {
		char heads[512] = "";

		for (int c = 0; c < f->ncols; c++)
			snprintf(heads + strlen(heads), sizeof(heads) - strlen(heads), "%s%s",
				 c ? " " : "", f->cols[c].head);
		return ft_cli_usage_error(&ft_cmd_fleet, "--sort '%s': no such column (%s)", o.sort,
					  heads);
	}
	if (o.filter)
		snprintf(f->filter, sizeof(f->filter), "%s", o.filter);
	if (ft_promapi_open(&fr->api, &ao, why, sizeof(why))) {
		fprintf(stderr, "fragtop fleet: %s\n", why);
		return 1;
	}
	fr->meta.url = o.url;
	fr->meta.selector = o.selector;
	fr->meta.window = o.window;
	return -1;
}

static int print_once(struct fleet_run *fr, struct ft_fleet *f)
{
	char why[1024];

	if (o.host) {
		struct ft_fleet_detail *d = calloc(1, sizeof(*d));
		int rc = d ? detail(fr, o.host, d, why,
				    sizeof(why)) : (snprintf(why, sizeof(why), "out of memory"),
						    -1);

		if (!rc) {
			if (o.json)
				ft_render_fleet_detail_json(stdout, d, &fr->meta);
			else
				ft_render_fleet_detail_text(stdout, d, &fr->meta);
		}
		free(d);
		if (rc)
			fprintf(stderr, "fragtop fleet: %s\n", why);
		return rc ? 1 : 0;
	}
	if (refresh(fr, f, why, sizeof(why))) {
		fprintf(stderr, "fragtop fleet: %s\n", why);
		return 1;
	}
	if (f->no_rules)
		fprintf(stderr, "fragtop fleet: %zu hosts answer but no fragtop:fleet_* series "
				"exists: load the "
			"fragtop-fleet group of dist/fragtop-rules.yml into Prometheus\n",
			f->nhosts);
	if (o.json)
		ft_render_fleet_json(stdout, f, &fr->meta);
	else
		ft_render_fleet_text(stdout, f, &fr->meta);
	return 0;
}

static int run(int argc, char **argv)
{
	struct fleet_run *fr;
	struct ft_fleet f = { 0 };
	int first, rc;

	rc = ft_cli_parse(&ft_cmd_fleet, argc, argv, &first);
	if (rc >= 0)
		return rc;
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_fleet, "'%s': no operand expected", argv[first]);
	fr = calloc(1, sizeof(*fr));
	if (!fr) {
		fprintf(stderr, "fragtop fleet: out of memory\n");
		return 1;
	}
	rc = setup(fr, &f);
	if (rc < 0) {
		if (o.json || o.once || o.host || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
			rc = print_once(fr, &f);
		} else {
			struct ft_fleetui_src src = { fr, refresh, detail, o.interval, &fr->meta,
						      ft_catch_stop() };

			rc = ft_fleetui_run(&src, &f, !o.no_color);
			if (!rc && ft_stop_signal())
				/* as the host TUI: killed, said so */
				rc = 128 + ft_stop_signal();
		}
		ft_promapi_close(&fr->api);
	}
	ft_fleet_release(&f);
	ft_fleet_release(&fr->next);
	for (int i = 0; i < 3; i++)
		ft_prom_resp_release(&fr->r[i]);
	free(fr);
	return rc;
}

const struct ft_cmd ft_cmd_fleet = {
	.name = "fleet",
	.summary = "rank the hosts Prometheus scrapes, worst first, and open one",
	.about = "Reads the fleet's recording rules (dist/fragtop-rules.yml, group\n"
		 "fragtop-fleet) through the Prometheus HTTP API: three queries a refresh\n"
		 "however many hosts.  Exit status: 0, or 1 when Prometheus cannot be asked\n"
		 "(the reason on stderr), 2 on a usage error.",
	FT_CMD_OPTS(opts),
	.run = run,
	.curses = true,
};
