/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A client of the Prometheus HTTP API for `fragtop fleet`: GET
 * /api/v1/query and /api/v1/query_range over HTTP/1.0 (one connection an
 * answer, read to its end), plain or TLS (OpenSSL, loaded when the URL is
 * https), with basic auth or a bearer token read from their files at each
 * request (a rotated token is taken), and one deadline for all of a
 * refresh's requests: a server that is down, slow or silent costs at most
 * --timeout, never a hang.  A name is resolved with getaddrinfo_a() under
 * the same deadline.
 */
#ifndef FT_NET_PROMAPI_H
#define FT_NET_PROMAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/promresp.h"
#include "net/promurl.h"

#define FT_PROMAPI_MAX_ANSWER	(64u << 20)	/* a longer answer is refused */

struct ft_promapi_opts {
	const char *url;
	const char *user;		/* basic auth, with @password_file */
	const char *password_file;
	const char *bearer_token_file;	/* Authorization: Bearer, read at each request */
	const char *ca_file;		/* https: trust these instead of the system's */
	bool insecure;			/* https: no certificate check */
};

struct ft_promapi {
	struct ft_prom_url url;
	struct ft_promapi_opts o;
	void *ctx;			/* SSL_CTX, https only */
	char *buf;			/* the last answer */
	size_t cap;
	/* counted: what the refreshes cost */
	unsigned long requests;
	unsigned long long bytes_in;
};

/* Check the options and load TLS when the URL is https.  0, or -1 with why. */
int ft_promapi_open(struct ft_promapi *c, const struct ft_promapi_opts *o, char *why, size_t sz);
void ft_promapi_close(struct ft_promapi *c);

/*
 * GET @path (after the URL's prefix: "/api/v1/query") with the query
 * string @qs (percent-encoded) before @deadline_ns (CLOCK_MONOTONIC), and
 * read the answer into @r.  0 when the server answered "success", else -1
 * with what a status line shows: cannot connect, no answer in time, the
 * HTTP status and what to check, a malformed answer, the server's error.
 */
int ft_promapi_get(struct ft_promapi *c, const char *path, const char *qs, uint64_t deadline_ns,
		   struct ft_prom_resp *r, char *why, size_t sz);

#endif
