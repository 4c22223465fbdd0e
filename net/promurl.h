/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `fragtop fleet` sends to a Prometheus: the server's URL as an
 * operator writes it (http or https, a host name, IPv4 or [IPv6], a port,
 * a path prefix such as Thanos's or a reverse proxy's), a query string's
 * percent-encoding (RFC 3986), and a PromQL string literal around a label
 * value that came from the server.  Pure.
 */
#ifndef FT_NET_PROMURL_H
#define FT_NET_PROMURL_H

#include <stdbool.h>
#include <stddef.h>

struct ft_prom_url {
	bool tls;		/* https */
	char host[256];		/* without brackets */
	char port[8];		/* 9090 unless given (443 for https) */
	char prefix[512];	/* "" or "/path" without a trailing '/' */
};

/* Parse @arg into @u: 0, or -1 with the reason in @why. */
int ft_prom_url_parse(const char *arg, struct ft_prom_url *u, char *why, size_t sz);

/*
 * Append @in to @out (NUL-ended, @sz bytes in all) percent-encoded for a
 * query string: all but RFC 3986's unreserved characters.  False when
 * it does not fit (@out then holds what did).
 */
bool ft_prom_urlencode(char *out, size_t sz, const char *in);

/*
 * @in as a PromQL double-quoted string literal in @out: quote, backslash
 * and control characters escaped.  False when it does not fit.
 */
bool ft_promql_quote(char *out, size_t sz, const char *in);

/*
 * A label selector as --selector takes it: '{...}' with no byte that
 * would end the braces early (a newline, an unbalanced quote).  The
 * server checks the rest.  0, or -1 with why.
 */
int ft_promql_selector_check(const char *sel, char *why, size_t sz);

/*
 * A duration as PromQL writes one ("15m", "1h30m", "90s", "500ms") or
 * plain seconds ("900"), into *@secs.  0, or -1 when it is neither or
 * not above 0.
 */
int ft_prom_duration(const char *s, double *secs);

/*
 * @arg as it may be printed: "http://admin:hunter2@host" as
 * "http://admin:***@host" (errors go to CI logs and the journal).
 */
void ft_prom_url_masked(const char *arg, char *buf, size_t sz);

#endif
