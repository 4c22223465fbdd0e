// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/gzip.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#define FT_ZLIB		"libz.so.1"
/* level 1: a scrape of 50 KB shrinks about 8x in a fraction of a millisecond */
#define GZIP_LEVEL	1
/* windowBits 15, plus 16: a gzip header and trailer rather than zlib's */
#define GZIP_WBITS	(15 + 16)
#define GZIP_MEMLEVEL	8

static __typeof__(deflateInit2_) *sym_deflateInit2_;
static __typeof__(deflate) *sym_deflate;
static __typeof__(deflateEnd) *sym_deflateEnd;
static __typeof__(deflateBound) *sym_deflateBound;
static __typeof__(inflateInit2_) *sym_inflateInit2_;
static __typeof__(inflate) *sym_inflate;
static __typeof__(inflateEnd) *sym_inflateEnd;

/* libz.so.1 once: 0 loaded, -1 not (why kept and said again). */
static int load(char *why, size_t sz)
{
	static int state;	/* 0 not tried, 1 loaded, -1 failed */
	static char saved[256];
	void *h;

	if (!state) {
		h = dlopen(FT_ZLIB, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			snprintf(saved, sizeof(saved), "cannot load %s (Debian: zlib1g): %s",
				 FT_ZLIB, dlerror());
			state = -1;
		} else if (!(*(void **)&sym_deflateInit2_ = dlsym(h, "deflateInit2_")) ||
			   !(*(void **)&sym_deflate = dlsym(h, "deflate")) ||
			   !(*(void **)&sym_deflateEnd = dlsym(h, "deflateEnd")) ||
			   !(*(void **)&sym_deflateBound = dlsym(h, "deflateBound")) ||
			   !(*(void **)&sym_inflateInit2_ = dlsym(h, "inflateInit2_")) ||
			   !(*(void **)&sym_inflate = dlsym(h, "inflate")) ||
			   !(*(void **)&sym_inflateEnd = dlsym(h, "inflateEnd"))) {
			snprintf(saved, sizeof(saved), "%s lacks deflate", FT_ZLIB);
			state = -1;
		} else {
			state = 1;
		}
	}
	if (state < 0)
		snprintf(why, sz, "%s", saved);
	return state > 0 ? 0 : -1;
}

int ft_gzip(const char *in, size_t n, char **out, size_t *outn, char *why, size_t sz)
{
	z_stream z = { 0 };
	size_t cap;
	char *buf;
	int r;

	*out = NULL;
	*outn = 0;
	if (load(why, sz))
		return -1;
	if (n > 0x7fffffffu) {
		snprintf(why, sz, "%zu bytes: too large for one deflate call", n);
		return -1;
	}
	if (sym_deflateInit2_(&z, GZIP_LEVEL, Z_DEFLATED, GZIP_WBITS, GZIP_MEMLEVEL,
			      Z_DEFAULT_STRATEGY,
			      ZLIB_VERSION, (int)sizeof(z)) != Z_OK) {
		snprintf(why, sz, "deflateInit2: %s", z.msg ? z.msg : "out of memory");
		return -1;
	}
	/* deflateBound of a gzip stream counts zlib's header; gzip's is 12 bytes longer */
	cap = sym_deflateBound(&z, (uLong)n) + 32;
	buf = malloc(cap);
	if (!buf) {
		sym_deflateEnd(&z);
		snprintf(why, sz, "out of memory for %zu bytes", cap);
		return -1;
	}
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)buf;
	z.avail_out = (uInt)cap;
	r = sym_deflate(&z, Z_FINISH);
	sym_deflateEnd(&z);
	if (r != Z_STREAM_END) {
		free(buf);
		snprintf(why, sz, "deflate: %d", r);
		return -1;
	}
	*out = buf;
	*outn = cap - z.avail_out;
	return 0;
}

int ft_gunzip(const char *in, size_t n, size_t max, char **out, size_t *outn, char *why, size_t sz)
{
	z_stream z = { 0 };
	size_t cap = 64 * 1024, len = 0;
	char *buf = NULL;
	int r;

	*out = NULL;
	*outn = 0;
	if (load(why, sz))
		return -1;
	if (n > 0x7fffffffu || max > 0x7fffffffu) {
		snprintf(why, sz, "%zu bytes: too large", n);
		return -1;
	}
	if (sym_inflateInit2_(&z, GZIP_WBITS, ZLIB_VERSION, (int)sizeof(z)) != Z_OK) {
		snprintf(why, sz, "inflateInit2: %s", z.msg ? z.msg : "out of memory");
		return -1;
	}
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	do {
		char *nb;

		if (cap > max + 1)
			cap = max + 1;
		nb = realloc(buf, cap);
		if (!nb) {
			snprintf(why, sz, "out of memory for %zu bytes", cap);
			r = Z_MEM_ERROR;
			break;
		}
		buf = nb;
		z.next_out = (Bytef *)buf + len;
		z.avail_out = (uInt)(cap - 1 - len);	/* room for the NUL */
		r = sym_inflate(&z, Z_NO_FLUSH);
		len = cap - 1 - z.avail_out;
		if (r == Z_STREAM_END)
			break;
		if (r != Z_OK && r != Z_BUF_ERROR) {
			snprintf(why, sz, "not a gzip stream: %s", z.msg ? z.msg : "corrupt");
			break;
		}
		if (z.avail_out) {	/* input ended before the stream */
			snprintf(why, sz, "the gzip stream is cut short");
			r = Z_DATA_ERROR;
			break;
		}
		if (cap > max) {
			snprintf(why, sz, "longer than %zu bytes", max);
			r = Z_BUF_ERROR;
			break;
		}
		cap *= 2;
	} while (1);
	sym_inflateEnd(&z);
	if (r != Z_STREAM_END) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	*out = buf;
	*outn = len;
	return 0;
}
