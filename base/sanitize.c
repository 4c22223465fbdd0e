// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/sanitize.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool ft_cp_unsafe(uint32_t cp)
{
	if (cp < 0x20)
		return cp != '\n' && cp != '\t';
	if (cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
		return true;
	/* bidirectional controls: marks, embeddings, overrides, isolates */
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

int ft_utf8_next(const unsigned char *p, size_t len, uint32_t *cp)
{
	uint32_t c, min;
	int n, i;

	if (!len)
		return 0;
	c = p[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return -1;	/* a continuation byte, 0xc0/0xc1 (overlong), past 0xf4 */
	}
	for (i = 1; i < n; i++) {
		if ((size_t)i >= len)
			return 0;
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*cp = c;
	return n;
}

/* The escape of @p's first character (or byte) into @esc; its length. */
static size_t escape(const unsigned char *p, int n, uint32_t cp, char esc[16])
{
	if (n < 0 || cp < 0x80)
		return (size_t)snprintf(esc, 16, "\\x%02x", p[0]);
	return (size_t)snprintf(esc, 16, "\\u{%04x}", (unsigned int)cp);
}

/* @line: one line of output (a field, a screen row): a newline and a tab escaped too. */
static size_t sanitize(const char *in, size_t len, char *out, size_t sz, bool line)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t i = 0, o = 0;

	if (!sz)
		return 0;
	while (i < len) {
		uint32_t cp = 0;
		int n = ft_utf8_next(p + i, len - i, &cp);
		char esc[16];
		const char *piece;
		size_t pl;

		if (n <= 0) {		/* invalid, or cut at the end: the byte escaped */
			pl = escape(p + i, -1, 0, esc);
			piece = esc;
			n = 1;
		} else if (ft_cp_unsafe(cp) || (line && (cp == '\n' || cp == '\t'))) {
			pl = escape(p + i, n, cp, esc);
			piece = esc;
		} else {
			piece = (const char *)p + i;
			pl = (size_t)n;
		}
		if (o + pl >= sz)
			break;
		memcpy(out + o, piece, pl);
		o += pl;
		i += (size_t)n;
	}
	out[o] = '\0';
	return o;
}

size_t ft_sanitize(const char *in, size_t len, char *out, size_t sz)
{
	return sanitize(in, len, out, sz, false);
}

size_t ft_sanitize_line(const char *in, size_t len, char *out, size_t sz)
{
	return sanitize(in, len, out, sz, true);
}

const char *ft_safe(const char *s, char *buf, size_t sz)
{
	ft_sanitize_line(s, strlen(s), buf, sz);
	return buf;
}

/* ---- a sanitising stdout ---- */

struct stream {
	int fd;
	unsigned char carry[4];	/* a character cut by the buffer's edge */
	size_t nc;
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
	struct stream *s = cookie;
	char out[4096 * 4 + 64];
	size_t i = 0, o = 0;

	while (i < size || s->nc) {
		unsigned char tmp[8];
		const unsigned char *p;
		size_t avail;
		uint32_t cp = 0;
		int n;

		/* a character cut at the previous call's end comes first */
		if (s->nc) {
			size_t take = size - i < 4 ? size - i : 4;

			memcpy(tmp, s->carry, s->nc);
			memcpy(tmp + s->nc, buf + i, take);
			n = ft_utf8_next(tmp, s->nc + take, &cp);
			if (n == 0 && i + take == size && s->nc + take < 4) {
				memcpy(s->carry + s->nc, buf + i, take);	/* still cut */
				s->nc += take;
				i = size;
				break;
			}
			p = tmp;
			avail = s->nc + take;
		} else {
			p = (const unsigned char *)buf + i;
			avail = size - i;
			n = ft_utf8_next(p, avail, &cp);
			if (n == 0) {	/* cut by the buffer: keep it for the next call */
				memcpy(s->carry, p, avail);
				s->nc = avail;
				i = size;
				break;
			}
		}
		{
			char esc[16];
			const char *piece;
			size_t pl, used;

			if (n <= 0) {
				pl = escape(p, -1, 0, esc);
				piece = esc;
				used = 1;
			} else if (ft_cp_unsafe(cp)) {
				pl = escape(p, n, cp, esc);
				piece = esc;
				used = (size_t)n;
			} else {
				piece = (const char *)p;
				pl = used = (size_t)n;
			}
			memcpy(out + o, piece, pl);
			o += pl;
			if (s->nc) {
				/* bytes of this call that the character used */
				size_t from_buf = used > s->nc ? used - s->nc : 0;

				if (used < s->nc) {	/* only carried bytes: shift them */
					memmove(s->carry, s->carry + used, s->nc - used);
					s->nc -= used;
				} else {
					s->nc = 0;
					i += from_buf;
				}
			} else {
				i += used;
			}
		}
		if (o > sizeof(out) - 64) {
			if (write_all(s->fd, out, o))
				return -1;
			o = 0;
		}
	}
	if (o && write_all(s->fd, out, o))
		return -1;
	return (ssize_t)size;
}

static int stream_close(void *cookie)
{
	struct stream *s = cookie;
	int err = 0;

	if (s->nc) {	/* a character never finished: its bytes escaped */
		char out[64];
		size_t o = 0, k;

		for (k = 0; k < s->nc; k++)
			o += (size_t)snprintf(out + o, sizeof(out) - o, "\\x%02x", s->carry[k]);
		err = write_all(s->fd, out, o);
	}
	free(s);
	return err;
}

int ft_sanitize_stream(FILE **f)
{
	cookie_io_functions_t io = { .write = stream_write, .close = stream_close };
	struct stream *s;
	FILE *nf;

	if (fflush(*f))
		return -errno;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = fileno(*f);
	nf = fopencookie(s, "w", io);
	if (!nf) {
		free(s);
		return -errno;
	}
	setvbuf(nf, NULL, _IOFBF, 4096);
	*f = nf;
	return 0;
}
