/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The head of an HTTP/1.x request, as the exporter needs it: method,
 * path, whether the client takes OpenMetrics (Accept) and gzip
 * (Accept-Encoding), whether the connection may serve another request
 * after this one (RFC 9112 9.3), and its basic-auth credentials
 * (Authorization: Basic, RFC 7617).  Pure and
 * bounded: bytes from the network in, a struct or an HTTP status out.
 */
#ifndef FT_NET_HTTPREQ_H
#define FT_NET_HTTPREQ_H

#include <stdbool.h>
#include <stddef.h>

#define FT_HTTP_MAX_HEAD	8192	/* a longer head is refused (431) */

enum ft_http_auth {
	FT_HTTP_AUTH_NONE,	/* no Authorization header */
	FT_HTTP_AUTH_BASIC,	/* Basic, decoded into user and pass */
	FT_HTTP_AUTH_BAD,	/* another scheme, broken base64, no ':', a NUL, too long */
};

struct ft_http_req {
	char method[8];
	char path[256];
	bool head;		/* HEAD: the headers only */
	bool openmetrics;	/* Accept names application/openmetrics-text (q > 0) */
	bool gzip;		/* Accept-Encoding offers gzip (or *) with q > 0 */
	/*
	 * The connection may carry another request after the answer: HTTP/1.1
	 * without "Connection: close", or HTTP/1.0 with "Connection:
	 * keep-alive"; never when the request has a body (Content-Length
	 * above 0, Transfer-Encoding), which a GET has no use for and is not read.
	 */
	bool keep_alive;
	enum ft_http_auth auth;
	char user[128];		/* FT_HTTP_AUTH_BASIC: up to the first ':' */
	char pass[256];		/* ... and after it */
};

/*
 * Parse the request head in @buf (@len bytes so far).  Returns the head's
 * length once "\r\n\r\n" (or "\n\n") has arrived, 0 if more is needed, or
 * a negative HTTP status: -400 (malformed), -405 (not GET or HEAD), -414
 * (path too long), -431 (head too long), -505 (not HTTP/1.x).
 */
int ft_http_parse(const char *buf, size_t len, struct ft_http_req *r);

#endif
