// SPDX-License-Identifier: GPL-2.0-or-later
#include "net/tlslib.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>

#define FT_SYM(name) __typeof__(name) *sym_##name
FT_SYM(TLS_server_method);
FT_SYM(SSL_CTX_new);
FT_SYM(SSL_CTX_free);
FT_SYM(SSL_CTX_ctrl);
FT_SYM(SSL_CTX_set_options);
FT_SYM(SSL_CTX_use_certificate_chain_file);
FT_SYM(SSL_CTX_use_PrivateKey_file);
FT_SYM(SSL_CTX_check_private_key);
FT_SYM(SSL_CTX_load_verify_locations);
FT_SYM(SSL_CTX_set_client_CA_list);
FT_SYM(SSL_CTX_set_verify);
FT_SYM(SSL_load_client_CA_file);
FT_SYM(SSL_new);
FT_SYM(SSL_free);
FT_SYM(SSL_set_fd);
FT_SYM(SSL_accept);
FT_SYM(SSL_read);
FT_SYM(SSL_write);
FT_SYM(SSL_pending);
FT_SYM(SSL_shutdown);
FT_SYM(SSL_get_error);
FT_SYM(SSL_get_wbio);
FT_SYM(TLS_client_method);
FT_SYM(SSL_CTX_set_default_verify_paths);
FT_SYM(SSL_ctrl);
FT_SYM(SSL_set1_host);
FT_SYM(SSL_connect);
FT_SYM(SSL_get_verify_result);
FT_SYM(ERR_peek_error);
FT_SYM(ERR_error_string_n);
FT_SYM(ERR_clear_error);
FT_SYM(EVP_Digest);
FT_SYM(EVP_sha256);
FT_SYM(CRYPTO_memcmp);
FT_SYM(OPENSSL_sk_pop_free);
FT_SYM(X509_NAME_free);
FT_SYM(BIO_number_written);
FT_SYM(X509_verify_cert_error_string);
FT_SYM(crypt_r);
FT_SYM(crypt_gensalt_rn);
#undef FT_SYM

struct sym {
	const char *name;
	void **ptr;
};

#define S(name) { #name, (void **)&sym_##name }
static const struct sym ssl_syms[] = {
	S(TLS_server_method), S(SSL_CTX_new), S(SSL_CTX_free), S(SSL_CTX_ctrl),
	S(SSL_CTX_set_options),
	S(SSL_CTX_use_certificate_chain_file), S(SSL_CTX_use_PrivateKey_file),
	S(SSL_CTX_check_private_key),
	S(SSL_CTX_load_verify_locations), S(SSL_CTX_set_client_CA_list), S(SSL_CTX_set_verify),
	S(SSL_load_client_CA_file), S(SSL_new), S(SSL_free), S(SSL_set_fd), S(SSL_accept),
	S(SSL_read),
	S(SSL_write), S(SSL_pending), S(SSL_shutdown), S(SSL_get_error), S(SSL_get_wbio),
	S(TLS_client_method), S(SSL_CTX_set_default_verify_paths), S(SSL_ctrl), S(SSL_set1_host),
	S(SSL_connect),
	S(SSL_get_verify_result),
};
static const struct sym crypto_syms[] = {
	S(ERR_peek_error), S(ERR_error_string_n), S(ERR_clear_error), S(EVP_Digest), S(EVP_sha256),
	S(CRYPTO_memcmp), S(OPENSSL_sk_pop_free), S(X509_NAME_free), S(BIO_number_written),
	S(X509_verify_cert_error_string),
};
static const struct sym crypt_syms[] = { S(crypt_r), S(crypt_gensalt_rn) };
#undef S

/* dlopen @lib (Debian's package @pkg) and take @n symbols from it; it stays loaded. */
static int load(const char *lib, const char *pkg, const struct sym *syms, size_t n, char *why,
		size_t sz)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	size_t i;

	if (!h) {
		snprintf(why, sz, "cannot load %s (Debian: %s): %s", lib, pkg, dlerror());
		return -1;
	}
	for (i = 0; i < n; i++) {
		*syms[i].ptr = dlsym(h, syms[i].name);
		if (!*syms[i].ptr) {
			snprintf(why, sz, "%s has no %s", lib, syms[i].name);
			return -1;
		}
	}
	return 0;
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* Each library once: 1 loaded, -1 it failed (and why, said again to a later caller). */
static int once(int *state, char *saved, const char *lib, const char *pkg, const struct sym *syms,
		size_t n,
		char *why, size_t sz)
{
	if (!*state)
		*state = load(lib, pkg, syms, n, saved, 256) ? -1 : 1;
	if (*state < 0)
		snprintf(why, sz, "%s", saved);
	return *state > 0 ? 0 : -1;
}

int ft_tlslib_crypto(char *why, size_t sz)
{
	static int state;
	static char saved[256];

	return once(&state, saved, FT_TLSLIB_CRYPTO, "libssl3", crypto_syms, NR(crypto_syms), why,
		    sz);
}

int ft_tlslib_ssl(char *why, size_t sz)
{
	static int state;
	static char saved[256];

	if (ft_tlslib_crypto(why, sz))
		return -1;
	return once(&state, saved, FT_TLSLIB_SSL, "libssl3", ssl_syms, NR(ssl_syms), why, sz);
}

int ft_tlslib_crypt(char *why, size_t sz)
{
	static int state;
	static char saved[256];

	return once(&state, saved, FT_TLSLIB_CRYPT, "libcrypt1", crypt_syms, NR(crypt_syms), why,
		    sz);
}
