/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An HTTP/1.x answer read whole (the connection closed after it, as
 * `fragtop fleet` asks with HTTP/1.0): the status line, the headers it
 * needs and the body, a chunked body decoded in place (a proxy may chunk
 * even for HTTP/1.0).  Pure and bounded: bytes from the network in.
 */
#ifndef FT_NET_HTTPANS_H
#define FT_NET_HTTPANS_H

#include <stdbool.h>
#include <stddef.h>

struct ft_http_ans {
	int status;		/* 200, 401, ... */
	char reason[64];	/* "Unauthorized", sanitised to printable ASCII */
	bool gzip;		/* Content-Encoding: gzip (never asked for) */
	bool json;		/* Content-Type: application/json */
	char *body;		/* inside the buffer given */
	size_t body_len;
};

/*
 * Read the answer in @buf (@len bytes, changed in place when chunked).
 * 0, or -1 with why: no status line, headers cut, a broken chunk, a body
 * shorter than its Content-Length (status and reason are then kept when
 * the status line was read).
 */
int ft_http_ans_parse(char *buf, size_t len, struct ft_http_ans *a, char *why, size_t sz);

#endif
