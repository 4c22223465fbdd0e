// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exporter's password checker (net/websec.c), with Debian's libcrypt
 * and libcrypto: bcrypt runs on the checker's thread and the verdict comes
 * back through its eventfd; a good password is cached (the next request
 * is answered at once); a refusal is due no sooner than a check at the
 * file's highest cost takes, whatever the name; one address has at most
 * FT_WEBSEC_PER_PEER checks in flight and the queue FT_WEBSEC_QUEUE; a
 * cancelled check gives no verdict; freeing while a check runs returns.
 * Also run under TSan.
 */
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/clock.h"
#include "net/websec.h"

/* alice's is cost 4 ("apass"), bob's cost 6 ("bpass"): perl's crypt made them */
#define ALICE "$2b$04$abcdefghijklmnopqrstuuHkgy53g3uraFHgqkdSuNbISb8QeGsFe"
#define BOB "$2b$06$abcdefghijklmnopqrstuuEb8kGiZaLPFpUCuI7.l8LSap2RxnKbm"

static char path[64];

static int setup(void **state)
{
	struct ft_websec *ws = calloc(1, sizeof(*ws));
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_websec.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || !ws)
		return -1;
	f = fdopen(fd, "w");
	fprintf(f, "basic_auth_users:\n  alice: '%s'\n  bob: '%s'\n", ALICE, BOB);
	fclose(f);
	if (ft_websec_load(ws, path))
		return -1;
	*state = ws;
	return 0;
}

static int teardown(void **state)
{
	ft_websec_free(*state);
	free(*state);
	unlink(path);
	return 0;
}

static struct ft_http_req req(const char *user, const char *pass)
{
	struct ft_http_req r = { .auth = FT_HTTP_AUTH_BASIC };

	snprintf(r.user, sizeof(r.user), "%s", user);
	snprintf(r.pass, sizeof(r.pass), "%s", pass);
	return r;
}

static const unsigned char peer_a[16] = { [10] = 0xff, [11] = 0xff, 127, 0, 0, 1 };
static const unsigned char peer_b[16] = { [10] = 0xff, [11] = 0xff, 127, 0, 0, 2 };

/* The next verdict, waiting on the eventfd (10 s at most): false if none came. */
static bool verdict(struct ft_websec *ws, uint64_t *ticket, bool *ok, uint64_t *due)
{
	uint64_t end = ft_now_ns() + 10000000000ull;

	while (ft_now_ns() < end) {
		struct pollfd pf = { .fd = ft_websec_fd(ws), .events = POLLIN };

		if (ft_websec_result(ws, ticket, ok, due))
			return true;
		poll(&pf, 1, 100);
	}
	return false;
}

static void test_good_then_cached(void **state)
{
	struct ft_websec *ws = *state;
	struct ft_http_req r = req("alice", "apass");
	uint64_t t = 0, got, due;
	bool ok = false;

	assert_true(ft_websec_fd(ws) >= 0);
	assert_int_equal(ft_websec_check(ws, &r, peer_a, &t), FT_AUTH_PENDING);
	assert_true(t > 0);
	assert_true(verdict(ws, &got, &ok, &due));
	assert_true(got == t);
	assert_true(ok);
	assert_true(due == 0);
	/* cached now: answered at once, no check queued */
	r = req("alice", "apass");
	assert_int_equal(ft_websec_check(ws, &r, peer_a, &t), FT_AUTH_OK);
	/* no credentials at all: refused at once */
	r = (struct ft_http_req){ 0 };
	assert_int_equal(ft_websec_check(ws, &r, peer_a, &t), FT_AUTH_DENIED);
}

/* A wrong password for alice (cost 4) and an unknown name are due no sooner than a cost-6 check. */
static void test_refusals_wait(void **state)
{
	struct ft_websec *ws = *state;
	const char *names[] = { "alice", "nobody" };
	int i;

	assert_true(ws->refuse_ns > 0);
	assert_int_equal(ws->max_cost, 6);
	for (i = 0; i < 2; i++) {
		struct ft_http_req r = req(names[i], "wrong");
		uint64_t t = 0, got, due, t0 = ft_now_ns();
		bool ok = true;

		assert_int_equal(ft_websec_check(ws, &r, peer_a, &t), FT_AUTH_PENDING);
		assert_true(verdict(ws, &got, &ok, &due));
		assert_true(got == t);
		assert_false(ok);
		/* the unknown name's check renews refuse_ns */
		assert_true(due >= t0 + ws->refuse_ns / 2);
		if (i == 0)
			assert_true(due >= t0 + ws->refuse_ns);
	}
}

static void test_limits(void **state)
{
	struct ft_websec *ws = *state;
	struct ft_http_req r = req("bob", "wrong");
	uint64_t t[FT_WEBSEC_QUEUE + 2] = { 0 }, got, due;
	unsigned char peer[16];
	int i, n = 0;
	bool ok;

	assert_int_equal(ft_websec_check(ws, &r, peer_a, &t[n++]), FT_AUTH_PENDING);
	r = req("bob", "wrong");
	assert_int_equal(ft_websec_check(ws, &r, peer_a, &t[n++]), FT_AUTH_PENDING);
	r = req("bob", "wrong");
	assert_int_equal(ft_websec_check(ws, &r, peer_a, &t[FT_WEBSEC_QUEUE + 1]), FT_AUTH_LIMIT);
	/* other addresses fill the queue; one more is BUSY */
	memcpy(peer, peer_b, 16);
	while (n < FT_WEBSEC_QUEUE) {
		peer[15] = (unsigned char)(10 + n);
		r = req("bob", "wrong");
		assert_int_equal(ft_websec_check(ws, &r, peer, &t[n++]), FT_AUTH_PENDING);
	}
	peer[15] = 200;
	r = req("bob", "wrong");
	assert_int_equal(ft_websec_check(ws, &r, peer, &t[n]), FT_AUTH_BUSY);
	/* the last one queued is cancelled: every other verdict comes, that one never */
	ft_websec_cancel(ws, t[FT_WEBSEC_QUEUE - 1]);
	for (i = 0; i < FT_WEBSEC_QUEUE - 1; i++) {
		assert_true(verdict(ws, &got, &ok, &due));
		assert_true(got != t[FT_WEBSEC_QUEUE - 1]);
		assert_false(ok);
	}
	assert_false(verdict(ws, &got, &ok, &due) && got == t[FT_WEBSEC_QUEUE - 1]);
}

/* Freed with checks queued and one running: it returns (the running one ends with the process). */
static void test_free_busy(void **state)
{
	struct ft_websec *ws = *state;
	uint64_t t;
	int i;

	for (i = 0; i < 2; i++) {
		struct ft_http_req r = req("bob", "wrong");

		assert_int_equal(ft_websec_check(ws, &r, peer_b, &t), FT_AUTH_PENDING);
	}
	ft_websec_free(ws);
	assert_int_equal(ft_websec_fd(ws), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_good_then_cached, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_free_busy, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
