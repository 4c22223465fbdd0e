/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exporter's --web.config.file put to work: an OpenSSL server context
 * for TLS (Debian's libssl) and basic auth against bcrypt hashes
 * (libcrypt's crypt_r); no hand-written crypto.  Both libraries are
 * loaded here, when the file asks for them (cmd/tlslib.h).  A good password is
 * remembered (its SHA-256 beside the user), as exporter-toolkit caches
 * them, so a scrape every 15 s pays for bcrypt once, not every time; an
 * unknown user costs a bcrypt all the same, so timing does not tell
 * which names exist.
 */
#ifndef FT_CMD_WEBSEC_H
#define FT_CMD_WEBSEC_H

#include <stdbool.h>

#include <openssl/ssl.h>

#include "model/httpreq.h"
#include "model/webconfig.h"

#define FT_WEBSEC_CACHE 16

struct crypt_data;

struct ft_websec {
	struct ft_webconfig wc;
	SSL_CTX *ctx;			/* NULL: plain HTTP */
	struct crypt_data *cd;		/* crypt_r()'s work area (about 32 KiB) */
	char dummy_hash[128];		/* what an unknown user's password is checked against */
	struct {
		int user;		/* index in wc.users, -1: empty */
		unsigned char key[32];	/* SHA-256 of the password */
	} cache[FT_WEBSEC_CACHE];
	int cache_next;
};

/*
 * Read @path and set up what it asks for.  0, or -1 after printing
 * "fragtop: PATH: line N: why" (a certificate or key that does not load
 * names its line).
 */
int ft_websec_load(struct ft_websec *ws, const char *path);

/* The request may be answered: no users configured, or its basic auth is one of them. */
bool ft_websec_auth(struct ft_websec *ws, const struct ft_http_req *r);

void ft_websec_free(struct ft_websec *ws);

#endif
