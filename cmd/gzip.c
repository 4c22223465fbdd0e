// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/gzip.h"

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

/* libz.so.1 once: 0 loaded, -1 not (why kept and said again). */
static int load(char *why, size_t sz)
{
	static int state;	/* 0 not tried, 1 loaded, -1 failed */
	static char saved[256];
	void *h;

	if (!state) {
		h = dlopen(FT_ZLIB, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			snprintf(saved, sizeof(saved), "cannot load %s (Debian: zlib1g): %s", FT_ZLIB, dlerror());
			state = -1;
		} else if (!(*(void **)&sym_deflateInit2_ = dlsym(h, "deflateInit2_")) ||
			   !(*(void **)&sym_deflate = dlsym(h, "deflate")) ||
			   !(*(void **)&sym_deflateEnd = dlsym(h, "deflateEnd")) ||
			   !(*(void **)&sym_deflateBound = dlsym(h, "deflateBound"))) {
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
	if (sym_deflateInit2_(&z, GZIP_LEVEL, Z_DEFLATED, GZIP_WBITS, GZIP_MEMLEVEL, Z_DEFAULT_STRATEGY,
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
