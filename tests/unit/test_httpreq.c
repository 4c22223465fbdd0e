// SPDX-License-Identifier: GPL-2.0-or-later
/* The exporter's request head parser: complete, partial, refused, negotiated, authenticated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "net/httpreq.h"

static int parse(const char *s, struct ft_http_req *r)
{
	return ft_http_parse(s, strlen(s), r);
}

static void test_requests(void **state)
{
	struct ft_http_req r;
	const char *get = "GET /metrics HTTP/1.1\r\nHost: h\r\n\r\n";
	size_t i;

	(void)state;
	assert_int_equal(parse(get, &r), (int)strlen(get));
	assert_string_equal(r.method, "GET");
	assert_string_equal(r.path, "/metrics");
	assert_false(r.head);
	assert_false(r.openmetrics);
	/* every prefix: more needed, never an error */
	for (i = 0; i < strlen(get); i++)
		assert_int_equal(ft_http_parse(get, i, &r), 0);
	/* a pipelined rest is not part of the head */
	assert_int_equal(parse("HEAD /?a=b HTTP/1.0\n\nGET", &r), 21);
	assert_true(r.head);
	assert_string_equal(r.path, "/");
}

static void test_accept(void **state)
{
	struct ft_http_req r;

	(void)state;
	assert_true(parse("GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text; "
			  "version=1.0.0; charset=utf-8,text/plain;version=0.0.4;q=0.5\r\n\r\n",
			  &r) > 0);
	assert_true(r.openmetrics);
	assert_true(parse("GET /metrics HTTP/1.1\r\naccept: text/plain, "
			  "APPLICATION/OPENMETRICS-TEXT\r\n\r\n", &r) > 0);
	assert_true(r.openmetrics);
	assert_true(parse("GET /metrics HTTP/1.1\r\nAccept: "
			  "application/openmetrics-text;q=0\r\n\r\n", &r) > 0);
	assert_false(r.openmetrics);
	assert_true(parse("GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-textx\r\n\r\n",
			  &r) > 0);
	assert_false(r.openmetrics);
	assert_true(parse("GET /metrics HTTP/1.1\r\nX-Accept: application/openmetrics-text\r\n\r\n",
			  &r) > 0);
	assert_false(r.openmetrics);
}

/* What Prometheus 2.x sends, then the corners of Accept-Encoding's q and "*". */
static void test_gzip(void **state)
{
	struct ft_http_req r;

	(void)state;
	assert_true(parse("GET /metrics HTTP/1.1\r\nAccept: "
			  "application/openmetrics-text;version=1.0.0,"
			  "application/openmetrics-text;version=0.0.1;q=0.75,"
			  "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
			  "\r\nAccept-Encoding: gzip\r\n\r\n", &r) > 0);
	assert_true(r.gzip);
	assert_true(r.openmetrics);
	assert_true(parse("GET / HTTP/1.1\r\n\r\n", &r) > 0);
	assert_false(r.gzip);
	assert_true(parse("GET / HTTP/1.1\r\naccept-encoding: deflate, GZIP;q=0.5\r\n\r"
			  "\n", &r) > 0);
	assert_true(r.gzip);
	assert_true(parse("GET / HTTP/1.1\r\nAccept-Encoding: gzip;q=0, *\r\n\r\n", &r) > 0);
	assert_false(r.gzip);		/* its own q beats the star's */
	assert_true(parse("GET / HTTP/1.1\r\nAccept-Encoding: br, *;q=0.1\r\n\r\n", &r) > 0);
	assert_true(r.gzip);
	assert_true(parse("GET / HTTP/1.1\r\nAccept-Encoding: identity\r\n\r\n", &r) > 0);
	assert_false(r.gzip);
	assert_true(parse("GET / HTTP/1.1\r\nAccept-Encoding: gzipx, x-gzip;q=0.0\r\n\r\n",
			  &r) > 0);
	assert_false(r.gzip);
	assert_true(parse("GET / HTTP/1.1\r\nAccept-Encoding: x-gzip\r\n\r\n", &r) > 0);
	assert_true(r.gzip);
}

/* HTTP/1.1 keeps the connection, 1.0 closes it, Connection and a body say otherwise. */
static void test_keep_alive(void **state)
{
	struct ft_http_req r;

	(void)state;
	assert_true(parse("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", &r) > 0);
	assert_true(r.keep_alive);
	assert_true(parse("GET /metrics HTTP/1.0\r\n\r\n", &r) > 0);
	assert_false(r.keep_alive);
	assert_true(parse("GET /metrics HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &r) > 0);
	assert_true(r.keep_alive);
	assert_true(parse("GET /metrics HTTP/1.1\r\nConnection: TE, close\r\n\r\n", &r) > 0);
	assert_false(r.keep_alive);
	assert_true(parse("GET /metrics HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n",
			  &r) > 0);
	assert_false(r.keep_alive);	/* close wins */
	assert_true(parse("GET /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n", &r) > 0);
	assert_true(r.keep_alive);
	assert_true(parse("GET /metrics HTTP/1.1\r\nContent-Length: 12\r\n\r\n", &r) > 0);
	assert_false(r.keep_alive);	/* a body nobody reads */
	assert_true(parse("GET /metrics HTTP/1.1\r\nContent-Length: 0x\r\n\r\n", &r) > 0);
	assert_false(r.keep_alive);
	assert_true(parse("GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", &r) > 0);
	assert_false(r.keep_alive);
	/* the length is the head's: what follows is the next request's */
	assert_int_equal(parse("GET / HTTP/1.1\r\n\r\nGET /metrics HTTP/1.1\r\n\r\n", &r), 18);
}

/* RFC 9112's strictness: a bare CR, a NUL, whitespace before a field's colon (issue 42, item 8). */
static void test_strict(void **state)
{
	static const char nul[] = "GET /metrics\0junk HTTP/1.1\r\n\r\n";
	struct ft_http_req r;

	(void)state;
	assert_int_equal(parse("GET /metrics HTTP/1.1\r\nX: a\rAuthorization: Basic YTpi\r\n\r\n",
			       &r), -400);
	assert_int_equal(ft_http_parse(nul, sizeof(nul) - 1, &r), -400);
	assert_int_equal(parse("GET /metrics HTTP/1.1\r\nAuthorization : Basic YTpi\r\n\r\n", &r),
			 -400);
	assert_int_equal(parse("GET /metrics HTTP/1.1\r\nAccept\t: text/plain\r\n\r\n", &r), -400);
	/* the same heads, well formed, pass */
	assert_true(parse("GET /metrics HTTP/1.1\r\nX: a\r\nAuthorization: Basic YTpi\r\n\r\n",
			  &r) > 0);
	assert_int_equal(r.auth, FT_HTTP_AUTH_BASIC);
	/* bare LF lines: tolerated */
	assert_true(parse("GET /metrics HTTP/1.1\nX: a\n\n", &r) > 0);
}

static void test_refused(void **state)
{
	static char big[FT_HTTP_MAX_HEAD + 64];
	struct ft_http_req r;

	(void)state;
	assert_int_equal(parse("POST /metrics HTTP/1.1\r\n\r\n", &r), -405);
	assert_int_equal(parse("DELETEEVERYTHING / HTTP/1.1\r\n\r\n", &r), -405);
	assert_int_equal(parse("GET /metrics HTTP/2.0\r\n\r\n", &r), -505);
	assert_int_equal(parse("GET /metrics\r\n\r\n", &r), -400);
	assert_int_equal(parse("get / HTTP/1.1\r\n\r\n", &r), -400);
	assert_int_equal(parse("GET  HTTP/1.1\r\n\r\n", &r), -400);
	assert_int_equal(parse("GET /a\x01 HTTP/1.1\r\n\r\n", &r), -400);
	assert_int_equal(parse("GET / HTTP/1.1\r\nno colon here\r\n\r\n", &r), -400);
	memset(big, 'a', sizeof(big) - 1);
	memcpy(big, "GET /", 5);
	/* no end in sight */
	assert_int_equal(ft_http_parse(big, FT_HTTP_MAX_HEAD, &r), -431);
	memcpy(big + 300, " HTTP/1.1\r\n\r\n", 13);
	assert_int_equal(ft_http_parse(big, 313, &r), -414);
}

/* the Authorization header of a GET */
static enum ft_http_auth auth(const char *value, struct ft_http_req *r)
{
	char req[1024];

	snprintf(req, sizeof(req), "GET /metrics HTTP/1.1\r\nAuthorization:%s\r\n\r\n", value);
	assert_true(parse(req, r) > 0);
	return r->auth;
}

static void test_auth(void **state)
{
	struct ft_http_req r;
	char big[600];

	(void)state;
	assert_int_equal(parse("GET / HTTP/1.1\r\n\r\n", &r), 18);
	assert_int_equal(r.auth, FT_HTTP_AUTH_NONE);
	/* RFC 7617's example: Aladdin:open sesame */
	assert_int_equal(auth(" Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==", &r), FT_HTTP_AUTH_BASIC);
	assert_string_equal(r.user, "Aladdin");
	assert_string_equal(r.pass, "open sesame");
	/* the scheme is case-insensitive; padding may be left out; a ':' in the password stays */
	assert_int_equal(auth("basic YTpiOmM", &r), FT_HTTP_AUTH_BASIC);	/* a:b:c */
	assert_string_equal(r.user, "a");
	assert_string_equal(r.pass, "b:c");
	assert_int_equal(auth(" Basic Og==", &r), FT_HTTP_AUTH_BASIC);		/* ":" */
	assert_string_equal(r.user, "");
	assert_string_equal(r.pass, "");
	/* what is not believed */
	assert_int_equal(auth(" Bearer abc", &r), FT_HTTP_AUTH_BAD);
	assert_int_equal(auth(" Basic", &r), FT_HTTP_AUTH_BAD);
	assert_int_equal(auth(" Basic YWJj", &r), FT_HTTP_AUTH_BAD);		/* "abc": no ':' */
	assert_int_equal(auth(" Basic YT!6Yg==", &r), FT_HTTP_AUTH_BAD);	/* not base64 */
	assert_int_equal(auth(" Basic YTpi=x", &r), FT_HTTP_AUTH_BAD);		/* data after '=' */
	/* "a\0b:c": a NUL */
	assert_int_equal(auth(" Basic YQBiOmM=", &r), FT_HTTP_AUTH_BAD);
	memset(big, 'Q', sizeof(big) - 1);
	big[0] = ' ';
	memcpy(big + 1, "Basic ", 6);
	big[sizeof(big) - 1] = '\0';
	/* longer than user + pass */
	assert_int_equal(auth(big, &r), FT_HTTP_AUTH_BAD);
	/* two Authorization headers: neither counts */
	assert_true(parse("GET / HTTP/1.1\r\nAuthorization: Basic YTpi\r\nauthorization: Basic "
			  "YzpkZA==\r\n\r\n",
			  &r) > 0);
	assert_int_equal(r.auth, FT_HTTP_AUTH_BAD);
	assert_string_equal(r.user, "");
	assert_string_equal(r.pass, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_keep_alive),
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_auth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
