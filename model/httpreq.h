/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The head of an HTTP/1.x request, as the exporter needs it: method,
 * path, and whether the client takes OpenMetrics (Accept).  Pure and
 * bounded: bytes from the network in, a struct or an HTTP status out.
 */
#ifndef FT_MODEL_HTTPREQ_H
#define FT_MODEL_HTTPREQ_H

#include <stdbool.h>
#include <stddef.h>

#define FT_HTTP_MAX_HEAD	8192	/* a longer head is refused (431) */

struct ft_http_req {
	char method[8];
	char path[256];
	bool head;		/* HEAD: the headers only */
	bool openmetrics;	/* Accept names application/openmetrics-text (q > 0) */
};

/*
 * Parse the request head in @buf (@len bytes so far).  Returns the head's
 * length once "\r\n\r\n" (or "\n\n") has arrived, 0 if more is needed, or
 * a negative HTTP status: -400 (malformed), -405 (not GET or HEAD), -414
 * (path too long), -431 (head too long), -505 (not HTTP/1.x).
 */
int ft_http_parse(const char *buf, size_t len, struct ft_http_req *r);

#endif
