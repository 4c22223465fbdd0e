// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exporter's HTTP server alone (net/httpd.c), on a loopback port the
 * kernel picks, with clients in this process: requests answered by a
 * handler, keep-alive and pipelining, errors, eviction by address and in
 * all, the head and idle deadlines, and a stop.  Each wait turns the
 * server until a condition holds, with a deadline; none sleeps.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/clock.h"
#include "net/httpd.h"

static struct ft_httpd h;
static struct ft_hostport hp;
static volatile sig_atomic_t stop_flag;
static int handled;
static unsigned int max_rate;		/* start()'s, 0 unless a test sets it */
static char big_body[8 << 20];		/* /big: more than loopback's buffers hold */

static void handle(void *ctx, struct ft_httpd_conn *c, const struct ft_http_req *r)
{
	(void)ctx;
	handled++;
	if (!strcmp(r->path, "/hello"))
		ft_httpd_answer(c, 200, "OK", "text/plain", "X-Test: 1\r\n", "hi\n", 3, r->head);
	else if (!strcmp(r->path, "/big"))
		ft_httpd_answer(c, 200, "OK", "text/plain", "", big_body, sizeof(big_body),
				r->head);
	else if (strcmp(r->path, "/silent"))
		ft_httpd_error(c, 404);
	/* /silent: the handler says nothing */
}

static void start(unsigned int max_conn, unsigned int per_client, uint64_t head_ns,
		  uint64_t idle_ns)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)&hp.sa;
	struct ft_httpd_opts o = {
		.listen = &hp, .max_conn = max_conn, .max_per_client = per_client,
		.head_timeout_ns = head_ns,
		.idle_timeout_ns = idle_ns, .stop = &stop_flag, .handle = handle,
		.max_rate = max_rate,
	};

	memset(&hp, 0, sizeof(hp));
	s4->sin_family = AF_INET;
	s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s4->sin_port = 0;		/* the kernel's pick */
	hp.len = sizeof(*s4);
	stop_flag = 0;
	handled = 0;
	assert_int_equal(ft_httpd_open(&h, &o), 0);
	assert_true(ft_httpd_port(&h) > 0);
}

/* A client from 127.0.0.@host: connected, its socket non-blocking. */
static int client_from(int host)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in src = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(0x7f000000u | (uint32_t)host) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&src, sizeof(src)), 0);
	a.sin_port = htons((uint16_t)ft_httpd_port(&h));
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(fcntl(fd, F_SETFL, O_NONBLOCK), 0);
	return fd;
}

/* A client: connected, its socket non-blocking. */
static int client(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	a.sin_port = htons((uint16_t)ft_httpd_port(&h));
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(fcntl(fd, F_SETFL, O_NONBLOCK), 0);
	return fd;
}

/* The server turns until it has accepted @n connections in all (5 s at most). */
static void accepted(uint64_t n)
{
	uint64_t until = ft_now_ns() + 5000000000ull;

	while (h.st.accepted < n && ft_now_ns() < until)
		assert_int_equal(ft_httpd_poll(&h, 10), 0);
	assert_int_equal(h.st.accepted, n);
}

static void say(int fd, const char *s)
{
	assert_int_equal(send(fd, s, strlen(s), MSG_NOSIGNAL), (ssize_t)strlen(s));
}

struct got {
	char b[16384];
	size_t len;
	bool eof;
};

/*
 * The server turns and @fd is read until @want is in what came (NULL:
 * until the server closes it), 5 s at most.  True when it came.
 */
static bool until(int fd, struct got *g, const char *want)
{
	uint64_t end = ft_now_ns() + 5000000000ull;

	while (ft_now_ns() < end) {
		ssize_t n = -1;

		assert_int_equal(ft_httpd_poll(&h, 10), 0);
		errno = EAGAIN;
		while (g->len < sizeof(g->b) - 1 &&
		       (n = recv(fd, g->b + g->len, sizeof(g->b) - 1 - g->len, MSG_DONTWAIT)) > 0)
			g->len += (size_t)n;
		g->b[g->len] = '\0';
		if (!n || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
			g->eof = true;
		if (want ? strstr(g->b, want) != NULL : g->eof)
			return true;
		if (g->eof)
			return false;
	}
	return false;
}

/* How many times @s is in @g. */
static int count(const struct got *g, const char *s)
{
	const char *p = g->b;
	int n = 0;

	while ((p = strstr(p, s))) {
		n++;
		p += strlen(s);
	}
	return n;
}

static void test_keepalive(void **state)
{
	struct got g = { 0 };
	int fd;

	(void)state;
	start(4, 4, 3000000000ull, 60000000000ull);
	fd = client();
	say(fd, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(fd, &g, "hi\n"));
	assert_non_null(strstr(g.b, "HTTP/1.1 200 OK\r\n"));
	assert_non_null(strstr(g.b, "Content-Length: 3\r\n"));
	assert_non_null(strstr(g.b, "Connection: keep-alive\r\nKeep-Alive: timeout=60\r\n"));
	assert_non_null(strstr(g.b, "X-Test: 1\r\n"));
	/* the same connection, the next request */
	say(fd, "HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(fd, &g,
			  "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
			  "3\r\nConnection: keep-alive"));
	assert_int_equal(count(&g, "HTTP/1.1 200 OK"), 2);
	assert_int_equal(count(&g, "hi\n"), 1);	/* HEAD: no body */
	assert_int_equal(h.st.accepted, 1);
	assert_int_equal(handled, 2);
	close(fd);
	ft_httpd_close(&h);
}

static void test_pipelined(void **state)
{
	struct got g = { 0 };
	char *second;
	int fd;

	(void)state;
	start(4, 4, 3000000000ull, 60000000000ull);
	fd = client();
	say(fd, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(fd, &g, "404 Not Found\n"));
	second = strstr(g.b, "HTTP/1.1 404");
	assert_non_null(second);
	assert_true(strstr(g.b, "HTTP/1.1 200") < second);	/* in order */
	assert_true(until(fd, &g, NULL));		/* an error closes the connection */
	close(fd);
	ft_httpd_close(&h);
}

static void test_errors(void **state)
{
	static char big[FT_HTTP_MAX_HEAD + 1];
	struct got g = { 0 };
	int fd;

	(void)state;
	start(4, 4, 3000000000ull, 60000000000ull);
	fd = client();
	say(fd, "NONSENSE\r\n\r\n");
	assert_true(until(fd, &g, NULL));
	assert_non_null(strstr(g.b, "HTTP/1.1 400 Bad Request\r\n"));
	assert_non_null(strstr(g.b, "Connection: close\r\n"));
	close(fd);
	/* a head past FT_HTTP_MAX_HEAD */
	memset(&g, 0, sizeof(g));
	fd = client();
	memcpy(big, "GET /hello HTTP/1.1\r\nX: ", 24);
	memset(big + 24, 'a', sizeof(big) - 25);
	say(fd, big);
	assert_true(until(fd, &g, NULL));
	assert_non_null(strstr(g.b, "HTTP/1.1 431 "));
	close(fd);
	/* a handler that says nothing: 500, not a client left waiting */
	memset(&g, 0, sizeof(g));
	fd = client();
	say(fd, "GET /silent HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(fd, &g, NULL));
	assert_non_null(strstr(g.b, "HTTP/1.1 500 Internal Server Error\r\n"));
	close(fd);
	/* HTTP/1.0 without keep-alive: answered, then closed */
	memset(&g, 0, sizeof(g));
	fd = client();
	say(fd, "GET /hello HTTP/1.0\r\n\r\n");
	assert_true(until(fd, &g, NULL));
	assert_non_null(strstr(g.b, "Connection: close\r\n"));
	assert_non_null(strstr(g.b, "hi\n"));
	close(fd);
	ft_httpd_close(&h);
}

/*
 * One answer a poll() round: three pipelined requests take three rounds,
 * so another connection's request is answered in the first of them.
 */
static void test_one_answer_a_round(void **state)
{
	struct got g = { 0 }, go = { 0 };
	int fd, other;

	(void)state;
	start(4, 4, 3000000000ull, 60000000000ull);
	fd = client();
	other = client();
	accepted(2);
	say(fd, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
		"GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	say(other, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_int_equal(ft_httpd_poll(&h, 1000), 0);
	assert_int_equal(handled, 2);			/* one each */
	assert_int_equal(ft_httpd_poll(&h, 1000), 0);
	assert_int_equal(handled, 3);
	assert_int_equal(ft_httpd_poll(&h, 1000), 0);
	assert_int_equal(handled, 4);
	assert_true(until(fd, &g, NULL) || count(&g, "hi\n") == 3);
	assert_int_equal(count(&g, "HTTP/1.1 200 OK"), 3);
	assert_true(until(other, &go, "hi\n"));
	close(fd);
	close(other);
	ft_httpd_close(&h);
}

/*
 * --max-rate: an address gets max_rate answers at once, then max_rate a
 * second; the rest wait, unread, and are answered in their turn.
 */
static void test_rate(void **state)
{
	struct got g = { 0 };
	uint64_t t0, end;
	int fd, i;

	(void)state;
	max_rate = 2;
	start(4, 4, 3000000000ull, 60000000000ull);
	max_rate = 0;
	fd = client();
	accepted(1);
	for (i = 0; i < 5; i++)
		say(fd, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	t0 = ft_now_ns();
	end = t0 + 10000000000ull;
	while (handled < 5 && ft_now_ns() < end) {
		assert_int_equal(ft_httpd_poll(&h, 10), 0);
		/*
		 * never more than the two at once and two a second since (a third may be due as it
		 * is read)
		 */
		assert_true((double)handled <= 2 + (double)(ft_now_ns() - t0) / 1e9 * 2 + 1);
	}
	assert_int_equal(handled, 5);
	assert_true(h.st.throttled >= 1);
	assert_true(until(fd, &g, NULL) || count(&g, "hi\n") == 5);
	assert_int_equal(count(&g, "hi\n"), 5);
	close(fd);
	ft_httpd_close(&h);

	/* more held than the buffer holds: they wait their turn, none is "too large" (431) */
	max_rate = 100;
	start(4, 4, 3000000000ull, 60000000000ull);
	max_rate = 0;
	fd = client();
	accepted(1);
	{
		static const char one[] = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n";
		char many[300 * (sizeof(one) - 1) + 1];

		for (i = 0; i < 300; i++)
			memcpy(many + (size_t)i * (sizeof(one) - 1), one, sizeof(one) - 1);
		many[sizeof(many) - 1] = 0;
		assert_true(sizeof(many) > FT_HTTP_MAX_HEAD);
		say(fd, many);
	}
	end = ft_now_ns() + 20000000000ull;
	while (handled < 300 && ft_now_ns() < end)
		assert_int_equal(ft_httpd_poll(&h, 10), 0);
	assert_int_equal(handled, 300);
	assert_true(h.st.throttled >= 1);
	close(fd);
	ft_httpd_close(&h);
}

/*
 * A client that does not take its answer loses its slot to a newcomer
 * once its answer has stood still for a second, as a silent one does
 * (before: a connection with an answer pending was never evicted).
 */
static void test_evict_not_reading(void **state)
{
	struct got gb = { 0 };
	uint64_t end;
	int a, b, k;
	bool stuck = false;

	(void)state;
	start(1, 4, 3000000000ull, 60000000000ull);
	a = client();
	accepted(1);
	say(a, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
	/* its answer fills the socket's buffers and stops */
	end = ft_now_ns() + 5000000000ull;
	while (!stuck && ft_now_ns() < end) {
		size_t off = 0;

		assert_int_equal(ft_httpd_poll(&h, 10), 0);
		for (k = 0; k < FT_HTTPD_MAX_CONN; k++)
			if (h.conns[k].fd >= 0 && h.conns[k].out)
				off = h.conns[k].out_off;
		assert_int_equal(ft_httpd_poll(&h, 50), 0);
		for (k = 0; k < FT_HTTPD_MAX_CONN; k++)
			if (h.conns[k].fd >= 0 && h.conns[k].out)
				stuck = off && h.conns[k].out_off == off &&
				off < h.conns[k].out_len;
	}
	assert_true(stuck);
	/* the server turns until the answer has stood still for its second (5 s at most) */
	end = ft_now_ns() + 5000000000ull;
	for (k = 0; k < FT_HTTPD_MAX_CONN && h.conns[k].fd < 0; k++)
		;
	assert_true(k < FT_HTTPD_MAX_CONN);
	while (ft_now_ns() - h.conns[k].out_ns < 1000000000ull && ft_now_ns() < end)
		assert_int_equal(ft_httpd_poll(&h, 10), 0);
	b = client();
	say(b, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	/* within 5 s: the stuck one went after its second */
	assert_true(until(b, &gb, "hi\n"));
	assert_non_null(strstr(gb.b, "HTTP/1.1 200 OK"));
	assert_int_equal(h.st.evicted, 1);
	close(a);
	close(b);
	ft_httpd_close(&h);
}

/*
 * Every slot held by one address's connections being answered (fresh:
 * they count as progress): a newcomer from another address still gets
 * one, the newest of the greedy address's, not a 503.
 */
static void test_evict_greedy_address(void **state)
{
	struct got g = { 0 };
	int a[4], b, i;

	(void)state;
	start(4, 4, 3000000000ull, 60000000000ull);
	for (i = 0; i < 4; i++) {
		a[i] = client_from(2);
		accepted((uint64_t)i + 1);
		say(a[i], "GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
	}
	while (handled < 4)
		assert_int_equal(ft_httpd_poll(&h, 10), 0);
	b = client_from(3);
	say(b, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(b, &g, "hi\n"));
	assert_non_null(strstr(g.b, "HTTP/1.1 200 OK"));
	assert_int_equal(h.st.refused, 0);
	assert_int_equal(h.st.evicted, 1);
	for (i = 0; i < 4; i++)
		close(a[i]);
	close(b);
	ft_httpd_close(&h);
}

/*
 * Of two silent connections, the one whose address has opened a dozen
 * lately gives its slot, not the older one: a scraper's connection,
 * silent for a round trip, no longer loses to a flood's age.
 */
static void test_evict_churn(void **state)
{
	struct got ga = { 0 }, gc = { 0 };
	int a, b, c, i, x;

	(void)state;
	start(2, 4, 3000000000ull, 60000000000ull);
	a = client_from(2);
	accepted(1);
	for (i = 0; i < 12; i++) {	/* 127.0.0.3 opens and drops a dozen */
		x = client_from(3);
		accepted((uint64_t)i + 2);
		close(x);
	}
	b = client_from(3);
	accepted(14);
	c = client_from(4);
	say(c, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(c, &gc, "hi\n"));
	/* the older one from 127.0.0.2 is still open, told nothing */
	assert_int_equal(recv(a, ga.b, sizeof(ga.b), MSG_DONTWAIT), -1);
	assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
	close(a);
	close(b);
	close(c);
	ft_httpd_close(&h);
}

/* Past max_conn, the oldest silent connection gives its slot to the newcomer. */
static void test_evict_any(void **state)
{
	struct got ga = { 0 }, gb = { 0 }, gc = { 0 };
	int a, b, c;

	(void)state;
	start(2, 4, 3000000000ull, 60000000000ull);
	a = client();
	accepted(1);
	b = client();
	accepted(2);
	c = client();
	say(c, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(c, &gc, "hi\n"));
	assert_int_equal(h.st.evicted, 1);
	assert_true(until(a, &ga, NULL));		/* the oldest went */
	assert_int_equal(ga.len, 0);
	/* the other is still open, told nothing */
	assert_int_equal(recv(b, gb.b, sizeof(gb.b), MSG_DONTWAIT), -1);
	assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
	close(a);
	close(b);
	close(c);
	ft_httpd_close(&h);
}

/*
 * Past max_per_client, an address's own silent connection gives way; a request in progress never
 * does.
 */
static void test_evict_own(void **state)
{
	struct got ga = { 0 }, gb = { 0 };
	int a, b;

	(void)state;
	start(8, 1, 3000000000ull, 60000000000ull);
	a = client();
	accepted(1);
	b = client();
	say(b, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(b, &gb, "hi\n"));
	assert_int_equal(h.st.evicted, 1);
	assert_true(until(a, &ga, NULL));
	close(a);
	close(b);
	ft_httpd_close(&h);
}

static void test_head_timeout(void **state)
{
	struct got g = { 0 };
	int fd;

	(void)state;
	start(4, 4, 50000000ull, 60000000000ull);	/* 50 ms for a head */
	fd = client();
	say(fd, "GET /hel");
	assert_true(until(fd, &g, NULL));
	assert_int_equal(g.len, 0);
	assert_int_equal(h.st.head_timeouts, 1);
	assert_int_equal(handled, 0);
	close(fd);
	ft_httpd_close(&h);
}

static void test_idle_timeout(void **state)
{
	struct got g = { 0 };
	int fd;

	(void)state;
	start(4, 4, 3000000000ull, 50000000ull);	/* kept alive 50 ms */
	fd = client();
	say(fd, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(fd, &g, "hi\n"));
	assert_true(until(fd, &g, NULL));
	assert_int_equal(h.st.idle_timeouts, 1);
	close(fd);
	ft_httpd_close(&h);
}

/* Stopping: an answer closes its connection, whatever the request asked. */
static void test_stop(void **state)
{
	struct got g = { 0 };
	int fd;

	(void)state;
	start(4, 4, 3000000000ull, 60000000000ull);
	fd = client();
	stop_flag = 1;
	say(fd, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
	assert_true(until(fd, &g, NULL));
	assert_non_null(strstr(g.b, "Connection: close\r\n"));
	assert_non_null(strstr(g.b, "hi\n"));
	close(fd);
	ft_httpd_close(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keepalive),
		cmocka_unit_test(test_pipelined),
		cmocka_unit_test(test_one_answer_a_round),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_evict_not_reading),
		cmocka_unit_test(test_evict_greedy_address),
		cmocka_unit_test(test_evict_churn),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_evict_any),
		cmocka_unit_test(test_evict_own),
		cmocka_unit_test(test_head_timeout),
		cmocka_unit_test(test_idle_timeout),
		cmocka_unit_test(test_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
