/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The web configuration file of Prometheus's exporters (exporter-toolkit,
 * --web.config.file): TLS for the listener and basic-auth users with
 * bcrypt hashes.  The file is the subset of YAML those files are written
 * in: mappings two levels deep, plain or quoted scalars, comments.  As
 * exporter-toolkit does, an unknown key is an error, not ignored: a typo
 * in a security setting must not leave a server open.  Keys fragtop does
 * not implement are refused by name.  Pure: text in, a struct or "line
 * N: why" out.
 *
 *   tls_server_config:
 *     cert_file: server.crt          # relative: to the file's directory
 *     key_file: server.key
 *     client_auth_type: RequireAndVerifyClientCert
 *     client_ca_file: ca.crt
 *     min_version: TLS12             # TLS10 .. TLS13; default TLS12
 *     max_version: TLS13
 *   basic_auth_users:
 *     prometheus: $2y$10$...         # bcrypt (htpasswd -nBC 10 USER)
 */
#ifndef FT_NET_WEBCONFIG_H
#define FT_NET_WEBCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define FT_WEB_MAX_USERS	64
/*
 * The highest bcrypt cost taken: each step doubles a check's CPU time
 * (cost 14 is about a second of a core here), and a wrong password costs
 * a check too; exporter-toolkit's users run 10-12.
 */
#define FT_WEB_MAX_COST		14
#define FT_WEB_PATH_MAX		1024
#define FT_WEB_MAX_FILE		(256 * 1024)	/* a longer file is refused */

enum ft_tls_version { FT_TLS10 = 1, FT_TLS11, FT_TLS12, FT_TLS13 };

/* client_auth_type, as Go's crypto/tls names them */
enum ft_client_auth {
	FT_CLIENT_NONE,			/* NoClientCert (the default) */
	FT_CLIENT_REQUEST,		/* RequestClientCert: asked, not needed, not verified */
	FT_CLIENT_REQUIRE_ANY,		/* RequireAnyClientCert: needed, not verified */
	FT_CLIENT_VERIFY_IF_GIVEN,	/* VerifyClientCertIfGiven */
	FT_CLIENT_REQUIRE_VERIFY,	/* RequireAndVerifyClientCert */
};

struct ft_web_user {
	char name[128];
	char hash[128];		/* bcrypt: $2a$, $2b$ or $2y$, cost, 53 characters */
	int cost;		/* 4..FT_WEB_MAX_COST */
	int line;
};

struct ft_webconfig {
	bool tls;			/* tls_server_config is there (TLS on) */
	int tls_line;
	char cert_file[FT_WEB_PATH_MAX], key_file[FT_WEB_PATH_MAX], client_ca_file[FT_WEB_PATH_MAX];
	int cert_line, key_line, client_ca_line;	/* 0: not given */
	enum ft_client_auth client_auth;
	int client_auth_line;
	enum ft_tls_version min_version, max_version;
	bool prefer_server_ciphers;
	struct ft_web_user users[FT_WEB_MAX_USERS];
	int nr_users;
};

/*
 * Parse @len bytes of @text into @wc.  0, or -1 with "line N: why" (or
 * why alone, for the file as a whole) in @why.
 */
int ft_webconfig_parse(const char *text, size_t len, struct ft_webconfig *wc, char *why, size_t sz);

/* "TLS12" for FT_TLS12: the name a config writes */
const char *ft_tls_version_name(enum ft_tls_version v);

/* The user @name, or NULL. */
const struct ft_web_user *ft_webconfig_user(const struct ft_webconfig *wc, const char *name);

#endif
