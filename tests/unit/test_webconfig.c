// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The web configuration reader: exporter-toolkit's files as their
 * documentation writes them, the defaults, quoting and comments, and
 * every refusal with the line it names: unknown and unsupported keys,
 * a typo's value, keys given twice, broken nesting, hashes that are not
 * bcrypt, TLS settings that do not go together, and non-text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "net/webconfig.h"

#define H1 "$2y$04$abcdefghijklmnopqrstuuLZYjhNQAOdpbzt4WxWlUHjv1wsyH5DG"
#define H2 "$2b$10$afuzG5q1mPb/FI4JHPK1xeSmBZ.5aisDqGliW1jmXL.Xw2uIrfck."

static struct ft_webconfig wc;

static int parse(const char *text, char *why, size_t sz)
{
	return ft_webconfig_parse(text, strlen(text), &wc, why, sz);
}

/* @len bytes of @text are refused, and the reason starts with @start and holds @part */
static void refused_n(const char *text, size_t len, const char *start, const char *part)
{
	char why[256];

	assert_int_equal(ft_webconfig_parse(text, len, &wc, why, sizeof(why)), -1);
	if (strncmp(why, start, strlen(start)) || !strstr(why, part))
		fail_msg("'%s': want '%s...%s'", why, start, part);
}

static void refused(const char *text, const char *start, const char *part)
{
	refused_n(text, strlen(text), start, part);
}

static void test_full(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(parse("# exporter-toolkit's example\n"
			       "---\n"
			       "tls_server_config:\n"
			       "  cert_file: server.crt\n"
			       "  key_file: \"/etc/fragtop/server.key\"   # absolute\n"
			       "  client_auth_type: RequireAndVerifyClientCert\n"
			       "  client_ca_file: 'ca.crt'\n"
			       "  min_version: TLS13\n"
			       "  prefer_server_cipher_suites: false\n"
			       "\n"
			       "http_server_config:\n"
			       "  http2: true\n"
			       "basic_auth_users:\n"
			       "    prometheus: " H1 "\n"
			       "    \"ops:team\x7e\": '" H2 "'\n", why, sizeof(why)), -1);
	/* a ':' in a user name cannot be told apart in basic auth: refused */
	assert_non_null(strstr(why, "line 15: a user name cannot hold ':'"));
	assert_int_equal(parse("tls_server_config:\n"
			       "  cert_file: server.crt\n"
			       "  key_file: \"/etc/fragtop/server.key\"   # absolute\n"
			       "  client_auth_type: RequireAndVerifyClientCert\n"
			       "  client_ca_file: 'ca.crt'\n"
			       "  min_version: TLS13\n"
			       "  prefer_server_cipher_suites: false\n"
			       "http_server_config:\n"
			       "  http2: true\n"
			       "basic_auth_users:\n"
			       "    prometheus: " H1 "\n"
			       "    'o''neil': " H2 "\r\n", why, sizeof(why)), 0);
	assert_true(wc.tls);
	assert_int_equal(wc.tls_line, 1);
	assert_string_equal(wc.cert_file, "server.crt");
	assert_int_equal(wc.cert_line, 2);
	assert_string_equal(wc.key_file, "/etc/fragtop/server.key");
	assert_string_equal(wc.client_ca_file, "ca.crt");
	assert_int_equal(wc.client_auth, FT_CLIENT_REQUIRE_VERIFY);
	assert_int_equal(wc.min_version, FT_TLS13);
	assert_int_equal(wc.max_version, FT_TLS13);
	assert_false(wc.prefer_server_ciphers);
	assert_int_equal(wc.nr_users, 2);
	assert_string_equal(wc.users[0].name, "prometheus");
	assert_string_equal(wc.users[0].hash, H1);
	assert_int_equal(wc.users[0].line, 11);
	assert_int_equal(wc.users[0].cost, 4);
	assert_string_equal(wc.users[1].name, "o'neil");
	assert_string_equal(wc.users[1].hash, H2);
	assert_int_equal(wc.users[1].cost, 10);
	assert_ptr_equal(ft_webconfig_user(&wc, "o'neil"), &wc.users[1]);
	assert_null(ft_webconfig_user(&wc, "nobody"));
}

static void test_defaults(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(parse("", why, sizeof(why)), 0);
	assert_false(wc.tls);
	assert_int_equal(wc.nr_users, 0);
	assert_int_equal(parse("basic_auth_users:\n  a: " H1 "\n", why, sizeof(why)), 0);
	assert_false(wc.tls);
	assert_int_equal(wc.nr_users, 1);
	assert_int_equal(parse("tls_server_config:\n  cert_file: c\n  key_file: k\n", why,
			       sizeof(why)), 0);
	assert_int_equal(wc.min_version, FT_TLS12);
	assert_int_equal(wc.max_version, FT_TLS13);
	assert_int_equal(wc.client_auth, FT_CLIENT_NONE);
	assert_true(wc.prefer_server_ciphers);
	/* an empty mapping, and the end of a document, comments and blank lines after it */
	assert_int_equal(parse("basic_auth_users: {}\nhttp_server_config: ~\n...\n# done\n\n", why,
			       sizeof(why)), 0);
	/* anything else after it is refused, never dropped (issue 42, item 6) */
	assert_int_equal(parse("basic_auth_users: {}\n...\ngarbage: [\n", why, sizeof(why)), -1);
	assert_string_equal(ft_tls_version_name(FT_TLS11), "TLS11");
}

static void test_keys_refused(void **state)
{
	(void)state;
	refused("tls_server_config:\n  cert_file: c\n  key_file: k\nbasic_auth_user:\n", "line 4: ",
		"no key 'basic_auth_user'");
	refused("tls_server_config:\n  cert_fille: c\n", "line 2: ", "no key 'cert_fille'");
	refused("tls_server_config:\n  cipher_suites:\n    - TLS_AES_128_GCM_SHA256\n", "line 2: ",
		"cipher_suites is not supported by fragtop");
	refused("tls_server_config:\n  client_allowed_sans: [a]\n", "line 2: ", "not supported");
	refused("http_server_config:\n  headers:\n    X-Frame-Options: deny\n", "line 2: ",
		"headers is not supported");
	refused("http_server_config:\n  http3: true\n", "line 2: ", "no key 'http3'");
	refused("tls_server_config:\n  cert_file: a\n  cert_file: b\n", "line 3: ",
		"given twice (first on line 2)");
	refused("tls_server_config:\n  cert_file: a\n  key_file: b\ntls_server_config:\n",
		"line 4: ", "given twice");
	refused("basic_auth_users:\n  a: " H1 "\n  a: " H2 "\n", "line 3: ",
		"user 'a' given twice");
	refused("tls_server_config:\n  min_version: TLS12\n  min_version: TLS13\n", "line 3: ",
		"twice");
}

static void test_values_refused(void **state)
{
	(void)state;
	refused("tls_server_config:\n  min_version: TLS1.2\n", "line 2: ",
		"TLS10, TLS11, TLS12 or TLS13");
	refused("tls_server_config:\n  client_auth_type: RequireAndVerify\n", "line 2: ",
		"NoClientCert");
	refused("tls_server_config:\n  prefer_server_cipher_suites: maybe\n", "line 2: ",
		"true or false");
	refused("tls_server_config:\n  cert_file:\n", "line 2: ", "cert_file needs a value");
	refused("tls_server_config:\n  cert_file: \"\"\n", "line 2: ", "cert_file is empty");
	refused("tls_server_config:\n  cert_file: \"unclosed\n", "line 2: ", "without its closing");
	refused("tls_server_config:\n  cert_file: \"a\" b\n", "line 2: ",
		"text after the closing quote");
	refused("tls_server_config:\n  cert_file: \"a\\qb\"\n", "line 2: ", "escape \\q");
	refused("tls_server_config:\n  cert_file: &anchor c\n", "line 2: ", "anchors");
	refused("tls_server_config:\n  cert_file: |\n", "line 2: ", "block scalars");
	refused("tls_server_config: yes\n", "line 1: ", "takes a mapping");
	refused("basic_auth_users:\n  a: secret\n", "line 2: ", "not a bcrypt hash");
	refused("basic_auth_users:\n  a: "
		"$2y$03$abcdefghijklmnopqrstuuLZYjhNQAOdpbzt4WxWlUHjv1wsyH5DG\n", "line 2: ",
		"bcrypt");	/* cost below 4 */
	refused("basic_auth_users:\n  a: $1$abc$xyz\n", "line 2: ", "bcrypt");	/* MD5 crypt */
	/* a cost-31 check would take days: refused at load, naming the line and the bound */
	refused("basic_auth_users:\n  a: " H1 "\n  b: "
					      "$2b$31$abcdefghijklmnopqrstuuLZYjhNQAOdpbzt4WxWlUHjv"
					      "1wsyH5DG\n",
		"line 3: ", "user 'b': bcrypt cost 31 is above 14");
	refused("basic_auth_users:\n  a: "
		"$2y$15$abcdefghijklmnopqrstuuLZYjhNQAOdpbzt4WxWlUHjv1wsyH5DG\n", "line 2: ",
		"cost 15 is above 14");
	refused("basic_auth_users:\n  a:\n", "line 2: ", "no password hash");
	refused("basic_auth_users:\n  \"a\x01\": " H1 "\n", "line 2: ", "control character");
}

static void test_structure_refused(void **state)
{
	static const char nul[] = "tls_server_config:\n  cert_file: c\n  key_file: k\n\0more";
	static char big[FT_WEB_MAX_FILE + 2];

	(void)state;
	refused("  cert_file: c\n", "line 1: ", "under no key");
	refused("tls_server_config:\n  cert_file: c\n    key_file: k\n", "line 3: ",
		"nothing nests deeper");
	refused("tls_server_config:\n    cert_file: c\n  key_file: k\n", "line 3: ",
		"indented 2 spaces");
	refused("tls_server_config:\n\tcert_file: c\n", "line 2: ", "a tab in the indentation");
	refused("- a\n", "line 1: ", "a list where keys go");
	refused("tls_server_config:\n  cert_file c\n", "line 2: ", "expected KEY: VALUE");
	refused("tls_server_config:\n  : c\n", "line 2: ", "key is missing");
	refused("basic_auth_users:\n  a: " H1 "\n---\n", "line 3: ", "a second YAML document");
	/* issue 42, item 6: "..." then users dropped the users, and TLS was served without auth */
	refused("tls_server_config:\n  cert_file: c\n  key_file: k\n...\nbasic_auth_users:\n  a: "
		"" H1 "\n",
		"line 5: ", "more after the end of the document ('...' on line 4)");
	refused("basic_auth_users:\n  a: " H1 "\n...\n---\n", "line 4: ", "more after the end");
	refused_n(nul, sizeof(nul) - 1, "", "NUL byte");
	memset(big, '#', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	refused(big, "", "longer than");
}

static void test_together(void **state)
{
	(void)state;
	refused("tls_server_config:\n  cert_file: c\n", "line 1: ",
		"needs both cert_file and key_file");
	refused("tls_server_config: {}\n", "line 1: ", "needs both");
	refused("tls_server_config:\n  cert_file: c\n  key_file: k\n  min_version: TLS13\n  "
		"max_version: TLS12\n",
		"line 1: ", "min_version TLS13 is above max_version TLS12");
	refused("tls_server_config:\n  cert_file: c\n  key_file: k\n  client_ca_file: ca\n",
		"line 4: ",
		"client_ca_file without a client_auth_type");
	refused("tls_server_config:\n  cert_file: c\n  key_file: k\n  client_auth_type: "
		"VerifyClientCertIfGiven\n",
		"line 4: ", "needs client_ca_file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_keys_refused),
		cmocka_unit_test(test_values_refused),
		cmocka_unit_test(test_structure_refused),
		cmocka_unit_test(test_together),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
