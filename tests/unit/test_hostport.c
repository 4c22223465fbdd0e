// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --listen's addresses: IPv4 and bracketed IPv6 with a port, a port
 * alone on loopback, what is refused and why, the address written back
 * for a URL, and which addresses are loopback.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <netinet/in.h>
#include <cmocka.h>

#include "base/hostport.h"

/* @in parses, formats as @want and is loopback or not */
static void good(const char *in, const char *want, bool loopback)
{
	struct ft_hostport hp;
	char why[128] = "", out[FT_HOSTPORT_MAX];

	assert_int_equal(ft_hostport_parse(in, &hp, why, sizeof(why)), 0);
	ft_hostport_format(&hp, out, sizeof(out));
	assert_string_equal(out, want);
	assert_int_equal(ft_hostport_loopback(&hp), loopback);
}

/* @in is refused with a reason containing @reason */
static void bad(const char *in, const char *reason)
{
	struct ft_hostport hp;
	char why[128] = "";

	assert_int_equal(ft_hostport_parse(in, &hp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, reason));
}

static void test_ipv4(void **state)
{
	(void)state;
	good("127.0.0.1:9947", "127.0.0.1:9947", true);
	good("127.1.2.3:1", "127.1.2.3:1", true);
	good("0.0.0.0:9947", "0.0.0.0:9947", false);
	good("10.0.0.7:65535", "10.0.0.7:65535", false);
	good("9947", "127.0.0.1:9947", true);		/* a port alone: loopback */
	good(":9947", "127.0.0.1:9947", true);		/* never "http://:9947" */
}

static void test_ipv6(void **state)
{
	struct ft_hostport hp;
	char why[128];

	(void)state;
	good("[::1]:9947", "[::1]:9947", true);
	good("[::]:9947", "[::]:9947", false);
	good("[2001:db8::5]:80", "[2001:db8::5]:80", false);
	good("[::ffff:127.0.0.1]:80", "[::ffff:127.0.0.1]:80", true);
	good("[::ffff:10.0.0.1]:80", "[::ffff:10.0.0.1]:80", false);
	assert_int_equal(ft_hostport_parse("[::1]:9947", &hp, why, sizeof(why)), 0);
	assert_int_equal(hp.sa.ss_family, AF_INET6);
	assert_int_equal(hp.len, sizeof(struct sockaddr_in6));
	assert_int_equal(ft_hostport_parse("127.0.0.1:1", &hp, why, sizeof(why)), 0);
	assert_int_equal(hp.sa.ss_family, AF_INET);
	assert_int_equal(hp.len, sizeof(struct sockaddr_in));
}

static void test_refused(void **state)
{
	char longer[200];

	(void)state;
	bad("::1:9947", "without brackets");
	bad("[::1]", "in brackets");
	bad("[::1]9947", "in brackets");
	bad("[::1:9947", "in brackets");
	bad("[]:80", "empty brackets");
	bad("[127.0.0.1]:80", "IPv6");
	bad("[fe80::1%eth0]:80", "IPv6");
	bad("localhost:9947", "not looked up");
	bad("1.2.3:80", "IPv4");
	bad("1.2.3.4:0", "port");
	bad("1.2.3.4:65536", "port");
	bad("1.2.3.4:", "port");
	bad("1.2.3.4:80x", "port");
	bad("1.2.3.4:+80", "port");
	bad("1.2.3.4: 80", "port");
	bad("-1", "port");
	bad("", "port");
	memset(longer, '1', sizeof(longer) - 4);
	strcpy(longer + sizeof(longer) - 4, ":80");
	bad(longer, "too long");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipv4),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
