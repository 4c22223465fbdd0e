// SPDX-License-Identifier: GPL-2.0-or-later
#include "net/httpans.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The header line @line (@n bytes) names @name: its value, blanks skipped, or NULL. */
static const char *header(const char *line, size_t n, const char *name, size_t *vlen)
{
	size_t k = strlen(name);
	const char *v, *e = line + n;

	if (n <= k || strncasecmp(line, name, k) || line[k] != ':')
		return NULL;
	v = line + k + 1;
	while (v < e && (*v == ' ' || *v == '\t'))
		v++;
	while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	*vlen = (size_t)(e - v);
	return v;
}

static bool has_word(const char *v, size_t n, const char *word)
{
	size_t k = strlen(word), i;

	for (i = 0; i + k <= n; i++)
		if (!strncasecmp(v + i, word, k))
			return true;
	return false;
}

/* Decode a chunked body at @p (@n bytes) in place; its length, or -1. */
static long dechunk(char *p, size_t n, char *why, size_t sz)
{
	size_t in = 0, out = 0;

	for (;;) {
		uint64_t c = 0;
		size_t d = 0;

		while (in < n &&
		       ((p[in] >= '0' && p[in] <= '9') ||
			((p[in] | 0x20) >= 'a' && (p[in] | 0x20) <= 'f'))) {
			if (c >> 56) {
				snprintf(why, sz, "a chunk size too large");
				return -1;
			}
			c = c * 16 +
				(uint64_t)(p[in] <= '9' ? p[in] - '0' : (p[in] | 0x20) - 'a' + 10);
			in++;
			d++;
		}
		if (!d) {
			snprintf(why, sz, "a chunk without its size");
			return -1;
		}
		while (in < n && p[in] != '\n')	/* chunk extensions */
			in++;
		if (in >= n) {
			snprintf(why, sz, "the answer ends in a chunk's size line");
			return -1;
		}
		in++;
		if (!c)
			return (long)out;	/* trailers are not read */
		if (c > n - in) {
			snprintf(why, sz, "the answer ends inside a chunk");
			return -1;
		}
		memmove(p + out, p + in, (size_t)c);
		out += (size_t)c;
		in += (size_t)c;
		if (in < n && p[in] == '\r')
			in++;
		if (in >= n || p[in] != '\n') {
			snprintf(why, sz, "a chunk not followed by its line end");
			return -1;
		}
		in++;
	}
}

static void reason_of(const char *p, const char *e, struct ft_http_ans *a)
{
	size_t n = 0;

	while (p < e && *p == ' ')
		p++;
	for (; p < e && *p != '\r' && n + 1 < sizeof(a->reason); p++)
		a->reason[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
	a->reason[n] = '\0';
}

int ft_http_ans_parse(char *buf, size_t len, struct ft_http_ans *a, char *why, size_t sz)
{
	char *p = buf, *end = buf + len, *eol, *body = NULL;
	bool chunked = false, has_len = false;
	uint64_t clen = 0;
	size_t vlen;
	const char *v;

	memset(a, 0, sizeof(*a));
	if (len < 12 || strncmp(buf, "HTTP/1.", 7) || buf[8] != ' ' || buf[9] < '1' ||
	    buf[9] > '5' ||
	    buf[10] < '0' || buf[10] > '9' || buf[11] < '0' || buf[11] > '9') {
		snprintf(why, sz, "not an HTTP answer");
		return -1;
	}
	a->status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
	eol = memchr(p, '\n', len);
	if (!eol) {
		snprintf(why, sz, "the answer ends in its status line");
		return -1;
	}
	/* kept when the rest is refused: a caller may still say the status */
	reason_of(buf + 12, eol, a);
	for (p = eol + 1; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			break;
		if (eol == p || (eol == p + 1 && *p == '\r')) {
			body = eol + 1;
			break;
		}
		if ((v = header(p, (size_t)(eol - p), "Transfer-Encoding", &vlen)))
			chunked = has_word(v, vlen, "chunked");
		else if ((v = header(p, (size_t)(eol - p), "Content-Encoding", &vlen)))
			a->gzip = has_word(v, vlen, "gzip");
		else if ((v = header(p, (size_t)(eol - p), "Content-Type", &vlen)))
			a->json = has_word(v, vlen, "application/json");
		else if ((v = header(p, (size_t)(eol - p), "Content-Length", &vlen))) {
			has_len = true;
			clen = 0;
			for (size_t i = 0; i < vlen && v[i] >= '0' && v[i] <= '9' &&
			     clen < (1ull << 48); i++)
				clen = clen * 10 + (uint64_t)(v[i] - '0');
		}
	}
	if (!body) {
		snprintf(why, sz, "the answer ends in its headers");
		return -1;
	}
	a->body = body;
	a->body_len = (size_t)(end - body);
	if (chunked) {
		long n = dechunk(body, a->body_len, why, sz);

		if (n < 0)
			return -1;
		a->body_len = (size_t)n;
	} else if (has_len) {
		if (clen > a->body_len) {
			snprintf(why, sz, "the answer ends after %zu of its %llu bytes",
				 a->body_len,
				 (unsigned long long)clen);
			return -1;
		}
		a->body_len = (size_t)clen;
	}
	return 0;
}
