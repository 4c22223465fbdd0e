// SPDX-License-Identifier: GPL-2.0-or-later
#include "net/promapi.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/grow.h"
#include "net/tlslib.h"
#include "net/httpans.h"

#ifndef FT_VERSION
#define FT_VERSION "0"
#endif

struct conn {
	int fd;
	SSL *ssl;
	uint64_t deadline;
};

static int left_ms(uint64_t deadline)
{
	uint64_t now = ft_now_ns();

	if (now >= deadline)
		return 0;
	return (int)((deadline - now + 999999) / 1000000);
}

/* A secret from its file: the first line, its end trimmed (as Prometheus's *_file). */
static int read_secret(const char *path, char *out, size_t sz, char *why, size_t wsz)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;

	if (fd < 0) {
		snprintf(why, wsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, out, sz - 1);
	close(fd);
	if (n < 0) {
		snprintf(why, wsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	out[n] = '\0';
	out[strcspn(out, "\r\n")] = '\0';
	if (!out[0]) {
		snprintf(why, wsz, "%s is empty", path);
		return -1;
	}
	return 0;
}

static void base64(const char *in, char *out, size_t sz)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = strlen(in), i, o = 0;

	for (i = 0; i < n && o + 5 < sz; i += 3) {
		unsigned int v = (unsigned int)(unsigned char)in[i] << 16;

		if (i + 1 < n)
			v |= (unsigned int)(unsigned char)in[i + 1] << 8;
		if (i + 2 < n)
			v |= (unsigned char)in[i + 2];
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? tab[v & 63] : '=';
	}
	out[o] = '\0';
}

static void tls_why(char *why, size_t sz, const char *what)
{
	char e[200] = "";
	unsigned long code = sym_ERR_peek_error();

	if (code)
		sym_ERR_error_string_n(code, e, sizeof(e));
	snprintf(why, sz, "%s%s%s", what, e[0] ? ": " : "", e);
	sym_ERR_clear_error();
}

int ft_promapi_open(struct ft_promapi *c, const struct ft_promapi_opts *o, char *why, size_t sz)
{
	SSL_CTX *ctx;

	memset(c, 0, sizeof(*c));
	c->o = *o;
	if (ft_prom_url_parse(o->url, &c->url, why, sz))
		return -1;
	if ((o->user != NULL) != (o->password_file != NULL)) {
		snprintf(why, sz, "--user and --password-file go together");
		return -1;
	}
	if (o->user && o->bearer_token_file) {
		snprintf(why, sz, "basic auth or a bearer token, not both");
		return -1;
	}
	if (o->user && strchr(o->user, ':')) {
		snprintf(why, sz, "--user: a basic-auth name has no ':'");
		return -1;
	}
	if (!c->url.tls) {
		if (o->ca_file || o->insecure) {
			snprintf(why, sz,
				 "--ca-file and --insecure-skip-verify need an https:// URL");
			return -1;
		}
		return 0;
	}
	if (ft_tlslib_ssl(why, sz))
		return -1;
	ctx = sym_SSL_CTX_new(sym_TLS_client_method());
	if (!ctx) {
		tls_why(why, sz, "TLS");
		return -1;
	}
	sym_SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
	if (o->ca_file ? sym_SSL_CTX_load_verify_locations(ctx, o->ca_file, NULL) != 1
		       : sym_SSL_CTX_set_default_verify_paths(ctx) != 1) {
		tls_why(why, sz, o->ca_file ? o->ca_file : "the system's CA certificates");
		sym_SSL_CTX_free(ctx);
		return -1;
	}
	sym_SSL_CTX_set_verify(ctx, o->insecure ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, NULL);
	c->ctx = ctx;
	return 0;
}

void ft_promapi_close(struct ft_promapi *c)
{
	if (c->ctx)
		sym_SSL_CTX_free(c->ctx);
	free(c->buf);
	c->ctx = NULL;
	c->buf = NULL;
}

/* The server's addresses, resolved before the deadline. */
static struct addrinfo *resolve(const struct ft_promapi *c, uint64_t deadline, char *why, size_t sz)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV };
	struct gaicb req = { .ar_name = c->url.host, .ar_service = c->url.port,
			     .ar_request = &hints };
	struct gaicb *list[1] = { &req };
	struct addrinfo *res = NULL;
	int rc;

	hints.ai_flags |= AI_NUMERICHOST;
	if (!getaddrinfo(c->url.host, c->url.port, &hints, &res))
		return res;	/* an address: no resolver */
	hints.ai_flags &= ~AI_NUMERICHOST;
	rc = getaddrinfo_a(GAI_NOWAIT, list, 1, NULL);
	if (!rc)
		rc = gai_error(&req);
	while (rc == EAI_INPROGRESS) {
		int ms = left_ms(deadline);
		struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

		if (!ms) {
			gai_cancel(&req);
			/*
			 * a lookup that cannot be cancelled is waited for: it ends by the
			 * resolver's own timeout
			 */
			while (gai_error(&req) == EAI_INPROGRESS)
				gai_suspend((const struct gaicb *const *)list, 1,
					    &(struct timespec){ 0, 50000000 });
			if (req.ar_result)
				freeaddrinfo(req.ar_result);
			snprintf(why, sz, "%s: no address in time", c->url.host);
			return NULL;
		}
		gai_suspend((const struct gaicb *const *)list, 1, &ts);
		rc = gai_error(&req);
	}
	if (rc) {
		snprintf(why, sz, "%s: %s", c->url.host, gai_strerror(rc));
		return NULL;
	}
	return req.ar_result;
}

/* Wait for @events on the connection; 0, or -1 at the deadline. */
static int wait_fd(struct conn *k, short events)
{
	struct pollfd p = { k->fd, events, 0 };
	int ms, rc;

	do {
		ms = left_ms(k->deadline);
		if (!ms)
			return -1;
		rc = poll(&p, 1, ms);
	} while (rc < 0 && errno == EINTR);
	return rc > 0 ? 0 : -1;
}

static int dial(const struct ft_promapi *c, struct conn *k, char *why, size_t sz)
{
	struct addrinfo *res = resolve(c, k->deadline, why, sz), *ai;
	int err = 0;

	if (!res)
		return -1;
	for (ai = res; ai; ai = ai->ai_next) {
		socklen_t len = sizeof(err);

		k->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			       ai->ai_protocol);
		if (k->fd < 0) {
			err = errno;
			continue;
		}
		if (!connect(k->fd, ai->ai_addr, ai->ai_addrlen))
			break;
		err = errno;
		if (err == EINPROGRESS) {
			if (wait_fd(k, POLLOUT)) {
				err = ETIMEDOUT;
			} else if (!getsockopt(k->fd, SOL_SOCKET, SO_ERROR, &err, &len) && !err) {
				break;
			}
		}
		close(k->fd);
		k->fd = -1;
	}
	freeaddrinfo(res);
	if (k->fd < 0) {
		if (err == ETIMEDOUT)
			snprintf(why, sz, "%s:%s: no connection in time", c->url.host, c->url.port);
		else
			snprintf(why, sz, "%s:%s: %s", c->url.host, c->url.port, strerror(err));
		return -1;
	}
	return 0;
}

/* Drive a TLS call that may want to read or write, until it is done or the deadline. */
static int tls_step(struct conn *k, int rc)
{
	int e = sym_SSL_get_error(k->ssl, rc);

	if (e == SSL_ERROR_WANT_READ)
		return wait_fd(k, POLLIN) ? -2 : 1;
	if (e == SSL_ERROR_WANT_WRITE)
		return wait_fd(k, POLLOUT) ? -2 : 1;
	if (e == SSL_ERROR_ZERO_RETURN)
		return 0;
	return -1;
}

static int handshake(const struct ft_promapi *c, struct conn *k, char *why, size_t sz)
{
	long v;
	int rc;

	k->ssl = sym_SSL_new(c->ctx);
	if (!k->ssl || sym_SSL_set_fd(k->ssl, k->fd) != 1) {
		tls_why(why, sz, "TLS");
		return -1;
	}
	/* SNI (SSL_set_tlsext_host_name) and the name the certificate must carry */
	sym_SSL_ctrl(k->ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
		     (void *)(uintptr_t)c->url.host);
	if (!c->o.insecure && sym_SSL_set1_host(k->ssl, c->url.host) != 1) {
		tls_why(why, sz, "TLS");
		return -1;
	}
	while ((rc = sym_SSL_connect(k->ssl)) != 1) {
		int s = tls_step(k, rc);

		if (s == -2) {
			snprintf(why, sz, "%s:%s: no TLS handshake in time", c->url.host,
				 c->url.port);
			return -1;
		}
		if (s != 1) {
			v = sym_SSL_get_verify_result(k->ssl);
			if (v != X509_V_OK)
				snprintf(why, sz, "%s: certificate not trusted: %s (--ca-file?)",
					 c->url.host,
					 sym_X509_verify_cert_error_string(v));
			else
				tls_why(why, sz, "TLS handshake");
			return -1;
		}
	}
	return 0;
}

static int send_all(struct conn *k, const char *p, size_t n, char *why, size_t sz)
{
	while (n) {
		ssize_t w;

		if (k->ssl) {
			int rc = sym_SSL_write(k->ssl, p, (int)n);

			if (rc <= 0) {
				int s = tls_step(k, rc);

				if (s == 1)
					continue;
				snprintf(why, sz,
					 s == -2 ? "the request was not taken in time" :
					 "TLS write failed");
				return -1;
			}
			w = rc;
		} else {
			w = send(k->fd, p, n, MSG_NOSIGNAL);
			if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
				if (wait_fd(k, POLLOUT)) {
					snprintf(why, sz, "the request was not taken in time");
					return -1;
				}
				continue;
			}
			if (w < 0) {
				snprintf(why, sz, "send: %s", strerror(errno));
				return -1;
			}
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read to the end of the connection into c->buf; its length, or -1. */
static long recv_all(struct ft_promapi *c, struct conn *k, char *why, size_t sz)
{
	size_t n = 0;

	for (;;) {
		ssize_t r;

		if (ft_grow_from((void **)&c->buf, &c->cap, n + 65537, 1, 65537,
				 FT_PROMAPI_MAX_ANSWER + 1)) {
			snprintf(why, sz, "an answer past %u MiB", FT_PROMAPI_MAX_ANSWER >> 20);
			return -1;
		}
		if (k->ssl) {
			int rc = sym_SSL_read(k->ssl, c->buf + n, 65536);

			if (rc <= 0) {
				int s = tls_step(k, rc);

				if (s == 1)
					continue;
				if (s == -2)
					goto slow;
				/*
				 * closed (a missing close_notify is taken as the end, as curl does)
				 */
				break;
			}
			r = rc;
		} else {
			r = recv(k->fd, c->buf + n, 65536, 0);
			if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
				if (wait_fd(k, POLLIN))
					goto slow;
				continue;
			}
			if (r < 0) {
				snprintf(why, sz, "recv: %s", strerror(errno));
				return -1;
			}
			if (!r)
				break;
		}
		n += (size_t)r;
		c->bytes_in += (unsigned long long)r;
	}
	c->buf[n] = '\0';
	return (long)n;
slow:
	snprintf(why, sz, "%s:%s: no %sanswer in time", c->url.host, c->url.port,
		 n ? "whole " : "");
	return -1;
}

/* What an answer that is not 200 means for the operator. */
static void status_why(const struct ft_http_ans *a, char *why, size_t sz)
{
	const char *hint = a->status == 401 ?
		": check --user and --password-file, or --bearer-token-file"
			 : a->status == 403 ? ": the credentials are not allowed to query"
			 : a->status == 404 ? ": not the Prometheus API (the URL's path?)"
			 : "";

	snprintf(why, sz, "HTTP %d %s%s", a->status, a->reason, hint);
}

static int exchange(struct ft_promapi *c, struct conn *k, const char *req, size_t rlen,
		    struct ft_prom_resp *r, char *why, size_t sz)
{
	struct ft_http_ans a;
	char perr[256];
	long n;

	if (dial(c, k, why, sz) || (c->ctx && handshake(c, k, why, sz)) ||
	    send_all(k, req, rlen, why, sz))
		return -1;
	n = recv_all(c, k, why, sz);
	if (n < 0)
		return -1;
	if (!n) {
		snprintf(why, sz, "%s:%s closed the connection without an answer", c->url.host,
			 c->url.port);
		return -1;
	}
	if (ft_http_ans_parse(c->buf, (size_t)n, &a, perr, sizeof(perr))) {
		if (a.status && a.status != 200)
			status_why(&a, why, sz);	/* a refusal cut short is still a refusal */
		else
			snprintf(why, sz, "a malformed HTTP answer: %s", perr);
		return -1;
	}
	if (a.gzip) {
		snprintf(why, sz, "a gzip answer, which was not asked for");
		return -1;
	}
	if (ft_prom_resp_parse(r, a.body, a.body_len, perr, sizeof(perr))) {
		if (a.status != 200)
			status_why(&a, why, sz);
		else
			snprintf(why, sz, "a malformed answer: %s", perr);
		return -1;
	}
	if (!r->success) {
		snprintf(why, sz, "Prometheus refused the query (%s): %s", r->error_type, r->error);
		return -1;
	}
	return 0;
}

int ft_promapi_get(struct ft_promapi *c, const char *path, const char *qs, uint64_t deadline_ns,
		   struct ft_prom_resp *r, char *why, size_t sz)
{
	struct conn k = { -1, NULL, deadline_ns };
	char secret[4096], cred[6000], auth[6100] = "";
	char *req;
	int len, rc;

	c->requests++;
	if (c->o.user) {
		int m;

		if (read_secret(c->o.password_file, secret, sizeof(secret), why, sz))
			return -1;
		m = snprintf(cred, sizeof(cred), "%s:%s", c->o.user, secret);
		if (m < 0 || (size_t)m >= sizeof(cred) / 4 * 3 - 4) {
			snprintf(why, sz, "the basic-auth name and password are too long");
			return -1;
		}
		memcpy(auth, "Authorization: Basic ", 21);
		base64(cred, auth + 21, sizeof(auth) - 24);
		strcat(auth, "\r\n");
	} else if (c->o.bearer_token_file) {
		if (read_secret(c->o.bearer_token_file, secret, sizeof(secret), why, sz))
			return -1;
		snprintf(auth, sizeof(auth), "Authorization: Bearer %s\r\n", secret);
	}
	len = asprintf(&req, "GET %s%s?%s HTTP/1.0\r\nHost: %s%s%s:%s\r\nUser-Agent: fragtop/%s\r\n"
		       "Accept: application/json\r\n%s\r\n", c->url.prefix, path, qs,
		       strchr(c->url.host, ':') ? "[" : "", c->url.host,
		       strchr(c->url.host, ':') ? "]" : "",
		       c->url.port, FT_VERSION, auth);
	explicit_bzero(secret, sizeof(secret));
	explicit_bzero(cred, sizeof(cred));
	explicit_bzero(auth, sizeof(auth));
	if (len < 0) {
		snprintf(why, sz, "out of memory");
		return -1;
	}
	rc = exchange(c, &k, req, (size_t)len, r, why, sz);
	explicit_bzero(req, (size_t)len);
	free(req);
	if (k.ssl)
		sym_SSL_free(k.ssl);
	if (k.fd >= 0)
		close(k.fd);
	return rc;
}
