/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * OpenSSL (libssl.so.3 and libcrypto.so.3) and libcrypt (libcrypt.so.1),
 * loaded with dlopen() when the exporter's --web.config.file asks for TLS
 * or users, or `fragtop fleet` asks an https URL, and by nothing else.
 * Linked, they were mapped into every fragtop: 1.8 MB of the TUI's resident memory for code it
 * never runs.
 *
 * The functions are called through pointers of their own type (systemd's
 * sym_ pattern), so the compiler still checks every call against
 * OpenSSL's and libcrypt's headers.  OpenSSL's macros over SSL_CTX_ctrl()
 * and the stack functions are written out where they are used.
 */
#ifndef FT_NET_TLSLIB_H
#define FT_NET_TLSLIB_H

#include <stddef.h>

#include <crypt.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>

#define FT_TLSLIB_SSL	"libssl.so.3"
#define FT_TLSLIB_CRYPTO	"libcrypto.so.3"
#define FT_TLSLIB_CRYPT	"libcrypt.so.1"

#define FT_SYM(name) extern __typeof__(name) *sym_##name
/* libssl */
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
/* libssl, the client side (fragtop fleet) */
FT_SYM(TLS_client_method);
FT_SYM(SSL_CTX_set_default_verify_paths);
FT_SYM(SSL_ctrl);
FT_SYM(SSL_set1_host);
FT_SYM(SSL_connect);
FT_SYM(SSL_get_verify_result);
/* libcrypto */
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
/* libcrypt */
FT_SYM(crypt_r);
FT_SYM(crypt_gensalt_rn);
#undef FT_SYM

/* Load libcrypto (digests, errors) once.  0, or -1 with the loader's words in @why. */
int ft_tlslib_crypto(char *why, size_t sz);
/* Load libcrypto and libssl once.  0, or -1 with the loader's words in @why. */
int ft_tlslib_ssl(char *why, size_t sz);
/* Load libcrypt once.  0, or -1 with the loader's words in @why. */
int ft_tlslib_crypt(char *why, size_t sz);

#endif
