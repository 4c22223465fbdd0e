// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/text.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

bool ft_line_next(struct ft_cursor *c, struct ft_span *line)
{
	const char *nl;

	if (c->p >= c->end)
		return false;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	line->p = c->p;
	if (nl) {
		line->len = (size_t)(nl - c->p);
		c->p = nl + 1;
	} else {
		line->len = (size_t)(c->end - c->p);
		c->p = c->end;
	}
	return true;
}

bool ft_tok_next(struct ft_span *line, struct ft_span *tok)
{
	const char *p = line->p, *end = line->p + line->len;

	while (p < end && is_blank(*p))
		p++;
	if (p == end) {
		line->p = end;
		line->len = 0;
		return false;
	}
	tok->p = p;
	while (p < end && !is_blank(*p))
		p++;
	tok->len = (size_t)(p - tok->p);
	line->p = p;
	line->len = (size_t)(end - p);
	return true;
}

size_t ft_span_indent(const struct ft_span *line)
{
	size_t i = 0;

	while (i < line->len && is_blank(line->p[i]))
		i++;
	return i;
}

bool ft_span_eq(const struct ft_span *s, const char *str)
{
	size_t n = strlen(str);

	return s->len == n && memcmp(s->p, str, n) == 0;
}

bool ft_span_starts(const struct ft_span *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return s->len >= n && memcmp(s->p, prefix, n) == 0;
}

struct ft_span ft_span_trim(struct ft_span s)
{
	while (s.len && (is_blank(*s.p) || *s.p == '\n')) {
		s.p++;
		s.len--;
	}
	while (s.len && (is_blank(s.p[s.len - 1]) || s.p[s.len - 1] == '\n'))
		s.len--;
	return s;
}

struct ft_span ft_span_chop(struct ft_span s, char ch)
{
	if (s.len && s.p[s.len - 1] == ch)
		s.len--;
	return s;
}

int ft_span_u64(const struct ft_span *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!s->len)
		return -EINVAL;
	for (i = 0; i < s->len; i++) {
		unsigned int d = (unsigned char)s->p[i] - '0';

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int ft_span_i64(const struct ft_span *s, int64_t *out)
{
	struct ft_span digits = *s;
	bool neg = false;
	uint64_t v;
	int err;

	if (digits.len && digits.p[0] == '-') {
		neg = true;
		digits.p++;
		digits.len--;
	}
	err = ft_span_u64(&digits, &v);
	if (err)
		return err;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > INT64_MAX)
			return -ERANGE;
		*out = (int64_t)v;
	}
	return 0;
}

int ft_span_copy(const struct ft_span *s, char *dst, size_t dstsz)
{
	if (s->len >= dstsz)
		return -ENAMETOOLONG;
	memcpy(dst, s->p, s->len);
	memset(dst + s->len, 0, dstsz - s->len);
	return 0;
}

void ft_text_kv(const char *text, size_t len, const char *key, char *out, size_t sz)
{
	size_t kl = strlen(key);
	const char *p = text, *end = text + len;

	if (sz)
		out[0] = '\0';
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (ll > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(out, sz, "%.*s", (int)(ll - kl - 1), p + kl + 1);
			return;
		}
		if (!nl)
			return;
		p = nl + 1;
	}
}

size_t ft_wrap_take(const char *text, size_t n, size_t room)
{
	size_t cut;

	if (n <= room)
		return n;
	for (cut = room; cut > 0 && text[cut] != ' '; cut--)
		;
	return cut ? cut : room;
}

size_t ft_wrap_skip(const char *text, size_t n, size_t at)
{
	while (at < n && text[at] == ' ')
		at++;
	return at;
}
