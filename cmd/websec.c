// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/websec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/tlslib.h"

/* The file, whole: a regular file (a FIFO would hang the start) of a bounded size. */
static char *read_config(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "fragtop: %s: %s\n", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "fragtop: %s: not a regular file\n", path);
		goto out;
	}
	if (!(buf = malloc(FT_WEB_MAX_FILE + 2))) {
		fprintf(stderr, "fragtop: %s: %s\n", path, strerror(errno));
		goto out;
	}
	*len = 0;
	while ((n = read(fd, buf + *len, FT_WEB_MAX_FILE + 1 - *len)) > 0 && *len + (size_t)n <= FT_WEB_MAX_FILE)
		*len += (size_t)n;
	if (n > 0)
		*len += (size_t)n;	/* over the bound: the parser says so */
	if (n < 0) {
		fprintf(stderr, "fragtop: %s: %s\n", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

/* @file relative to the config's directory, as exporter-toolkit resolves it. */
static void resolve(const char *config, char *file, size_t sz)
{
	const char *slash = strrchr(config, '/');
	char tmp[FT_WEB_PATH_MAX * 2];

	if (file[0] == '/' || !slash)
		return;
	snprintf(tmp, sizeof(tmp), "%.*s/%s", (int)(slash - config), config, file);
	if (strlen(tmp) < sz)
		memcpy(file, tmp, strlen(tmp) + 1);
}

/* OpenSSL's reason for the last failure, in words. */
static const char *ssl_why(void)
{
	static char buf[256];
	unsigned long e = sym_ERR_peek_error();	/* the first: the cause, the later ones its callers */

	if (!e)
		return "failed";
	sym_ERR_error_string_n(e, buf, sizeof(buf));
	sym_ERR_clear_error();
	return buf;
}

/* A file OpenSSL is to read: there, and a regular file (OpenSSL would block on a FIFO). */
static int usable(const char *config, int line, const char *key, const char *file)
{
	struct stat st;

	if (stat(file, &st)) {
		fprintf(stderr, "fragtop: %s: line %d: %s %s: %s\n", config, line, key, file, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "fragtop: %s: line %d: %s %s: not a regular file\n", config, line, key, file);
		return -1;
	}
	return 0;
}

/* RequestClientCert and RequireAnyClientCert ask for a certificate but do not verify it. */
static int accept_any(int ok, X509_STORE_CTX *x)
{
	(void)ok;
	(void)x;
	return 1;
}

static int tls_setup(struct ft_websec *ws, const char *config)
{
	static const int versions[] = {
		[FT_TLS10] = TLS1_VERSION, [FT_TLS11] = TLS1_1_VERSION,
		[FT_TLS12] = TLS1_2_VERSION, [FT_TLS13] = TLS1_3_VERSION,
	};
	struct ft_webconfig *wc = &ws->wc;
	int mode = SSL_VERIFY_NONE;

	resolve(config, wc->cert_file, sizeof(wc->cert_file));
	resolve(config, wc->key_file, sizeof(wc->key_file));
	if (wc->client_ca_line)
		resolve(config, wc->client_ca_file, sizeof(wc->client_ca_file));
	if (usable(config, wc->cert_line, "cert_file", wc->cert_file) ||
	    usable(config, wc->key_line, "key_file", wc->key_file) ||
	    (wc->client_ca_line && usable(config, wc->client_ca_line, "client_ca_file", wc->client_ca_file)))
		return -1;
	if (!(ws->ctx = sym_SSL_CTX_new(sym_TLS_server_method()))) {
		fprintf(stderr, "fragtop: %s: TLS: %s\n", config, ssl_why());
		return -1;
	}
	sym_SSL_CTX_ctrl(ws->ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, versions[wc->min_version], NULL);
	sym_SSL_CTX_ctrl(ws->ctx, SSL_CTRL_SET_MAX_PROTO_VERSION, versions[wc->max_version], NULL);
	sym_SSL_CTX_set_options(ws->ctx, SSL_OP_NO_RENEGOTIATION |
			    (wc->prefer_server_ciphers ? SSL_OP_CIPHER_SERVER_PREFERENCE : 0));
	sym_SSL_CTX_ctrl(ws->ctx, SSL_CTRL_MODE, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, NULL);
	if (sym_SSL_CTX_use_certificate_chain_file(ws->ctx, wc->cert_file) != 1) {
		fprintf(stderr, "fragtop: %s: line %d: cert_file %s: %s\n", config, wc->cert_line, wc->cert_file,
			ssl_why());
		return -1;
	}
	if (sym_SSL_CTX_use_PrivateKey_file(ws->ctx, wc->key_file, SSL_FILETYPE_PEM) != 1) {
		fprintf(stderr, "fragtop: %s: line %d: key_file %s: %s\n", config, wc->key_line, wc->key_file,
			ssl_why());
		return -1;
	}
	if (sym_SSL_CTX_check_private_key(ws->ctx) != 1) {
		fprintf(stderr, "fragtop: %s: line %d: key_file %s is not the key of cert_file %s\n", config,
			wc->key_line, wc->key_file, wc->cert_file);
		return -1;
	}
	if (wc->client_ca_line) {
		STACK_OF(X509_NAME) *names = sym_SSL_load_client_CA_file(wc->client_ca_file);

		if (!names || sym_SSL_CTX_load_verify_locations(ws->ctx, wc->client_ca_file, NULL) != 1) {
			fprintf(stderr, "fragtop: %s: line %d: client_ca_file %s: %s\n", config, wc->client_ca_line,
				wc->client_ca_file, names ? ssl_why() : "no certificate in it");
			if (names)
				sym_OPENSSL_sk_pop_free((OPENSSL_STACK *)names, (void (*)(void *))sym_X509_NAME_free);
			return -1;
		}
		sym_SSL_CTX_set_client_CA_list(ws->ctx, names);
	}
	switch (wc->client_auth) {
	case FT_CLIENT_NONE: break;
	case FT_CLIENT_REQUEST: mode = SSL_VERIFY_PEER; break;
	case FT_CLIENT_REQUIRE_ANY: mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT; break;
	case FT_CLIENT_VERIFY_IF_GIVEN: mode = SSL_VERIFY_PEER; break;
	case FT_CLIENT_REQUIRE_VERIFY: mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT; break;
	}
	sym_SSL_CTX_set_verify(ws->ctx, mode, wc->client_auth == FT_CLIENT_REQUEST ||
			   wc->client_auth == FT_CLIENT_REQUIRE_ANY ? accept_any : NULL);
	return 0;
}

/* A bcrypt hash of the first user's cost for unknown names to be checked against. */
static int dummy_setup(struct ft_websec *ws, const char *config)
{
	const char *h = ws->wc.users[0].hash, *d;
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	unsigned long cost = strtoul(h + 4, NULL, 10);

	if (!(ws->cd = calloc(1, sizeof(*ws->cd)))) {
		fprintf(stderr, "fragtop: %s: %s\n", config, strerror(errno));
		return -1;
	}
	if (!sym_crypt_gensalt_rn("$2b$", cost, NULL, 0, salt, sizeof(salt)) ||
	    !(d = sym_crypt_r("fragtop", salt, ws->cd)) || d[0] == '*') {
		fprintf(stderr, "fragtop: %s: line %d: libcrypt cannot check bcrypt hashes here\n", config,
			ws->wc.users[0].line);
		return -1;
	}
	snprintf(ws->dummy_hash, sizeof(ws->dummy_hash), "%s", d);
	return 0;
}

int ft_websec_load(struct ft_websec *ws, const char *path)
{
	char why[512];
	size_t len = 0;
	char *text = read_config(path, &len);
	int i, err;

	memset(ws, 0, sizeof(*ws));
	for (i = 0; i < FT_WEBSEC_CACHE; i++)
		ws->cache[i].user = -1;
	if (!text)
		return -1;
	err = ft_webconfig_parse(text, len, &ws->wc, why, sizeof(why));
	free(text);
	if (err) {
		fprintf(stderr, "fragtop: %s: %s\n", path, why);
		return -1;
	}
	/* the libraries only now, and only what the file asks for (cmd/tlslib.h) */
	if ((ws->wc.tls && ft_tlslib_ssl(why, sizeof(why))) ||
	    (ws->wc.nr_users && (ft_tlslib_crypto(why, sizeof(why)) || ft_tlslib_crypt(why, sizeof(why))))) {
		fprintf(stderr, "fragtop: %s: %s\n", path, why);
		return -1;
	}
	if ((ws->wc.tls && tls_setup(ws, path)) || (ws->wc.nr_users && dummy_setup(ws, path))) {
		ft_websec_free(ws);
		return -1;
	}
	return 0;
}

bool ft_websec_auth(struct ft_websec *ws, const struct ft_http_req *r)
{
	const struct ft_web_user *u;
	unsigned char key[32];
	unsigned int klen = 0;
	const char *h;
	bool ok;
	int i, idx;

	if (!ws->wc.nr_users)
		return true;
	if (r->auth != FT_HTTP_AUTH_BASIC)
		return false;
	u = ft_webconfig_user(&ws->wc, r->user);
	idx = u ? (int)(u - ws->wc.users) : -1;
	if (u && sym_EVP_Digest(r->pass, strlen(r->pass), key, &klen, sym_EVP_sha256(), NULL) == 1 && klen == sizeof(key))
		for (i = 0; i < FT_WEBSEC_CACHE; i++)
			if (ws->cache[i].user == idx && !sym_CRYPTO_memcmp(ws->cache[i].key, key, sizeof(key)))
				return true;
	h = sym_crypt_r(r->pass, u ? u->hash : ws->dummy_hash, ws->cd);
	ok = u && h && strlen(h) == strlen(u->hash) && !sym_CRYPTO_memcmp(h, u->hash, strlen(u->hash));
	if (ok && klen == sizeof(key)) {
		ws->cache[ws->cache_next].user = idx;
		memcpy(ws->cache[ws->cache_next].key, key, sizeof(key));
		ws->cache_next = (ws->cache_next + 1) % FT_WEBSEC_CACHE;
	}
	return ok;
}

void ft_websec_free(struct ft_websec *ws)
{
	if (ws->ctx)
		sym_SSL_CTX_free(ws->ctx);
	free(ws->cd);
	ws->ctx = NULL;
	ws->cd = NULL;
}
