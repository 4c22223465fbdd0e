// SPDX-License-Identifier: GPL-2.0-or-later
#include "net/httpreq.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* End of the head: the offset after the blank line, or 0. */
static size_t head_end(const char *b, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++) {
		if (b[i] == '\n' && b[i + 1] == '\n')
			return i + 2;
		if (i + 3 < len && b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' &&
		    b[i + 3] == '\n')
			return i + 4;
	}
	return 0;
}

/* Is @c space or tab (HTTP's OWS)? */
static bool ows(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The q an element of a comma-separated list gives @token (case-
 * insensitive, parameters after ';' allowed): 1 without "q=", 0 for
 * "q=0"; -1 when @token is not in the list.  For Accept,
 * Accept-Encoding and Connection (which has no q: any listing counts).
 */
static double offered(const char *v, size_t n, const char *token)
{
	size_t tl = strlen(token), i = 0;
	double q = -1;

	while (i < n) {
		size_t e = i, t;

		while (e < n && v[e] != ',')
			e++;
		while (i < e && ows(v[i]))
			i++;
		for (t = i; t < e && v[t] != ';' && !ows(v[t]); t++)
			;
		if (t - i == tl && !strncasecmp(v + i, token, tl)) {
			double eq = 1;
			size_t k = t;

			/* parameters: ;name=value ...; only q matters */
			while (k < e) {
				while (k < e && (v[k] == ';' || ows(v[k])))
					k++;
				if (k + 1 < e && (v[k] == 'q' || v[k] == 'Q') && v[k + 1] == '=') {
					char num[8] = "";
					size_t m = 0;

					for (k += 2; k < e && m < sizeof(num) - 1 && v[k] != ';' &&
					     !ows(v[k]); k++)
						num[m++] = v[k];
					eq = strtod(num, NULL);
				}
				while (k < e && v[k] != ';')
					k++;
			}
			if (eq > q)
				q = eq;
		}
		i = e + 1;
	}
	return q;
}

/* Does an Accept-Encoding value take gzip: its own q, else the q of "*" (RFC 9110 12.5.3)? */
static bool takes_gzip(const char *v, size_t n)
{
	double q = offered(v, n, "gzip");

	if (q < 0)
		q = offered(v, n, "x-gzip");
	if (q < 0)
		q = offered(v, n, "*");
	return q > 0;
}

/* Is a Content-Length value 0 (anything else, malformed included, is a body)? */
static bool zero_length(const char *v, size_t n)
{
	size_t i = 0, zeros = 0;

	while (i < n && ows(v[i]))
		i++;
	while (i < n && v[i] == '0')
		i++, zeros++;
	while (i < n && ows(v[i]))
		i++;
	return zeros && i == n;
}

/* Is the header line's name @name (case-insensitive)? */
static bool is_header(const char *line, size_t len, const char *name)
{
	return len == strlen(name) && !strncasecmp(line, name, len);
}

/* RFC 4648 base64, padded or not: the decoded length, or -1. */
static long base64_decode(const char *in, size_t n, char *out, size_t sz)
{
	unsigned int acc = 0, bits = 0;
	size_t i, o = 0, pad = 0;

	for (i = 0; i < n; i++) {
		char c = in[i];
		int v;

		if (c == '=') {
			pad++;
			continue;
		}
		if (pad)
			return -1;	/* data after the padding */
		if (c >= 'A' && c <= 'Z')
			v = c - 'A';
		else if (c >= 'a' && c <= 'z')
			v = c - 'a' + 26;
		else if (c >= '0' && c <= '9')
			v = c - '0' + 52;
		else if (c == '+')
			v = 62;
		else if (c == '/')
			v = 63;
		else
			return -1;
		acc = (acc << 6) | (unsigned int)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o == sz)
				return -1;
			out[o++] = (char)((acc >> bits) & 0xff);
		}
	}
	if (pad > 2 || bits >= 6)
		return -1;
	return (long)o;
}

/* "Basic TOKEN68" into r->user and r->pass, or FT_HTTP_AUTH_BAD. */
static void basic_auth(const char *v, size_t n, struct ft_http_req *r)
{
	char dec[sizeof(r->user) + sizeof(r->pass)];
	const char *colon;
	long len;

	r->auth = FT_HTTP_AUTH_BAD;
	while (n && (*v == ' ' || *v == '\t'))
		v++, n--;
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	if (n < 6 || strncasecmp(v, "Basic ", 6))
		return;
	v += 6;
	n -= 6;
	while (n && *v == ' ')
		v++, n--;
	len = base64_decode(v, n, dec, sizeof(dec));
	if (len < 0 || memchr(dec, '\0', (size_t)len) || !(colon = memchr(dec, ':', (size_t)len)) ||
	    (size_t)(colon - dec) >= sizeof(r->user) ||
	    (size_t)(dec + len - colon - 1) >= sizeof(r->pass))
		return;
	memcpy(r->user, dec, (size_t)(colon - dec));
	r->user[colon - dec] = '\0';
	memcpy(r->pass, colon + 1, (size_t)(dec + len - colon - 1));
	r->pass[dec + len - colon - 1] = '\0';
	r->auth = FT_HTTP_AUTH_BASIC;
}

int ft_http_parse(const char *buf, size_t len, struct ft_http_req *r)
{
	size_t end = head_end(buf, len), i, sp1, sp2, eol;
	bool closes = false;
	const char *p;

	memset(r, 0, sizeof(*r));
	if (!end)
		return len >= FT_HTTP_MAX_HEAD ? -431 : 0;
	if (end > FT_HTTP_MAX_HEAD)
		return -431;
	/* RFC 9112 2.2: a bare CR, or a NUL, anywhere in the head is an error, not a line's end */
	for (i = 0; i < end; i++)
		if (!buf[i] || (buf[i] == '\r' && (i + 1 >= end || buf[i + 1] != '\n')))
			return -400;
	/* request line: METHOD SP TARGET SP HTTP/1.x */
	for (eol = 0; eol < end && buf[eol] != '\r' && buf[eol] != '\n'; eol++)
		;
	for (sp1 = 0; sp1 < eol && buf[sp1] != ' '; sp1++)
		;
	for (sp2 = sp1 + 1; sp2 < eol && buf[sp2] != ' '; sp2++)
		;
	if (sp1 == 0 || sp1 >= eol || sp2 >= eol || sp2 == sp1 + 1)
		return -400;
	for (i = 0; i < sp1; i++)
		if (buf[i] < 'A' || buf[i] > 'Z')
			return -400;
	if (eol - sp2 - 1 != 8 || strncmp(buf + sp2 + 1, "HTTP/1.", 7) ||
	    buf[sp2 + 8] < '0' || buf[sp2 + 8] > '9')
		return eol - sp2 - 1 >= 5 && !strncmp(buf + sp2 + 1, "HTTP/", 5) ? -505 : -400;
	if (sp1 >= sizeof(r->method))
		return -405;
	memcpy(r->method, buf, sp1);
	if (strcmp(r->method, "GET") && strcmp(r->method, "HEAD"))
		return -405;
	r->head = !strcmp(r->method, "HEAD");
	if (sp2 - sp1 - 1 >= sizeof(r->path))
		return -414;
	memcpy(r->path, buf + sp1 + 1, sp2 - sp1 - 1);
	for (i = 0; r->path[i]; i++)
		if ((unsigned char)r->path[i] <= ' ' || r->path[i] == 0x7f)
			return -400;
	/* the query string is not ours */
	if ((p = strchr(r->path, '?')))
		r->path[p - r->path] = '\0';
	/* HTTP/1.1 keeps the connection unless told; 1.0 closes it unless told */
	r->keep_alive = buf[sp2 + 8] != '0';
	/* headers: Accept, Accept-Encoding, Connection, a body's and Authorization */
	for (i = eol; i < end;) {
		size_t s, e, colon, vn;
		const char *v;

		while (i < end && (buf[i] == '\r' || buf[i] == '\n'))
			i++;
		s = i;
		while (i < end && buf[i] != '\r' && buf[i] != '\n')
			i++;
		e = i;
		if (s == e)
			continue;
		for (colon = s; colon < e && buf[colon] != ':'; colon++)
			;
		if (colon == e || colon == s)
			return -400;
		if (buf[colon - 1] == ' ' || buf[colon - 1] == '\t')
			/* RFC 9112 5.1: no whitespace between a field's name and its colon */
			return -400;
		v = buf + colon + 1;
		vn = e - colon - 1;
		if (is_header(buf + s, colon - s, "Accept") &&
		    offered(v, vn, "application/openmetrics-text") > 0)
			r->openmetrics = true;
		if (is_header(buf + s, colon - s, "Accept-Encoding") && takes_gzip(v, vn))
			r->gzip = true;
		if (is_header(buf + s, colon - s, "Connection")) {
			if (offered(v, vn, "close") >= 0)
				closes = true;
			else if (offered(v, vn, "keep-alive") >= 0)
				r->keep_alive = true;
		}
		if ((is_header(buf + s, colon - s, "Content-Length") && !zero_length(v, vn)) ||
		    is_header(buf + s, colon - s, "Transfer-Encoding"))
			/* a body nobody reads: the connection ends with the answer */
			closes = true;
		if (is_header(buf + s, colon - s, "Authorization")) {
			if (r->auth != FT_HTTP_AUTH_NONE) {
				/* two of them: neither is believed */
				r->auth = FT_HTTP_AUTH_BAD;
				memset(r->user, 0, sizeof(r->user));
				memset(r->pass, 0, sizeof(r->pass));
			} else {
				basic_auth(buf + colon + 1, e - colon - 1, r);
			}
		}
	}
	if (closes)
		r->keep_alive = false;
	return (int)end;
}
