/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gzip for the exporter's answers (Prometheus asks for it on every
 * scrape), and gunzip for /proc/config.gz (the map's kernel check,
 * collectors/kconfig.c): zlib, loaded with dlopen() the first time one
 * is needed, as OpenSSL is (net/tlslib.h), so nothing else maps it.
 * Where libz.so.1 cannot be loaded the exporter answers uncompressed,
 * which every client takes, and the kernel's config reads as unknown.
 */
#ifndef FT_CMD_GZIP_H
#define FT_CMD_GZIP_H

#include <stddef.h>

/*
 * @in (@n bytes) as one gzip member in a new buffer (*out, *outn; the
 * caller frees it).  -1, with why in @why, when zlib cannot be loaded
 * (said again to later callers) or runs out of memory.
 */
int ft_gzip(const char *in, size_t n, char **out, size_t *outn, char *why, size_t sz);

/*
 * The gzip stream @in (@n bytes) inflated into a new NUL-terminated buffer
 * (*out, *outn without the NUL; the caller frees it), at most @max bytes:
 * a longer or corrupt stream, or no zlib, is -1 with why in @why.
 */
int ft_gunzip(const char *in, size_t n, size_t max, char **out, size_t *outn, char *why, size_t sz);

#endif
